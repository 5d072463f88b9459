#!/bin/sh
# The command line: dispatch, help, the default table, `info` (text and
# JSON, with the availability this node should show) and one-line exit-2
# messages for every kind of bad input.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON"

# expect_usage DESC PATTERN ARGS...: status 2, exactly one line on stderr
# that contains PATTERN (the bad value), nothing on stdout.
expect_usage() {
	desc=$1; pat=$2; shift 2
	"$TL_BIN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null; st=$?
	lines=$(wc -l <"$tmp/err")
	if [ "$st" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$pat" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok 0 "$desc: exit 2, one line naming '$pat'"
	else
		ok 1 "$desc: exit 2, one line naming '$pat' (got status $st, $lines lines)"
		sed 's/^/#   /' "$tmp/err" | head -n 5
	fi
}

# --- dispatch and help ---------------------------------------------------
"$TL_BIN" --version >"$tmp/out"; ok $? "--version exits 0"
grep -q '^ticklab [0-9][0-9.]*' "$tmp/out"; ok $? "--version prints the version"
"$TL_BIN" --help >"$tmp/out"; ok $? "--help exits 0"
grep -q 'info' "$tmp/out" && grep -q 'run' "$tmp/out" && grep -q 'search' "$tmp/out" && grep -q 'report' "$tmp/out" && grep -q 'tui' "$tmp/out"
ok $? "--help lists the commands"
# Every command the top-level help lists, so a new subcommand is covered too.
commands=$("$TL_BIN" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ -n "$commands" ]; ok $? "--help's command list parses"
for c in $commands; do
	"$TL_BIN" $c --help >"$tmp/out" 2>&1; st=$?
	[ $st -eq 0 ] && grep -q "usage: ticklab $c" "$tmp/out"; ok $? "$c --help prints its usage"
	# Help text goes through fputs, so a printf-style "95 %%" would show
	# literally ("%%" alone may be a documented escape, as in fingerprint's path).
	! grep -Eq '[0-9] ?%%|%% of' "$tmp/out"; ok $? "$c --help has no doubled percent sign after a number"
done
# The man page documents every long option each subcommand's --help offers.
man="$TL_TOP_SRCDIR/ticklab.1"
for c in $commands; do
	missing=""
	for o in $("$TL_BIN" $c --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		grep -q -- "$esc" "$man" || missing="$missing $o"
	done
	[ -z "$missing" ]; ok $? "ticklab.1 documents every option of $c${missing:+ (missing:$missing)}"
done
expect_usage "unknown command" "frobnicate" frobnicate
expect_usage "unknown top-level option" "--frob" --frob
grep -q 'accepted' "$tmp/err"; ok $? "the message says what is accepted"

# --- the default table (no terminal: stdin and stdout are not ttys) ---------
"$TL_BIN" </dev/null >"$tmp/table" 2>"$tmp/err"; st=$?
ok $st "ticklab with no terminal exits 0"
grep -q '^backend .*p50.*p99.*CV' "$tmp/table"; ok $? "it prints the summary table header"
grep -q 'add:500' "$tmp/table" && grep -q '^sim' "$tmp/table"
ok $? "the table has add:500 rows and the simulator"
case $(uname -m) in
x86_64 | i?86)
	# The node decides which barrier leads: barrier-tsc where RDTSCP
	# executes (a test child of tests/node_caps tries it), else barrier-rdtsc.
	barrier=barrier-rdtsc
	"$TL_TOP_BUILDDIR/tests/node_caps" | grep -q '^rdtscp yes' && barrier=barrier-tsc
	grep -q "^$barrier " "$tmp/table" && grep -q '^rdtsc ' "$tmp/table"
	ok $? "$barrier and rdtsc are in the default comparison on x86"
	grep -q "the barrier timer is $barrier" "$tmp/table"
	ok $? "the default comparison says which barrier timer it took" ;;
esac

# On a terminal: the TUI when TERM is usable, the table when TERM=dumb.
# (tmux gives the program a real pty; the screens themselves are tui/'s tests.)
if command -v tmux >/dev/null 2>&1; then
	sock=tlcli$$
	# wait_for TEXT: polls the pane for up to 10 s (never a fixed sleep).
	wait_for() {
		i=0
		while [ $i -lt 100 ]; do
			tmux -L $sock capture-pane -p 2>/dev/null | grep -q -- "$1" && return 0
			sleep 0.1; i=$((i + 1))
		done
		return 1
	}
	tmux -L $sock -f /dev/null new -d -x 100 -y 30 \
		"env LANG=C.UTF-8 TERM=xterm-256color NO_COLOR=1 '$TL_BIN'; echo tl-exit-\$?; sleep 30"
	wait_for 'Setup'; ok $? "ticklab on a terminal opens the TUI"
	tmux -L $sock send-keys q
	wait_for 'tl-exit-0'; ok $? "q leaves it with status 0"
	tmux -L $sock kill-server 2>/dev/null
	sock=tlcli$$b
	# Wide and tall enough that the table (with its filter column) and its
	# notes do not wrap the first line off the pane.
	tmux -L $sock -f /dev/null new -d -x 200 -y 50 \
		"env TERM=dumb '$TL_BIN'; echo tl-exit-\$?; sleep 30"
	wait_for 'tl-exit-0'
	tmux -L $sock capture-pane -p | grep -q 'no usable terminal'
	ok $? "TERM=dumb on a terminal prints the default comparison instead"
	tmux -L $sock kill-server 2>/dev/null
fi

# --- info ------------------------------------------------------------------
"$TL_BIN" info >"$tmp/info" 2>"$tmp/err"; ok $? "info exits 0"
for w in clocksource hypervisor governor perf_event rdpmc lfence papi tsc caches; do
	grep -q "^$w" "$tmp/info"; ok $? "info shows $w"
done
grep -q 'what can spoil' "$tmp/info"; ok $? "info lists the spoilers"
# Cache sizes say where they came from (hwloc: sysfs, or CPUID where a VM hides it).
grep -q '^caches: *unknown' "$tmp/info" || grep -A1 '^caches:' "$tmp/info" | grep -q '^  *from hwloc '
ok $? "info says where the cache sizes came from"
# A CPU list is said as a list, next to what it is (sysfs's own list for the
# sampling CPU), never as "siblings 1", which reads as a count.
cpu=$(sed -n 's/^cpu:.*sampling CPU \([0-9]*\).*/\1/p' "$tmp/info")
list=$(cat "/sys/devices/system/cpu/cpu$cpu/topology/thread_siblings_list" 2>/dev/null)
if [ -n "$list" ]; then
	grep '^cpu:' "$tmp/info" | grep -qF "its core's CPU list: $list)"; ok $? "info names CPU $cpu's core's CPU list ($list)"
fi
! grep -Eq 'siblings [0-9]|smt +[0-9]' "$tmp/info"; ok $? "info shows no CPU list as a bare number"
# The clock drift is an sd and says so; the medians' span is named apart;
# no cause is stated as fact (the probe measures the level, not the clock).
if grep -q '^  ! clock ' "$tmp/info"; then
	grep '^  ! clock ' "$tmp/info" | grep -q 'drift [0-9.]* %: the sd of .* span .*Cause not measured'
	ok $? "a drifting clock: drift named as an sd, the span apart, the cause not claimed"
fi
! grep -q 'drifts [0-9]\|clock changes under the timer' "$tmp/info"; ok $? "info never calls an sd a drift range or claims its cause"
# turbo that cannot be read is marked unknown, not fine
if [ ! -e /sys/devices/system/cpu/intel_pstate/no_turbo ] && [ ! -e /sys/devices/system/cpu/cpufreq/boost ]; then
	grep -q '^  ? turbo ' "$tmp/info"; ok $? "turbo that no file shows is marked ? (not known)"
fi
"$TL_BIN" info --json >"$tmp/info.json" 2>"$tmp/err"; ok $? "info --json exits 0"
"$PY" -m json.tool "$tmp/info.json" >/dev/null; ok $? "info --json is valid JSON"

have_papi=0
grep -q '^#define HAVE_PAPI 1' "$TL_TOP_BUILDDIR/config.h" 2>/dev/null && have_papi=1
have_pmu=0
[ -d /sys/bus/event_source/devices/cpu ] && have_pmu=1
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 3)

