/* A natural merge sort (see the header). */
#include "CSort.h"

#include <stdlib.h>
#include <string.h>

typedef int (*Compare)(const void *, const void *);

/* Runs shorter than this are extended by insertion before merging. */
enum { MINIMUM_RUN = 16 };

/* The address of element `index`. */
static char *element(const void *base, size_t index, size_t size) {
  return (char *)base + index * size;
}

/* Reverses `count` elements in place; `scratch` holds one element. */
static void reverse(char *base, size_t count, size_t size, char *scratch) {
  for (size_t low = 0, high = count - 1; low < high; low++, high--) {
    memcpy(scratch, element(base, low, size), size);
    memcpy(element(base, low, size), element(base, high, size), size);
    memcpy(element(base, high, size), scratch, size);
  }
}

/* A stable sort needing no memory, for when none can be allocated: adjacent exchanges. */
static void exchange_sort(char *base, size_t count, size_t size, Compare compare) {
  for (size_t next = 1; next < count; next++)
    for (size_t i = next; i > 0 && compare(element(base, i - 1, size), element(base, i, size)) > 0; i--)
      for (size_t byte = 0; byte < size; byte++) {
        char saved = element(base, i - 1, size)[byte];
        element(base, i - 1, size)[byte] = element(base, i, size)[byte];
        element(base, i, size)[byte] = saved;
      }
}

/* Inserts elements [sorted, count) one by one into the sorted prefix [0, sorted), each after
 * the elements equal to it (stable). */
static void insertion_sort(char *base, size_t sorted, size_t count, size_t size, Compare compare, char *scratch) {
  for (size_t next = sorted; next < count; next++) {
    size_t low = 0, high = next;
    while (low < high) {
      size_t middle = low + (high - low) / 2;
      if (compare(element(base, next, size), element(base, middle, size)) < 0) high = middle;
      else low = middle + 1;
    }
    if (low == next) continue;
    memcpy(scratch, element(base, next, size), size);
    memmove(element(base, low + 1, size), element(base, low, size), (next - low) * size);
    memcpy(element(base, low, size), scratch, size);
  }
}

/* The end of the run starting at `start` (ascending, or strictly descending and then
 * reversed), extended to MINIMUM_RUN elements when it is shorter. */
static size_t run_end(char *base, size_t start, size_t count, size_t size, Compare compare, char *scratch) {
  size_t end = start + 1;
  if (end < count && compare(element(base, end, size), element(base, start, size)) < 0) {
    while (end + 1 < count && compare(element(base, end + 1, size), element(base, end, size)) < 0) end++;
    end++;
    reverse(element(base, start, size), end - start, size, scratch);
  } else {
    while (end < count && compare(element(base, end, size), element(base, end - 1, size)) >= 0) end++;
  }
  size_t minimum = count - start < MINIMUM_RUN ? count : start + MINIMUM_RUN;
  if (end < minimum) {
    insertion_sort(element(base, start, size), end - start, minimum - start, size, compare, scratch);
    end = minimum;
  }
  return end;
}

/* Merges the sorted runs a[0, na) and b[0, nb) into `out`, equal elements from `a` first.
 * Consecutive elements taken from one side are copied as one block. */
static void merge(const char *a, size_t na, const char *b, size_t nb, char *out, size_t size, Compare compare) {
  size_t i = 0, j = 0;
  if (na > 0 && nb > 0 && compare(element(a, na - 1, size), b) > 0) {
    while (i < na && j < nb) {
      size_t k;
      if (compare(element(b, j, size), element(a, i, size)) < 0) {
        for (k = j + 1; k < nb && compare(element(b, k, size), element(a, i, size)) < 0; k++) {}
        memcpy(out, element(b, j, size), (k - j) * size);
        out += (k - j) * size;
        j = k;
      } else {
        for (k = i + 1; k < na && compare(element(a, k, size), element(b, j, size)) <= 0; k++) {}
        memcpy(out, element(a, i, size), (k - i) * size);
        out += (k - i) * size;
        i = k;
      }
    }
  }
  memcpy(out, element(a, i, size), (na - i) * size);
  out += (na - i) * size;
  memcpy(out, element(b, j, size), (nb - j) * size);
}

/* Merges neighbouring runs pairwise from `source` into `target`; `starts` holds the runs'
 * first indices followed by `count`, and is updated. Returns the new number of runs. */
static size_t merge_pass(const char *source, char *target, size_t *starts, size_t runs, size_t count, size_t size,
                         Compare compare) {
  size_t merged = 0;
  for (size_t run = 0; run < runs; run += 2) {
    size_t first = starts[run], middle = starts[run + 1];
    if (run + 1 < runs) {
      size_t last = starts[run + 2];
      merge(element(source, first, size), middle - first, element(source, middle, size), last - middle,
            element(target, first, size), size, compare);
    } else {
      memcpy(element(target, first, size), element(source, first, size), (middle - first) * size);
    }
    starts[merged++] = first;
  }
  starts[merged] = count;
  return merged;
}

/* Sorts more than MINIMUM_RUN elements: finds the runs, then merges them pairwise, back and
 * forth between `base` and a buffer of the same size. */
static void merge_sort(char *base, size_t count, size_t size, Compare compare, char *scratch) {
  size_t *starts = malloc((count / MINIMUM_RUN + 2) * sizeof *starts);
  char *buffer = malloc(count * size);
  if (!starts || !buffer) {
    insertion_sort(base, 1, count, size, compare, scratch);
  } else {
    size_t runs = 0;
    for (size_t start = 0; start < count; start = run_end(base, start, count, size, compare, scratch))
      starts[runs++] = start;
    starts[runs] = count;
    char *source = base, *target = buffer;
    while (runs > 1) {
      runs = merge_pass(source, target, starts, runs, count, size, compare);
      char *swap = source;
      source = target;
      target = swap;
    }
    if (source != base) memcpy(base, source, count * size);
  }
  free(buffer);
  free(starts);
}

void ks_sort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *)) {
  if (count < 2 || size == 0) return;
  /* Most of LLVM's sorts are of a few small elements: no allocation for those. */
  char local_scratch[64];
  char *scratch = size <= sizeof local_scratch ? local_scratch : malloc(size);
  if (!scratch) {
    exchange_sort(base, count, size, compare);
    return;
  }
  if (count <= MINIMUM_RUN) {
    insertion_sort(base, 1, count, size, compare, scratch);
  } else {
    merge_sort(base, count, size, compare, scratch);
  }
  if (scratch != local_scratch) free(scratch);
}

/* What calls to qsort reach in an executable linked with `--wrap=qsort`. */
void __wrap_qsort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *));
void __wrap_qsort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *)) {
  ks_sort(base, count, size, compare);
}
