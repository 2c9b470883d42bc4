# shellcheck shell=bash disable=SC2154,SC2034  # $root is the caller's; these functions set the caller's variables
# Sourced by the benchmark scripts: what they all do alike, in one place so that every script
# takes its options and writes its page the same way. Their options (page_options,
# passed_flags_known, whole_number, size_list_option), --out (out_directory), the release binary
# they measure (release_binary), the load before a run (measure_start), the page with the command
# and the machine on top (publish_page), and the processes they start (started_processes,
# start_serve, wait_for). The caller sets $root, the repository, before sourcing this.

# What page_options sets, never taken from the environment: a stray exported `out` would move a
# run's output somewhere unasked.
out=""
doc=""

# page_options NAME SPEC... -- ARGS...: parses a benchmark's command line ARGS and sets
# command_line (the script and ARGS, as they can be typed again), out and doc.
#   NAME: the page, docs/benchmarks/NAME.md (--doc FILE | --no-doc), and the default --out DIR,
#         results/benchmark-NAME-<time>. An empty NAME is a script that writes several pages:
#         doc is their directory (--doc-dir DIR | --no-doc) and --out defaults to
#         results/benchmark-<time>.
#   SPEC: `--flag=variable:WORD`, an option taking a value (WORD names it in the messages); the
#         variable's value before the call is its default (out and doc too, when set). `...`: the
#         words that are no option here go, in order, to the array page_args, for the tool the
#         script runs; without it such a word is an error.
# --help prints the script's leading comment (its usage) and exits 0; an unknown option or a
# missing value prints one line and exits 64.
page_options() {
    local name="$1" specs=() builtin spec flag variable pass=no found
    shift
    while [[ $# -gt 0 && "$1" != "--" ]]; do
        if [[ "$1" == "..." ]]; then pass=yes; else specs+=("$1"); fi
        shift
    done
    if [[ $# -gt 0 ]]; then shift; fi
    local stamp
    stamp="$(date -u +%Y%m%d-%H%M%S)"
    if [[ -n "$name" ]]; then
        builtin=("--out=out:DIR" "--doc=doc:FILE")
        out="${out:-$root/results/benchmark-$name-$stamp}"
        doc="${doc:-$root/docs/benchmarks/$name.md}"
    else
        builtin=("--out=out:DIR" "--doc-dir=doc:DIR")
        out="${out:-$root/results/benchmark-$stamp}"
        doc="${doc:-$root/docs/benchmarks}"
    fi
    # A caller's own spelling of a built-in option (--out FILE, say) stands in for it.
    for spec in "${builtin[@]}"; do
        [[ " ${specs[*]} " == *" ${spec%%=*}="* ]] || specs+=("$spec")
    done
    command_line="scripts/${0##*/}"
    if [[ $# -gt 0 ]]; then command_line+="$(printf ' %q' "$@")"; fi
    # printf %q escapes commas, which the shell reads alike without: 1,2,4 reads better.
    command_line="${command_line//\\,/,}"
    page_usage=""
    for spec in "${specs[@]}"; do
        page_usage+="${spec%%=*} ${spec##*:}, "
        if [[ "$spec" == --doc* ]]; then page_usage="${page_usage%, } | --no-doc, "; fi
    done
    page_usage+="--help"
    page_args=()
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --help)
                sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p;}' "$0"
                exit 0
                ;;
            --no-doc)
                doc=""
                shift
                continue
                ;;
        esac
        found=no
        for spec in "${specs[@]}"; do
            flag="${spec%%=*}"
            [[ "$1" == "$flag" ]] || continue
            variable="${spec#*=}"
            variable="${variable%%:*}"
            [[ $# -ge 2 ]] || { echo "error: $flag needs a value: $flag ${spec##*:}" >&2; exit 64; }
            printf -v "$variable" '%s' "$2"
            found=yes
            shift 2
            break
        done
        [[ "$found" == yes ]] && continue
        if [[ "$pass" == yes ]]; then
            page_args+=("$1")
            shift
            continue
        fi
        echo "error: $1: unknown option; use ${page_usage%, --help} or --help" >&2
        exit 64
    done
}

# passed_flags_known SUBCOMMAND: exits 64, with one line, when a flag in page_args is none of
# `poolsize SUBCOMMAND`'s (its --help lists them), so that a mistyped flag stops the script before
# anything is built into --out or measured. Needs $bin.
passed_flags_known() {
    local word help
    help="$("$bin" "$1" --help 2>&1)"
    for word in "${page_args[@]}"; do
        [[ "$word" == -* && "$word" != -[0-9]* ]] || continue
        [[ "$help" == *"${word%%=*}"[\ ,=]* || "$help" == *"${word%%=*}" ]] && continue
        echo "error: $word: unknown option; use $page_usage or a flag of poolsize $1 (poolsize $1 --help)" >&2
        exit 64
    done
}

# whole_number FLAG VALUE MAX: exits 64, naming the option, unless VALUE is 1 to MAX.
whole_number() {
    [[ "$2" =~ ^[1-9][0-9]*$ ]] && ((${#2} <= ${#3} && 10#$2 <= $3)) && return 0
    echo "error: $1 $2: give a whole number from 1 to $3" >&2
    exit 64
}

# size_list_option FLAG VALUE MAX: VALUE's sizes, comma-separated, into the array size_list;
# exits 64, naming the option, unless each is 1 to MAX.
size_list_option() {
    local size valid=no
    if [[ "$2" =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]]; then
        valid=yes
        IFS=, read -ra size_list <<< "$2"
        for size in "${size_list[@]}"; do
            ((${#size} <= ${#3} && size <= $3)) || valid=no
        done
    fi
    [[ "$valid" == yes ]] && return 0
    echo "error: $1 $2: give whole numbers from 1 to $3, comma-separated, e.g. 1,2,4,8" >&2
    exit 64
}

# out_directory: makes --out DIR and its path absolute, since the tools it is handed to run
# from other directories.
out_directory() {
    mkdir -p "$out"
    out="$(cd "$out" && pwd)"
}

# release_binary: builds the release binary when needed (scripts/poolsize does) and sets bin.
release_binary() {
    "$root/scripts/poolsize" --version >/dev/null
    bin="$root/.build/release/poolsize"
}

# measure_start: the load average before the measurement and its start, for the page's header;
# says the load, which should read near 0 on an otherwise idle machine.
measure_start() {
    load_before="$(load_average)"
    started=$SECONDS
    echo "== load before: $load_before (an otherwise idle machine reads near 0)" >&2
}

load_average() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || sysctl -n vm.loadavg 2>/dev/null | tr -d '{}' | xargs; }

# machine_header: the command and the machine, as a Markdown list for the top of a page, from
# command_line, load_before and started.
machine_header() {
    local cpu cpus swift_version seconds=$((SECONDS - started))
    cpu="$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null | head -n 1)"
    [[ -n "$cpu" ]] || cpu="$(sysctl -n machdep.cpu.brand_string 2>/dev/null || echo "CPU model unknown")"
    cpus="$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)"
    swift_version="$(swift --version 2>&1 | sed -n '/Swift version/{p;q;}')"
    [[ -n "$swift_version" ]] || swift_version="$(swift --version 2>&1 | head -n 1)"
    echo "- command: \`$command_line\`"
    echo "- machine: $(uname -srm); $cpus CPUs (nproc); $cpu"
    echo "- toolchain: $swift_version; poolsize $("$bin" --version), release build"
    echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); took $((seconds / 60)) min $((seconds % 60)) s"
    echo "- load average (1, 5, 15 min): $load_before before the run, $(load_average) after"
}

# publish_page DOC TITLE INTRO BODY_FILE: writes a docs/benchmarks page (the title, the intro
# paragraph when there is one, the command and the machine, then the body) to DOC through
# DOC.tmp.PID, so a run cut short never leaves half a page; nothing when DOC is empty.
publish_page() {
    [[ -n "$1" ]] || return 0
    mkdir -p "$(dirname "$1")"
    if {
        echo "# $2"
        echo
        if [[ -n "$3" ]]; then
            printf '%s\n' "$3"
            echo
        fi
        machine_header
        echo
        cat "$4"
    } > "$1.tmp.$$"; then
        mv "$1.tmp.$$" "$1"
    else
        rm -f "$1.tmp.$$"
        return 1
    fi
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
# start_serve LOG FLAG...: `poolsize serve --port 0 FLAG...` in the background, its output in LOG,
# stopped with the others; sets serve_url once it listens, or exits 1 with its log.
start_serve() {
    local log="$1"
    shift
    "$bin" serve --port 0 --duration 60min --quiet "$@" > "$log" 2>&1 &
    pids+=($!)
    wait_for "$log" 'http://' "$!" || { echo "error: poolsize serve did not start: $(cat "$log")" >&2; exit 1; }
    serve_url="$(grep -o 'http://[^ ]*' "$log" | head -n 1)"
}
wait_for() { # wait_for FILE PATTERN PID: until FILE holds PATTERN (bounded), or the process died
    for _ in $(seq 1 400); do
        grep -q "$2" "$1" 2>/dev/null && return 0
        kill -0 "$3" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}
