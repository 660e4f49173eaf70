/* A stable sort that takes advantage of runs already in order, with qsort's interface.
 *
 * The release tool links it in place of the C library's qsort (`--wrap=qsort`): the first
 * time LLVM's x86 code generator hoists a constant load out of a loop, it sorts its
 * memory-unfolding table with array_pod_sort, that is qsort. The entries arrive as a few
 * long runs already in order, which glibc's merge sort ignores and this sort merges
 * (build-support/README.md). */
#ifndef CSORT_H
#define CSORT_H

#include <stddef.h>

/* Sorts `count` elements of `size` bytes at `base` into the order `compare` defines (as
 * qsort's comparison function), keeping equal elements in their original order. Uses
 * O(count log runs) comparisons, where runs is the number of ascending or strictly
 * descending runs in the input, and a buffer the size of the array (an insertion sort if it
 * cannot be allocated). */
void ks_sort(void *base, size_t count, size_t size, int (*compare)(const void *, const void *));

#endif