# Every documented backend id (and perf-task-clock) with available + reason, and
# the availability this node must show: expectations follow from the
# architecture, whether PAPI was built, whether a CPU PMU device exists and
# perf_event_paranoid -- never from what ticklab itself says.
rdtscp=0 rdtsc=0
"$TL_TOP_BUILDDIR/tests/node_caps" >"$tmp/caps"
grep -q '^rdtscp yes' "$tmp/caps" && rdtscp=1
grep -q '^rdtsc yes' "$tmp/caps" && rdtsc=1
"$PY" - "$tmp/info.json" "$(uname -m)" "$have_papi" "$have_pmu" "$paranoid" "$rdtscp" "$rdtsc" >"$tmp/tap" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
arch, papi, pmu, paranoid = sys.argv[2], sys.argv[3] == "1", sys.argv[4] == "1", int(sys.argv[5])
rdtscp, rdtsc = sys.argv[6] == "1", sys.argv[7] == "1"
x86 = arch in ("x86_64", "i386", "i686")
arm = arch == "aarch64"
n = 0
def ok(cond, desc):
    global n
    n += 1
    print(("ok" if cond else "not ok") + " %d - %s" % (n, desc))
ok(isinstance(doc.get("host"), dict), "info JSON has a host object")
for k in ("model", "caches", "tsc_ghz", "clocksource", "hypervisor", "governor", "turbo",
          "perf_event_paranoid", "rdpmc", "papi", "lfence_serializing", "spoilers"):
    ok(k in doc["host"], "host has %s" % k)
