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
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <malloc.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define KS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define KS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "the sandbox knows the system calls of x86-64 and AArch64 only"
#endif

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

int ks_sandbox_close_files(void) {
#ifdef SYS_close_range
  if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
  {
    long last = sysconf(_SC_OPEN_MAX);
    for (long fd = 3; fd < (last > 0 ? last : 1024); fd++) close((int)fd);
  }
  struct rlimit files = {3, 3};
  return setrlimit(RLIMIT_NOFILE, &files);
}

/* The system calls running code makes: reading and writing the standard streams, memory,
 * threads' synchronisation, signals (faults and stack overflows are caught), time, exit.
 * mmap and mprotect are allowed too, but never to make memory executable. */
static const long ks_allowed[] = {
  SYS_read, SYS_write, SYS_readv, SYS_writev, SYS_close, SYS_lseek, SYS_fstat, SYS_newfstatat,
  SYS_munmap, SYS_mremap, SYS_brk, SYS_madvise,
  SYS_futex, SYS_set_robust_list, SYS_rseq, SYS_membarrier, SYS_sched_yield, SYS_sched_getaffinity,
  SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_sigaltstack, SYS_restart_syscall,
  SYS_getpid, SYS_gettid, SYS_tgkill, SYS_getrandom, SYS_prlimit64,
  SYS_clock_gettime, SYS_clock_nanosleep, SYS_nanosleep,
  SYS_exit, SYS_exit_group,
};

enum { KS_ALLOWED = sizeof ks_allowed / sizeof ks_allowed[0] };

int ks_sandbox_seal(void) {
  struct sock_filter program[32 + 2 * KS_ALLOWED];
  unsigned n = 0;
#define KS_STATEMENT(code, k) (program[n++] = (struct sock_filter)BPF_STMT(code, k))
#define KS_JUMP(code, k, yes, no) (program[n++] = (struct sock_filter)BPF_JUMP(code, k, yes, no))
  /* Another architecture's numbers mean other calls: refuse them all. */
  KS_STATEMENT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
  KS_JUMP(BPF_JMP | BPF_JEQ | BPF_K, KS_AUDIT_ARCH, 1, 0);
  KS_STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  KS_STATEMENT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#if defined(__x86_64__)
  /* The x32 ABI's numbers. */
  KS_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
  KS_STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
#endif
  /* clone makes threads, never processes: CLONE_THREAD must be in its flags. */
  KS_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4);
  KS_STATEMENT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
  KS_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 1);
  KS_STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  KS_STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
  /* mmap and mprotect, but not for executable memory: the program's code is in place. */
  for (int call = 0; call < 2; call++) {
    KS_JUMP(BPF_JMP | BPF_JEQ | BPF_K, call == 0 ? SYS_mmap : SYS_mprotect, 0, 4);
    KS_STATEMENT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2]));
    KS_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_EXEC, 0, 1);
    KS_STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
    KS_STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    /* The accumulator holds the argument now: load the number again for what follows. */
    KS_STATEMENT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  }
  /* clone3 passes its flags in memory the filter cannot read: ENOSYS makes the C library
   * fall back to clone. */
  KS_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 0, 1);
  KS_STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
  for (unsigned i = 0; i < KS_ALLOWED; i++) {
    KS_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)ks_allowed[i], 0, 1);
    KS_STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  }
  KS_STATEMENT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
#undef KS_STATEMENT
#undef KS_JUMP
  struct sock_fprog filter = {.len = (unsigned short)n, .filter = program};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -1;
  /* TSYNC: every thread of the process, not only this one. */
  return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &filter) == 0 ? 0 : -1;
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
