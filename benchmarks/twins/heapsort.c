#include <math.h>
#include <stdio.h>
/* heapsort.ks in C: a global array of doubles, indexed by doubles converted to integers. */
static double numbers[3000000];
static const double count = 3000000;

static void fill(double seed) {
  for (double i = 0; i < count; i = i + 1) {
    seed = fmod(seed * 16807, 2147483647);
    numbers[(long)i] = seed;
  }
}

static void swap(double i, double j) {
  double t = numbers[(long)i];
  numbers[(long)i] = numbers[(long)j];
  numbers[(long)j] = t;
}

static void siftDown(double i, double n) {
  double child = 2 * i + 1;
  if (child < n) {
    if (child + 1 < n && numbers[(long)child] < numbers[(long)(child + 1)]) child = child + 1;
    if (numbers[(long)i] < numbers[(long)child]) {
      swap(i, child);
      siftDown(child, n);
    }
  }
}

static void heapSort(double n) {
  for (double parent = floor(n / 2) - 1; -1 < parent; parent = parent - 1) siftDown(parent, n);
  for (double end = n - 1; 0 < end; end = end - 1) {
    swap(0, end);
    siftDown(0, end);
  }
}

int main(void) {
  fill(42);
  heapSort(count);
  printf("0\n%.0f\n%.0f\n%.0f\n", numbers[0], numbers[1500000], numbers[2999999]);
  return 0;
}
