#include <stdio.h>
int main(void) { printf("%.17g\n", 1.0 + 2.0); return 0; }
