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

#ifdef __linux__
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

// The guardian runs in a child forked from a multithreaded process without exec: it makes
// only system calls (async-signal-safe), allocates nothing and takes no lock.

static void guard_report(int fd, int32_t kind, int32_t value) {
    int32_t message[2] = {kind, value};
    // Eight bytes are written whole (under PIPE_BUF); EPIPE once observe is gone (SIGPIPE ignored).
    while (write(fd, message, sizeof message) < 0 && errno == EINTR) {}
}

// Up to `capacity` children of the calling (single-threaded) process, from
// /proc/thread-self/children; the number found, or -1 when the file cannot be read.
static int guard_children(pid_t *pids, int capacity) {
    int fd = open("/proc/thread-self/children", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[4096];
    int count = 0;
    long value = -1;
    ssize_t length;
    while (count < capacity && (length = read(fd, buffer, sizeof buffer)) != 0) {
        if (length < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (ssize_t i = 0; i < length && count < capacity; i++) {
            if (buffer[i] >= '0' && buffer[i] <= '9') {
                value = (value < 0 ? 0 : value * 10) + (buffer[i] - '0');
            } else if (value >= 0) {
                pids[count++] = (pid_t)value;
                value = -1;
            }
        }
    }
    if (value >= 0 && count < capacity) pids[count++] = (pid_t)value;
    close(fd);
    return count;
}

static void guard_signal(int number, void (*handler)(int)) {
    struct sigaction action;
    action.sa_handler = handler;
    action.sa_flags = 0;
    sigemptyset(&action.sa_mask);
    sigaction(number, &action, NULL);
}

static const int guard_ignored[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU};

// The guardian's own name in place of the command line it was forked with (argv's memory, which
// /proc/PID/cmdline reads), so `pkill -f poolsize` passes it by. Only when that memory still
// holds exactly what /proc shows (argv[0] first, glibc's program_invocation_name); else as it is.
static void guard_retitle(const char *title) {
    char *area = program_invocation_name;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (area == NULL || fd < 0) {
        if (fd >= 0) close(fd);
        return;
    }
    char buffer[1024];
    size_t length = 0;
    ssize_t got;
    while ((got = read(fd, buffer, sizeof buffer)) != 0) {
        if (got < 0) {
            if (errno == EINTR) continue;
            close(fd);
            return;
        }
        if (memcmp(area + length, buffer, (size_t)got) != 0) {
            close(fd);
            return;
        }
        length += (size_t)got;
    }
    close(fd);
    size_t size = strlen(title);
    for (size_t i = 0; i < length; i++) area[i] = i < size ? title[i] : '\0';
}

static void guardian(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd,
                     int control, int report, int new_session) {
    // Ended by observe (EOF on `control`), not by the signals a terminal or a supervisor sends
    // to observe's process group; the handlers observe installed mean nothing here.
    for (size_t i = 0; i < sizeof guard_ignored / sizeof guard_ignored[0]; i++) guard_signal(guard_ignored[i], SIG_IGN);
    // Killed together with observe, the guardian could stop nothing: the target died of
    // PR_SET_PDEATHSIG and its children, which that signal does not reach, ran on under init.
    // So it leaves observe's process group (`kill -9 %1`, `kill -9 -- -PGID` and a terminal's
    // signals pass it by) and its name (`killall -9 poolsize`, `pkill -9 poolsize` too), and
    // outlives observe long enough to stop everything below it.
    setpgid(0, 0);
    prctl(PR_SET_NAME, "guardian", 0, 0, 0);
    guard_retitle("guardian");
    const int crashes[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) guard_signal(crashes[i], SIG_DFL);
    // Orphans below us come to us, not to init: a descendant that left the target's group and
    // session (setsid, a daemon's double fork) is still ours to stop.
    prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    // Only what the guardian needs stays open, at 3 to 6 (close-on-exec): none of observe's
    // descriptors (its stdout a test or a pipeline reads to the end, say) is held past observe.
    int keep[4] = {control, report, out_fd, err_fd}, high = 7;
    for (int i = 0; i < 4; i++) high = keep[i] >= high ? keep[i] + 1 : high;
    for (int i = 0; i < 4; i++) keep[i] = fcntl(keep[i], F_DUPFD, high);
    for (int i = 0; i < 4; i++) {
        dup2(keep[i], 3 + i);
        fcntl(3 + i, F_SETFD, FD_CLOEXEC);
    }
    syscall(SYS_close_range, 7U, ~0U, 0U);
    control = 3, report = 4, out_fd = 5, err_fd = 6;
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
        dup2(null, 0);
        dup2(null, 1);
        dup2(null, 2);
        close(null);
    }
    sigset_t chld, empty;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &chld, NULL);
    int children = signalfd(-1, &chld, SFD_CLOEXEC);

    int exec_error[2];
    if (pipe2(exec_error, O_CLOEXEC) != 0) {
        guard_report(report, 2, errno);
        _exit(0);
    }
    pid_t self = getpid();
    pid_t target = fork();
    if (target == 0) {
        for (size_t i = 0; i < sizeof guard_ignored / sizeof guard_ignored[0]; i++) {
            guard_signal(guard_ignored[i], SIG_DFL);
        }
        int error = 0, tell = exec_error[1];
        // A server leads a session of its own (its group too): whatever it forks stays in
        // that session unless it calls setsid itself, and no terminal's signal reaches it.
        if ((new_session ? setsid() < 0 : setpgid(0, 0) != 0) || prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) error = errno;
        // The guardian died before the signal was armed: die now, as the signal would have.
        if (!error && getppid() != self) _exit(127);
        // stdout and stderr, then the exec-error pipe at 3 (close-on-exec) and nothing else.
        if (!error && (dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0 || dup2(exec_error[1], 3) < 0)) error = errno;
        if (!error) {
            tell = 3;
            fcntl(3, F_SETFD, FD_CLOEXEC);
            syscall(SYS_close_range, 4U, ~0U, 0U);
            sigprocmask(SIG_SETMASK, &empty, NULL);
            execve(path, argv, envp);
            error = errno;
        }
        int32_t code = error ? error : ENOEXEC;
        while (write(tell, &code, sizeof code) < 0 && errno == EINTR) {}
        _exit(127);
    }
    close(exec_error[1]);
    close(out_fd);
    close(err_fd);
    if (target < 0) {
        guard_report(report, 2, errno);
        _exit(0);
    }
    int32_t code = 0;
    ssize_t got;
    while ((got = read(exec_error[0], &code, sizeof code)) < 0 && errno == EINTR) {}
    close(exec_error[0]);
    if (got == (ssize_t)sizeof code) {
        while (waitpid(target, NULL, 0) < 0 && errno == EINTR) {}
        guard_report(report, 2, code);
        _exit(0);
    }
    guard_report(report, 1, target);

    // Until observe closes `control` (the observation is over, or observe died): reap whatever
    // exits below, and tell observe when the target did.
    int status;
    pid_t done;
    for (;;) {
        struct pollfd watched[2] = {{control, POLLIN, 0}, {children, POLLIN, 0}};
        int ready = poll(watched, children >= 0 ? 2 : 1, children >= 0 ? -1 : 100);
        if (ready < 0 && errno != EINTR) break;
        if (children >= 0 && (watched[1].revents & POLLIN)) {
            struct signalfd_siginfo info;
            while (read(children, &info, sizeof info) < 0 && errno == EINTR) {}
        }
        while ((done = waitpid(-1, &status, WNOHANG)) > 0) {
            if (done == target) guard_report(report, 3, status);
        }
        if (watched[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            char byte;
            ssize_t length = read(control, &byte, 1);
            if (length == 0 || (length < 0 && errno != EINTR && errno != EAGAIN)) break;
        }
    }
    // Stop everything below: the target's group, then every child left (adopted orphans too),
    // round by round, since a killed process hands its own children to us as it exits.
    kill(-target, SIGKILL);
    pid_t left[256];
    for (int round = 0; round < 1000; round++) {
        int count = guard_children(left, 256);
        if (count <= 0) break;
        for (int i = 0; i < count; i++) kill(left[i], SIGKILL);
        for (int i = 0; i < count; i++) {
            while ((done = waitpid(left[i], &status, 0)) < 0 && errno == EINTR) {}
            if (done == target) guard_report(report, 3, status);
        }
    }
    while (waitpid(-1, NULL, WNOHANG) > 0) {}
    _exit(0);
}
#endif

static int spawn_guarded(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd,
                         int new_session, int *target_pid, int *guardian_pid, int *control_fd, int *report_fd) {
#ifdef __linux__
    int control[2], report[2];
    if (pipe2(control, O_CLOEXEC) != 0) return errno;
    if (pipe2(report, O_CLOEXEC) != 0) {
        int error = errno;
        close(control[0]);
        close(control[1]);
        return error;
    }
    // Every signal blocked across fork: no handler of observe's may run in the guardian before
    // it has set its own.
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t guard = fork();
    if (guard == 0) {
        close(control[1]);
        close(report[0]);
        guardian(path, argv, envp, out_fd, err_fd, control[0], report[1], new_session);
        _exit(0);
    }
    int fork_error = guard < 0 ? errno : 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(control[0]);
    close(report[1]);
    if (fork_error) {
        close(control[1]);
        close(report[0]);
        return fork_error;
    }
    int32_t message[2] = {0, 0};
    ssize_t got;
    while ((got = read(report[0], message, sizeof message)) < 0 && errno == EINTR) {}
    if (got != (ssize_t)sizeof message || message[0] != 1) {
        close(control[1]);
        close(report[0]);
        while (waitpid(guard, NULL, 0) < 0 && errno == EINTR) {}
        return got == (ssize_t)sizeof message && message[0] == 2 ? message[1] : ECHILD;
    }
    *target_pid = message[1];
    *guardian_pid = guard;
    *control_fd = control[1];
    *report_fd = report[0];
    return 0;
#else
    (void)path; (void)argv; (void)envp; (void)out_fd; (void)err_fd; (void)new_session;
    (void)target_pid; (void)guardian_pid; (void)control_fd; (void)report_fd;
    return ENOSYS;
#endif
}

int poolsize_spawn_guarded(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd,
                           int *target_pid, int *guardian_pid, int *control_fd, int *report_fd) {
    return spawn_guarded(path, argv, envp, out_fd, err_fd, 0, target_pid, guardian_pid, control_fd, report_fd);
}

int poolsize_spawn_guarded_session(const char *path, char *const argv[], char *const envp[], int out_fd, int err_fd,
                                   int *target_pid, int *guardian_pid, int *control_fd, int *report_fd) {
    return spawn_guarded(path, argv, envp, out_fd, err_fd, 1, target_pid, guardian_pid, control_fd, report_fd);
}
