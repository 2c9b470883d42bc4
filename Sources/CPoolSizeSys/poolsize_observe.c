#define _GNU_SOURCE
#include "poolsize_observe.h"
#include <errno.h>
#include <sched.h>

int poolsize_affinity_cpu_count_of(int pid) {
#ifdef __linux__
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(pid, sizeof(set), &set) != 0) return -1;
    return CPU_COUNT(&set);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}
