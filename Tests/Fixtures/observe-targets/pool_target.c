// A pthread pool with a known answer, for validating `poolsize observe` (scripts/benchmark-observe.sh,
// Tests/PoolSizeCLITests/ObserveCommandTests.swift).
//
// A feeder thread writes one byte per task into a pipe at a fixed rate. WORKERS threads named
// worker-1, worker-2, … wait for tasks in epoll_wait on that pipe (idle, as an event loop waits),
// read a byte, and run the task:
//   IO:  ask the device thread for data and block in read() on the worker's own pipe until the
//        device writes it, IO_MS after the request (a device with a fixed latency);
//   CPU: compute until the thread's CPU clock (CLOCK_THREAD_CPUTIME_ID) has advanced CPU_MS.
// Each worker measures its own truth: per task, the thread CPU (C), the wall time of the
// blocking read (the known IO wait), and the task's wall time. Once a second the totals are
// printed as a `tick` line (cumulative, with the wall clock), and on SIGTERM or SIGINT a final
// `truth` line:
//   tasks, tasks_per_s, cpu_ms_per_task, io_ms_per_task, wall_ms_per_task,
//   wc_io = io / cpu (the W/C observe's known-IO bound should find),
//   busy = task wall time / (workers × elapsed) (the busy fraction).
// With --count-file PATH, the running total of finished tasks is kept in PATH (written by the
// main thread every 100 ms to a temporary file renamed over it, so a reader never sees half a
// number, and no worker spends CPU on it):
// a counter for `observe --counter 'cat PATH'`.
//
// With --once it runs one such task alone and exits (a helper thread plays the device): the
// same task as a command, for `poolsize sweep --exec 'pool_target --once --io-ms 20 --cpu-ms 5'`
// (scripts/benchmark-observe.sh compares that sweep's knee with observe's size range).
//
// Build: cc -O2 -pthread -o pool_target pool_target.c -lm
// Usage: pool_target [--workers N] [--rate TASKS_PER_S] [--io-ms MS] [--cpu-ms MS] [--seconds S] [--count-file PATH]
//        pool_target --once [--io-ms MS] [--cpu-ms MS]
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#define MAX_WORKERS 64

static int workers = 4;
static double rate = 40, io_ms = 20, cpu_ms = 5, run_seconds = 0;
static int task_pipe[2], request_pipe[2], reply_pipe[MAX_WORKERS][2];
static const char *count_file = NULL;

struct totals {
    _Atomic uint64_t tasks, cpu_ns, io_ns, wall_ns;
};
static struct totals totals[MAX_WORKERS];

static uint64_t now_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void fail(const char *what) {
    fprintf(stderr, "pool_target: %s: %s\n", what, strerror(errno));
    exit(1);
}

// Writes the total into count_file whole: a temporary file renamed over it.
static void write_count(uint64_t total) {
    char temporary[4096], text[32];
    snprintf(temporary, sizeof temporary, "%s.tmp", count_file);
    int fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) fail("open count file");
    int length = snprintf(text, sizeof text, "%llu\n", (unsigned long long)total);
    if (write(fd, text, (size_t)length) != length) fail("write count file");
    close(fd);
    if (rename(temporary, count_file) < 0) fail("rename count file");
}

// Tasks arrive at a fixed rate: periodic work, which a fixed-rate sampler could alias with.
static void *feeder(void *unused) {
    (void)unused;
    pthread_setname_np(pthread_self(), "feeder");
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    uint64_t period = (uint64_t)(1e9 / rate);
    for (;;) {
        next.tv_nsec += (long)(period % 1000000000u);
        next.tv_sec += (time_t)(period / 1000000000u) + next.tv_nsec / 1000000000;
        next.tv_nsec %= 1000000000;
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {}
        char byte = 1;
        if (write(task_pipe[1], &byte, 1) < 0 && errno != EAGAIN) fail("write task");
    }
    return NULL;
}

