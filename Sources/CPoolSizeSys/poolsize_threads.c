#define _GNU_SOURCE
#include "poolsize_threads.h"
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

int poolsize_thread_create(poolsize_thread *thread, void *(*start)(void *), void *argument) {
    return pthread_create(&thread->handle, NULL, start, argument);
}

int poolsize_thread_join(poolsize_thread thread) { return pthread_join(thread.handle, NULL); }

int poolsize_thread_detach(poolsize_thread thread) { return pthread_detach(thread.handle); }

// Pinning to a CPU, the affinity mask, the current CPU and the process-wide default thread
// attributes are GNU's; elsewhere pinning says it cannot (ENOSYS, -1) and the stack size is a
// new attribute object's, which is the default there (docs/platform.md).
#ifdef __linux__
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

#else
int poolsize_pin_current_thread(int cpu) {
    (void)cpu;
    return ENOSYS;
}

int poolsize_next_allowed_cpu(int after) {
    (void)after;
    return -1;
}

int poolsize_current_cpu(void) { return -1; }
#endif

long poolsize_default_stack_size(void) {
    pthread_attr_t attr;
    // glibc reads the process default (what pthread_setattr_default_np or ulimit -s set);
    // elsewhere a fresh attribute carries the platform's default.
#ifdef __linux__
    if (pthread_getattr_default_np(&attr) != 0) return -1;
#else
    if (pthread_attr_init(&attr) != 0) return -1;
#endif
    size_t size = 0;
    int status = pthread_attr_getstacksize(&attr, &size);
    pthread_attr_destroy(&attr);
    return status == 0 ? (long)size : -1;
}

int poolsize_disable_core_dumps(void) {
    struct rlimit limit = {0, 0};
    return setrlimit(RLIMIT_CORE, &limit) == 0 ? 0 : errno;
}

// One descriptor per thread, kept in a key whose destructor closes it when the thread exits:
// libdispatch retires idle workers, and their descriptors must not outlive them.
#ifdef __linux__
static pthread_key_t schedstat_key;
static pthread_once_t schedstat_once = PTHREAD_ONCE_INIT;

static void schedstat_close(void *value) { close((int)(intptr_t)value - 1); }
static void schedstat_make_key(void) { pthread_key_create(&schedstat_key, schedstat_close); }
#endif

int poolsize_thread_run_delay_ns(unsigned long long *nanoseconds) {
#ifdef __linux__
    pthread_once(&schedstat_once, schedstat_make_key);
    int fd = (int)(intptr_t)pthread_getspecific(schedstat_key) - 1;
    if (fd < 0) {
        fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
        if (fd < 0) return -1;
        pthread_setspecific(schedstat_key, (void *)(intptr_t)(fd + 1));
    }
    char text[96];
    ssize_t length = pread(fd, text, sizeof(text) - 1, 0);
    if (length <= 0) return -1;
    text[length] = 0;
    // "<on-cpu ns> <run-queue ns> <timeslices>\n"
    const char *cursor = text;
    while (*cursor >= '0' && *cursor <= '9') cursor++;
    if (*cursor != ' ') return -1;
    cursor++;
    unsigned long long value = 0;
    if (*cursor < '0' || *cursor > '9') return -1;
    while (*cursor >= '0' && *cursor <= '9') value = value * 10 + (unsigned long long)(*cursor++ - '0');
    *nanoseconds = value;
    return 0;
#else
    (void)nanoseconds;
    return -1;
#endif
}

#ifdef __APPLE__
#include <mach/mach.h>
#include <time.h>

struct poolsize_semaphore {
    semaphore_t semaphore;
};

poolsize_semaphore *poolsize_semaphore_create(void) {
    poolsize_semaphore *result = malloc(sizeof(*result));
    if (result == NULL) return NULL;
    if (semaphore_create(mach_task_self(), &result->semaphore, SYNC_POLICY_FIFO, 0) != KERN_SUCCESS) {
        free(result);
        return NULL;
    }
    return result;
}

void poolsize_semaphore_post(poolsize_semaphore *semaphore) { semaphore_signal(semaphore->semaphore); }

// Mach's wait takes an interval: the one left until the deadline.
int poolsize_semaphore_wait(poolsize_semaphore *semaphore, const struct timespec *deadline) {
    for (;;) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        long long left = (long long)(deadline->tv_sec - now.tv_sec) * 1000000000LL + (deadline->tv_nsec - now.tv_nsec);
        if (left <= 0) return -1;
        mach_timespec_t interval = {(unsigned int)(left / 1000000000LL), (clock_res_t)(left % 1000000000LL)};
        kern_return_t status = semaphore_timedwait(semaphore->semaphore, interval);
        if (status == KERN_SUCCESS) return 0;
        if (status != KERN_ABORTED) return -1;
    }
}

void poolsize_semaphore_destroy(poolsize_semaphore *semaphore) {
    semaphore_destroy(mach_task_self(), semaphore->semaphore);
    free(semaphore);
}
#else
#include <semaphore.h>
#include <time.h>

struct poolsize_semaphore {
    sem_t semaphore;
};

poolsize_semaphore *poolsize_semaphore_create(void) {
    poolsize_semaphore *result = malloc(sizeof(*result));
    if (result == NULL) return NULL;
    if (sem_init(&result->semaphore, 0, 0) != 0) {
        free(result);
        return NULL;
    }
    return result;
}

void poolsize_semaphore_post(poolsize_semaphore *semaphore) { sem_post(&semaphore->semaphore); }

int poolsize_semaphore_wait(poolsize_semaphore *semaphore, const struct timespec *deadline) {
    int status;
    while ((status = sem_timedwait(&semaphore->semaphore, deadline)) != 0 && errno == EINTR) {}
    return status == 0 ? 0 : -1;
}

void poolsize_semaphore_destroy(poolsize_semaphore *semaphore) {
    sem_destroy(&semaphore->semaphore);
    free(semaphore);
}
#endif
