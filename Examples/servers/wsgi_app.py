"""A WSGI app shaped like a typical blocking request handler: some Python work, then a wait.

    gunicorn -k gthread --workers 1 --threads {size} -b 127.0.0.1:{port} \\
        --chdir Examples/servers wsgi_app:app

Each request runs about 2 ms of pure-Python CPU (a loop of a fixed count, holding the
interpreter lock), then sleeps 18 ms in time.sleep (which lets the lock go, as a database query
or a call to another service would), then answers 200 with a short body. One gthread worker
process with {size} threads is the pool a server-side sweep sizes; README.md says what to
expect of it.

Environment:
    POOLSIZE_APP_CPU_MS        CPU per request in ms (default 2; 0 for none)
    POOLSIZE_APP_SLEEP_MS      sleep per request in ms (default 18; 0 for none)
    POOLSIZE_APP_LOOPS_PER_MS  loop iterations per ms of CPU (default LOOPS_PER_MS below)

`python3 wsgi_app.py` measures the loop on this machine and prints the count to use.
"""

import os
import sys
import time

# Iterations of `spin` per millisecond of one thread's CPU, with the CPython that Debian's
# gunicorn runs (/usr/bin/python3) on the project's VM; how it was chosen is in README.md. The
# work is a count, not a clock read in the loop, because a real handler's work is fixed: on a
# slower machine or interpreter it costs more time, and so does this.
LOOPS_PER_MS = 55_000


def _setting(name, default):
    """A number from 0 to 60000 from the environment, or the default; a bad value stops the
    import, and with it gunicorn, naming the variable."""
    text = os.environ.get(name, "")
    if text == "":
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not (0 <= value <= 60_000):
        print(f"wsgi_app: {name}={text!r}: give a number of 0 to 60000", file=sys.stderr)
        # 3 is gunicorn's "worker failed to boot": its master then stops too, instead of
        # listening on with no worker to answer.
        raise SystemExit(3)
    return value


CPU_MS = _setting("POOLSIZE_APP_CPU_MS", 2.0)
SLEEP_MS = _setting("POOLSIZE_APP_SLEEP_MS", 18.0)
LOOPS = int(round(CPU_MS * _setting("POOLSIZE_APP_LOOPS_PER_MS", LOOPS_PER_MS)))
BODY = b"ok\n"


def spin(count):
    """Pure-Python work: bytecode the interpreter runs while holding its lock."""
    total = 0
    for i in range(count):
        total += i % 7
    return total


def app(environ, start_response):
    spin(LOOPS)
    if SLEEP_MS > 0:
        time.sleep(SLEEP_MS / 1000)
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(BODY)))])
    return [BODY]


def loops_per_ms(count=100_000, runs=20):
    """The loop's iterations per ms of this thread's CPU: the best of `runs`, the run least
    disturbed by other work on the machine."""
    best = float("inf")
    for _ in range(runs):
        start = time.thread_time()
        spin(count)
        best = min(best, time.thread_time() - start)
    return count / (best * 1000)


if __name__ == "__main__":
    here = loops_per_ms()
    print(
        f"{here:.0f} loop iterations per ms of CPU here (the app assumes {LOOPS_PER_MS}): a request's "
        f"{LOOPS} cost about {LOOPS / here:.2f} ms; POOLSIZE_APP_LOOPS_PER_MS={here:.0f} makes them {CPU_MS:g} ms"
    )
