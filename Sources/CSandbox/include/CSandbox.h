/* The sandbox a run of an untrusted program puts itself in (`run --sandboxed`): resource
 * limits, no file descriptors but standard input, output and error, and a seccomp filter
 * that allows only what running compiled code needs. */
#ifndef CSANDBOX_H
#define CSANDBOX_H

#include <stddef.h>

/* Limits CPU time to `cpu_seconds` (then SIGXCPU), new memory to `memory_bytes` beyond what
 * the process has mapped now plus `reserved_bytes` (a stack it is about to map), and no core
 * dumps. Returns 0, or -1 with errno set. */
int ks_sandbox_limit(unsigned cpu_seconds, size_t memory_bytes, size_t reserved_bytes);

/* Closes every file descriptor above 2; then, once the process has opened what it needs,
 * allows none at or above `limit` (3: no new ones). Returns 0, or -1 (the second). */
void ks_sandbox_close_inherited_files(void);
int ks_sandbox_limit_files(int limit);

/* Installs the seccomp filter, for this thread and every thread it starts: no files opened,
 * no processes, no network; anything not on its list fails with EPERM. Returns 0, or -1. */
int ks_sandbox_seal(void);

/* Tries, from inside the sandbox, what it must refuse, and writes one line per attempt to
 * standard output: "open: refused (Operation not permitted)", "socket: allowed", ... (`run --sandboxed
 * --sandbox-probe`, for the tests). */
void ks_sandbox_probe(void);

#endif
