#!/usr/bin/env python3
"""The body of docs/benchmarks/server.md, from the raw output of scripts/benchmark-server.sh:
per server, the hand loop (NAME-wrk-SIZE.txt read into hand-loop.csv, NAME-hand-seconds.csv,
fit.json) beside `poolsize sweep --server` as a grid on the same sizes (sweep-NAME-grid/run:
trials.csv, recommendation.json, lowload.json, summary.txt) and as an adaptive search
(sweep-NAME-auto/run), each sweep's exit status, wall time and the servers left after it
(sweep-NAME-MODE.exit, .seconds, .leftovers). Every verdict is computed here from those files.
Writes Markdown on stdout.

    benchmark_server.py OUT SERVERS SIZES SECONDS CONNECTIONS CORES SWEEP_AVAILABLE SERVE_WORDS

The `--load` sections (serve through `--server … --load wrk` against its hand loop; pgbench's
hand loops against `sweep --load` alone: load-hand.csv, load-fit.json, pgbench-hand.csv,
pgbench-fit.json, sweep-serve-load, sweep-pgbench-NAME), and their place in an existing page:

    benchmark_server.py --load-sections OUT SIZES SECONDS CORES COMMAND_LINE PARTS WHEN LOAD_BEFORE
    benchmark_server.py --splice DOC BODY
"""
import csv
import json
import pathlib
import re
import sys

from benchmark_report import size_steps, within_one_step

# ---- the sections of `--only load,pgbench`: the user's own load tool through `--load` ----
# benchmark_server.py --load-sections OUT SIZES SECONDS CORES COMMAND_LINE PARTS prints them (PARTS:
# load, pgbench or both); --splice DOC BODY puts them into an existing page between their markers
# (or at its end), so a run of these sections alone keeps the rest of the page as it is.
BEGIN, END = "<!-- benchmark-server: --load sections -->", "<!-- end of the --load sections -->"


