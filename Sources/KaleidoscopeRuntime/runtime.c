/* The Kaleidoscope runtime. Everything a compiled program calls, and what makes faults end
 * in a one-line error instead of a signal. The same text is compiled into native executables
 * by `kaleidoscope build`, so it depends on nothing but libc. */
#define _GNU_SOURCE
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "KaleidoscopeRuntime.h"

/* Output goes through one buffer so that putchard, printd and printed values interleave in
 * program order, and so the fault handler can flush it with write(2), which is safe there. */
static char ks_output[1 << 16];
static size_t ks_output_length;
static int ks_output_is_terminal = -1;
/* Whether the last byte written to standard output ended a line (or nothing was written). */
static int ks_output_at_line_start = 1;

static void ks_write_all(int fd, const char *data, size_t length) {
  while (length > 0) {
    ssize_t written = write(fd, data, length);
    if (written <= 0) return;
    data += written;
    length -= (size_t)written;
  }
}

void ks_flush(void) {
  ks_write_all(1, ks_output, ks_output_length);
  ks_output_length = 0;
}

/* When the program first wrote anything (CLOCK_MONOTONIC, ns; 0: not yet), for `run --stats`. */
static uint64_t ks_first_output;

uint64_t ks_first_output_time(void) { return ks_first_output; }

/* How many bytes the program has written to standard output, buffered or not. */
static uint64_t ks_output_total;

uint64_t ks_output_count(void) { return ks_output_total; }

static void ks_put(const char *data, size_t length) {
  if (length == 0) return;
  ks_output_total += length;
  if (!ks_first_output) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    ks_first_output = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
  }
  ks_output_at_line_start = data[length - 1] == '\n';
  if (ks_output_length + length > sizeof ks_output) ks_flush();
  if (length > sizeof ks_output) {
    ks_write_all(1, data, length);
    return;
  }
  memcpy(ks_output + ks_output_length, data, length);
  ks_output_length += length;
  if (ks_output_is_terminal < 0) ks_output_is_terminal = isatty(1);
  /* Line-buffered on a terminal, as people expect to see each line when it is written. */
  if (ks_output_is_terminal && memchr(data, '\n', length)) ks_flush();
}

int ks_format_value(double x, char *buffer, size_t size) {
  if (isnan(x)) return snprintf(buffer, size, "nan");
  if (isinf(x)) return snprintf(buffer, size, x < 0 ? "-inf" : "inf");
  if (x == floor(x) && fabs(x) < 1e15) return snprintf(buffer, size, "%.0f", x);
  /* The shortest decimal that reads back to the same double. When one of at most 15 digits
   * does, %.15g writes that decimal, its trailing zeros dropped: a normal double is within
   * 2.3e-16 of it, relatively, under half a unit in the 15th digit, so the 15-digit rounding
   * is that decimal. So 15, 16, then 17 digits are tried, where trying each count from 1
   * took up to 17 formattings and parsings, most of the time of printing a fraction. A
   * subnormal has fewer digits of precision, and is searched from 1. */
  for (int precision = fabs(x) < DBL_MIN ? 1 : 15; precision < 17; precision++) {
    int length = snprintf(buffer, size, "%.*g", precision, x);
    if (strtod(buffer, NULL) == x) return length;
  }
  return snprintf(buffer, size, "%.17g", x);
}

/* x in the value format, then a newline. */
static void ks_put_value_line(double x) {
  char buffer[40];
  int length = ks_format_value(x, buffer, sizeof buffer - 1);
  buffer[length++] = '\n';
  ks_put(buffer, (size_t)length);
}

void ks_print_value(double x) {
  /* A value is printed on its own line, even after output that did not end one. */
  if (!ks_output_at_line_start) ks_put("\n", 1);
  ks_put_value_line(x);
}

double putchard(double c) {
  char byte = (char)(unsigned char)(long long)c;
  ks_put(&byte, 1);
  return 0;
}

double printd(double x) {
  ks_put_value_line(x);
  return 0;
}

static void ks_error(const char *message) {
  ks_flush();
  ks_write_all(2, message, strlen(message));
}