// The device answers each request IO_MS after it arrived, in arrival order.
static void *device(void *unused) {
    (void)unused;
    pthread_setname_np(pthread_self(), "device");
    enum { capacity = 4096 };
    static uint64_t due[capacity];
    static unsigned char who[capacity];
    unsigned head = 0, tail = 0;
    uint64_t latency = (uint64_t)(io_ms * 1e6);
    for (;;) {
        uint64_t now = now_ns(CLOCK_MONOTONIC);
        while (head != tail && due[head % capacity] <= now) {
            char byte = 1;
            if (write(reply_pipe[who[head % capacity]][1], &byte, 1) < 0) fail("write reply");
            head++;
        }
        struct timespec timeout = {1, 0};
        if (head != tail) {
            uint64_t wait = due[head % capacity] - now;
            timeout.tv_sec = (time_t)(wait / 1000000000u);
            timeout.tv_nsec = (long)(wait % 1000000000u);
        }
        struct pollfd fd = {request_pipe[0], POLLIN, 0};
        int ready = ppoll(&fd, 1, &timeout, NULL);
        if (ready < 0 && errno != EINTR) fail("ppoll");
        if (ready > 0) {
            unsigned char requests[256];
            ssize_t count = read(request_pipe[0], requests, sizeof requests);
            uint64_t arrived = now_ns(CLOCK_MONOTONIC);
            for (ssize_t i = 0; i < count && tail - head < capacity; i++, tail++) {
                due[tail % capacity] = arrived + latency;
                who[tail % capacity] = requests[i];
            }
        }
    }
    return NULL;
}

static void *worker(void *argument) {
    int index = (int)(intptr_t)argument;
    char name[32];  // "worker-64" and its NUL fit the 16 bytes pthread_setname_np takes
    snprintf(name, sizeof name, "worker-%d", index + 1);
    pthread_setname_np(pthread_self(), name);
    int poller = epoll_create1(EPOLL_CLOEXEC);
    if (poller < 0) fail("epoll_create1");
    // One worker woken per task, as a pool's queue would hand it out.
    struct epoll_event interest = {.events = EPOLLIN | EPOLLEXCLUSIVE};
    if (epoll_ctl(poller, EPOLL_CTL_ADD, task_pipe[0], &interest) < 0) fail("epoll_ctl");
    uint64_t cpu_budget = (uint64_t)(cpu_ms * 1e6);
    volatile uint64_t sink = 0;
    for (;;) {
        struct epoll_event event;
        if (epoll_wait(poller, &event, 1, -1) < 0) {
            if (errno == EINTR) continue;
            fail("epoll_wait");
        }
        char byte;
        if (read(task_pipe[0], &byte, 1) != 1) continue;  // another worker took it
        uint64_t wall0 = now_ns(CLOCK_MONOTONIC), cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        unsigned char me = (unsigned char)index;
        if (write(request_pipe[1], &me, 1) != 1) fail("write request");
        uint64_t io0 = now_ns(CLOCK_MONOTONIC);
        while (read(reply_pipe[index][0], &byte, 1) < 0) {
            if (errno != EINTR) fail("read reply");
        }
        uint64_t io1 = now_ns(CLOCK_MONOTONIC);
        while (now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0 < cpu_budget) {
            for (int i = 0; i < 1000; i++) sink = sink * 6364136223846793005u + 1442695040888963407u;
        }
        uint64_t wall1 = now_ns(CLOCK_MONOTONIC), cpu1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
        atomic_fetch_add(&totals[index].cpu_ns, cpu1 - cpu0);
        atomic_fetch_add(&totals[index].io_ns, io1 - io0);
        atomic_fetch_add(&totals[index].wall_ns, wall1 - wall0);
        atomic_fetch_add(&totals[index].tasks, 1);
    }
    return NULL;
}

// --once: the device's part for one task, IO_MS after the start.
static void *answer_once(void *unused) {
    (void)unused;
    struct timespec delay = {(time_t)(io_ms / 1000), (long)(fmod(io_ms, 1000) * 1e6)};
    while (nanosleep(&delay, &delay) == -1 && errno == EINTR) {}
    char byte = 1;
    if (write(reply_pipe[0][1], &byte, 1) != 1) fail("write reply");
    return NULL;
}

// One task alone: block in read() until the helper answers, then compute CPU_MS.
static int run_once(void) {
    if (pipe2(reply_pipe[0], O_CLOEXEC)) fail("pipe");
    uint64_t cpu0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    pthread_t helper;
    pthread_create(&helper, NULL, answer_once, NULL);
    char byte;
    while (read(reply_pipe[0][0], &byte, 1) < 0) {
        if (errno != EINTR) fail("read reply");
    }
    volatile uint64_t sink = 0;
    uint64_t cpu_budget = (uint64_t)(cpu_ms * 1e6);
    while (now_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0 < cpu_budget) {
        for (int i = 0; i < 1000; i++) sink = sink * 6364136223846793005u + 1442695040888963407u;
    }
    pthread_join(helper, NULL);
    return 0;
}

