/* insertion.ks as a C programmer writes it: int indices, the size a #define. */
#include <math.h>
#include <stdio.h>
#define N 30000
static double a[N];
int main(void) {
  double s = 42;
  for (int i = 0; i < N; i++) {
    s = fmod(s * 1103515245 + 12345, 2147483648.0);
    a[i] = fmod(s, 100000);
  }
  for (int i = 1; i < N; i++) {
    double key = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > key) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = key;
  }
  int bad = 0;
  for (int i = 1; i < N; i++)
    if (a[i] < a[i - 1]) bad++;
  printf("%d\n%.17g\n%.17g\n", bad, a[0], a[N - 1]);
  return 0;
}
