#!/usr/bin/env python3
"""An open-loop HTTP load generator in Python's standard library, for one trial of
`poolsize sweep --arrival-rate … --load 'python3 Examples/load/rate-load.py URL {rate} …'`.

GET requests to URL are due at RATE a second, evenly spaced, for DURATION seconds, whether or
not earlier ones have been answered. Each due request goes to an idle sender (a thread with a
kept-alive connection of its own); when all SENDERS are busy it is not sent and is counted as
dropped, as k6's constant-arrival-rate does. Latency counts from the time a request was due, so
a late start is in it. It prints, once every sender has finished:

    rate-load: 400/s for 3 s on 64 senders at http://127.0.0.1:8080/
    sent 1200, dropped 0, senders 64
    answered 1200, failed 0, in 3.01 s: 398.7/s
    latency from due time: mean 10.81ms p50 10.62ms p90 11.40ms p99 12.01ms max 14.20ms

`answered` counts 2xx answers (their rate is the throughput), `failed` the other answers and the
requests that got none. Exit status 2 for bad arguments.
"""

import argparse
import http.client
import math
import queue
import sys
import threading
import time
import urllib.parse


def parse_arguments():
    parser = argparse.ArgumentParser(description="Open-loop HTTP load at a set rate.")
    parser.add_argument("url", help="the URL to GET, http:// only")
    parser.add_argument("rate", type=float, help="requests due a second (more than 0)")
    parser.add_argument("duration", type=float, help="seconds of arrivals (more than 0)")
    parser.add_argument("senders", type=int, help="most requests in flight at once (at least 1)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds a request may take (default 10)")
    arguments = parser.parse_args()
    target = urllib.parse.urlsplit(arguments.url)
    if target.scheme != "http" or not target.hostname:
        parser.error(f"url: {arguments.url!r} is not an http:// URL with a host")
    if not (math.isfinite(arguments.rate) and arguments.rate > 0):
        parser.error("rate: must be a number of requests a second above 0")
    if not (math.isfinite(arguments.duration) and 0 < arguments.duration <= 3600):
        parser.error("duration: must be more than 0 and at most 3600 seconds")
    if not 1 <= arguments.senders <= 10000:
        parser.error("senders: must be 1 to 10000")
    if int(arguments.rate * arguments.duration) < 1:
        parser.error("rate × duration: must make at least one request due")
    return arguments, target


def percentile(ordered, share):
    """Nearest rank: the smallest value with at least `share` of the values at or below it."""
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def main():
    arguments, target = parse_arguments()
    path = (target.path or "/") + (f"?{target.query}" if target.query else "")
    port = target.port or 80
    due = queue.Queue()
    idle = threading.Semaphore(arguments.senders)
    lock = threading.Lock()
    latencies, failures = [], [0]
    last_answer = [0.0]

    def send():
        connection = None
        while True:
            item = due.get()
            if item is None:
                break
            ok = False
            # A kept-alive connection the server closed while it sat idle fails at once: the
            # request goes again on a new one, its latency still from the due time.
            for _ in range(2):
                reused = connection is not None
                try:
                    if connection is None:
                        connection = http.client.HTTPConnection(target.hostname, port, timeout=arguments.timeout)
                    connection.request("GET", path)
                    response = connection.getresponse()
                    response.read()
                    ok = 200 <= response.status < 300
                    if response.getheader("Connection", "").lower() == "close":
                        connection.close()
                        connection = None
                    break
                except (OSError, http.client.HTTPException):
                    if connection is not None:
                        connection.close()
                    connection = None
                    if not reused:
                        break
            finished = time.monotonic()
            with lock:
                if ok:
                    latencies.append(finished - item)
                else:
                    failures[0] += 1
                last_answer[0] = max(last_answer[0], finished)
            idle.release()
        if connection is not None:
            connection.close()

    senders = [threading.Thread(target=send, daemon=True) for _ in range(arguments.senders)]
    for sender in senders:
        sender.start()
    count = int(arguments.rate * arguments.duration)
    gap = 1.0 / arguments.rate
    start = time.monotonic() + 0.05
    sent = dropped = 0
    for index in range(count):
        at = start + index * gap
        wait = at - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        if idle.acquire(blocking=False):
            due.put(at)
            sent += 1
        else:
            dropped += 1
    for _ in senders:
        due.put(None)
    for sender in senders:
        sender.join()
    elapsed = max(last_answer[0], start + count * gap) - start
    ordered = sorted(latencies)
    mean = sum(ordered) / len(ordered) if ordered else 0.0

    def ms(seconds):
        return f"{seconds * 1000:.2f}ms"

    print(f"rate-load: {arguments.rate:g}/s for {arguments.duration:g} s on {arguments.senders} senders at {arguments.url}")
    print(f"sent {sent}, dropped {dropped}, senders {arguments.senders}")
    print(f"answered {len(ordered)}, failed {failures[0]}, in {elapsed:.2f} s: {len(ordered) / elapsed:.1f}/s")
    print(
        f"latency from due time: mean {ms(mean)} p50 {ms(percentile(ordered, 0.5))} p90 {ms(percentile(ordered, 0.9))}"
        f" p99 {ms(percentile(ordered, 0.99))} max {ms(ordered[-1] if ordered else 0.0)}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
