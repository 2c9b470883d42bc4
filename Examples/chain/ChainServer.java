// A Java service whose pools come in a chain: the JDK's HTTP server hands each request to a
// fixed pool of --threads threads, and each request borrows one of --pool connections from a
// HikariCP pool (maximumPoolSize) to PostgreSQL through the JDBC driver, the shape of Tomcat's
// maxThreads feeding a HikariCP pool. Run from source (Java 11 or later), no build step, with
// Debian's jars (apt-get install libhikaricp-java libpostgresql-jdbc-java):
//
//     java -cp /usr/share/java/HikariCP.jar:/usr/share/java/postgresql.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-nop.jar \
//         Examples/chain/ChainServer.java --threads {threads} --pool {pool} --port {port}
//
// A request burns --cpu-ms of its thread's CPU, then borrows a connection and runs one query
// that holds it for --query-ms of the database's time (pg_sleep, as a query waiting on IO
// would), then answers 200 "ok". A request that waits --pool-wait-ms for a connection, or whose
// query fails, answers 503 with the reason. DATABASE_URL is the database's libpq URL
// (postgresql://USER[:PASSWORD]@HOST:PORT/DB). The pool opens all its connections before the
// server listens, so a cell holds the connections it says from its first request. Listens on
// 127.0.0.1 only; prints one line once it listens; SIGTERM (or Ctrl-C) stops it.

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

public final class ChainServer {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Written by the burn loop so the JIT cannot drop the loop's work as unused. */
    private static volatile long sink;

