"""The body of docs/benchmarks/chain.md from scripts/benchmark-chain.sh's output directory.

    python3 scripts/benchmark_chain.py OUT CHAIN...

Per chain: the hand grid's cells (their rounds' mean requests/s), its best cell, poolsize's
recommended cell and that cell's share of the best in the grid's own figures, each method's
trials and wall time, the binding layer, and the rules of thumb. Markdown on stdout.
"""

import csv
import json
import pathlib
import statistics
import sys

TOLERANCE = 0.05
TRIAL_BUDGET = 15


def cell_text(sizes, names):
    return " ".join(f"{name}={sizes[name]}" for name in names)


def read_grid(path):
    """cell -> (connections, status, mean requests/s or None, rounds measured), in file order."""
    cells = {}
    with path.open(newline="") as handle:
        for row in csv.DictReader(handle):
            entry = cells.setdefault(row["cell"], {"connections": int(row["connections"]), "rates": [], "status": row["status"], "errors": 0})
            if row["status"] == "measured":
                entry["rates"].append(float(row["requests_per_s"]))
                entry["errors"] += int(row["errors"] or 0)
                entry["status"] = "measured"
    for entry in cells.values():
        entry["mean"] = statistics.fmean(entry["rates"]) if entry["rates"] else None
    return cells


def number(text):
    return f"{float(text):,.1f}"


