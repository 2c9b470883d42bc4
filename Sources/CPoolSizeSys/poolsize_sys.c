#define _GNU_SOURCE
#include "poolsize_sys.h"
#include <errno.h>
#include <pthread.h>
#include <sys/resource.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#endif

// Thread ids, timer slack, the affinity mask and a thread's own nice are Linux's (a thread is
// a task with its own id and priority there). Elsewhere these say they cannot (-1, ENOSYS) and
// the callers fall back: no slack, the online CPUs, the nice not recorded (docs/platform.md).
#ifdef __linux__
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
#else
int poolsize_gettid(void) {
#ifdef __APPLE__
    uint64_t id = 0;
    pthread_threadid_np(NULL, &id);
    return (int)id;
#else
    return -1;
#endif
}

int poolsize_set_timer_slack_ns(unsigned long nanoseconds) {
    (void)nanoseconds;
    errno = ENOSYS;
    return -1;
}

int poolsize_affinity_cpu_count(void) {
    errno = ENOSYS;
    return -1;
}

// Not setpriority: its PRIO_PROCESS takes a process id, and a thread id may name another process.
int poolsize_set_thread_nice(int tid, int nice) {
    (void)tid;
    (void)nice;
    return ENOSYS;
}

int poolsize_get_thread_nice(int tid, int *ok) {
    (void)tid;
    *ok = 0;
    return 0;
}
#endif

int poolsize_spawn_close_from(void *actions, int from) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, from);
#else
    (void)actions; (void)from;
    return ENOSYS;
#endif
}

#include <fcntl.h>
#include <signal.h>
#include <pthread.h>
#include <sys/wait.h>

#ifdef __linux__
static int poolsize_redirect(const char *path, int flags, int target) {
    int fd = open(path, flags, 0644);
    if (fd < 0) return -1;
    if (fd != target) {
        if (dup2(fd, target) < 0) return -1;
        close(fd);
    }
    return 0;
}
#endif

// The spawn behind poolsize_spawn_group and poolsize_spawn_group_fds: stdout and stderr are
// the files at out_path and err_path when those are set, else the descriptors out_fd and err_fd.
static int poolsize_spawn(const char *path, char *const argv[], char *const envp[],
                          const char *out_path, const char *err_path, int out_fd, int err_fd, int *pid_out) {
#ifdef __linux__
    // Every signal blocked across vfork: no handler of the parent may run on the child's
    // borrowed stack; the child sets its own mask before exec.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    volatile int child_error = 0;
    pid_t parent = getpid();
    pid_t pid = vfork();
    if (pid == 0) {
        struct sigaction dfl;
        dfl.sa_handler = SIG_DFL;
        dfl.sa_flags = 0;
        sigemptyset(&dfl.sa_mask);
        sigaction(SIGINT, &dfl, NULL);
        sigaction(SIGTERM, &dfl, NULL);
        if (setpgid(0, 0) != 0 || prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) goto fail;
        // The parent died before the signal was armed: die now, as the signal would have.
        if (getppid() != parent) _exit(127);
        if (poolsize_redirect("/dev/null", O_RDONLY, 0) != 0) goto fail;
        if (out_path) {
            if (poolsize_redirect(out_path, O_WRONLY | O_CREAT | O_TRUNC, 1) != 0) goto fail;
            if (poolsize_redirect(err_path, O_WRONLY | O_CREAT | O_TRUNC, 2) != 0) goto fail;
        } else {
            if (dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0) goto fail;
        }
        syscall(SYS_close_range, 3U, ~0U, 0U);
        sigset_t empty;
        sigemptyset(&empty);
        sigprocmask(SIG_SETMASK, &empty, NULL);
        execve(path, argv, envp);
    fail:
        child_error = errno ? errno : ENOEXEC;
        _exit(127);
    }
    int spawn_error = pid < 0 ? errno : 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (spawn_error) return spawn_error;
    if (child_error) {
        waitpid(pid, NULL, 0);
        return child_error;
    }
    *pid_out = pid;
    return 0;
#else
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (out_path) {
        posix_spawn_file_actions_addopen(&actions, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    } else {
        posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
        posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
    }
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults, empty;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGTERM);
    sigemptyset(&empty);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setsigmask(&attributes, &empty);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);
    pid_t pid = 0;
    int result = posix_spawn(&pid, path, &actions, &attributes, argv, envp);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (result == 0) *pid_out = pid;
    return result;
#endif
}

int poolsize_spawn_group(const char *path, char *const argv[], char *const envp[],
                         const char *out_path, const char *err_path, int *pid_out) {
    return poolsize_spawn(path, argv, envp, out_path, err_path, -1, -1, pid_out);
}

int poolsize_spawn_group_fds(const char *path, char *const argv[], char *const envp[],
                             int out_fd, int err_fd, int *pid_out) {
    return poolsize_spawn(path, argv, envp, NULL, NULL, out_fd, err_fd, pid_out);
}

int poolsize_unlinked_file(const char *directory) {
    int fd;
#ifdef O_TMPFILE
    fd = open(directory, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    // Some file systems cannot make a file without a name: make one and unlink it at once.
#endif
    char path[4096];
    size_t length = strlen(directory);
    const char *name = "/poolsize-XXXXXX";
    if (length + strlen(name) + 1 > sizeof(path)) { errno = ENAMETOOLONG; return -1; }
    memcpy(path, directory, length);
    memcpy(path + length, name, strlen(name) + 1);
    fd = mkostemp(path, O_CLOEXEC);
    if (fd < 0) return -1;
    unlink(path);
    return fd;
}

int poolsize_become_subreaper(void) {
#ifdef PR_SET_CHILD_SUBREAPER
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : errno;
#else
    return ENOSYS;
#endif
}

// A timer descriptor is Linux's (timerfd); elsewhere the caller polls in milliseconds.
#ifdef __linux__
int poolsize_timer_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

int poolsize_timer_arm(int fd, unsigned long long deadline_ns) {
    struct itimerspec when = {0};
    // 0 would disarm the timer: the earliest instant there is expires at once instead.
    if (deadline_ns == 0) deadline_ns = 1;
    when.it_value.tv_sec = (time_t)(deadline_ns / 1000000000ULL);
    when.it_value.tv_nsec = (long)(deadline_ns % 1000000000ULL);
    return timerfd_settime(fd, TFD_TIMER_ABSTIME, &when, NULL) == 0 ? 0 : errno;
}
#else
int poolsize_timer_create(void) {
    errno = ENOSYS;
    return -1;
}

int poolsize_timer_arm(int fd, unsigned long long deadline_ns) {
    (void)fd;
    (void)deadline_ns;
    return ENOSYS;
}
#endif