def _json(path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def _text(path):
    try:
        return path.read_text()
    except OSError:
        return ""


def number(x, digits=0):
    return "–" if x is None else f"{x:,.{digits}f}".replace(",", " ")


class ToolSweep:
    """A `poolsize sweep` run as benchmark-server.sh's run_sweep leaves it (BASE.exit, .seconds,
    .log, .leftovers, BASE/run): its exit, wall time, trials and recommendation."""

    def __init__(self, base):
        self.ran = base.with_suffix(".exit").exists()
        text = _text(base.with_suffix(".exit")).strip()
        self.exit = int(text) if text else None
        text = _text(base.with_suffix(".seconds")).strip()
        self.seconds = float(text) if text else None
        log = [line for line in _text(base.with_suffix(".log")).splitlines() if line.strip()]
        self.last_log_line = log[-1] if log else ""
        self.leftovers = [line for line in _text(base.with_suffix(".leftovers")).splitlines() if line]
        self.recommendation = _json(base / "run" / "recommendation.json")
        self.trials = []
        if (base / "run" / "trials.csv").exists():
            with (base / "run" / "trials.csv").open(newline="") as f:
                self.trials = list(csv.DictReader(f))
        # Valid trials per size (a busy retry leaves the first attempt, invalid, beside it).
        self.by_size = {}
        for row in self.trials:
            if not row.get("invalid_reason"):
                self.by_size.setdefault(int(row["pool_size"]), []).append(row)
        self.invalid = [(int(r["pool_size"]), r["invalid_reason"]) for r in self.trials if r.get("invalid_reason")]

    def mean(self, size, column):
        values = [float(r[column]) for r in self.by_size.get(size, []) if r.get(column) not in (None, "")]
        return sum(values) / len(values) if values else None

    @property
    def knee(self):
        return None if self.recommendation is None else self.recommendation.get("knee_pool_size")

    def status(self):
        if not self.ran:
            return "not run"
        if self.exit != 0:
            return f"failed (exit {self.exit}): {self.last_log_line or 'no message'}"
        if self.recommendation is None:
            return "no recommendation.json"
        rec = self.recommendation
        invalid = f", {len(self.invalid)} invalid" if self.invalid else ""
        return (f"recommends **{rec['recommended_queue_count']}** (knee {rec.get('knee_pool_size', '–')}, peak "
                f"{number(rec.get('peak_throughput_per_s'))}/s at {rec.get('peak_pool_size', '–')}); "
                f"{len(self.trials)} trials{invalid} in {self.seconds:.0f} s")


def step_verdict(label, size, hand, sizes):
    """`label` against the hand loop's knee: how many steps of the size list apart, and whether
    within one (benchmark_report's definition, the one every page uses)."""
    if size is None or hand is None:
        return f"{label}: no knee to compare (tool {size}, hand loop {hand}): **not checked**"
    steps = size_steps(size, hand, sizes)
    ordered = sorted(set(sizes))
    neighbours = ""
    if hand in ordered:
        i = ordered.index(hand)
        below = ordered[i - 1] if i > 0 else hand
        above = ordered[i + 1] if i + 1 < len(ordered) else hand
        neighbours = f"; one step from {hand} is {below} to {above}"
    if abs(steps) < 1e-9:
        how = "the same size"
    else:
        how = f"{abs(steps):.2g} step{'s' if abs(steps) != 1 else ''} of the size list {'up' if steps > 0 else 'down'}"
    verdict = "within one step" if within_one_step(size, hand, sizes) else "not within one step"
    return f"{label} {size} against the hand loop's {hand}: {how}{neighbours}: **{verdict}**"


def load_sections(out, sizes, seconds, cores, command_line, parts, when, load_before):
    print(BEGIN)
    print()
    print("## Your own load tool: `--load`")
    print()
    print(f"Measured by `{command_line}` on {when} ({cores} CPUs, the machine above; load average "
          f"{load_before} before; each section below says its commands). The hand loop and "
          "`poolsize sweep … --load` run the same tool with the same flags at the same sizes, one after the other; "
          "the knee of each is the smallest size within 5% of its highest throughput (`poolsize fit "
          "--tolerance 0.05` for the hand loop, the sweep's own rule for the sweep). One run per size each.")
    print()
    if "load" in parts:
        wrk_section(out, sizes, seconds)
        k6_section(out, sizes, seconds)
        open_loop_section(out, seconds)
    if "pgbench" in parts:
        pgbench_section(out, sizes, seconds)
    print(END)


def _wrk_report(path):
    match = re.search(r"wrk-report (.*)", _text(path))
    if not match:
        return None
    f = dict(kv.split("=") for kv in match.group(1).split())
    requests, duration = int(f["requests"]), int(f["duration_us"]) / 1e6
    return {"rate": requests / duration, "p99_us": int(f["p99_us"]), "errors": int(f["errors"])}


def _tool_cells(sweep, size):
    """A `--load` sweep's mean throughput at `size` and its two cells, requests/s and p99 ms, or
    the first invalid trial's reason where no trial there was valid."""
    rate = sweep.mean(size, "throughput_per_s")
    p99 = sweep.mean(size, "latency_p99_us")
    invalid = [reason for s, reason in sweep.invalid if s == size]
    if rate is None and invalid:
        return rate, f"invalid: {invalid[0]} | –"
    return rate, f"{number(rate)} | {number(p99 / 1000 if p99 is not None else None, 1)}"


def wrk_section(out, sizes, seconds):
    sweep = ToolSweep(out / "sweep-serve-load")
    fit = {f["group"]: f for f in (_json(out / "load-fit.json") or [])}.get("serve", {})
    hand_knee = fit.get("knee_concurrency")
    print("### wrk through `--server … --load`: `poolsize serve --workers {size} --cpu 1ms --delay 9ms`")
    print()
    print(f"Hand loop: a fresh server per size, `wrk -t1 -c64 -d{seconds}s --latency --timeout 10s URL` (the server "
          "hand loop above, or its own when that section is not run). poolsize: `poolsize sweep --server 'poolsize "
          f"serve --workers {{size}} --port {{port}} --cpu 1ms --delay 9ms --quiet' --http 'http://127.0.0.1:{{port}}/' "
          f"--load 'wrk -t1 -c64 -d{seconds}s --latency --timeout 10s http://127.0.0.1:{{port}}/' --parse wrk --sizes "
          f"{','.join(map(str, sizes))} --search grid --repeat 1`: poolsize starts and stops the server at each size "
          "and runs wrk against it; the figures are wrk's as `--parse wrk` reads them (the rules of thumb's sizes, "
          "which a server sweep adds, are marked *rule*).")
    print()
    print("| size | hand wrk requests/s | hand wrk p99 ms | `--load` wrk requests/s | `--load` wrk p99 ms | "
          "`--load`/hand |")
    print("|---|---|---|---|---|---|")
    for size in sorted(set(sizes) | set(sweep.by_size) | {s for s, _ in sweep.invalid}):
        hand = _wrk_report(out / f"serve-wrk-{size}.txt") if size in sizes else None
        rate, tool = _tool_cells(sweep, size)
        ratio = f"{rate / hand['rate']:.2f}" if hand and rate else "–"
        label = str(size) if size in sizes else f"{size} (rule)"
        hand_cells = f"{hand['rate']:.0f} | {hand['p99_us'] / 1000:.1f}" if hand else "– | –"
        print(f"| {label} | {hand_cells} | {tool} | {ratio} |")
    print()
    print(f"- hand loop: knee **{hand_knee if hand_knee is not None else '–'}** (`poolsize fit`)")
    print(f"- `sweep --server … --load … --parse wrk`: {sweep.status()}")
    print(f"- verdict: {step_verdict('`--load` knee', sweep.knee, hand_knee, sizes)}")
    if sweep.ran:
        left = "; ".join(f"`{line.strip()}`" for line in sweep.leftovers)
        print(f"- processes left after the sweep: {left or 'none (ps)'}")
    print()


def k6_section(out, sizes, seconds):
    """k6 through `--load … --parse k6` on the same server: its knee against the hand loop's
    (wrk) and against poolsize's own driver on the same sizes (the serve grid), each within one
    step; the trials k6 itself limited (load-generator-bound) listed."""
    sweep = ToolSweep(out / "sweep-serve-k6")
    driver = ToolSweep(out / "sweep-serve-grid")
    fit = {f["group"]: f for f in (_json(out / "load-fit.json") or [])}.get("serve", {})
    hand_knee = fit.get("knee_concurrency")
    version = _text(out / "k6-version.txt").strip() or "k6"
    print("### k6 through `--server … --load`: the same server")
    print()
    print(f"poolsize: `poolsize sweep --server 'poolsize serve --workers {{size}} --port {{port}} --cpu 1ms --delay 9ms "
          f"--quiet' --http 'http://127.0.0.1:{{port}}/' --load 'k6 run --no-usage-report --quiet --vus 64 --duration "
          f"{seconds}s --summary-trend-stats avg,min,med,max,p(90),p(99) -e URL=http://127.0.0.1:{{port}}/ "
          f"Examples/load/k6-load.js' --parse k6 --sizes {','.join(map(str, sizes))} --search grid --repeat 1` "
          f"({version}; 64 virtual users, each a closed loop on a kept-alive connection, as wrk's 64 connections). "
          "Beside it the hand loop's wrk and, where the servers section ran, poolsize's own driver on the same sizes "
          "(the serve grid above).")
    print()
    print("| size | hand wrk requests/s | driver requests/s | k6 requests/s | k6 p99 ms | k6/hand | k6/driver |")
    print("|---|---|---|---|---|---|---|")
    for size in sorted(set(sizes) | set(sweep.by_size) | {s for s, _ in sweep.invalid}):
        hand = _wrk_report(out / f"serve-wrk-{size}.txt") if size in sizes else None
        own = driver.mean(size, "throughput_per_s")
        rate, tool = _tool_cells(sweep, size)
        label = str(size) if size in sizes else f"{size} (rule)"
        hand_rate = hand["rate"] if hand else None
        to_hand = f"{rate / hand_rate:.2f}" if hand_rate and rate else "–"
        to_driver = f"{rate / own:.2f}" if own and rate else "–"
        print(f"| {label} | {number(hand_rate)} | {number(own)} | {tool} | {to_hand} | {to_driver} |")
    print()
    print(f"- `sweep --server … --load … --parse k6`: {sweep.status()}")
    print(f"- verdict against the hand loop: {step_verdict('k6 knee', sweep.knee, hand_knee, sizes)}")
    if driver.ran:
        verdict = step_verdict("k6 knee", sweep.knee, driver.knee, sizes).replace("hand loop's", "driver's")
        print(f"- verdict against poolsize's own driver: {verdict}")
    bound = [(s, r) for s, r in sweep.invalid if "load-generator-bound" in r]
    if bound:
        print(f"- k6 was the limit (load-generator-bound) at {', '.join(str(s) for s, _ in bound)}")
    if sweep.ran:
        left = "; ".join(f"`{line.strip()}`" for line in sweep.leftovers)
        print(f"- processes left after the sweep: {left or 'none (ps)'}")
    print()


OPEN_SIZES = [2, 3, 4, 5, 6, 8, 12, 16]


def open_loop_section(out, seconds):
    """The open loop on the same server at 400/s against p99 ≤ 50 ms, its arrivals from
    poolsize's driver, from k6 and from rate-load.py given the rate (`{rate}`): per size each
    one's worst p99 and whether it kept up (or why the trial is invalid), and each tool's
    recommendation against the driver's, within one step of the size list."""
    sweeps = [("driver", ToolSweep(out / "sweep-serve-open-driver")), ("k6", ToolSweep(out / "sweep-serve-open-k6")),
              ("rate-load.py", ToolSweep(out / "sweep-serve-open-py"))]
    if not any(sweep.ran for _, sweep in sweeps):
        return
    serve = ("poolsize sweep --server 'poolsize serve --workers {size} --port {port} --cpu 1ms --delay 9ms --quiet' "
             "--http 'http://127.0.0.1:{port}/' --arrival-rate 400/s --latency-slo 50ms --sizes "
             f"{','.join(map(str, OPEN_SIZES))} --repeat 1")
    print("### At a rate: the driver, k6 and rate-load.py given `{rate}`")
    print()
    print(f"The driver: `{serve} --trial-ms {seconds * 1000}`. k6: the same with `--load 'k6 run --no-usage-report "
          "--quiet --summary-trend-stats avg,min,med,max,p(90),p(99) -e RATE={rate} -e VUS=64 "
          f"-e DURATION={seconds}s -e URL=http://127.0.0.1:{{port}}/ Examples/load/k6-rate.js' --parse k6`. "
          "rate-load.py: the same with `--load 'python3 Examples/load/rate-load.py http://127.0.0.1:{port}/ {rate} "
          f"{seconds} 64'` and the guide's three expressions. Poisson arrivals from the driver, evenly spaced ones "
          "from both tools; each cell is the trial's p99 from its arrivals' intended times, *fell behind* where it "
          "did not keep up.")
    print()
    print("| size | " + " | ".join(f"{name} p99 ms" for name, _ in sweeps) + " |")
    print("|---|" + "---|" * len(sweeps))
    all_sizes = sorted({int(r["pool_size"]) for _, sweep in sweeps for r in sweep.trials})
    for size in all_sizes:
        cells = []
        for _, sweep in sweeps:
            rows = sweep.by_size.get(size, [])
            invalid = [reason for s, reason in sweep.invalid if s == size]
            if not rows:
                cells.append(f"invalid: {invalid[0]}" if invalid else "–")
                continue
            worst = max(float(r["latency_p99_us"]) for r in rows)
            kept = all(r.get("stable") == "yes" for r in rows)
            cells.append(f"{worst / 1000:.1f}" + ("" if kept else " (fell behind)"))
        label = str(size) if size in OPEN_SIZES else f"{size} (rule)"
        print(f"| {label} | " + " | ".join(cells) + " |")
    print()
    recommended = {}
    for name, sweep in sweeps:
        rec = sweep.recommendation
        size = rec.get("recommended_queue_count") if rec else None
        recommended[name] = size
        how = sweep.status() if sweep.exit != 0 or rec is None else (
            f"recommends **{size}**; {len(sweep.trials)} trials"
            + (f", {len(sweep.invalid)} invalid" if sweep.invalid else "") + f" in {sweep.seconds:.0f} s")
        print(f"- {name}: {how}")
    driver = recommended.get("driver")
    for name in ("k6", "rate-load.py"):
        verdict = step_verdict(f"{name}'s recommendation", recommended.get(name), driver, OPEN_SIZES)
        print("- verdict: " + verdict.replace("hand loop's", "driver's"))
    left = "; ".join(f"`{line.strip()}`" for _, sweep in sweeps for line in sweep.leftovers)
    print(f"- processes left after the sweeps: {left or 'none (ps)'}")
    print()


def pgbench_section(out, sizes, seconds):
    setup = dict(line.split("=", 1) for line in _text(out / "pgbench-setup.txt").splitlines() if "=" in line)
    hand_rows = []
    if (out / "pgbench-hand.csv").exists():
        with (out / "pgbench-hand.csv").open(newline="") as f:
            hand_rows = list(csv.DictReader(f))
    fits = {f["group"]: f for f in (_json(out / "pgbench-fit.json") or [])}
    print("### pgbench alone: `poolsize sweep --load 'pgbench -c {size} …' --parse pgbench`")
    print()
    print(f"PostgreSQL {setup.get('version', '?')} made by `scripts/pg-cluster.sh start --scale "
          f"{setup.get('scale', '?')}` (initdb in a temporary directory, fsync off, 127.0.0.1, stopped and removed "
          "after). No server is restarted: `{size}` is pgbench's own client count, the connection pool it holds. "
          f"Hand loop: `pgbench -n -c N -j 2 -T {seconds} … bench` at each N, tps and latency average as pgbench "
          "prints them. poolsize: `poolsize sweep --load 'pgbench -n -c {size} -j 2 "
          f"-T {seconds} … bench' --parse pgbench --sizes {','.join(map(str, sizes))} --search grid --repeat 1`. "
          "A load tool alone gives no CPU time per request, so there is no W/C and no formula here, only the "
          "measured knee.")
    print()
    for name, what in (("select", "`-S` (the built-in select-only script: one primary-key lookup per transaction, "
                                  "all CPU)"),
                       ("mixed", "`-f mixed.sql`: `SELECT sum(x) FROM generate_series(1, 20000) x;` then "
                                 "`SELECT pg_sleep(0.005);` (about 1.5 ms of a backend's CPU, then 5 ms holding its "
                                 "connection idle, so the knee lies above the cores)")):
        sweep = ToolSweep(out / f"sweep-pgbench-{name}")
        mine = {int(r["concurrency"]): r for r in hand_rows if r["workload"] == name}
        hand_knee = fits.get(name, {}).get("knee_concurrency")
        print(f"#### {name}: {what}")
        print()
        print("| clients | hand tps | hand latency avg ms | `--load` tps | `--load`/hand |")
        print("|---|---|---|---|---|")
        for size in sorted(set(sizes) | set(sweep.by_size) | {s for s, _ in sweep.invalid}):
            hand = mine.get(size)
            rate = sweep.mean(size, "throughput_per_s")
            invalid = [reason for s, reason in sweep.invalid if s == size]
            tool = f"invalid: {invalid[0]}" if rate is None and invalid else number(rate)
            ratio = f"{rate / float(hand['throughput']):.2f}" if hand and rate else "–"
            hand_cells = f"{float(hand['throughput']):.0f} | {float(hand['latency_ms']):.2f}" if hand else "– | –"
            print(f"| {size} | {hand_cells} | {tool} | {ratio} |")
        print()
        print(f"- hand loop: knee **{hand_knee if hand_knee is not None else '–'}** (`poolsize fit`)")
        print(f"- `sweep --load … --parse pgbench`: {sweep.status()}")
        print(f"- verdict: {step_verdict('`--load` knee', sweep.knee, hand_knee, sizes)}")
        print()


def splice(doc, body):
    page, section = _text(doc), body.read_text()
    if BEGIN in page and END in page:
        head, rest = page.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        page = head + section.rstrip("\n") + tail
    else:
        page = page.rstrip("\n") + "\n\n" + section
    doc.with_suffix(".md.tmp").write_text(page)
    doc.with_suffix(".md.tmp").replace(doc)


if len(sys.argv) > 1 and sys.argv[1] == "--load-sections":
    load_sections(pathlib.Path(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")], int(sys.argv[4]),
                  int(sys.argv[5]), sys.argv[6], sys.argv[7].split(","), sys.argv[8], sys.argv[9])
    sys.exit(0)
if len(sys.argv) > 1 and sys.argv[1] == "--splice":
    splice(pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3]))
    sys.exit(0)

