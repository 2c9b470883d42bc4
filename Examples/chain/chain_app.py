"""A WSGI service whose pools come in a chain: gunicorn worker processes x threads per worker,
each worker holding its own psycopg pool of database connections.

    gunicorn -k gthread -w {workers} --threads {threads} -e POOL_SIZE={pool} \\
        -b 127.0.0.1:{port} --chdir Examples/chain chain_app:app

A request runs about 1 ms of pure-Python CPU (holding the worker's interpreter lock), then
takes a connection from the worker's pool and runs one query that holds it for about 5 ms of
the server's time (pg_sleep, as a query waiting on IO would), then answers 200. So the
interpreter lock binds a worker's threads, the pool binds when it has fewer connections than
threads, and the database's max_connections binds workers x pool.

Environment:
    DATABASE_URL        libpq URL of the database (required)
    POOL_SIZE           connections in each worker's pool (default: the worker's threads)
    CHAIN_APP_CPU_MS    CPU per request in ms (default 1)
    CHAIN_APP_QUERY_MS  time a query holds its connection, in ms (default 5)
    CHAIN_APP_POOL_WAIT_S  how long a request waits for a connection before failing (default 10;
                           a worker waits up to 30 s for its pool to fill, once)
    CHAIN_APP_HOT_ROW   1: each request's query updates the same row first, in one transaction,
                        so it holds that row's lock while it sleeps (default 0: no lock)
"""

import os
import threading

from psycopg_pool import ConnectionPool

LOOPS_PER_MS = 55_000


def _number(name, default):
    text = os.environ.get(name, "")
    if text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        raise SystemExit(f"chain_app: {name}={text!r} is not a number")
    if value < 0:
        raise SystemExit(f"chain_app: {name}={text!r} must not be negative")
    return value


CPU_LOOPS = int(_number("CHAIN_APP_CPU_MS", 1) * LOOPS_PER_MS)
QUERY = "SELECT pg_sleep(%s)"
QUERY_SECONDS = _number("CHAIN_APP_QUERY_MS", 5) / 1000
POOL_WAIT = _number("CHAIN_APP_POOL_WAIT_S", 10)
HOT_ROW = _number("CHAIN_APP_HOT_ROW", 0) == 1
HOT_TABLE = "chain_app_hot_row"

_pool = None
_pool_lock = threading.Lock()


def _worker_pool():
    """The worker's own pool, opened in the worker (after gunicorn forks), at its full size, so
    every cell holds the connections it says from its first request. It is opened as the worker
    loads this module (below), not at the worker's first request: a worker that the others beat
    to every connection holds its pool too."""
    global _pool
    with _pool_lock:
        if _pool is None:
            url = os.environ.get("DATABASE_URL")
            if not url:
                raise SystemExit("chain_app: set DATABASE_URL to the database's libpq URL")
            size = int(_number("POOL_SIZE", 0)) or 1
            _pool = ConnectionPool(url, min_size=size, max_size=size, open=True, timeout=POOL_WAIT)
            _pool.wait(timeout=30)
            if HOT_ROW:
                _make_hot_row(_pool)
        return _pool


def _make_hot_row(pool):
    """The one row every request updates, made once by whichever worker comes first (an advisory
    lock keeps two workers' CREATE TABLE from racing)."""
    with pool.connection() as conn:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(4711)")
            conn.execute(f"CREATE TABLE IF NOT EXISTS {HOT_TABLE} (id int PRIMARY KEY, n bigint NOT NULL)")
            conn.execute(f"INSERT INTO {HOT_TABLE} VALUES (1, 0) ON CONFLICT (id) DO NOTHING")


def _spin(count):
    total = 0
    for i in range(count):
        total += i
    return total


def app(environ, start_response):
    _spin(CPU_LOOPS)
    try:
        with _worker_pool().connection() as conn:
            if HOT_ROW:
                with conn.transaction():
                    conn.execute(f"UPDATE {HOT_TABLE} SET n = n + 1 WHERE id = 1")
                    conn.execute(QUERY, (QUERY_SECONDS,))
            else:
                conn.execute(QUERY, (QUERY_SECONDS,))
    except Exception as error:  # a pool timeout or a refused connection is the request's failure
        body = f"database: {type(error).__name__}: {error}\n".encode()
        start_response("503 Service Unavailable", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
        return [body]
    body = b"ok\n"
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]


# gunicorn loads the app in each worker after the fork (unless --preload, which this app does not
# support): each worker opens its pool as it boots, before it accepts a request.
_worker_pool()