static uint64_t total_tasks(void) {
    uint64_t tasks = 0;
    for (int i = 0; i < workers; i++) tasks += atomic_load(&totals[i].tasks);
    return tasks;
}

static void print_totals(const char *tag, uint64_t started) {
    uint64_t tasks = 0, cpu = 0, io = 0, wall = 0;
    for (int i = 0; i < workers; i++) {
        tasks += atomic_load(&totals[i].tasks);
        cpu += atomic_load(&totals[i].cpu_ns);
        io += atomic_load(&totals[i].io_ns);
        wall += atomic_load(&totals[i].wall_ns);
    }
    double elapsed = (double)(now_ns(CLOCK_MONOTONIC) - started) / 1e9;
    double n = tasks ? (double)tasks : 1;
    printf("%s epoch_s=%.3f elapsed_s=%.3f workers=%d tasks=%llu tasks_per_s=%.2f cpu_ms_per_task=%.4f io_ms_per_task=%.4f "
           "wall_ms_per_task=%.4f wc_io=%.4f busy=%.4f cpu_ns=%llu io_ns=%llu wall_ns=%llu\n",
           tag, (double)now_ns(CLOCK_REALTIME) / 1e9, elapsed, workers, (unsigned long long)tasks, (double)tasks / elapsed,
           (double)cpu / n / 1e6, (double)io / n / 1e6, (double)wall / n / 1e6, cpu ? (double)io / (double)cpu : 0,
           (double)wall / ((double)workers * elapsed * 1e9), (unsigned long long)cpu, (unsigned long long)io,
           (unsigned long long)wall);
    fflush(stdout);
}

int main(int argc, char **argv) {
    int once = 0;
    for (int i = 1; i < argc && !strcmp(argv[i], "--once"); i++) {
        once = 1;
        memmove(&argv[i], &argv[i + 1], (size_t)(argc - i) * sizeof *argv);
        argc--;
    }
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--workers")) workers = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--rate")) rate = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--io-ms")) io_ms = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--cpu-ms")) cpu_ms = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--seconds")) run_seconds = atof(argv[i + 1]);
        else if (!strcmp(argv[i], "--count-file")) count_file = argv[i + 1];
        else { fprintf(stderr, "pool_target: unknown option %s\n", argv[i]); return 64; }
    }
    if (workers < 1 || workers > MAX_WORKERS || rate <= 0 || io_ms < 0 || cpu_ms <= 0) {
        fprintf(stderr, "usage: pool_target [--workers 1-%d] [--rate R>0] [--io-ms MS] [--cpu-ms MS>0] [--seconds S] [--count-file PATH]\n", MAX_WORKERS);
        return 64;
    }
    if (once) return run_once();
    // Signals wait for the main thread's sigtimedwait: no handler runs inside a worker.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    if (pipe2(task_pipe, O_CLOEXEC | O_NONBLOCK) || pipe2(request_pipe, O_CLOEXEC)) fail("pipe");
    for (int i = 0; i < workers; i++) if (pipe2(reply_pipe[i], O_CLOEXEC)) fail("pipe");
    if (count_file) write_count(0);
    uint64_t started = now_ns(CLOCK_MONOTONIC);
    pthread_t thread;
    for (int i = 0; i < workers; i++) pthread_create(&thread, NULL, worker, (void *)(intptr_t)i);
    pthread_create(&thread, NULL, device, NULL);
    pthread_create(&thread, NULL, feeder, NULL);
    printf("ready pid=%d workers=%d rate=%.2f io_ms=%.3f cpu_ms=%.3f\n", getpid(), workers, rate, io_ms, cpu_ms);
    fflush(stdout);
    // Ticks of 100 ms: the count file follows the tasks closely while the workers never pay
    // for writing it (their CPU is the truth observe is checked against); totals once a second.
    for (int tenth = 1;; tenth++) {
        struct timespec tick = {0, 100000000L};
        int caught = sigtimedwait(&stop, NULL, &tick);
        if (count_file) write_count(total_tasks());
        if (caught == SIGTERM || caught == SIGINT || (run_seconds > 0 && tenth >= 10 * run_seconds)) break;
        if (tenth % 10 == 0) print_totals("tick", started);
    }
    print_totals("truth", started);
    return 0;
}
