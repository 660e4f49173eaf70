/* fannkuch.ks as a C programmer writes it (after the benchmarks game's simple C program). */
#include <stdio.h>
#define N 10
int main(void) {
  int perm[N], perm1[N], count[N];
  int maxFlips = 0, checksum = 0, sign = 1, r = N;
  for (int i = 0; i < N; i++) perm1[i] = i;
  for (;;) {
    while (r != 1) { count[r - 1] = r; r--; }
    for (int i = 0; i < N; i++) perm[i] = perm1[i];
    int flips = 0;
    for (int k = perm[0]; k != 0; k = perm[0]) {
      for (int i = 0, j = k; i < j; i++, j--) { int t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
      flips++;
    }
    if (flips > maxFlips) maxFlips = flips;
    checksum += sign * flips;
    sign = -sign;
    for (;;) {
      if (r == N) { printf("%d\n%d\n", checksum, maxFlips); return 0; }
      int first = perm1[0];
      for (int i = 0; i < r; i++) perm1[i] = perm1[i + 1];
      perm1[r] = first;
      if (--count[r] > 0) break;
      r++;
    }
  }
}
