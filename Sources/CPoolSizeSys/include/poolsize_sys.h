// Thin wrappers over Linux calls Swift cannot reach directly (variadic syscall/prctl,
// CPU_COUNT macros). No logic lives here.
#ifndef POOLSIZE_SYS_H
#define POOLSIZE_SYS_H

/// Kernel thread id of the calling thread (gettid(2)).
int poolsize_gettid(void);
/// Sets the calling thread's timer slack (prctl PR_SET_TIMERSLACK); returns 0 on success.
int poolsize_set_timer_slack_ns(unsigned long nanoseconds);
/// Number of CPUs in the calling process's affinity mask, or -1.
int poolsize_affinity_cpu_count(void);
/// Sets the nice value of one thread (setpriority on its tid); returns 0 or errno.
int poolsize_set_thread_nice(int tid, int nice);
/// Nice value of one thread; *ok is set to 0 on failure.
int poolsize_get_thread_nice(int tid, int *ok);
/// Adds "close every descriptor from `from` up" to a posix_spawn file-actions list
/// (posix_spawn_file_actions_addclosefrom_np, glibc 2.34+), so a spawned command inherits
/// only its stdin, stdout and stderr; returns 0, or ENOSYS where the C library lacks it.
/// The actions pointer is a posix_spawn_file_actions_t *.
int poolsize_spawn_close_from(void *actions, int from);
/// Starts `path` (argv, envp NULL-terminated) as the leader of a new process group, so a
/// timeout or an interrupt stops the command and whatever it started in one kill(-pid);
/// on Linux it is also told to die with its parent thread (PR_SET_PDEATHSIG). stdin is
/// /dev/null, stdout and stderr the given files, no other descriptor is inherited, SIGINT and
/// SIGTERM are at their defaults and the mask is empty. Returns 0 and sets *pid_out, or errno.
int poolsize_spawn_group(const char *path, char *const argv[], char *const envp[],
                         const char *out_path, const char *err_path, int *pid_out);
/// poolsize_spawn_group with stdout and stderr the open descriptors `out_fd` and `err_fd`
/// (dup2'd onto 1 and 2; yours stay open).
int poolsize_spawn_group_fds(const char *path, char *const argv[], char *const envp[],
                             int out_fd, int err_fd, int *pid_out);
/// A new empty file in `directory` that has no name (O_TMPFILE; where the file system cannot,
/// one created and unlinked at once), open for reading and writing, close-on-exec: it is gone
/// when the last descriptor closes, however the process ends. Returns the descriptor, or -1
/// with errno set.
int poolsize_unlinked_file(const char *directory);
/// Makes this process the reaper of its descendants' orphans (PR_SET_CHILD_SUBREAPER), so a
/// command's background job that left its process group is still ours to find and stop.
/// Returns 0, or errno (ENOSYS off Linux).
int poolsize_become_subreaper(void);
/// A timer on CLOCK_MONOTONIC as a descriptor (timerfd_create: non-blocking, close-on-exec),
/// readable once the instant `poolsize_timer_arm` set has come, so one poll(2) waits for
/// sockets and a deadline finer than its milliseconds. Returns it, or -1 with errno set (ENOSYS
/// off Linux).
int poolsize_timer_create(void);
/// Sets the timer to expire once at `deadline_ns` on CLOCK_MONOTONIC (absolute; an instant
/// past expires at once), clearing an expiry not yet read. Returns 0, or errno.
int poolsize_timer_arm(int fd, unsigned long long deadline_ns);

#endif
