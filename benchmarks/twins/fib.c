#include <stdio.h>
static double fib(double x) { return x < 3 ? 1 : fib(x - 1) + fib(x - 2); }
int main(void) { printf("%.0f\n", fib(40)); return 0; }
