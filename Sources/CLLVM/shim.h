// The parts of LLVM's C API the back end uses.
#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Error.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/ExecutionEngine.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/OrcEE.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

// The static constructors of the targets other than the host's, which
// build-support/lazy-targets.sh moves into the section `ks_lazy_init` so that the loader
// leaves them alone. The linker defines the section's bounds only when it exists; without
// the copies both are null and there is nothing to run.
typedef void (*ks_lazy_constructor)(void);
extern ks_lazy_constructor __start_ks_lazy_init[] __attribute__((weak));
extern ks_lazy_constructor __stop_ks_lazy_init[] __attribute__((weak));

// Runs those constructors, in link order, as the loader would have. Call once, before the
// first use of any of those targets.
static inline void ks_run_lazy_target_constructors(void) {
  if (!__start_ks_lazy_init) return;
  for (ks_lazy_constructor *constructor = __start_ks_lazy_init; constructor < __stop_ks_lazy_init; constructor++)
    (*constructor)();
}