out = pathlib.Path(sys.argv[1])
servers = sys.argv[2].split(",")
size_list = [int(s) for s in sys.argv[3].split(",")]
seconds, connections, cores = int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
sweep_available = sys.argv[7] == "yes"
serve_words = sys.argv[8].strip()

# Per server: how it is shown, what a request does, and its declared CPU and wait (ms).
TITLES = {
    "serve": (f"`poolsize {serve_words}`", "1 ms CPU then 9 ms holding a worker", 1, 9),
    "gunicorn": ("`gunicorn -k gthread --workers 1 --threads {size} … wsgi_app:app`",
                 "about 2 ms of pure-Python CPU then an 18 ms `time.sleep`, one process", 2, 18),
    "java": ("`java Examples/servers/PoolServer.java --threads {size} … --cpu-ms 2 --sleep-ms 18` (auto: "
             "`--threads 1` and `--resize 'curl -fsS http://127.0.0.1:{port}/pool?threads={size}'`, one JVM "
             "resized in place)",
             "2 ms of thread CPU then an 18 ms `Thread.sleep`, a fixed pool", 2, 18),
    "workers": ("`gunicorn --workers {size} … wsgi_app:app` (sync workers; auto: `--workers 1` and "
                "`--resize signals`, one server resized in place)",
                "the gunicorn row's request, on a process per worker", 2, 18),
}
# The serve check: the formula from the server's own W/C against the declared one, within this.
FORMULA_TOLERANCE = 0.10


