/* The machine stack's position, for the interpreter's overflow check (see the header). */
#include "KaleidoscopeRuntime.h"

__attribute__((noinline)) const void *ks_stack_address(void) {
  return __builtin_frame_address(0);
}
