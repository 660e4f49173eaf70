#include <stdio.h>
#include <stdlib.h>
/* sieve.ks in C: an array of doubles, indexed by doubles converted to integers. */
static double sieve(double n) {
  double *composite = calloc((size_t)n, sizeof(double));
  double count = 0;
  for (double i = 2; i < n; i = i + 1) {
    if (composite[(long)i] != 0) continue;
    count = count + 1;
    for (double j = i * i; j < n; j = j + i) composite[(long)j] = 1;
  }
  free(composite);
  return count;
}
int main(void) { printf("%.0f\n", sieve(20000000)); return 0; }
