/* Tiered execution: the table of compiled entry points that the compiler thread fills while
 * the interpreter reads it (see the header). */
#include "KaleidoscopeRuntime.h"

void *ks_tier_load_entry(void *const *slot) {
  return __atomic_load_n(slot, __ATOMIC_ACQUIRE);
}

void ks_tier_store_entry(void **slot, void *entry) {
  __atomic_store_n(slot, entry, __ATOMIC_RELEASE);
}
