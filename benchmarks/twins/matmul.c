/* matmul.ks as a C programmer writes it: int indices, the size a #define. */
#include <stdio.h>
#define N 600
static double a[N * N], b[N * N], c[N * N];
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i * N + j] = (double)(i + j) / N;
      b[i * N + j] = (double)(i - j) / N;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0;
      for (int k = 0; k < N; k++) s += a[i * N + k] * b[k * N + j];
      c[i * N + j] = s;
    }
  double s = 0;
  for (int i = 0; i < N * N; i++) s += c[i];
  printf("%.17g\n", s);
  return 0;
}
