/* Carries the text of runtime.c and its header into the tool, so `kaleidoscope build` can
 * compile the runtime into every executable without installing any file next to the binary. */
#include "KaleidoscopeRuntime.h"

static const char text[] = {
#embed "runtime.c"
  , 0
};

static const char header[] = {
#embed "include/KaleidoscopeRuntime.h"
  , 0
};

const char *ks_runtime_source(void) { return text; }

const char *ks_runtime_header(void) { return header; }
