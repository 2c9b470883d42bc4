// A Java thread pool with a known answer, for validating `poolsize observe`
// (scripts/benchmark-observe.sh).
//
// A feeder thread submits tasks at RATE a second to a ThreadPoolExecutor of WORKERS threads named
// pool-worker-1, pool-worker-2, …: evenly spaced (ARRIVAL fixed) or at exponential gaps (poisson,
// seeded, so bursts queue as a service's requests do). Each task makes one blocking HTTP GET to
// URL (`poolsize serve --delay 20ms` on 127.0.0.1: the known IO wait) with HttpURLConnection,
// which keeps its connection alive between tasks, and computes until the thread's CPU time
// (ThreadMXBean) has advanced CPU_MS: after the GET (ORDER io-first) or before it (cpu-first). Each task measures its own truth: the thread CPU across the task (C), the
// wall time of the HTTP call (the known IO wait) and the task's wall time. Idle workers wait in
// the executor's queue (LinkedBlockingQueue.take: a futex, which observe must call ambiguous).
// Once a second a cumulative `tick` line is printed; on SIGTERM or SIGINT (a shutdown hook) a
// final `truth` line: tasks_per_s, cpu_ms_per_task, io_ms_per_task, wall_ms_per_task,
// wc_io = io / cpu, busy = task wall time / (workers × elapsed); io_queue_ns is the part of the
// GET's time the thread spent runnable, waiting for a core (its schedstat run delay).
//
// Build: javac -d DIR PoolTarget.java
// Run: java -cp DIR PoolTarget URL [WORKERS] [RATE] [CPU_MS] [fixed|poisson] [io-first|cpu-first]
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

public final class PoolTarget {
    static final AtomicLong tasks = new AtomicLong(), cpuNanos = new AtomicLong(), ioNanos = new AtomicLong(), wallNanos = new AtomicLong();
    static final AtomicLong failures = new AtomicLong(), ioQueueNanos = new AtomicLong();
    static final ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: java PoolTarget URL [WORKERS] [RATE] [CPU_MS] [fixed|poisson] [io-first|cpu-first]");
            System.exit(64);
        }
        URL url = new URL(args[0]);
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        double rate = args.length > 2 ? Double.parseDouble(args[2]) : 40;
        double cpuMillis = args.length > 3 ? Double.parseDouble(args[3]) : 5;
        long cpuBudget = (long) (cpuMillis * 1e6);
        boolean poisson = args.length > 4 && args[4].equals("poisson");
        boolean cpuFirst = args.length > 5 && args[5].equals("cpu-first");
        if ((args.length > 4 && !poisson && !args[4].equals("fixed")) || (args.length > 5 && !cpuFirst && !args[5].equals("io-first"))) {
            System.err.println("usage: java PoolTarget URL [WORKERS] [RATE] [CPU_MS] [fixed|poisson] [io-first|cpu-first]");
            System.exit(64);
        }
        AtomicInteger counter = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(workers, workers, 1, TimeUnit.HOURS, new LinkedBlockingQueue<>(),
                task -> new Thread(task, "pool-worker-" + counter.incrementAndGet()));
        pool.prestartAllCoreThreads();
        long started = System.nanoTime();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> print("truth", started, workers), "shutdown"));
        Thread feeder = new Thread(() -> {
            double period = 1e9 / rate;
            SplittableRandom random = new SplittableRandom(42);
            long next = System.nanoTime();
            while (true) {
                next += (long) (poisson ? -Math.log(1 - random.nextDouble()) * period : period);
                long wait;
                while ((wait = next - System.nanoTime()) > 0) LockSupport.parkNanos(wait);
                pool.execute(() -> task(url, cpuBudget, cpuFirst));
            }
        }, "feeder");
        feeder.setDaemon(true);
        feeder.start();
        System.out.printf(Locale.ROOT, "ready pid=%d workers=%d rate=%.2f cpu_ms=%.3f arrival=%s order=%s url=%s%n", ProcessHandle.current().pid(), workers, rate, cpuMillis,
                poisson ? "poisson" : "fixed", cpuFirst ? "cpu-first" : "io-first", url);
        System.out.flush();
        while (true) {
            Thread.sleep(1000);
            print("tick", started, workers);
        }
    }

    static void task(URL url, long cpuBudget, boolean cpuFirst) {
        long wall0 = System.nanoTime(), cpu0 = cpu.getCurrentThreadCpuTime();
        if (cpuFirst) compute(cpu0, cpuBudget);
        long queue0 = runQueueNanos(), io0 = System.nanoTime();
        try {
            HttpURLConnection connection = (HttpURLConnection) url.openConnection();
            try (InputStream body = connection.getInputStream()) {
                body.readAllBytes();  // read to the end: the connection goes back to the keep-alive cache
            }
        } catch (Exception error) {
            failures.incrementAndGet();
        }
        long io1 = System.nanoTime(), queue1 = runQueueNanos();
        if (!cpuFirst) compute(cpu0, cpuBudget);
        long wall1 = System.nanoTime(), cpu1 = cpu.getCurrentThreadCpuTime();
        cpuNanos.addAndGet(cpu1 - cpu0);
        ioNanos.addAndGet(io1 - io0);
        if (queue0 >= 0 && queue1 >= 0) ioQueueNanos.addAndGet(queue1 - queue0);
        wallNanos.addAndGet(wall1 - wall0);
        tasks.incrementAndGet();
    }

    /**
     * This thread's time waiting for a core since it started (schedstat's second field), or -1
     * where the kernel has none: the part of the GET spent runnable, not blocked.
     */
    static long runQueueNanos() {
        try {
            String text = new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/thread-self/schedstat")));
            return Long.parseLong(text.trim().split(" ")[1]);
        } catch (Exception error) {
            return -1;
        }
    }

    /** Computes until this thread's CPU time is `budget` past `cpu0`. */
    static void compute(long cpu0, long budget) {
        long x = sink;
        while (cpu.getCurrentThreadCpuTime() - cpu0 < budget) {
            for (int i = 0; i < 1000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink = x;
    }

    static synchronized void print(String tag, long started, int workers) {
        long n = tasks.get(), c = cpuNanos.get(), io = ioNanos.get(), wall = wallNanos.get();
        double elapsed = (System.nanoTime() - started) / 1e9, per = Math.max(1, n);
        System.out.printf(Locale.ROOT, "%s epoch_s=%.3f elapsed_s=%.3f workers=%d tasks=%d tasks_per_s=%.2f cpu_ms_per_task=%.4f io_ms_per_task=%.4f "
                + "wall_ms_per_task=%.4f wc_io=%.4f busy=%.4f cpu_ns=%d io_ns=%d io_queue_ns=%d wall_ns=%d failures=%d%n",
                tag, System.currentTimeMillis() / 1e3, elapsed, workers, n, n / elapsed, c / per / 1e6, io / per / 1e6, wall / per / 1e6,
                c > 0 ? (double) io / c : 0, wall / (workers * elapsed * 1e9), c, io, ioQueueNanos.get(), wall, failures.get());
        System.out.flush();
    }
}
