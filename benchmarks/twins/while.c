/* while.ks as a C programmer writes it: a while loop with an integer count. */
#include <stdio.h>
static double count(double n) {
  double s = 0;
  long i = 0;
  while (i < n) {
    s = s + i * 0.5;
    i++;
  }
  return s;
}
int main(void) { printf("%.17g\n", count(200000000)); return 0; }
