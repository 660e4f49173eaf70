#include <stdio.h>
static double loop(double n) {
  double s = 0;
  for (double i = 0; i < n; i = i + 1) s = s + i * 0.5;
  return s;
}
int main(void) { printf("%.17g\n", loop(200000000)); return 0; }
