/* spectral-norm.ks as a C programmer writes it. */
#include <math.h>
#include <stdio.h>
#define N 1500
static double u[N], v[N], t[N];
static double a(int i, int j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }
static void multiplyAv(const double *x, double *y) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < N; j++) s += a(i, j) * x[j];
    y[i] = s;
  }
}
static void multiplyAtv(const double *x, double *y) {
  for (int i = 0; i < N; i++) {
    double s = 0;
    for (int j = 0; j < N; j++) s += a(j, i) * x[j];
    y[i] = s;
  }
}
static void multiplyAtAv(const double *x, double *y) { multiplyAv(x, t); multiplyAtv(t, y); }
int main(void) {
  for (int i = 0; i < N; i++) u[i] = 1;
  for (int round = 0; round < 10; round++) { multiplyAtAv(u, v); multiplyAtAv(v, u); }
  double uv = 0, vv = 0;
  for (int i = 0; i < N; i++) { uv += u[i] * v[i]; vv += v[i] * v[i]; }
  printf("%.17g\n", sqrt(uv / vv));
  return 0;
}
