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

#endif