const char *ks_call_site;

void ks_set_call_site(const char *site) { ks_call_site = site; }

/* A runtime function's error, after the place of its call when the caller gave one. */
static void ks_error_at_call_site(const char *message) {
  if (ks_call_site) {
    ks_error(ks_call_site);
    ks_error(": ");
  }
  ks_error(message);
}

/* Fault handling. A runaway recursion overflows the stack; the handler runs on an alternate
 * stack, reports, and either exits or (inside ks_run_protected) jumps back. */
static sigjmp_buf ks_recovery;
static volatile sig_atomic_t ks_protected;

/* After a runtime error has been reported: inside ks_run_protected, back to it (the end of
 * this input); elsewhere the end of the program, with status 1. */
static _Noreturn void ks_stop_after_error(void) {
  if (ks_protected) siglongjmp(ks_recovery, 1);
  _exit(1);
}

/* The stack pointer of the code that faulted, from the signal's saved context; 0 where this
 * runtime does not know the machine's context layout. */
static uintptr_t ks_faulting_stack_pointer(const void *context) {
  const ucontext_t *saved = context;
#if defined(__x86_64__)
  return (uintptr_t)saved->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
  return (uintptr_t)saved->uc_mcontext.sp;
#else
  (void)saved;
  return 0;
#endif
}

const char *ks_fault_message(int signal, uintptr_t address, uintptr_t stack_pointer) {
  /* A thread that runs out of stack faults on the guard page just below its stack pointer:
   * a call pushing its return address, or a frame being set up. Any other bad address is a
   * pointer gone wrong, typically an extern called outside the double(double...) contract. */
  int near_stack = stack_pointer != 0 && address + (1u << 20) >= stack_pointer && address <= stack_pointer + 4096;
  switch (signal) {
  case SIGSEGV: return near_stack ? "runtime error: stack overflow\n" : "runtime error: invalid memory access (segmentation fault)\n";
  case SIGBUS: return near_stack ? "runtime error: stack overflow\n" : "runtime error: invalid memory access (bus error)\n";
  case SIGFPE: return "runtime error: arithmetic fault\n";
  case SIGILL: return "runtime error: illegal instruction\n";
  default: return "runtime error: aborted\n";
  }
}

/* Code that holds the C library's locks (malloc, stdio) must not be jumped out of, or the
 * next allocation or read would wait on a lock forever: a Ctrl-C that arrives inside it is
 * put off until it leaves. */
static volatile sig_atomic_t ks_in_library;
static volatile sig_atomic_t ks_interrupt_deferred;

static void ks_library_enter(void) { ks_in_library = 1; }

static void ks_library_leave(void) {
  ks_in_library = 0;
  if (ks_interrupt_deferred) {
    ks_interrupt_deferred = 0;
    if (ks_protected) {
      ks_error("interrupted\n");
      siglongjmp(ks_recovery, 1);
    }
  }
}

static void ks_on_fault(int signal, siginfo_t *info, void *context) {
  /* Inside a call of an extern outside the host library, located at the call: compiled
   * code and the interpreter set ks_call_site around such calls (HostLibrary). */
  ks_error_at_call_site(ks_fault_message(signal, (uintptr_t)info->si_addr, ks_faulting_stack_pointer(context)));
  ks_stop_after_error();
}

/* A call of an extern that resolved to nothing, at `site` ("FILE:LINE:COL", or NULL);
 * worded here for every engine. */
int ks_describe_unresolved_extern(char *buffer, size_t size, const char *site, const char *name) {
  return snprintf(buffer, size, "%s%sruntime error: unresolved external symbol '%s'\n", site ? site : "",
                  site ? ": " : "", name);
}

/* Compiled code calls this in place of the missing extern, after setting ks_call_site:
 * reported at the call and stopped like a fault. */
void ks_unresolved_extern(const char *name) {
  char message[8192];
  int written = ks_describe_unresolved_extern(message, sizeof message, ks_call_site, name);
  if (written >= (int)sizeof message) message[sizeof message - 2] = '\n';
  ks_error(message);
  ks_stop_after_error();
}

