#!/bin/sh
# The fleet step at cluster scale: synthetic fleets written from
# the four fixtures (tests/fixtures/fleet, real `fingerprint --quick` files
# of one host): every node a copy of n1, n2 or n4 under its own name, and
# one odd node planted, the fixtures' n3 (taken beside a busy loop on its
# sampling CPU). For N = 10000, 50000 and 160000 nodes (160 000: about
# Fugaku's 158 976) it prints fleet's wall time, CPU time and peak RSS, the
# ratio to the N before (linear: 5x, then 3.2x), and which nodes were
# flagged (the planted one, and only it, is the right answer). 160 000
# small fingerprints take about 1.9 GB of disk under $TMPDIR. Then: the fingerprint's size raw and small; fleet on a
# directory mixing raw and small fingerprints against all small; and
# 2000 nodes judged as four `fleet --partial` parts merged against one step;
# fleet on N raw fingerprints beside python3's json.load of the same files.
# Numbers only: `make bench` prints them, nothing passes or fails here.
#   TL_BENCH_FLEET_N       the fleet sizes ("10000 50000 160000")
#   TL_BENCH_FLEET_RAW_N   the raw fleet sizes timed beside Python's json
#                          ("500 2000"; 2000 raw files take 2.6 GB of disk)
#   TL_BENCH_FLEET_BEFORE  another ticklab binary (an older build, to see a
#                          change's gain) to time on raw fleets of 25, 50 and 100
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TL_BIN:-./ticklab}
PY=${TL_PYTHON3:-python3}
NS=${TL_BENCH_FLEET_N:-10000 50000 160000}
RAW_NS=${TL_BENCH_FLEET_RAW_N:-500 2000}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

mkdir "$T/raw" "$T/small"
"$PY" - "$TOP/tests/fixtures/fleet" "$T/raw" <<'PY' || exit 1
import lzma, sys
for n in ("n1", "n2", "n3", "n4"):
    open("%s/%s.json" % (sys.argv[2], n), "wb").write(
        lzma.open("%s/%s.json.xz" % (sys.argv[1], n)).read())
PY
for n in n1 n2 n3 n4; do
	"$BIN" fingerprint --compact "$T/raw/$n.json" --json "$T/small/$n.json" -q || exit 1
done
echo "fingerprint size on this node's fixtures (bytes):"
for n in n1 n2 n3 n4; do
	printf '  %s  raw %8d  small %6d  (%.0fx smaller)\n' $n "$(wc -c <"$T/raw/$n.json")" \
		"$(wc -c <"$T/small/$n.json")" \
		"$(echo "$(wc -c <"$T/raw/$n.json") / $(wc -c <"$T/small/$n.json")" | bc -l)"
done

# fleet DIR N KIND: N copies of KIND (raw|small) templates; the odd node's name printed.
make_fleet() {
	"$PY" - "$T/$2" "$1" "$3" <<'PY'
import json, os, sys
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(out, exist_ok=True)
tmpl = {k: open("%s/%s.json" % (src, k)).read() for k in ("n1", "n2", "n3", "n4")}
odd = n // 2 + 7 if n > 20 else n - 1
# the template's name is the string "nK" in its node's (and its summary's)
# name and Slurm name, and nowhere else: replaced as text, which writes
# 160 000 files in about a minute where a JSON round trip takes several
for k, t in tmpl.items():
    d = json.loads(t)
    assert t.count('"%s"' % k) == (4 if "summary" in d else 2), k
for i in range(n):
    t = "n3" if i == odd else ("n1", "n2", "n4")[i % 3]
    name = "node%06d" % i
    open("%s/%s.json" % (out, name), "w").write(tmpl[t].replace('"%s"' % t, '"%s"' % name))
print("node%06d" % odd)
PY
}

# Runs fleet -q over $2 with time; prints "wall cpu rss_kb flagged..." ($1 =
# the binary). -q, not --json: a JSON document of every node would be built
# in memory, and measured with the step.
timed_fleet() {
	/usr/bin/time -f "%e %U %S %M" -o "$T/time" "$1" fleet "$2" -q >"$T/out.txt" 2>"$T/err"
	"$PY" - "$T/time" "$T/out.txt" <<'PY'
import sys
w, u, s, m = open(sys.argv[1]).read().split()[-4:]
flagged = [l.split(" | ")[0] for l in open(sys.argv[2]) if " | " in l]
print(w, float(u) + float(s), m, ",".join(flagged) or "-")
PY
}

echo
echo "fleet over N small fingerprints (one odd node planted):"
printf '  %6s %9s %9s %10s %8s %8s  %s\n' N wall_s cpu_s peak_MiB wall_x cpu_x flagged
prev=""
for n in $NS; do
	rm -rf "$T/fleet"
	odd=$(make_fleet "$n" small "$T/fleet")
	set -- $(timed_fleet "$BIN" "$T/fleet")
	wall=$1 cpu=$2 rss=$3
	shift 3
	flagged="$*"
	if [ -n "$prev" ]; then
		set -- $prev
		rw=$(echo "$wall / $2" | bc -l) rc=$(echo "$cpu / $3" | bc -l)
		ratio=$(printf '%.1fx (N %.1fx)' "$rw" "$(echo "$n / $1" | bc -l)")
		printf '  %6d %9.2f %9.2f %10.1f %8.1f %8.1f  %s (planted: %s, %s)\n' "$n" "$wall" "$cpu" \
			"$(echo "$rss / 1024" | bc -l)" "$rw" "$rc" "$flagged" "$odd" \
			"$([ "$flagged" = "$odd" ] && echo "it alone" || echo "NOT it alone")"
	else
		printf '  %6d %9.2f %9.2f %10.1f %8s %8s  %s (planted: %s, %s)\n' "$n" "$wall" "$cpu" \
			"$(echo "$rss / 1024" | bc -l)" - - "$flagged" "$odd" \
			"$([ "$flagged" = "$odd" ] && echo "it alone" || echo "NOT it alone")"
	fi
	prev="$n $wall $cpu"