def ms(us):
    return "–" if us is None else f"{us / 1000:.1f}"


class Sweep(ToolSweep):
    """One `poolsize sweep --server` run of one server (sweep-NAME-MODE, as run_sweep leaves it):
    a ToolSweep's figures, its low-load line and rules of thumb."""

    def __init__(self, name, mode):
        super().__init__(out / f"sweep-{name}-{mode}")
        run = out / f"sweep-{name}-{mode}" / "run"
        self.mode = mode
        self.lowload = _json(run / "lowload.json")
        summary = _text(run / "summary.txt").splitlines()
        self.rules = []
        for i, line in enumerate(summary):
            if line.startswith("rules of thumb on"):
                for rule in summary[i + 1:]:
                    if not rule.startswith("  "):
                        break
                    self.rules.append(rule.strip())

    @property
    def ok(self):
        return self.exit == 0 and self.recommendation is not None

    def field(self, key):
        return None if self.recommendation is None else self.recommendation.get(key)

    def sizes(self):
        return sorted({int(r["pool_size"]) for r in self.trials})

    def failure(self):
        if not self.ran:
            return "not run"
        if self.exit != 0:
            return f"failed (exit {self.exit}): {self.last_log_line or 'no message'}"
        return "no recommendation.json" if self.recommendation is None else None

    def lowload_sentence(self):
        low = self.lowload
        if not low:
            return "no low-load line (no lowload.json)"
        ratio = low["ratio"]
        ci = ratio.get("confidence_interval95") or {}
        exact = self.field("formula_queue_count_exact")
        stderr = self.field("formula_queue_count_stderr")
        formula = (f"; formula {cores} × (1 + W/C) = **{exact:.1f}**"
                   + (f" ± {stderr:.2f}" if stderr is not None else "")) if exact is not None else ""
        # For a server sweep lowload.json's `tasks` counts the slices of the window, not requests.
        return (f"one request in flight to the server at size 1 for {low['seconds']:.1f} s ({low['tasks']} slices): "
                f"C {number(low['cpu_microseconds_per_task'])} µs of the server's CPU per request, "
                f"W {number(low['wait_microseconds_per_task'])} µs, W/C {ratio['ratio']:.2f}"
                + (f" (95% CI {ci['lower']:.2f}–{ci['upper']:.2f})" if ci else "") + formula)