    public static void main(String[] args) throws IOException, InterruptedException {
        int threads = 0;
        int poolSize = 0;
        int port = -1;
        double cpuMs = 1;
        double queryMs = 5;
        double poolWaitMs = 10_000;
        for (int i = 0; i < args.length; i += 2) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                usage(flag + " needs a value");
            }
            String value = args[i + 1];
            switch (flag) {
                case "--threads" -> threads = (int) whole(flag, value, 1, 10_000);
                case "--pool" -> poolSize = (int) whole(flag, value, 1, 10_000);
                case "--port" -> port = (int) whole(flag, value, 0, 65_535);
                case "--cpu-ms" -> cpuMs = number(flag, value, 0, 60_000);
                case "--query-ms" -> queryMs = number(flag, value, 0, 600_000);
                // HikariCP refuses a connectionTimeout under 250 ms.
                case "--pool-wait-ms" -> poolWaitMs = whole(flag, value, 250, 600_000);
                default -> usage(flag + " is not an option");
            }
        }
        if (threads == 0 || poolSize == 0 || port < 0) {
            usage("--threads, --pool and --port are required");
        }
        if (!THREADS.isCurrentThreadCpuTimeSupported()) {
            fail(69, "this JVM cannot read a thread's CPU time, so --cpu-ms cannot be burnt");
        }
        THREADS.setThreadCpuTimeEnabled(true);

        HikariConfig config = jdbcConfig(System.getenv("DATABASE_URL"));
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        config.setConnectionTimeout((long) poolWaitMs);
        config.setPoolName("chain");
        HikariDataSource database;
        try {
            database = new HikariDataSource(config);
        } catch (RuntimeException unreachable) {
            fail(69, "the database refused the pool: " + rootMessage(unreachable));
            return;
        }
        waitUntilFull(database, poolSize);

        long cpuNanos = Math.round(cpuMs * 1e6);
        double querySeconds = queryMs / 1000;
        // The JDK's server leaves Nagle's algorithm on: a lone answer's body would wait for the
        // client's delayed ACK, a wait that holds no pool thread.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        ExecutorService workers = Executors.newFixedThreadPool(threads);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.createContext("/", exchange -> serve(exchange, database, cpuNanos, querySeconds));
        server.setExecutor(workers);
        server.start();
        // The JVM runs this on SIGTERM and Ctrl-C: stop accepting, end the workers, close the pool.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            workers.shutdownNow();
            database.close();
        }));
        System.out.printf(
                "ChainServer: listening on http://127.0.0.1:%d/ with %d thread(s) and %d connection(s); "
                        + "per request %s ms CPU, then a query holding a connection %s ms%n",
                server.getAddress().getPort(), threads, poolSize, plain(cpuMs), plain(queryMs));
        System.out.flush();
    }

    private static void serve(HttpExchange exchange, HikariDataSource database, long cpuNanos, double querySeconds)
            throws IOException {
        try {
            try (InputStream body = exchange.getRequestBody()) {
                body.transferTo(OutputStream.nullOutputStream());
            }
            burn(cpuNanos);
            String failure = null;
            try (Connection connection = database.getConnection();
                    PreparedStatement query = connection.prepareStatement("SELECT pg_sleep(?)")) {
                query.setDouble(1, querySeconds);
                query.execute();
            } catch (SQLException error) {
                failure = "database: " + error.getMessage();
            }
            byte[] answer = (failure == null ? "ok" : failure).concat("\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain");
            exchange.sendResponseHeaders(failure == null ? 200 : 503, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
        } finally {
            exchange.close();
        }
    }

    /** The pool's settings from a libpq URL: JDBC's URL for host, port and database, the user and
     * password apart (a password never goes into a URL the driver may log), the query's
     * parameters (sslmode and the like) passed on as they are. */
    private static HikariConfig jdbcConfig(String url) {
        if (url == null || url.isEmpty()) {
            fail(64, "set DATABASE_URL to the database's libpq URL (postgresql://USER@HOST:PORT/DB)");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException bad) {
            fail(64, "DATABASE_URL is not a URL: " + bad.getReason());
            return null;
        }
        if (!"postgresql".equals(uri.getScheme()) && !"postgres".equals(uri.getScheme())) {
            fail(64, "DATABASE_URL must start with postgresql://");
        }
        HikariConfig config = new HikariConfig();
        String host = uri.getHost() == null ? "127.0.0.1" : uri.getHost();
        String port = uri.getPort() < 0 ? "5432" : Integer.toString(uri.getPort());
        String name = uri.getRawPath() == null || uri.getRawPath().length() <= 1 ? "postgres" : uri.getRawPath().substring(1);
        String jdbc = "jdbc:postgresql://" + host + ":" + port + "/" + name;
        config.setJdbcUrl(uri.getRawQuery() == null ? jdbc : jdbc + "?" + uri.getRawQuery());
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null) {
            int colon = userInfo.indexOf(':');
            config.setUsername(decode(colon < 0 ? userInfo : userInfo.substring(0, colon)));
            if (colon >= 0) {
                config.setPassword(decode(userInfo.substring(colon + 1)));
            }
        } else {
            config.setUsername(System.getProperty("user.name"));
        }
        return config;
    }

    /** Waits (at most 30 s) until the pool holds all its connections: HikariCP opens them in
     * the background after the first. */
    private static void waitUntilFull(HikariDataSource database, int size) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (database.getHikariPoolMXBean().getTotalConnections() < size) {
            if (System.nanoTime() > deadline) {
                fail(69, "the pool holds " + database.getHikariPoolMXBean().getTotalConnections() + " of "
                        + size + " connections after 30 s; the database may allow fewer");
            }
            Thread.sleep(20);
        }
    }

    /** Runs until this thread's CPU clock has advanced `nanos`. */
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

    private static String rootMessage(Throwable error) {
        Throwable cause = error;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }

    private static String decode(String text) {
        return URLDecoder.decode(text, StandardCharsets.UTF_8);
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
        fail(64, problem + "; usage: java ChainServer.java --threads N --pool P --port PORT"
                + " [--cpu-ms MS] [--query-ms MS] [--pool-wait-ms MS]");
    }

    private static void fail(int code, String problem) {
        System.err.println("ChainServer: " + problem);
        System.exit(code);
    }
}
