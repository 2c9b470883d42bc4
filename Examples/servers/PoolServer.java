// A thread-per-request Java server with a fixed pool: the JDK's own HTTP server handing each
// request to Executors.newFixedThreadPool(threads), the shape of a servlet container's worker
// pool. Run from source (Java 11 or later), no build step:
//
//     java Examples/servers/PoolServer.java --threads {size} --port {port} --cpu-ms 2 --sleep-ms 18
//
// Each request burns --cpu-ms of its thread's CPU (a busy loop until the thread's CPU clock has
// advanced that far), then sleeps --sleep-ms holding the thread, then answers 200 "ok". Listens
// on 127.0.0.1 only; --port 0 takes a free port. Prints one line once it listens; SIGTERM (or
// Ctrl-C) stops it.
//
// GET /pool?threads=N resizes the running pool to N threads (ThreadPoolExecutor's own setters,
// as a container's admin interface does), so a sweep can resize it in place instead of
// restarting the JVM:
//
//     --resize 'curl -fsS http://127.0.0.1:{port}/pool?threads={size}' --settle 0s

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

public final class PoolServer {
    private static final byte[] BODY = "ok\n".getBytes(StandardCharsets.US_ASCII);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Written by the burn loop so the JIT cannot drop the loop's work as unused. */
    private static volatile long sink;

    public static void main(String[] args) throws IOException {
        int threads = 0;
        int port = -1;
        double cpuMs = 0;
        double sleepMs = 0;
        for (int i = 0; i < args.length; i += 2) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                usage(flag + " needs a value");
            }
            String value = args[i + 1];
            switch (flag) {
                case "--threads" -> threads = (int) whole(flag, value, 1, 10_000);
                case "--port" -> port = (int) whole(flag, value, 0, 65_535);
                case "--cpu-ms" -> cpuMs = number(flag, value, 0, 60_000);
                case "--sleep-ms" -> sleepMs = number(flag, value, 0, 600_000);
                default -> usage(flag + " is not an option");
            }
        }
        if (threads == 0 || port < 0) {
            usage("--threads and --port are required");
        }
        if (!THREADS.isCurrentThreadCpuTimeSupported()) {
            System.err.println("PoolServer: this JVM cannot read a thread's CPU time, so --cpu-ms cannot be burnt");
            System.exit(69);
        }
        THREADS.setThreadCpuTimeEnabled(true);

        long cpuNanos = Math.round(cpuMs * 1e6);
        long sleepNanos = Math.round(sleepMs * 1e6);
        // The JDK's server writes an answer's headers and body apart and leaves Nagle's
        // algorithm on: a lone request's body then waits for the client's delayed ACK (about
        // 40 ms), a wait that holds no pool thread. Off, as servers meant for load usually are.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        ThreadPoolExecutor pool = (ThreadPoolExecutor) Executors.newFixedThreadPool(threads);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.createContext("/", exchange -> serve(exchange, cpuNanos, sleepNanos));
        server.createContext("/pool", exchange -> resize(exchange, pool));
        server.setExecutor(pool);
        server.start();
        // The JVM runs this on SIGTERM and Ctrl-C: stop accepting, end the workers, exit.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            pool.shutdownNow();
        }));
        System.out.printf(
                "PoolServer: listening on http://127.0.0.1:%d/ with a fixed pool of %d thread(s); "
                        + "per request %s ms CPU, then %s ms sleep holding the thread%n",
                server.getAddress().getPort(), threads, plain(cpuMs), plain(sleepMs));
        System.out.flush();
    }

    private static void serve(HttpExchange exchange, long cpuNanos, long sleepNanos) throws IOException {
        try {
            // Read what the client sent, so the connection can carry its next request.
            try (InputStream body = exchange.getRequestBody()) {
                body.transferTo(OutputStream.nullOutputStream());
            }
            burn(cpuNanos);
            if (sleepNanos > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(sleepNanos);
                } catch (InterruptedException stopping) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.sendResponseHeaders(200, BODY.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(BODY);
            }
        } finally {
            exchange.close();
        }
    }

    /** GET /pool?threads=N: the pool set to N threads, all started, and its size in the answer;
     * 400 naming the parameter for anything else. */
    private static void resize(HttpExchange exchange, ThreadPoolExecutor pool) throws IOException {
        String query = exchange.getRequestURI().getQuery();
        int threads = -1;
        if (query != null && query.startsWith("threads=")) {
            try {
                threads = Integer.parseInt(query.substring("threads=".length()));
            } catch (NumberFormatException notANumber) {
                threads = -1;
            }
        }
        byte[] answer;
        int status;
        if (threads >= 1 && threads <= 10_000) {
            // The core size may never exceed the maximum: grow the maximum first, shrink it last.
            if (threads > pool.getMaximumPoolSize()) {
                pool.setMaximumPoolSize(threads);
                pool.setCorePoolSize(threads);
            } else {
                pool.setCorePoolSize(threads);
                pool.setMaximumPoolSize(threads);
            }
            pool.prestartAllCoreThreads();
            answer = ("threads " + threads + "\n").getBytes(StandardCharsets.US_ASCII);
            status = 200;
        } else {
            answer = "give /pool?threads=N with N from 1 to 10000\n".getBytes(StandardCharsets.US_ASCII);
            status = 400;
        }
        try (InputStream body = exchange.getRequestBody()) {
            body.transferTo(OutputStream.nullOutputStream());
        }
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(status, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
        exchange.close();
    }

    /** Runs until this thread's CPU clock has advanced `nanos`, reading it every few thousand
     * additions so the clock's own cost is a small part of the CPU burnt. */
    private static void burn(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long target = THREADS.getCurrentThreadCpuTime() + nanos;
        long total = 0;
        while (THREADS.getCurrentThreadCpuTime() < target) {
            for (int i = 0; i < 2_000; i++) {
                total += i * 31L ^ total;
            }
        }
        sink = total;
    }

    private static double number(String flag, String value, double least, double most) {
        double parsed;
        try {
            parsed = Double.parseDouble(value);
        } catch (NumberFormatException notANumber) {
            parsed = Double.NaN;
        }
        if (!(parsed >= least && parsed <= most)) {
            usage(flag + " " + value + ": give a number from " + plain(least) + " to " + plain(most));
        }
        return parsed;
    }

    private static double whole(String flag, String value, double least, double most) {
        double parsed = number(flag, value, least, most);
        if (parsed != Math.rint(parsed)) {
            usage(flag + " " + value + ": give a whole number");
        }
        return parsed;
    }

    private static String plain(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }

    private static void usage(String problem) {
        System.err.println("PoolServer: " + problem
                + "; usage: java PoolServer.java --threads N --port P [--cpu-ms MS] [--sleep-ms MS]");
        System.exit(64);
    }
}