def hand_split(name):
    """The hand loop's wall time: wrk's seconds and the rest (server starts, probes, stops)."""
    total = hand_seconds[name]["all"]
    loading = len(size_list) * seconds
    return f"{len(size_list)} × {seconds} s of wrk = {loading} s, {total - loading:.0f} s starting and stopping servers"


def sweep_split(sweep):
    """A sweep's wall time: its low-load phase, its trials and the rest."""
    low = sweep.lowload["seconds"] if sweep.lowload else 0
    # Each trial's warm-up (the first 20% of its length) and its window as trials.csv records it:
    # a window that ended once its throughput was known is shorter than the trial's length.
    windows = sum(float(t.get("wall_s") or 0) for t in sweep.trials)
    known = sum(1 for t in sweep.trials if t.get("window_end") == "known")
    trials = len(sweep.trials) * 0.2 * seconds + windows
    rest = sweep.seconds - low - trials
    return (f"low-load phase {low:.0f} s, {len(sweep.trials)} trials in {trials:.0f} s ({known} of their windows "
            f"ended once known, windows {windows:.0f} s in all, warm-ups {len(sweep.trials) * 0.2 * seconds:.0f} s), "
            f"{rest:.0f} s starting and stopping servers and the rest")


def lone_request(name, sweep):
    """A lone request's time (the low-load C + W) against the time a pool of one is held per
    request under load (1 / throughput at size 1, the grid's): what W holds that no pool thread does."""
    if not sweep.lowload:
        return None
    alone = (sweep.lowload["cpu_microseconds_per_task"] + sweep.lowload["wait_microseconds_per_task"]) / 1000
    grid = sweeps[name]["grid"]
    rate = grid.mean(1, "throughput_per_s")
    if not rate:
        return None
    held = 1000 / rate
    head = (f"a lone request took C + W = {alone:.1f} ms ({sweep.mode} run's low-load line); at size 1 under load the "
            f"pool answered one every {held:.1f} ms (1 / the grid's throughput at 1)")
    if alone - held > max(1.0, 0.1 * held):
        return f"{head}: {alone - held:.1f} ms of the lone request's time held no pool thread, yet W counts it"
    return f"{head}: the two agree within {abs(alone - held):.1f} ms, so W is time a pool thread is held"