/* Arrays (SPEC §5). An array is `count` doubles, zero-filled; compiled code and the
 * interpreter allocate them here so that running out of memory is the same error in both.
 * The word before the elements holds the start of their block, which ks_array_free frees,
 * so that an array may lie anywhere in its block (ks_array_new_apart); the word before that
 * holds the length of the block's own mapping, or 0 for a block from the heap. */
#define KS_ARRAY_HEADER 16
#define KS_PAGE 4096
#define KS_COLOUR_STEP 704 /* 11 cache lines: 64 page offsets before one comes again */

static double *ks_array_place(char *block, size_t offset, size_t mapping) {
  if (!block) return NULL;
  double *elements = (double *)(block + offset);
  ((char **)elements)[-1] = block;
  ((size_t *)elements)[-2] = mapping;
  return elements;
}

/* The next page offset for an array kept apart: each differs from the last one's. */
static size_t ks_array_colour(void) {
  static _Atomic unsigned made;
  return (size_t)(made++ % 64) * KS_COLOUR_STEP % KS_PAGE;
}

/* Large arrays ask the kernel for huge pages (`MADV_HUGEPAGE`; by default Linux gives them
 * only to memory that asks), so that their first touch faults once per 2 MiB instead of once
 * per 4 KiB page, several times faster (docs/BENCHMARKS.md). */
#define KS_HUGE_PAGE ((size_t)2 << 20)

static void ks_advise_huge_pages(char *start, size_t length) {
  uintptr_t first = ((uintptr_t)start + KS_HUGE_PAGE - 1) & ~(uintptr_t)(KS_HUGE_PAGE - 1);
  uintptr_t end = ((uintptr_t)start + length) & ~(uintptr_t)(KS_HUGE_PAGE - 1);
  if (end > first) madvise((void *)first, end - first, MADV_HUGEPAGE);
}

/* A global array of a huge page or more is mapped on its own, aligned to huge pages, all of
 * them advised; the pages it never touches cost nothing. Its elements start a page in, at
 * the next colour (ks_array_new_apart). */
