#define _GNU_SOURCE
#include "poolsize_sys.h"
#include <errno.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <spawn.h>
#include <unistd.h>

int poolsize_gettid(void) { return (int)syscall(SYS_gettid); }

int poolsize_set_timer_slack_ns(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

int poolsize_affinity_cpu_count(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    return CPU_COUNT(&set);
}

int poolsize_set_thread_nice(int tid, int nice) {
    return setpriority(PRIO_PROCESS, (id_t)tid, nice) == 0 ? 0 : errno;
}

int poolsize_get_thread_nice(int tid, int *ok) {
    errno = 0;
    int value = getpriority(PRIO_PROCESS, (id_t)tid);
    *ok = !(value == -1 && errno != 0);
    return value;
}

int poolsize_spawn_close_from(void *actions, int from) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, from);
#else
    (void)actions; (void)from;
    return ENOSYS;
#endif
}