hand_rows = list(csv.DictReader((out / "hand-loop.csv").open()))
fits = {f["group"]: f for f in (_json(out / "fit.json") or [])}
hand_seconds = {}
for name in servers:
    rows = list(csv.DictReader((out / f"{name}-hand-seconds.csv").open()))
    hand_seconds[name] = {r["size"]: float(r["seconds"]) for r in rows}
sweeps = {name: {mode: Sweep(name, mode) for mode in ("grid", "auto")} for name in servers}
list_text = ",".join(map(str, size_list))

print(f"For each server, one after the other: the hand loop, then `poolsize sweep --server` on the same server "
      f"twice, as a grid on the hand loop's sizes ({list_text}) and as an adaptive search (`--sizes auto`).")
print()
print(f"- **Hand loop**: per size a fresh server with that many threads on a free loopback port, a GET until it "
      f"answers 200, `wrk -t1 -c{connections} -d{seconds}s --latency --timeout 10s URL` (one thread, a closed loop on "
      f"{connections} kept-alive connections; `--timeout 10s` because waits reach wrk's default 2 s at one thread, "
      "and in the slowest requests of a server whose threads compete for one core), then SIGTERM to the server's "
      "process group. One run per size, in increasing order, no warm-up: the loop as people run it by hand. p50 "
      "and p99 are wrk's (its latency histogram, read in its `done()` hook); wrk CPU per request is its process's "
      "user + system CPU (getrusage) over its requests: the load generator's cost, on the same cores as the server. "
      "Its knee is `poolsize fit`'s on these rows (`--tolerance 0.05`: the smallest size within 5% of the highest "
      "throughput measured, the sweep's rule); N* is the Universal Scalability Law's peak fitted to the same rows. "
      "Its wall time counts everything from the first server's start to the last one's stop.")
print(f"- **Grid**: `poolsize sweep --server 'COMMAND' --http 'http://127.0.0.1:{{port}}/' --sizes {list_text} "
      f"--search grid --repeat 1 --trial-ms {seconds * 1000} --connections {connections} --quiet --format json`. "
      "poolsize first measures the server's own W/C with one request in flight at size 1 (the low-load line), "
      "then starts a fresh server per size in a seeded shuffled order and loads it from one event-driven thread "
      f"with {connections} requests in flight; of each {seconds} s trial the first 20% is warm-up, the figures are "
      "the rest's. A server sweep also measures the rules of thumb's sizes (cores, cores + 1, 2 × cores + 1) "
      "beside the list, marked *rule* below. Driver CPU per request is its own thread's CPU "
      "(`driver_cpu_us_per_request` in trials.csv).")
print(f"- **Auto**: the same with `--sizes auto` (an adaptive search: a geometric bracket around the formula's N "
      f"from the low-load W/C, then bisection to one size step) and `--trial-margin 0.02`: each trial's window "
      f"ends once its throughput is known within ±2% (at most the same {seconds} s), the rest unchanged "
      f"(`--connections {connections}` is also its default).")