static double *ks_array_map(size_t bytes) {
  size_t span = (KS_PAGE + KS_PAGE + bytes + KS_HUGE_PAGE - 1) & ~(KS_HUGE_PAGE - 1);
  size_t mapping = span + KS_HUGE_PAGE;
  char *block = mmap(NULL, mapping, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (block == MAP_FAILED) return NULL;
  size_t aligned = (size_t)(-(uintptr_t)block & (KS_HUGE_PAGE - 1));
  ks_advise_huge_pages(block + aligned, span);
  return ks_array_place(block, aligned + KS_PAGE + ks_array_colour(), mapping);
}

/* A local array comes from the heap: it is made and freed at every call, and a mapping of its
 * own each time, faulted in afresh, was slower than the heap's reuse. The huge pages inside a
 * large block are advised: glibc maps the first such block afresh, and later ones come from a
 * heap that then grows in huge pages. */
double *ks_array_new(uint64_t count) {
  size_t bytes = KS_ARRAY_HEADER + (count > 0 ? count : 1) * sizeof(double);
  ks_library_enter();
  /* calloc(0) may return NULL; an empty array still needs a pointer that is not one. */
  char *block = calloc(1, bytes);
  ks_library_leave();
  if (block && bytes >= KS_HUGE_PAGE) ks_advise_huge_pages(block, bytes);
  return ks_array_place(block, KS_ARRAY_HEADER, 0);
}

/* A global array's elements are kept a page from every other block, at a page offset that
 * differs from the last such array's. Small arrays made one after another lie next to each
 * other in the heap, and a loop that reads one and writes the other (`counts[text[i]] =
 * counts[text[i]] + 1`) then ran several times slower on an AMD EPYC host than with the
 * two far apart (docs/BENCHMARKS.md). A global array is made once, so its few pages cost
 * nothing; local arrays, made at every call, stay in the heap's usual order. */
double *ks_array_new_apart(uint64_t count) {
  size_t bytes = (count > 0 ? count : 1) * sizeof(double);
  if (bytes >= KS_HUGE_PAGE) return ks_array_map(bytes);
  size_t colour = ks_array_colour();
  ks_library_enter();
  char *block = calloc(1, KS_PAGE + KS_PAGE + bytes + KS_PAGE);
  ks_library_leave();
  if (!block) return NULL;
  /* The first address a page past the block's start whose page offset is the colour. */
  uintptr_t start = (uintptr_t)block + KS_PAGE;
  uintptr_t wanted = (start & ~(uintptr_t)(KS_PAGE - 1)) + colour;
  if (wanted < start) wanted += KS_PAGE;
  return ks_array_place(block, wanted - (uintptr_t)block, 0);
}

void ks_array_free(double *elements) {
  if (!elements) return; /* a compiled global array before its declaration: { null, 0 } */
  char *block = ((char **)elements)[-1];
  size_t mapping = ((size_t *)elements)[-2];
  if (mapping > 0) {
    munmap(block, mapping);
    return;
  }
  ks_library_enter();
  free(block);
  ks_library_leave();
}

/* Runtime errors located in the program, formatted here for every engine. */
int ks_describe_array_error(char *buffer, size_t size, int kind, const char *site, const char *name, double value,
                            uint64_t length) {
  char number[40];
  ks_format_value(value, number, sizeof number);
  switch (kind) {
  case KS_INDEX_NOT_WHOLE:
    return snprintf(buffer, size, "%s: runtime error: index %s of '%s' is not a whole number\n", site, number, name);
  case KS_INDEX_OUT_OF_BOUNDS:
    return snprintf(buffer, size, "%s: runtime error: index %s is out of bounds for '%s' (length %llu)\n", site, number,
                    name, (unsigned long long)length);
  case KS_BAD_SIZE:
    return snprintf(buffer, size, "%s: runtime error: size %s of '%s' is not a whole number from 0 to 4294967295\n",
                    site, number, name);
  default:
    return snprintf(buffer, size, "%s: runtime error: out of memory for '%s' (%s elements)\n", site, name, number);
  }
}

/* The site and the array's name travel as one constant, "FILE:LINE:COL\0NAME". */
void ks_array_error(int kind, const char *site_and_name, double value, uint64_t length) {
  const char *name = site_and_name + strlen(site_and_name) + 1;
  char message[4096 + 200];
  int written = ks_describe_array_error(message, sizeof message, kind, site_and_name, name, value, length);
  if (written >= (int)sizeof message) message[sizeof message - 2] = '\n';
  ks_error(message);
  ks_stop_after_error();
}

static double *ks_array_checked(double size, const char *site_and_name, double *(*allocate)(uint64_t)) {
  if (!(size >= 0 && size <= 4294967295.0 && trunc(size) == size)) ks_array_error(KS_BAD_SIZE, site_and_name, size, 0);
  double *elements = allocate((uint64_t)size);
  if (!elements) ks_array_error(KS_OUT_OF_MEMORY, site_and_name, size, 0);
  return elements;
}

double *ks_array_make(double size, const char *site_and_name) {
  return ks_array_checked(size, site_and_name, ks_array_new);
}

double *ks_array_make_apart(double size, const char *site_and_name) {
  return ks_array_checked(size, site_and_name, ks_array_new_apart);
}

void ks_index_error(const char *site_and_name, double index, uint64_t length) {
  /* Not a whole number (NaN included) is said first; a whole number is out of bounds. */
  ks_array_error(trunc(index) == index ? KS_INDEX_OUT_OF_BOUNDS : KS_INDEX_NOT_WHOLE, site_and_name, index, length);
}

/* Calls nested deeper than the language allows (SPEC §3), located at the call that would
 * have gone one deeper; worded here for every engine. */
int ks_describe_call_depth_error(char *buffer, size_t size, const char *site) {
  return snprintf(buffer, size, "%s: runtime error: stack overflow: more than %d nested calls\n", site,
                  KS_CALL_DEPTH_LIMIT);
}

void ks_call_depth_error(const char *site) {
  char message[4096 + 100];
  int written = ks_describe_call_depth_error(message, sizeof message, site);
  if (written >= (int)sizeof message) message[sizeof message - 2] = '\n';
  ks_error(message);
  ks_stop_after_error();
}

double ks_call_depth_error_as_result(const char *site) { ks_call_depth_error(site); }

/* Input (SPEC §5). Output is written out first, so a prompt shows before the program waits. */
double getchard(void) {
  ks_flush();
  ks_library_enter();
  clearerr(stdin); /* a read that an interrupt cut short is not the end of the input */
  int byte = getchar();
  ks_library_leave();
  return byte == EOF ? -1 : byte;
}

/* Whether `word` is a number in the language's syntax, with an optional leading '-':
 * digits [. digits] [exponent] or . digits [exponent]. */
static int ks_is_number(const char *word) {
  const char *p = word + (*word == '-');
  int digits = 0;
  while (*p >= '0' && *p <= '9') p++, digits++;
  if (*p == '.') {
    p++;
    while (*p >= '0' && *p <= '9') p++, digits++;
  }
  if (digits == 0) return 0;
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (!(*p >= '0' && *p <= '9')) return 0;
    while (*p >= '0' && *p <= '9') p++;
  }
  return *p == 0;
}

