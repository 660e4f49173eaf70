/* mandelbrot-array.ks as a C programmer writes it. */
#include <stdio.h>
#define W 1000
#define H 750
#define LIMIT 200
static int counts[W * H];
static int escape(double cr, double ci) {
  double zr = 0, zi = 0;
  int n = 0;
  while (n < LIMIT && zr * zr + zi * zi < 4) {
    double t = zr * zr - zi * zi + cr;
    zi = 2 * zr * zi + ci;
    zr = t;
    n++;
  }
  return n;
}
int main(void) {
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) counts[y * W + x] = escape(-2.5 + 3.5 * x / W, -1.25 + 2.5 * y / H);
  long total = 0;
  for (int i = 0; i < W * H; i++) total += counts[i];
  printf("%ld\n", total);
  return 0;
}