ok(all("what" in s and "why" in s and "bad" in s for s in doc["host"]["spoilers"]),
   "every spoiler has what, bad and why")
src = doc["host"].get("caches_source", "missing")
ok(src.startswith("hwloc ") if doc["host"]["caches"] else src is None,
   "caches_source says where the sizes came from: %s" % src)
by = {b["id"]: b for b in doc.get("backends", [])}
keys = ("id", "family", "clock", "unit", "how", "available", "reason", "resolution_ns",
        "overhead_ns", "simulated")
ok(all(all(k in b for k in keys) for b in by.values()), "every backend has every key")
expect = {
    "barrier-tsc": x86 and rdtscp, "barrier-rdtsc": x86 and rdtsc, "rdtsc": x86 and rdtsc,
    "clock-gettime": True, "sim": True,
    "papi-real-nsec": papi, "papi-real-cyc": papi,
    "perf-task-clock": paranoid <= 2,
    "barrier-cntvct": arm,
}
if not pmu:
    expect.update({"barrier-pmc": False, "papi-read": False, "perf-read": False})
if not arm:
    expect["barrier-pmccntr"] = False
for bid in ("barrier-tsc", "barrier-rdtsc", "barrier-pmc", "barrier-cntvct", "barrier-pmccntr", "papi-real-nsec",
            "papi-real-cyc", "papi-read", "clock-gettime", "rdtsc", "perf-read", "sim",
            "perf-task-clock"):
    b = by.get(bid)
    ok(b is not None and isinstance(b["available"], bool), "%s is listed with available" % bid)
    if b is None:
        continue
    if b["available"]:
        ok(b["reason"] is None and b["resolution_ns"] > 0 and b["overhead_ns"] > 0,
           "%s: available with resolution and overhead > 0" % bid)
        if bid == "barrier-tsc":
            ok("RDTSCP" in (b.get("probe") or ""), "barrier-tsc says how it was decided: %s" % b.get("probe"))
    else:
        ok(isinstance(b["reason"], str) and len(b["reason"]) > 10,
           "%s: unavailable with a reason (%s)" % (bid, b["reason"]))
    if bid in expect:
        ok(b["available"] == expect[bid], "%s is %savailable here" % (bid, "" if expect[bid] else "un"))
    if bid in ("barrier-pmc", "perf-read") or (bid == "papi-read" and papi):
        if not pmu:
            ok("pmu" in (b["reason"] or "").lower(), "%s's reason names the missing PMU" % bid)
    if bid.startswith("papi-") and not papi:
        ok("not built" in (b["reason"] or ""), "%s's reason says PAPI was not built" % bid)
ok(by.get("sim", {}).get("simulated") is True, "sim is labelled simulated")
# The node's clock reads, measured: the vDSO verdict agrees with the costs it
# shows, and every backend said to cost a syscall per read costs at least
# half a bare clock_gettime syscall.
h = doc["host"]
if h.get("vdso") is not None:
    cg, sc = h["clock_gettime_ns"], h["clock_gettime_syscall_ns"]
    ok((h["vdso"] is True) == (cg < 0.5 * sc),
       "vDSO verdict %s agrees with clock_gettime %.0f ns vs syscall %.0f ns" % (h["vdso"], cg, sc))
    for b in by.values():
        if b.get("syscall_per_read"):
            ok(b["overhead_ns"] >= 0.5 * sc and "syscall per read" in (b.get("cost") or ""),
               "%s: a syscall per read, %.0f ns" % (b["id"], b["overhead_ns"]))
if x86 and h.get("tsc_ghz"):
    ok(h.get("tsc_resolution_ns") and h["tsc_resolution_ns"] > 0 and h.get("tsc_reader"),
       "the TSC step is measured (%s ns by %s), never 0" % (h.get("tsc_resolution_ns"), h.get("tsc_reader")))