print(f"- The formula is cores × (1 + wait/CPU) with this machine's {cores} cores, from each server's declared "
      "CPU and wait; the formula from W/C is the sweep's, from the CPU and wait it measured. Wall times are "
      "the script's clock around each command, server starts and stops included.")
print()


def first_failure(name):
    return next((s.failure() for s in sweeps[name].values() if s.failure()), None)


print("| server | hand loop knee (fit) | hand loop wall time | grid knee | grid recommends | grid wall time "
      "| auto recommends | auto trials | auto wall time | formula from W/C (grid) | formula (declared) |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for name in servers:
    fit = fits.get(name, {})
    _, _, cpu, wait = TITLES[name]
    grid, auto = sweeps[name]["grid"], sweeps[name]["auto"]

    def wall(s):
        return f"{s.seconds:.0f} s" if s.seconds is not None else "–"

    declared = f"{cores * (1 + wait / cpu):.0f}" + (f" (1 core: {1 + wait / cpu:.0f})" if name == "gunicorn" else "")
    print(f"| {name} | {fit.get('knee_concurrency', '–')} | {hand_seconds[name]['all']:.0f} s | "
          f"{grid.field('knee_pool_size') if grid.ok else '–'} | "
          f"{grid.field('recommended_queue_count') if grid.ok else '–'} | {wall(grid)} | "
          f"{auto.field('recommended_queue_count') if auto.ok else '–'} | {len(auto.trials) if auto.ran else '–'} | "
          f"{wall(auto)} | {number(grid.field('formula_queue_count_exact'), 1) if grid.ok else '–'} | {declared} |")
print()
print("gunicorn's one worker process runs Python on one core at a time (CPython's interpreter lock; "
      "`time.sleep` lets it go), so the CPU part of its requests has one core, not the machine's: "
      "its formula with 1 core is in brackets.")
print()

# ---- the verdicts, one list per server ----
verdicts = {}
for name in servers:
    lines = []
    hand_knee = fits.get(name, {}).get("knee_concurrency")
    grid, auto = sweeps[name]["grid"], sweeps[name]["auto"]
    _, _, cpu, wait = TITLES[name]
    if not sweep_available:
        lines.append("no verdict: this build has no `poolsize sweep --server`")
        verdicts[name] = lines
        continue
    if grid.ok:
        lines.append(step_verdict("grid knee", grid.field("knee_pool_size"), hand_knee, size_list))
    else:
        lines.append(f"grid: {grid.failure()}")
    if auto.ok:
        lines.append(step_verdict("auto's recommendation", auto.field("recommended_queue_count"), hand_knee, size_list))
    if name == "serve":
        declared = cores * (1 + wait / cpu)
        for sweep in (grid, auto):
            exact = sweep.field("formula_queue_count_exact") if sweep.ok else None
            if exact is None:
                lines.append(f"formula from W/C ({sweep.mode}): none ({sweep.failure() or 'no figure'})")
                continue
            off = exact / declared - 1
            lines.append(f"formula from the server's own W/C ({sweep.mode} run's low-load line) {exact:.1f} against "
                         f"{cores} × (1 + {wait / cpu:g}) = {declared:.0f}: {off:+.1%}, **"
                         f"{'within' if abs(off) <= FORMULA_TOLERANCE else 'not within'} "
                         f"{FORMULA_TOLERANCE:.0%}**")
    hand_all = hand_seconds[name]["all"]
    if auto.ok and auto.seconds is not None:
        share = auto.seconds / hand_all
        verdict = "met" if share <= 1 / 3 else "missed"
        lines.append(f"auto answered in {auto.seconds:.0f} s against the hand loop's {hand_all:.0f} s, "
                     f"{share:.2f}× its time: a third or less **{verdict}** ("
                     f"auto: {sweep_split(auto)}; hand loop: {hand_split(name)})")
    elif not auto.ok:
        lines.append(f"auto: {auto.failure()}")
    for sweep in (grid, auto):
        if sweep.ran and sweep.leftovers:
            lines.append(f"{sweep.mode}: **{len(sweep.leftovers)} server process(es) still running after the sweep**: "
                         + "; ".join(f"`{line.strip()}`" for line in sweep.leftovers))
        elif sweep.ran:
            lines.append(f"{sweep.mode}: no server process left after the sweep (ps)")
    verdicts[name] = lines

print("## Verdicts")
print()
for name in servers:
    print(f"**{name}**")
    print()
    for line in verdicts[name]:
        print(f"- {line}")
    print()

# ---- per server: the hand loop and the grid side by side, then each sweep's answer ----
for name in servers:
    title, what, cpu, wait = TITLES[name]
    grid, auto = sweeps[name]["grid"], sweeps[name]["auto"]
    mine = {int(r["concurrency"]): r for r in hand_rows if r["workload"] == name}
    fit = fits.get(name, {})
    print(f"## {title}")
    print()
    print(f"Per request: {what}.")
    print()
    print("| size | wrk requests/s | wrk p50 ms | wrk p99 ms | wrk CPU µs/request | hand loop s "
          "| poolsize requests/s | poolsize p50 ms | poolsize p99 ms | driver CPU µs/request | poolsize/wrk |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    sizes = sorted(set(mine) | set(grid.by_size) | {size for size, _ in grid.invalid})
    for size in sizes:
        hand = mine.get(size)
        rate = grid.mean(size, "throughput_per_s")
        wrk_rate = float(hand["throughput"]) if hand else None
        ratio = f"{rate / wrk_rate:.2f}" if rate is not None and wrk_rate else "–"
        label = str(size) if size in size_list else f"{size} (rule)"
        invalid = [reason for s, reason in grid.invalid if s == size]
        if rate is None and invalid:
            grid_cells = f"invalid: {invalid[0]} | – | – | – | –"
        else:
            grid_cells = (f"{number(rate)} | {ms(grid.mean(size, 'latency_p50_us'))} | "
                          f"{ms(grid.mean(size, 'latency_p99_us'))} | "
                          f"{number(grid.mean(size, 'driver_cpu_us_per_request'), 1)} | {ratio}")
        if hand:
            hand_cells = (f"{wrk_rate:.0f} | {int(hand['p50_us']) / 1000:.1f} | {int(hand['p99_us']) / 1000:.1f} | "
                          f"{hand['wrk_cpu_us_per_request']} | {hand_seconds[name].get(str(size), 0):.1f}")
        else:
            hand_cells = "– | – | – | – | –"
        print(f"| {label} | {hand_cells} | {grid_cells} |")
    print()
    errors = sum(int(r["errors"]) for r in mine.values())
    print(f"**Hand loop**: knee {fit.get('knee_concurrency', '–')} "
          f"({number(fit.get('knee_throughput'))}/s; USL N* "
          f"{number(fit.get('peak_concurrency'), 1) if fit.get('peak_concurrency') is not None else '–'}); "
          f"{len(size_list)} sizes in {hand_seconds[name]['all']:.0f} s ({hand_split(name)}), wrk errors {errors}.")
    print()
    if not sweep_available:
        print("`poolsize sweep --server`: not in this build (`poolsize sweep --help` has no `--server`); skipped.")
        print()
        continue
    for sweep in (grid, auto):
        head = "**Grid**" if sweep.mode == "grid" else "**Auto**"
        if not sweep.ok:
            print(f"{head}: {sweep.failure()}")
            print()
            continue
        rec = sweep.recommendation
        invalid = f", {len(sweep.invalid)} invalid" if sweep.invalid else ""
        print(f"{head}: recommends **{rec['recommended_queue_count']}** ({rec['basis']}; knee "
              f"{rec.get('knee_pool_size', '–')}, peak {number(rec.get('peak_throughput_per_s'))}/s at "
              f"{rec.get('peak_pool_size', '–')}); {len(sweep.trials)} trials{invalid} at sizes "
              f"{','.join(map(str, sweep.sizes()))} in {sweep.seconds:.0f} s, low-load phase included.")
        print()
        print(f"- poolsize's reason: {rec['reason']}")
        print(f"- low load: {sweep.lowload_sentence()}")
        lone = lone_request(name, sweep)
        if lone:
            print(f"- {lone}")
        print(f"- wall time {sweep.seconds:.0f} s: {sweep_split(sweep)}")
        if sweep.mode == "auto":
            measured = sweep.sizes()
            inside = [s for s in size_list if measured and measured[0] <= s <= measured[-1]]
            inside_seconds = sum(hand_seconds[name][str(s)] for s in inside)
            rates = ", ".join(f"{s}: {number(sweep.mean(s, 'throughput_per_s'))}/s" for s in measured)
            print(f"- per size: {rates}")
            print(f"- the hand loop took {hand_seconds[name]['all']:.0f} s for its {len(size_list)} sizes; its "
                  f"{len(inside)} sizes within auto's range ({measured[0]}–{measured[-1]}) took {inside_seconds:.0f} s")
        if sweep.rules:
            print("- rules of thumb (poolsize's lines): " + "; ".join(sweep.rules))
        for size, reason in sweep.invalid:
            print(f"- invalid trial at {size}: {reason}")
        print()
    if name == "java":
        print("Why a lone request to PoolServer.java takes longer than the pool holds it: the handler sends the "
              "headers and the body in two writes (`sendResponseHeaders`, then the body), and the JDK's HttpServer "
              "leaves Nagle's algorithm on (its `sun.net.httpserver.nodelay` property is false by default), so on a "
              "kept-alive connection with nothing else in flight the body waits in the kernel for the client's "
              "delayed ACK (at least 40 ms on Linux). `wrk -t1 -c1` sees the same; started with "
              "`java -Dsun.net.httpserver.nodelay=true …` the server answers a lone request in about its 20 ms. "
              "The wait holds no pool thread, so the knee does not move, but the low-load W counts it and the "
              "formula from W/C comes out high.")
        print()
