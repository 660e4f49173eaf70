/* The Kaleidoscope runtime: output, value printing and fault handling, shared by the JIT
 * (linked into the tool) and native executables (compiled from runtime.c's text, which
 * runtime_source.c carries). */
#ifndef KALEIDOSCOPE_RUNTIME_H
#define KALEIDOSCOPE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

/* How many calls of the program's own functions may be in progress at once (SPEC §3), and
 * the stack every engine runs a program on, which holds that many in each of them. */
#define KS_CALL_DEPTH_LIMIT 100000
#define KS_STACK_SIZE (512 << 20)

/* Runs entry() (an executable's, or the JIT's, top-level code) on KS_STACK_SIZE bytes of
 * stack of its own with the fault handlers installed, then flushes the output. */
void ks_run_main(void (*entry)(void));

/* For compiled code: the located error of a call that would go deeper than
 * KS_CALL_DEPTH_LIMIT; stops as a fault does. `site` is "FILE:LINE:COL". */
void ks_call_depth_error(const char *site) __attribute__((noreturn));
/* The same, for a check in a function of the program: it never returns either, but is
 * typed as that function's result so the check can end the function in a tail call, which
 * keeps the function's stack frame off the path that makes no call. */
double ks_call_depth_error_as_result(const char *site) __attribute__((noreturn));
/* Its one-line message, as snprintf writes it, for the interpreter. */
int ks_describe_call_depth_error(char *buffer, size_t size, const char *site);

/* Writes the byte c to standard output; returns 0. */
double putchard(double c);
/* Writes x in the value format and a newline; returns 0. */
double printd(double x);

/* Writes a top-level expression's value on a line of its own: after a newline if the output
 * so far does not end a line, and followed by one. */
void ks_print_value(double x);
/* Formats x in the value format (SPEC §4) into buffer (at least 32 bytes); returns the length. */
int ks_format_value(double x, char *buffer, size_t size);
/* Writes all buffered output. */
void ks_flush(void);
/* How many bytes the program has written to standard output so far (a trace's steps say
 * how much of the output came before them). */
uint64_t ks_output_count(void);

/* When the program first wrote to standard output (CLOCK_MONOTONIC, nanoseconds), or 0. */
uint64_t ks_first_output_time(void);
/* Reports a call to an extern that resolved to nothing, at ks_call_site (which compiled
 * code sets before such a call), then exits with status 1, or inside ks_run_protected ends
 * the running code as a fault does. */
void ks_unresolved_extern(const char *name);
/* The message of that error at `site` ("FILE:LINE:COL", or NULL), for every engine. */
int ks_describe_unresolved_extern(char *buffer, size_t size, const char *site, const char *name);

/* The one-line message for a fatal signal: "stack overflow" when the faulting address is
 * near the faulting stack pointer, otherwise what the signal means. (Exposed for tests.) */
const char *ks_fault_message(int signal, uintptr_t address, uintptr_t stack_pointer);

/* Installs the fault handlers (stack overflow and other fatal signals end with a one-line
 * error and exit status 1) and an alternate signal stack for the calling thread. */
void ks_runtime_init(void);

/* Runs entry() with fault recovery: returns 0 when it finished, 1 after a fault (the
 * message has been printed), for the REPL, which carries on. */
int ks_run_protected(void (*entry)(void));
/* One call with the same recovery, for the REPL's interpreter, whose own frames must not be
 * jumped over: 0 and the value in *result when it returned, 1 after an error (reported).
 * A compiled entry point `double entry(double *cells, int32_t depth)`; or a C function of `count`
 * (at most 8) doubles. */
int ks_call_entry_protected(double (*entry)(double *, int32_t), double *cells, int32_t depth, double *result);
int ks_call_extern_protected(void *function, const double *arguments, int count, double *result);

/* Makes SIGINT (Ctrl-C) stop code running under ks_run_protected, with the message
 * "interrupted", or else be recorded for ks_take_interrupt. For the REPL. */
void ks_catch_interrupts(void);
/* Whether SIGINT arrived since the last call (outside running code); clears it. */
int ks_take_interrupt(void);

/* Arrays: `count` zero-filled doubles, or NULL when memory runs out; the same for a global
 * array, placed apart from every other array; and their release. */
double *ks_array_new(uint64_t count);
double *ks_array_new_apart(uint64_t count);
void ks_array_free(double *elements);

/* The located runtime errors of arrays (SPEC §5). */
enum {
  KS_INDEX_NOT_WHOLE = 0,     /* value: the index */
  KS_INDEX_OUT_OF_BOUNDS = 1, /* value: the index; length: the array's */
  KS_BAD_SIZE = 2,            /* value: the size asked for */
  KS_OUT_OF_MEMORY = 3,       /* value: the size asked for */
};
/* Writes the one-line message ("SITE: runtime error: ...\n") for an error of `kind` into
 * buffer, as snprintf does; every engine's message comes from here. */
int ks_describe_array_error(char *buffer, size_t size, int kind, const char *site, const char *name, double value,
                            uint64_t length);
/* Reports an error of `kind` and stops as a fault does. `site_and_name` is "FILE:LINE:COL",
 * a NUL, then the array's name. */
void ks_array_error(int kind, const char *site_and_name, double value, uint64_t length) __attribute__((noreturn));

/* For compiled code: a new array of `size` zeros, after checking that the size is a whole
 * number from 0 to 2^32-1 (else the located error, as ks_array_error). */
double *ks_array_make(double size, const char *site_and_name);
/* The same for a global array (ks_array_new_apart). */
double *ks_array_make_apart(double size, const char *site_and_name);
/* For compiled code: the located error for an index that is not a whole number or is out of
 * bounds; stops as ks_array_error. */
void ks_index_error(const char *site_and_name, double index, uint64_t length) __attribute__((noreturn));

/* The next byte of standard input, or -1 at its end. */
double getchard(void);
/* The next whitespace-separated number on standard input; at its end, or on a word that is
 * not a number, a runtime error. */
double readd(void);

/* Where the program calls an extern that may fail or fault, "FILE:LINE:COL": the caller
 * sets it just before such a call and clears it after (HostLibrary.reportsAtCallSite), so
 * that the error, or the fault handler's message, names the place as an array error does.
 * NULL otherwise. */
extern const char *ks_call_site;
void ks_set_call_site(const char *site);

/* The address of the caller's frame on the machine stack. Unlike the address of a Swift
 * local, which AddressSanitizer may move to a heap "fake stack", this is where the stack
 * really is: the interpreter's overflow check measures with it. */
const void *ks_stack_address(void);

/* Tiered execution: a slot of the table of compiled entry points, read by the interpreter and
 * written by the compiler thread (acquire / release). */
void *ks_tier_load_entry(void *const *slot);
void ks_tier_store_entry(void **slot, void *entry);

/* The text of runtime.c and of this header, for compiling the runtime into executables. */
const char *ks_runtime_source(void);
const char *ks_runtime_header(void);

#endif
