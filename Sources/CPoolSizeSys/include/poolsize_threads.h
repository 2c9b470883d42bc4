// Shims for the GNU thread calls calibrate and probe need (affinity, default attributes,
// core limits); Swift's Glibc module hides the _GNU_SOURCE declarations. No logic lives here.
#ifndef POOLSIZE_THREADS_H
#define POOLSIZE_THREADS_H

#include <pthread.h>

/// A started thread, one type on every platform: pthread_t is an integer on Linux and a pointer
/// on macOS, and Swift imports pthread_create's arguments differently for each.
typedef struct {
    pthread_t handle;
} poolsize_thread;
/// pthread_create with default attributes; returns 0 and sets *thread, or the error number.
int poolsize_thread_create(poolsize_thread *thread, void *(*start)(void *), void *argument);
/// pthread_join, discarding the thread's result; returns 0 or the error number.
int poolsize_thread_join(poolsize_thread thread);
/// pthread_detach; returns 0 or the error number.
int poolsize_thread_detach(poolsize_thread thread);

struct timespec;
/// A counting semaphore between this process's threads, starting at 0: sem_t on Linux, a Mach
/// semaphore on macOS, which has neither unnamed POSIX semaphores nor sem_timedwait.
typedef struct poolsize_semaphore poolsize_semaphore;
/// A new semaphore, or NULL.
poolsize_semaphore *poolsize_semaphore_create(void);
/// Increments it, waking one waiter.
void poolsize_semaphore_post(poolsize_semaphore *semaphore);
/// Decrements it, waiting at most until `deadline` (CLOCK_REALTIME); 0, or -1 past the deadline.
int poolsize_semaphore_wait(poolsize_semaphore *semaphore, const struct timespec *deadline);
/// Frees it; no thread may be waiting on it.
void poolsize_semaphore_destroy(poolsize_semaphore *semaphore);

/// Restricts the calling thread to one CPU; returns 0 or errno.
int poolsize_pin_current_thread(int cpu);
/// The lowest-numbered CPU in the calling thread's affinity mask above `after` (-1 for the
/// first), or -1 when there is none.
int poolsize_next_allowed_cpu(int after);
/// The CPU the calling thread is running on now, or -1.
int poolsize_current_cpu(void);
/// Stack size, in bytes, of a thread created with default attributes, or -1.
long poolsize_default_stack_size(void);
/// Nanoseconds the calling thread has spent runnable in a run queue, waiting for a CPU
/// (the second field of /proc/thread-self/schedstat, Documentation/scheduler/sched-stats.rst).
/// The file stays open per thread (closed when the thread exits), so a read is one pread.
/// Returns 0 and sets *nanoseconds, or -1 where schedstat cannot be read.
int poolsize_thread_run_delay_ns(unsigned long long *nanoseconds);
/// Sets RLIMIT_CORE to 0 so a child that traps on purpose leaves no core file; returns 0 or errno.
int poolsize_disable_core_dumps(void);

#endif
