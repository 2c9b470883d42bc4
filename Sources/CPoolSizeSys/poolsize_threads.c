#define _GNU_SOURCE
#include "poolsize_threads.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>

int poolsize_pin_current_thread(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

int poolsize_next_allowed_cpu(int after) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set) != 0) return -1;
    for (int cpu = after < 0 ? 0 : after + 1; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &set)) return cpu;
    }
    return -1;
}

int poolsize_current_cpu(void) { return sched_getcpu(); }

long poolsize_default_stack_size(void) {
    pthread_attr_t attr;
    if (pthread_getattr_default_np(&attr) != 0) return -1;
    size_t size = 0;
    int status = pthread_attr_getstacksize(&attr, &size);
    pthread_attr_destroy(&attr);
    return status == 0 ? (long)size : -1;
}

int poolsize_disable_core_dumps(void) {
    struct rlimit limit = {0, 0};
    return setrlimit(RLIMIT_CORE, &limit) == 0 ? 0 : errno;
}