double readd(void) {
  ks_flush();
  ks_library_enter();
  clearerr(stdin);
  int byte;
  do byte = getchar(); while (byte == ' ' || byte == '\t' || byte == '\n' || byte == '\r');
  if (byte == EOF) {
    ks_library_leave();
    ks_error_at_call_site("runtime error: readd() found the end of the input, not a number\n");
    ks_stop_after_error();
  }
  char word[64];
  size_t length = 0;
  int complete = 1;
  for (; byte != EOF && byte != ' ' && byte != '\t' && byte != '\n' && byte != '\r'; byte = getchar()) {
    if (length < sizeof word - 1) word[length++] = (char)byte; else complete = 0;
  }
  word[length] = 0;
  /* The character that ended the number is left for the next read, as scanf leaves it. */
  if (byte != EOF) ungetc(byte, stdin);
  ks_library_leave();
  if (!complete || !ks_is_number(word)) {
    ks_error_at_call_site("runtime error: readd() found '");
    ks_write_all(2, word, length);
    ks_write_all(2, complete ? "', which is not a number\n" : "...', which is not a number\n", complete ? 25 : 28);
    ks_stop_after_error();
  }
  return strtod(word, NULL);
}

/* One alternate stack serves every thread that runs Kaleidoscope code: programs run one at
 * a time, so two faults never use it at once. */
static char ks_alternate_stack[1 << 16];

void ks_runtime_init(void) {
  stack_t stack = {.ss_sp = ks_alternate_stack, .ss_size = sizeof ks_alternate_stack, .ss_flags = 0};
  sigaltstack(&stack, NULL);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = ks_on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  for (size_t i = 0; i < sizeof signals / sizeof *signals; i++) sigaction(signals[i], &action, NULL);
}

/* Ctrl-C in the REPL: inside ks_run_protected it stops the running code (once out of the C
 * library, see ks_library_enter), leaving the program's globals as they were; elsewhere it
 * is recorded for the line editor, whose read it interrupts (no SA_RESTART). */
static volatile sig_atomic_t ks_interrupted;

static void ks_on_interrupt(int signal) {
  (void)signal;
  if (ks_protected && ks_in_library) {
    ks_interrupt_deferred = 1;
    return;
  }
  if (ks_protected) {
    ks_error("interrupted\n");
    siglongjmp(ks_recovery, 1);
  }
  ks_interrupted = 1;
}

void ks_catch_interrupts(void) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = ks_on_interrupt;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, NULL);
}

int ks_take_interrupt(void) {
  int interrupted = ks_interrupted;
  ks_interrupted = 0;
  return interrupted;
}

/* Enters protected code, which a Ctrl-C from now on stops. One that came before, while the
 * input was checked and compiled or between the interpreter's polls, stops it before it
 * starts: the code might never call back to be polled (a loop with no calls ran on, the
 * Ctrl-C lost). Returns whether it did. */
