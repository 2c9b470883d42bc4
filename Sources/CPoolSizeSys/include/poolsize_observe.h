// Shims for `poolsize observe`: calls on another process that Swift's Glibc module hides
// (the _GNU_SOURCE CPU_COUNT macro). No logic lives here.
#ifndef POOLSIZE_OBSERVE_H
#define POOLSIZE_OBSERVE_H

/// Number of CPUs in the affinity mask of process or thread `pid` (sched_getaffinity), or -1
/// with errno set (ESRCH when it does not exist; ENOSYS off Linux).
int poolsize_affinity_cpu_count_of(int pid);

/// Starts `path` (argv, envp NULL-terminated; stdin /dev/null, stdout and stderr the open
/// descriptors `out_fd` and `err_fd`) as `observe -- CMD`'s target, under a guardian process
/// forked for it: the guardian is the child (and subreaper) of the caller, in a process group of
/// its own and named `guardian` (comm and command line), so that killing the caller by its job,
/// group or name leaves it to stop the rest; the target is its child,
/// leading a process group of its own and dying with the guardian (PR_SET_PDEATHSIG). The
/// guardian reaps everything below it and reports on `*report_fd` (pairs of int32: 3 and the
/// target's wait status when it exits); when `*control_fd` is closed, by the caller or by the
/// kernel as the caller dies (SIGKILL included), it kills the target's group and every process
/// below it, setsid'd ones included, reaps them and exits. Returns 0 once the target has
/// exec'd, with the pids and both descriptors set (close-on-exec), or the errno of the failed
/// fork or exec (then nothing is left running).
int poolsize_spawn_guarded(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd,
                           int *target_pid, int *guardian_pid, int *control_fd, int *report_fd);

/// poolsize_spawn_guarded with the target leading a new session (setsid) instead of only a
/// process group, for `sweep --server`'s server: everything it forks shares its session id
/// (a double fork that leaves the group included), and no terminal's signal reaches it; the
/// guardian still stops a descendant that called setsid itself. Same returns.
int poolsize_spawn_guarded_session(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd,
                                   int *target_pid, int *guardian_pid, int *control_fd, int *report_fd);

#endif
