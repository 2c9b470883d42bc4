# shellcheck shell=bash disable=SC2154,SC2034  # $bin and $root are the caller's; page_options sets the caller's variables
# Sourced by the benchmark scripts: the command and the machine, as a Markdown list for the top
# of a docs/benchmarks page. Needs $bin (the poolsize binary) set by the caller.
machine_header() { # machine_header COMMAND_LINE LOAD_BEFORE SECONDS
    local cpu cpus swift_version
    cpu="$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)"
    [[ -n "$cpu" ]] || cpu="$(sysctl -n machdep.cpu.brand_string 2>/dev/null || echo "CPU model unknown")"
    cpus="$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)"
    swift_version="$(swift --version 2>&1 | sed -n '/Swift version/{p;q;}')"
    [[ -n "$swift_version" ]] || swift_version="$(swift --version 2>&1 | head -n 1)"
    echo "- command: \`$1\`"
    echo "- machine: $(uname -srm); $cpus CPUs (nproc); $cpu"
    echo "- toolchain: $swift_version; poolsize $("$bin" --version), release build"
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); took $(($3 / 60)) min $(($3 % 60)) s"
    echo "- load average (1, 5, 15 min): $2 before the run, $(load_average) after"
}
load_average() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || sysctl -n vm.loadavg 2>/dev/null | tr -d '{}' | xargs; }
# publish_page DOC TITLE INTRO BODY_FILE COMMAND_LINE LOAD_BEFORE SECONDS: writes a docs/benchmarks
# page (the title, the intro paragraph, the command and the machine, then the body) to DOC through
# DOC.tmp.PID, so a run cut short never leaves half a page; nothing when DOC is empty.
publish_page() {
    [[ -n "$1" ]] || return 0
    mkdir -p "$(dirname "$1")"
    {
        echo "# $2"
        echo
        printf '%s\n' "$3"
        echo
        machine_header "$5" "$6" "$7"
        echo
        cat "$4"
    } > "$1.tmp.$$"
    mv "$1.tmp.$$" "$1"
}
# page_options NAME REPEAT ARGS...: the options of a benchmark that writes docs/benchmarks/NAME.md
# (--out DIR, --doc FILE | --no-doc, --repeat N, REPEAT by default); sets command_line, out, doc
# and repeat for the script, or exits 64 naming the option.
page_options() {
    local name="$1"
    repeat="$2"
    shift 2
    command_line="scripts/benchmark-$name.sh"
    if [[ $# -gt 0 ]]; then command_line+="$(printf ' %q' "$@")"; fi
    out="$root/results/benchmark-$name-$(date -u +%Y%m%d-%H%M%S)"
    doc="$root/docs/benchmarks/$name.md"
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --out) out="$2"; shift 2 ;;
            --doc) doc="$2"; shift 2 ;;
            --no-doc) doc=""; shift ;;
            --repeat) repeat="$2"; shift 2 ;;
            *) echo "error: $1: unknown option; use --out DIR, --doc FILE, --no-doc or --repeat N" >&2; exit 64 ;;
        esac
    done
    [[ "$repeat" =~ ^[1-9][0-9]?$ ]] || { echo "error: --repeat $repeat: give a whole number from 1 to 99" >&2; exit 64; }
}
# started_processes: every process a benchmark records in `pids` is stopped when it exits,
# however it ends (Ctrl-C and SIGTERM exit 130). Call once, before the first start.
started_processes() {
    pids=()
    trap stop_started EXIT
    trap 'exit 130' INT TERM
}
stop_started() {
    local pid
    for pid in "${pids[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
}
wait_for() { # wait_for FILE PATTERN PID: until FILE holds PATTERN (bounded), or the process died
    for _ in $(seq 1 400); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        kill -0 "$3" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}
