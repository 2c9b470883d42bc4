// Shims for `poolsize observe`: calls on another process that Swift's Glibc module hides
// (the _GNU_SOURCE CPU_COUNT macro). No logic lives here.
#ifndef POOLSIZE_OBSERVE_H
#define POOLSIZE_OBSERVE_H

/// Number of CPUs in the affinity mask of process or thread `pid` (sched_getaffinity), or -1
/// with errno set (ESRCH when it does not exist; ENOSYS off Linux).
int poolsize_affinity_cpu_count_of(int pid);

#endif
