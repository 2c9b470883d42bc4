#!/usr/bin/env python3
"""Runs the test command under a time limit and, past it, says what hung.

usage: test-watchdog.py --limit SECONDS -- COMMAND [ARG...]

A suite that normally takes minutes and hangs once would otherwise run until CI's own limit and
leave no trace of the test that hung. Past the limit this prints the tests that started and never
finished, a stack of every thread of every process under the command (gdb when it is installed,
else each thread's system call and kernel wait channel from /proc), stops them all and exits 124.
The command's output passes through line by line; its exit status is this script's.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

STARTED = [
    re.compile(r"◇ Test (?:case passing .* to )?(\S+?\(.*?\)) started\."),
    re.compile(r"Test Case '(.+?)' started"),
]
ENDED = [
    re.compile(r"[✔✘] Test (\S+?\(.*?\))(?: with \d+ test cases?)? (?:passed|failed)"),
    re.compile(r"Test Case '(.+?)' (?:passed|failed|skipped)"),
]


def descendants(root):
    """Every process whose chain of parents reaches root, parents first."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            children.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    found, queue = [], [root]
    while queue:
        pid = queue.pop(0)
        found.append(pid)
        queue.extend(children.get(pid, []))
    return found


def read(path):
    try:
        with open(path) as handle:
            return handle.read().strip()
    except OSError:
        return "?"


def install_gdb():
    """gdb gives each thread's stack; CI's machines run as root with apt and may lack it."""
    if shutil.which("gdb") or os.geteuid() != 0 or not shutil.which("apt-get"):
        return
    print("installing gdb with apt-get for the stacks", flush=True)
    for step in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "gdb"]):
        try:
            subprocess.run(step, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300, check=False,
                           env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        except subprocess.TimeoutExpired:
            return


def describe(pid):
    command = read(f"/proc/{pid}/cmdline").replace("\0", " ")
    print(f"--- process {pid}: {command}", flush=True)
    if shutil.which("gdb"):
        try:
            result = subprocess.run(
                ["gdb", "-p", str(pid), "-batch", "-nx", "-ex", "thread apply all bt 40"],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120, check=False)
            print(result.stdout, flush=True)
            return
        except subprocess.TimeoutExpired:
            print("(gdb did not finish in 120 s; the kernel's view instead)", flush=True)
    try:
        threads = sorted(os.listdir(f"/proc/{pid}/task"), key=int)
    except OSError:
        return
    for tid in threads:
        base = f"/proc/{pid}/task/{tid}"
        print(f"thread {tid} {read(base + '/comm')}: wchan {read(base + '/wchan')}, "
              f"syscall {read(base + '/syscall')}", flush=True)


def main():
    args = sys.argv[1:]
    if len(args) < 4 or args[0] != "--limit" or args[2] != "--":
        print("usage: test-watchdog.py --limit SECONDS -- COMMAND [ARG...]", file=sys.stderr)
        return 64
    limit, command = float(args[1]), args[3:]
    running = {}
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def pump():
        for raw in iter(child.stdout.readline, b""):
            sys.stdout.buffer.write(raw)
            sys.stdout.flush()
            line = raw.decode("utf-8", "replace")
            for pattern in STARTED:
                match = pattern.search(line)
                if match:
                    running[match.group(1)] = time.monotonic()
            for pattern in ENDED:
                match = pattern.search(line)
                if match:
                    running.pop(match.group(1), None)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        child.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        now = time.monotonic()
        print(f"error: the tests ran past their limit of {limit:.0f} s (the whole suite takes a few "
              "minutes); these started and never finished:", flush=True)
        for name, since in sorted(running.items(), key=lambda item: item[1]):
            print(f"  {name} (running {now - since:.0f} s)", flush=True)
        print("Stacks of every process under the test command:", flush=True)
        install_gdb()
        pids = descendants(child.pid)
        for pid in pids:
            describe(pid)
        for pid in reversed(pids):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        child.wait()
        reader.join(timeout=5)
        return 124
    except KeyboardInterrupt:
        child.wait()
        return 130
    # A daemon a test left behind may hold the output pipe open: never wait for its end.
    reader.join(timeout=10)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