done

echo
echo "raw and small fingerprints mixed (100 nodes: every 10th raw):"
rm -rf "$T/fleet" "$T/mix"
make_fleet 100 small "$T/fleet" >/dev/null
make_fleet 100 raw "$T/rawfleet" >/dev/null
mkdir "$T/mix"
cp "$T/fleet/"*.json "$T/mix/"
for f in "$T/rawfleet/"node?????0.json; do cp "$f" "$T/mix/"; done
"$BIN" fleet "$T/fleet" --json "$T/a.json" >/dev/null 2>&1
"$BIN" fleet "$T/mix" --json "$T/b.json" >/dev/null 2>&1
"$PY" - "$T/a.json" "$T/b.json" "$T/mix" <<'PY'
import json, os, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
raw = sum(1 for f in os.listdir(sys.argv[3]) if os.path.getsize(os.path.join(sys.argv[3], f)) > 262144)
for d in (a, b):
    for n in d["nodes"]: n.pop("file")
print("  %d raw + %d small: %s; flagged %s" % (raw, len(b["nodes"]) - raw,
      "every node's row equals the all-small fleet's" if a == b else "ROWS DIFFER",
      " ".join(n["name"] for n in b["nodes"] if n["flagged"])))
PY
rm -rf "$T/rawfleet" "$T/mix"

echo
echo "2000 nodes: four fleet --partial parts merged against one step:"
rm -rf "$T/fleet"
make_fleet 2000 small "$T/fleet" >/dev/null
ls "$T/fleet" | sed "s|^|$T/fleet/|" >"$T/list"
split -n l/4 -d "$T/list" "$T/part"
for p in 0 1 2 3; do
	/usr/bin/time -f "%e" -o "$T/tp$p" "$BIN" fleet --partial "$T/p$p.json" $(cat "$T/part0$p") \
		2>/dev/null
done
/usr/bin/time -f "%e" -o "$T/tm" "$BIN" fleet "$T/p0.json" "$T/p1.json" "$T/p2.json" "$T/p3.json" \
	--json "$T/merged.json" >/dev/null 2>&1
"$BIN" fleet "$T/fleet" --json "$T/one.json" >/dev/null 2>&1
printf '  parts %s s, merge %s s; partial sizes %s bytes; merged JSON %s the one-step JSON\n' \
	"$(for p in 0 1 2 3; do tail -n 1 "$T/tp$p"; done | tr '\n' ' ' | sed 's/ $//')" "$(tail -n 1 "$T/tm")" \
	"$(wc -c "$T"/p?.json | head -4 | awk '{printf "%s ", $1}' | sed 's/ $//')" \
	"$(cmp -s "$T/one.json" "$T/merged.json" && echo "byte for byte equal to" || echo "DIFFERS from")"

echo
echo "fleet over N raw (--raw) fingerprints beside Python's json.load of the same files:"
printf '  %6s %9s %9s %10s   %9s %9s %10s  %s\n' N fleet_s cpu_s peak_MiB json_s cpu_s peak_MiB \
	"fleet/json wall, CPU"
for n in $RAW_NS; do
	rm -rf "$T/fleet"
	make_fleet "$n" raw "$T/fleet" >/dev/null
	set -- $(timed_fleet "$BIN" "$T/fleet")
	fw=$1 fc=$2 fm=$3
	/usr/bin/time -f "%e %U %S %M" -o "$T/ptime" "$PY" -c 'import glob, json, sys
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    with open(f) as fh:
        json.load(fh)' "$T/fleet"
	set -- $(tail -n 1 "$T/ptime")
	pw=$1 pc=$(echo "$2 + $3" | bc -l) pm=$4
	printf '  %6d %9.2f %9.2f %10.1f   %9.2f %9.2f %10.1f  %.2fx, %.2fx\n' "$n" "$fw" "$fc" \
		"$(echo "$fm / 1024" | bc -l)" "$pw" "$pc" "$(echo "$pm / 1024" | bc -l)" \
		"$(echo "$fw / $pw" | bc -l)" "$(echo "$fc / $pc" | bc -l)"
done
rm -rf "$T/fleet"

if [ -n "${TL_BENCH_FLEET_BEFORE:-}" ]; then
	echo
	echo "before: $TL_BENCH_FLEET_BEFORE over N raw fingerprints:"
	for n in 25 50 100; do
		rm -rf "$T/fleet"
		make_fleet "$n" raw "$T/fleet" >/dev/null
		set -- $(timed_fleet "$TL_BENCH_FLEET_BEFORE" "$T/fleet")
		set -- "$@" $(timed_fleet "$BIN" "$T/fleet")
		printf '  N %4d  before: %6.2f s wall %7.2f s CPU %6.0f MiB   now: %6.2f s wall %6.2f s CPU %6.0f MiB\n' \
			"$n" "$1" "$2" "$(echo "$3 / 1024" | bc -l)" "$5" "$6" "$(echo "$7 / 1024" | bc -l)"
	done
fi
exit 0
