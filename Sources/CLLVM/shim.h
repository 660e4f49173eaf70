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

// LLVM's static constructors, which build-support/lazy-llvm.sh moves out of `.init_array` so
// that the loader leaves them alone: the other targets' into `ks_lazy_init`, the rest into
// `ks_llvm_init`. The linker defines a section's bounds only when it exists; without the
// copies they are null and there is nothing to run.
typedef void (*ks_lazy_constructor)(void);
extern ks_lazy_constructor __start_ks_llvm_init[] __attribute__((weak));
extern ks_lazy_constructor __stop_ks_llvm_init[] __attribute__((weak));
extern ks_lazy_constructor __start_ks_lazy_init[] __attribute__((weak));
extern ks_lazy_constructor __stop_ks_lazy_init[] __attribute__((weak));

static inline void ks_run_constructors(ks_lazy_constructor *start, ks_lazy_constructor *stop) {
  if (!start) return;
  for (ks_lazy_constructor *constructor = start; constructor < stop; constructor++) (*constructor)();
}

// Runs LLVM's own constructors (the host's target included), in link order, as the loader
// would have. Call once, before any other use of LLVM.
static inline void ks_run_llvm_constructors(void) { ks_run_constructors(__start_ks_llvm_init, __stop_ks_llvm_init); }

// Runs the other targets' constructors. Call once, after `ks_run_llvm_constructors` and
// before the first use of any of those targets.
static inline void ks_run_lazy_target_constructors(void) {
  ks_run_constructors(__start_ks_lazy_init, __stop_ks_lazy_init);
}
