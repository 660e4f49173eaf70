/* The sandbox of `run --sandboxed` (see the header). The process enters it after compiling
 * and before running the program, so the filter need allow nothing of LLVM's. */
#define _GNU_SOURCE
#include "CSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <malloc.h>
#include <sched.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* What the process has mapped now, in bytes (/proc/self/statm's first field), or 0. */
static size_t ks_mapped_bytes(void) {
  FILE *file = fopen("/proc/self/statm", "r");
  if (!file) return 0;
  unsigned long pages = 0;
  int read = fscanf(file, "%lu", &pages);
  fclose(file);
  return read == 1 ? pages * (size_t)sysconf(_SC_PAGESIZE) : 0;
}

int ks_sandbox_limit(unsigned cpu_seconds, size_t memory_bytes, size_t reserved_bytes) {
  /* One malloc arena: a thread's own arena would reserve 64 MiB of address space. */
  mallopt(M_ARENA_MAX, 1);
  size_t mapped = ks_mapped_bytes();
  if (mapped == 0) return -1;
  struct rlimit cpu = {cpu_seconds, cpu_seconds + 1};
  struct rlimit memory = {mapped + reserved_bytes + memory_bytes, mapped + reserved_bytes + memory_bytes};
  struct rlimit none = {0, 0};
  if (setrlimit(RLIMIT_CPU, &cpu) != 0 || setrlimit(RLIMIT_AS, &memory) != 0) return -1;
  return setrlimit(RLIMIT_CORE, &none);
}

void ks_sandbox_close_inherited_files(void) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
  {
    long last = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (last > 0 ? last : 1024); fd++) close((int)fd);
  }
}

int ks_sandbox_limit_files(int limit) {
  struct rlimit files = {(rlim_t)limit, (rlim_t)limit};
  return setrlimit(RLIMIT_NOFILE, &files);
}


/* The system calls running code makes: reading and writing the standard streams, memory,
 * threads' synchronisation, signals (faults and stack overflows are caught), time, exit.
 * mmap and mprotect are allowed too, but never to make memory executable. dup, dup2 and
 * dup3 copy a descriptor already open (the `passes` view points standard error at a file
 * it opened before sealing, where LLVM writes its pass log), which grants nothing new. */
static const int ks_allowed[] = {
  SCMP_SYS(read), SCMP_SYS(write), SCMP_SYS(readv), SCMP_SYS(writev), SCMP_SYS(close), SCMP_SYS(lseek),
  SCMP_SYS(dup), SCMP_SYS(dup2), SCMP_SYS(dup3),
  SCMP_SYS(fstat), SCMP_SYS(newfstatat),
  SCMP_SYS(munmap), SCMP_SYS(mremap), SCMP_SYS(brk), SCMP_SYS(madvise),
  SCMP_SYS(futex), SCMP_SYS(set_robust_list), SCMP_SYS(rseq), SCMP_SYS(membarrier), SCMP_SYS(sched_yield),
  SCMP_SYS(sched_getaffinity),
  SCMP_SYS(rt_sigaction), SCMP_SYS(rt_sigprocmask), SCMP_SYS(rt_sigreturn), SCMP_SYS(sigaltstack),
  SCMP_SYS(restart_syscall),
  SCMP_SYS(getpid), SCMP_SYS(gettid), SCMP_SYS(tgkill), SCMP_SYS(getrandom), SCMP_SYS(prlimit64),
  SCMP_SYS(clock_gettime), SCMP_SYS(clock_nanosleep), SCMP_SYS(nanosleep),
  SCMP_SYS(exit), SCMP_SYS(exit_group),
};

/* The filter's rules, from libseccomp (which also refuses other architectures' and, on
 * x86-64, the x32 ABI's numbers, killing the process). Anything not allowed fails with EPERM
 * rather than killing it, so the runtime reports what it can. */
static int ks_add_rules(scmp_filter_ctx filter) {
  int failed = 0;
  for (size_t i = 0; i < sizeof ks_allowed / sizeof ks_allowed[0]; i++)
    failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, ks_allowed[i], 0);
  /* clone makes threads, never processes: CLONE_THREAD must be in its flags. */
  failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1,
                             SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD));
  /* clone3 passes its flags in memory a filter cannot read: ENOSYS makes the C library fall
   * back to clone. */
  failed |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  /* mmap and mprotect, but not for executable memory: the program's code is in place. */
  failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(mmap), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
  failed |= seccomp_rule_add(filter, SCMP_ACT_ALLOW, SCMP_SYS(mprotect), 1,
                             SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0));
  failed |= seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  /* Every thread of the process, not only this one. */
  failed |= seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
  return failed;
}

int ks_sandbox_seal(void) {
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ERRNO(EPERM));
  if (!filter) return -1;
  /* seccomp_load sets no_new_privs first (SCMP_FLTATR_CTL_NNP is on by default). */
  int result = ks_add_rules(filter) == 0 && seccomp_load(filter) == 0 ? 0 : -1;
  seccomp_release(filter);
  return result;
}

static void ks_report(const char *what, int allowed) {
  char line[96];
  int length = allowed ? snprintf(line, sizeof line, "%s: allowed\n", what)
                       : snprintf(line, sizeof line, "%s: refused (%s)\n", what, strerror(errno));
  if (write(1, line, (size_t)length) < 0) return;
}

void ks_sandbox_probe(void) {
  int file = open("/etc/hostname", O_RDONLY);
  ks_report("open", file >= 0);
  int created = open("/tmp/ks-sandbox-probe", O_WRONLY | O_CREAT, 0600);
  ks_report("create", created >= 0);
  int sock = socket(AF_INET, SOCK_STREAM, 0);
  ks_report("socket", sock >= 0);
  pid_t child = fork();
  if (child == 0) _exit(0);
  if (child > 0) waitpid(child, NULL, 0);
  ks_report("fork", child >= 0);
  char *argv[] = {"/bin/true", NULL};
  char *envp[] = {NULL};
  ks_report("execve", execve("/bin/true", argv, envp) == 0);
  void *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ks_report("mmap", code != MAP_FAILED);
  ks_report("kill", kill(1, 0) == 0);
}