def chain_section(out, name, allowed):
    knob_specs = (out / f"{name}-knobs.txt").read_text().split()
    names = [spec.split("=", 1)[0] for spec in knob_specs]
    rules = [line.split("|", 1) for line in (out / f"{name}-rules.txt").read_text().splitlines() if line]
    demand = (out / f"{name}-demand.txt").read_text().strip()
    grid = read_grid(out / f"{name}-grid.csv")
    measured = {cell: entry for cell, entry in grid.items() if entry["mean"] is not None}
    lines = [f"## {name}", ""]
    if not measured:
        return lines + ["The hand grid measured no cell; see the logs in the output directory.", ""]
    best_cell = max(measured, key=lambda cell: measured[cell]["mean"])
    best = measured[best_cell]["mean"]
    rounds = max(len(entry["rates"]) for entry in measured.values())
    grid_seconds = float((out / f"{name}-grid.seconds").read_text())
    excluded = [cell for cell, entry in grid.items() if entry["status"] == "excluded"]
    lines.append(
        f"Knobs: {', '.join(knob_specs)}; connections per cell: {demand.replace('*', ' × ')}. "
        f"{len(grid)} cells, {len(excluded)} over the {allowed} connections the database allows."
    )
    lines.append("")
    base = out / f"sweep-{name}"
    recommendation = base / "run" / "recommendation.json"
    sweep_exit = (base.with_suffix(".exit")).read_text().strip() if base.with_suffix(".exit").exists() else "not run"
    rows = [["method", "cell", "requests/s (grid)", "share of the grid's best", "trials", "wall s", "connections"]]
    rows.append(
        [
            f"hand grid ({rounds} round{'s' if rounds > 1 else ''})",
            best_cell,
            number(best),
            "1.000",
            str(sum(len(entry["rates"]) for entry in measured.values())),
            f"{grid_seconds:.0f} ({grid_seconds / rounds:.0f} a round)",
            str(grid[best_cell]["connections"]),
        ]
    )
    verdicts = []
    binding = "-"
    if recommendation.exists():
        answer = json.loads(recommendation.read_text())
        sizes = answer.get("recommended_sizes")
        trials = 0
        with (base / "run" / "chain.csv").open(newline="") as handle:
            for row in csv.DictReader(handle):
                trials += int(row["trials"] or 0)
        sweep_seconds = float(base.with_suffix(".seconds").read_text())
        binding = answer.get("binding", "-")
        if sizes:
            chosen = cell_text(sizes, names)
            in_grid = measured.get(chosen)
            share = in_grid["mean"] / best if in_grid else None
            connections = answer.get("recommended_connections")
            rows.append(
                [
                    "poolsize search",
                    chosen,
                    number(in_grid["mean"]) if in_grid else "not in the grid",
                    f"{share:.3f}" if share is not None else "-",
                    str(trials),
                    f"{sweep_seconds:.0f}",
                    str(connections) if connections is not None else "-",
                ]
            )
            verdicts.append(
                f"- within {TOLERANCE:.0%} of the grid's best: "
                + ("**yes**" if share is not None and share >= 1 - TOLERANCE else "**no**")
                + (f" ({share:.3f})" if share is not None else "")
            )
            verdicts.append(f"- at most {TRIAL_BUDGET} trials: " + ("**yes**" if trials <= TRIAL_BUDGET else "**no**") + f" ({trials})")
            verdicts.append(
                "- no cell beyond the connection limit recommended: "
                + ("**yes**" if connections is None or connections <= allowed else "**no**")
                + f" ({connections} of {allowed})"
            )
            leftovers = base.with_suffix(".leftovers")
            left = leftovers.read_text().strip() if leftovers.exists() else ""
            verdicts.append("- services left running after the sweep: " + ("none" if not left else f"**{len(left.splitlines())}**"))
            verdicts.append(
                f"- wall time: the search {sweep_seconds:.0f} s, one round of the grid {grid_seconds / rounds:.0f} s"
                f" ({sweep_seconds / (grid_seconds / rounds):.2f} of it)"
            )
        else:
            rows.append(["poolsize search", "no answer", "-", "-", str(trials), f"{sweep_seconds:.0f}", "-"])
    else:
        rows.append(["poolsize search", f"failed (exit {sweep_exit})", "-", "-", "-", "-", "-"])
    lines += table(rows)
    lines.append("")
    lines.append(f"Binding layer (poolsize): {binding}")
    lines.append("")
    lines += verdicts
    lines.append("")
    lines.append("Rules of thumb, each read as the best grid cell it allows:")
    lines.append("")
    rule_rows = [["rule", "knob", "best cell it allows", "requests/s", "share of the best"]]
    for setting, rule in rules:
        knob, value = setting.split("=", 1)
        allowed_cells = [cell for cell in measured if f"{knob}={value}" in cell.split()]
        if not allowed_cells:
            listed = next((spec.split("=", 1)[1] for spec in knob_specs if spec.startswith(knob + "=")), "")
            over = [cell for cell in excluded if f"{knob}={value}" in cell.split()]
            why = "every such cell over the connection limit" if over else f"not in the grid ({knob} {listed})"
            rule_rows.append([rule, f"{knob}={value}", why, "-", "-"])
            continue
        top = max(allowed_cells, key=lambda cell: measured[cell]["mean"])
        rule_rows.append([rule, f"{knob}={value}", top, number(measured[top]["mean"]), f"{measured[top]['mean'] / best:.3f}"])
    lines += table(rule_rows)
    lines.append("")
    lines.append("<details><summary>Every cell of the hand grid (mean requests/s of its rounds)</summary>")
    lines.append("")
    cell_rows = [["cell", "connections", "requests/s", "rounds", "errors", "measured by poolsize"]]
    searched = set()
    if recommendation.exists():
        with (base / "run" / "chain.csv").open(newline="") as handle:
            for row in csv.DictReader(handle):
                if row["status"] == "measured":
                    searched.add(cell_text(row, names))
    for cell, entry in grid.items():
        cell_rows.append(
            [
                cell,
                str(entry["connections"]),
                number(entry["mean"]) if entry["mean"] is not None else entry["status"],
                str(len(entry["rates"])),
                str(entry["errors"]),
                "yes" if cell in searched else "",
            ]
        )
    lines += table(cell_rows)
    lines += ["", "</details>", ""]
    return lines


def table(rows):
    def escape(text):
        return str(text).replace("|", "\\|")

    out = ["| " + " | ".join(escape(c) for c in rows[0]) + " |", "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows[1:]]
    return out


def main():
    out = pathlib.Path(sys.argv[1])
    settings = dict(line.split("=", 1) for line in (out / "database.txt").read_text().split())
    allowed = int(settings["allowed"])
    lines = [
        f"PostgreSQL 15 with max_connections {settings['max_connections']} "
        f"({settings['reserved']} reserved for superusers"
        + {"t": "; the services connect as a superuser", "f": "; the services connect as a role that is none"}.get(
            settings.get("superuser", ""), ""
        )
        + f": {allowed} for the grid). "
        "Each cell of the grid is a fresh start of the service, measured once its workers have settled, "
        "and one wrk run, with `-H 'Connection: close'` for the services of worker processes (gunicorn, "
        "Puma), which share one listening socket; poolsize's search starts the service at each cell it "
        "measures the same way (its driver opens a connection per request where the socket is shared) "
        "and measures W/C at low load once.",
        "",
    ]
    for name in sys.argv[2:]:
        lines += chain_section(out, name, allowed)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
