# A threaded CPython server with a known answer, for `poolsize observe`'s interpreter-lock case
# (Tests/PoolSizeCLITests/ObserveRuntimeCommandTests.swift).
#
# THREADS worker threads share one listening socket on 127.0.0.1 (port chosen by the kernel);
# each accepts a connection and serves it until it closes: per request (one line in, one line
# out) it computes CPU_MS of pure Python, holding the interpreter lock, then sleeps SLEEP_MS.
# The load comes from a second process, this script with --client, which the server starts on
# its own port: CLIENTS connections, each a thread sending requests one after another. A client
# in its own process has its own interpreter lock and is not part of the server's threads.
#
# On SIGTERM or SIGINT the server stops its client and prints a `truth` line:
#   requests, requests_per_s, cpu_ms_per_request (process CPU over requests), cores (process
#   CPU per second: at most about 1 while the lock holds Python to one thread at a time).
#
# Usage: python3 gil_server.py [--threads N] [--cpu-ms MS] [--sleep-ms MS] [--clients K]
#        python3 gil_server.py --client PORT --clients K
import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time


def burn(milliseconds):
    """Pure Python work: the thread holds the interpreter lock while it runs."""
    end = time.thread_time() + milliseconds / 1000.0
    total = 0
    while time.thread_time() < end:
        for number in range(200):
            total += number * number
    return total


def serve(listener, cpu_ms, sleep_ms, counter):
    while True:
        try:
            connection, _ = listener.accept()
        except OSError:
            return
        with connection, connection.makefile("rwb", buffering=0) as stream:
            while stream.readline():
                burn(cpu_ms)
                if sleep_ms > 0:
                    time.sleep(sleep_ms / 1000.0)
                stream.write(b"ok\n")
                with counter["lock"]:
                    counter["requests"] += 1


def client(port, connections):
    def run():
        try:
            with socket.create_connection(("127.0.0.1", port)) as connection:
                stream = connection.makefile("rwb", buffering=0)
                while True:
                    stream.write(b"task\n")
                    if not stream.readline():
                        return
        except OSError:
            return

    threads = [threading.Thread(target=run, daemon=True) for _ in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--cpu-ms", type=float, default=5)
    parser.add_argument("--sleep-ms", type=float, default=0)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--client", type=int, default=0, help="run as the load of the server on this port")
    options = parser.parse_args()
    if options.client:
        client(options.client, options.clients)
        return

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(options.threads + options.clients)
    port = listener.getsockname()[1]
    counter = {"requests": 0, "lock": threading.Lock()}
    for _ in range(options.threads):
        threading.Thread(
            target=serve, args=(listener, options.cpu_ms, options.sleep_ms, counter), daemon=True
        ).start()
    load = subprocess.Popen(
        [sys.executable, os.path.abspath(__file__), "--client", str(port), "--clients", str(options.clients)]
    )
    started, cpu_started = time.monotonic(), time.process_time()
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    signal.signal(signal.SIGINT, lambda *_: done.set())
    while not done.wait(0.2):
        if load.poll() is not None:
            break
    load.kill()
    load.wait()
    elapsed, cpu = time.monotonic() - started, time.process_time() - cpu_started
    requests = counter["requests"]
    print(
        "truth requests=%d requests_per_s=%.1f cpu_ms_per_request=%.3f cores=%.3f"
        % (requests, requests / elapsed, cpu * 1000 / max(1, requests), cpu / elapsed),
        flush=True,
    )


if __name__ == "__main__":
    main()