ok(not any(b["simulated"] for i, b in by.items() if not i.startswith("sim")), "nothing else is")
print("# %d checks" % n)
EOF
# Renumber the embedded checks into this script's TAP stream.
while read -r line; do
	case $line in
	"ok "*) ok 0 "${line#ok [0-9]* - }" ;;
	"not ok "*) ok 1 "${line#not ok [0-9]* - }" ;;
	esac
done <"$tmp/tap"

# --- bad input: exit 2 with one line naming the value ----------------------
expect_usage "run: unknown backend" "nosuch" run --backend nosuch
grep -q 'barrier-tsc' "$tmp/err"; ok $? "the unknown-backend message lists the known ids"
case $(uname -m) in
x86_64 | i?86) expect_usage "run: unavailable backend" "barrier-cntvct" run --backend barrier-cntvct
	grep -q 'unavailable' "$tmp/err"; ok $? "the message says unavailable and why" ;;
esac
expect_usage "run: no --backend" "--backend" run
expect_usage "run: bad size" "12parsecs" run --backend sim --flush 12parsecs
expect_usage "run: negative K" "add:-5" run --backend sim --kernel add:-5
expect_usage "run: unknown kernel" "sqrt:5" run --backend sim --kernel sqrt:5
expect_usage "run: N = 0" "'0'" run --backend sim -n 0
expect_usage "run: N < 0" "-3" run --backend sim -n -3
expect_usage "run: N not a number" "12x" run --backend sim -n 12x
expect_usage "run: unknown flag" "--bogus" run --backend sim --bogus
expect_usage "run: missing value" "--backend" run --backend
expect_usage "run: a value for a flag" "--quiet=yes" run --backend sim --quiet=yes
expect_usage "run: CPU out of range" "9999" run --backend sim --cpu 9999
expect_usage "run: CPU not a number" "x1" run --backend sim --cpu x1
expect_usage "run: unknown OS filter" "magic" run --backend sim --os-filter magic
expect_usage "run: bad seed" "-1" run --backend sim --seed -1
expect_usage "run: bad sim parameter" "sd=abc" run --backend sim:sd=abc
expect_usage "run: stray argument" "extra" run --backend sim extra
expect_usage "run: backend twice" "sim" run --backend sim,sim
expect_usage "run: missing output directory" "$tmp/nodir/x.json" run --backend sim --json "$tmp/nodir/x.json"
[ ! -e "$tmp/nodir" ]; ok $? "nothing is created for a missing directory"

# A near miss of an accepted name is refused with the fix offered (case,
# '_' for '-', a swap or a letter off), still one line: nothing before it
# (no chase note for a flush list that is refused).
expect_usage "run: a swapped backend" "did you mean 'barrier-tsc'?" run -b barrier-tcs
expect_usage "run: '_' for '-'" "did you mean 'clock-gettime'?" run -b clock_gettime
expect_usage "run: a backend's parameters kept" "did you mean 'sim:sd=5'?" run -b sm:sd=5
expect_usage "run: a level's case" "did you mean '4xL2'?" run -b sim -f 4xl2
expect_usage "run: a level that is not one" "L9 is not a cache level" run -b sim --flush 4xL9
expect_usage "run: a kernel's arguments kept" "did you mean 'add:100'?" run -b sim -k ad:100
expect_usage "run: a filter one letter short" "did you mean 'iforest'?" run -b sim --os-filter iforst
expect_usage "run: a long option" "did you mean '--flush'?" run -b sim --flsuh 0
expect_usage "a command" "did you mean 'run'?" rnu
expect_usage "search: a metric" "did you mean 'tmin'?" search -b sim --metric t_min
"$TL_BIN" run -b sim -k nothinglike:5 2>&1 | grep -q "did you mean"
[ $? -ne 0 ]; ok $? "nothing is offered when no name is near"
expect_usage "info: unknown flag" "--fast" info --fast
expect_usage "report: no file" "FILE" report
expect_usage "report: unknown flag" "--bogus" report x.json --bogus

# An unknown option's message offers -x/--name only where -x exists: each
# short form it lists is one getopt takes (tui's --mouse has none). Two
# unknown words after it: a value or not, parsing stops before any work.
for cmd in $commands; do
	msg=$("$TL_BIN" $cmd --bogus 2>&1 </dev/null)
	bad=
	for s in $(printf '%s\n' "$msg" | grep -o -- '-[A-Za-z]/--' | cut -c2); do
		"$TL_BIN" $cmd -$s --zz --zz 2>&1 </dev/null | grep -q "unknown option '-$s'" && bad="$bad -$s"
	done
	[ -z "$bad" ]; ok $? "$cmd: every short form its usage message lists exists${bad:+ (not:$bad)}"
done

done_testing
