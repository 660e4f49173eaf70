/* bubblesort.ks as a C programmer writes it: int indices, the size a #define. */
#include <math.h>
#include <stdio.h>
#define N 12000
static double v[N];
int main(void) {
  double s = 11;
  for (int i = 0; i < N; i++) {
    s = fmod(s * 48271, 2147483647.0);
    v[i] = s;
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N - 1 - i; j++)
      if (v[j + 1] < v[j]) {
        double t = v[j];
        v[j] = v[j + 1];
        v[j + 1] = t;
      }
  printf("%.17g\n%.17g\n", v[0], v[N - 1]);
  return 0;
}