static int ks_enter_protected(void) {
  ks_protected = 1;
  if (!ks_interrupted) return 0;
  ks_interrupted = 0;
  ks_protected = 0;
  ks_error("interrupted\n");
  return 1;
}

int ks_run_protected(void (*entry)(void)) {
  ks_runtime_init();
  if (sigsetjmp(ks_recovery, 1)) {
    ks_protected = 0;
    return 1;
  }
  if (ks_enter_protected()) return 1;
  entry();
  ks_protected = 0;
  ks_flush();
  return 0;
}

/* A C function of doubles, by arity (the double registers of x86-64 and AArch64). */
static double ks_call_doubles(void *function, const double *a, int count) {
  switch (count) {
  case 0: return ((double (*)(void))function)();
  case 1: return ((double (*)(double))function)(a[0]);
  case 2: return ((double (*)(double, double))function)(a[0], a[1]);
  case 3: return ((double (*)(double, double, double))function)(a[0], a[1], a[2]);
  case 4: return ((double (*)(double, double, double, double))function)(a[0], a[1], a[2], a[3]);
  case 5: return ((double (*)(double, double, double, double, double))function)(a[0], a[1], a[2], a[3], a[4]);
  case 6:
    return ((double (*)(double, double, double, double, double, double))function)(a[0], a[1], a[2], a[3], a[4], a[5]);
  case 7:
    return ((double (*)(double, double, double, double, double, double, double))function)(a[0], a[1], a[2], a[3], a[4],
                                                                                          a[5], a[6]);
  default:
    return ((double (*)(double, double, double, double, double, double, double, double))function)(
        a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
  }
}

/* The protected calls below do what ks_run_protected does, for one call: the interpreter
 * (in the REPL) never has its own frames jumped over, only the machine code it called. */
int ks_call_entry_protected(double (*entry)(double *, int32_t), double *cells, int32_t depth, double *result) {
  if (sigsetjmp(ks_recovery, 1)) {
    ks_protected = 0;
    return 1;
  }
  if (ks_enter_protected()) return 1;
  *result = entry(cells, depth);
  ks_protected = 0;
  return 0;
}

int ks_call_extern_protected(void *function, const double *arguments, int count, double *result) {
  if (sigsetjmp(ks_recovery, 1)) {
    ks_protected = 0;
    return 1;
  }
  if (ks_enter_protected()) return 1;
  *result = ks_call_doubles(function, arguments, count);
  ks_protected = 0;
  return 0;
}

/* The program runs on KS_STACK_SIZE bytes of stack of its own, as every engine runs it, so
 * that KS_CALL_DEPTH_LIMIT calls fit in executables as in the tool. The calling thread
 * switches to that stack (makecontext) rather than starting a thread on it: creating and
 * joining a thread was most of what a one-line executable took beyond its C twin. The lowest
 * KS_STACK_GUARD bytes cannot be touched, so that an overflow faults, as on a thread's guard
 * page; the whole takes no more address space than the thread's stack did (the sandbox
 * reserves KS_STACK_SIZE for it). */
#define KS_STACK_GUARD (1 << 16)
static __thread void (*ks_program_entry)(void);

static void ks_run_program(void) {
  ks_runtime_init();
  ks_program_entry();
  ks_flush();
}

void ks_run_main(void (*entry)(void)) {
  ks_program_entry = entry;
  size_t length = KS_STACK_SIZE;
  char *base = mmap(NULL, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  ucontext_t program, caller;
  if (base == MAP_FAILED || mprotect(base, KS_STACK_GUARD, PROT_NONE) != 0 || getcontext(&program) != 0) {
    /* Without the memory, the program runs on the caller's stack, as deep as that goes. */
    if (base != MAP_FAILED) munmap(base, length);
    ks_run_program();
    return;
  }
  program.uc_stack.ss_sp = base + KS_STACK_GUARD;
  program.uc_stack.ss_size = length - KS_STACK_GUARD;
  program.uc_link = &caller;
  makecontext(&program, ks_run_program, 0);
  swapcontext(&caller, &program);
  munmap(base, length);
}
