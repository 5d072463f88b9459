#!/bin/sh
# `ticklab run` on the real timer (barrier-tsc, where the CPU has one) and
# the simulator: the JSON is complete (every documented key, raw samples
# of length n), medians of add:K are linear in K, the empty overhead and the
# resolution are found, the CSV matches, jitter cells keep their per-sample
# ADD counts, writes are atomic, and Ctrl-C keeps what was measured.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON"


backends=sim
case $(uname -m) in x86_64 | i?86) backends=barrier-tsc,sim ;; esac

# --- a linearity run: empty plus add:0..20000 step 2000 ---------------------
# 3000 samples a cell, in 30 shuffled chunks: a burst of noise from a
# neighbour on this shared VM lands in a few chunks and cannot move a median.
"$TL_BIN" run --backend "$backends" --kernel empty,add:0:20000:2000 -n 3000 --seed 7 \
	--json "$tmp/run.json" --csv "$tmp/run.csv" >"$tmp/table" 2>"$tmp/err"
ok $? "run --json --csv exits 0"
"$PY" -m json.tool "$tmp/run.json" >/dev/null; ok $? "the JSON is valid"

"$PY" - "$tmp/run.json" "$backends" 3000 >"$tmp/tap" <<'EOF'
import json, math, sys
doc = json.load(open(sys.argv[1]))
backends, n = sys.argv[2].split(","), int(sys.argv[3])
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
for k in ("host", "seed", "n", "cpu", "os_filter", "cells", "baselines", "interrupted"):
    ok(k in doc, "top level has %s" % k)
ok(doc["seed"] == 7 and doc["n"] == n and doc["os_filter"] == "iforest" and doc["interrupted"] is False,
   "seed, n, os_filter and interrupted are what was asked")
cells = doc["cells"]
ok(len(cells) == len(backends) * 12, "one cell per backend x kernel (%d)" % len(cells))
ok(doc["baselines"] == [], "no hidden baselines when empty is asked for")
keys = ("backend", "clock", "unit", "kernel", "k", "flush_bytes", "n", "overhead", "resolution_ns",
        "samples", "samples_ns", "summary", "os_filter")
skeys = ("n", "os_removed", "min", "p1", "p5", "p50", "p95", "p99", "max", "mean", "sd", "cv")
okeys = ("method", "active", "beta", "lowest_score", "note")
ok(all(all(k in c for k in keys) for c in cells), "every cell has every documented key")
ok(all(all(k in c["summary"] for k in skeys) for c in cells), "every summary has every key")
ok(all(c["overhead_sd_ns"] >= 0 and c["n_planned"] == n for c in cells),
   "every cell has t_e,std's spread and n_planned")
ok(all(all(k in c["os_filter"] for k in okeys) for c in cells), "every os_filter has every key")
ok(all(c["n"] == n and len(c["samples"]) == n and len(c["samples_ns"]) == n for c in cells),
   "samples and samples_ns hold n = %d values in every cell" % n)
ok(all(c["summary"]["n"] + c["summary"]["os_removed"] == n for c in cells),
   "summary n + os_removed = n")
ok(all(abs(r * c["ns_per_unit"] - s) <= 1e-9 * max(1.0, abs(s))
       for c in cells for r, s in zip(c["samples"], c["samples_ns"])),
   "samples_ns = samples x ns_per_unit")
ok(all(c["summary"]["min"] <= c["summary"]["p50"] <= c["summary"]["p99"] <= c["summary"]["max"]
       for c in cells), "min <= p50 <= p99 <= max")
for b in backends:
    mine = [c for c in cells if c["backend"] == b]
    empty = [c for c in mine if c["kernel"] == "empty"]
    ok(len(empty) == 1 and empty[0]["overhead"] > 0, "%s: empty overhead > 0 (%.2f ns)" % (b, empty[0]["overhead"]))
    ok(all(c["resolution_ns"] > 0 for c in mine), "%s: resolution > 0 (%.3f ns)" % (b, mine[0]["resolution_ns"]))
    ok(all(c["overhead"] == empty[0]["overhead"] for c in mine), "%s: every cell uses the empty cell's t_e,std" % b)
    pts = []
    for c in mine:
        if c["kind"] == "add":
            s = sorted(c["samples_ns"])
            m = len(s)
            pts.append((c["k"], (s[m // 2] + s[(m - 1) // 2]) / 2))
    ok(sorted(k for k, _ in pts) == list(range(0, 20001, 2000)), "%s: K = 0..20000 step 2000" % b)
    def fit(ps):
        xs = [p[0] for p in ps]; ys = [p[1] for p in ps]
        mx = sum(xs) / len(xs); my = sum(ys) / len(ys)
        sxy = sum((x - mx) * (y - my) for x, y in ps); sxx = sum((x - mx) ** 2 for x in xs)
        syy = sum((y - my) ** 2 for y in ys)
        return sxy / sxx, sxy * sxy / (sxx * syy)
    # The cells are measured one after another, so a host that slows the
    # vCPU for a whole cell moves one median (R^2 0.995 in one CI run), and
    # the level drifts 1-3 % between cells on a shared VM (all but 6 of 11
    # medians beyond 2 % of the line in another, R^2 0.99917): the line is
    # Theil-Sen's (median of pairwise slopes, blind to one or two such
    # cells), and all but at most two medians must lie within 5 % (or 3
    # timer steps) of it. R^2 is printed: at 2-3 % drift it falls below
    # 0.999 with every median on the line.
    def median(v):
        v = sorted(v); m = len(v)
        return (v[m // 2] + v[(m - 1) // 2]) / 2
    ts = median([(y2 - y1) / (x2 - x1) for i, (x1, y1) in enumerate(pts) for x2, y2 in pts[i + 1:]
                 if x2 != x1])
    icpt = median([y - ts * x for x, y in pts])
    res = mine[0]["resolution_ns"]
    near = [(x, y) for x, y in pts if abs(y - (icpt + ts * x)) <= max(0.05 * abs(icpt + ts * x), 3 * res)]
    slope, r2 = fit(pts)
    nslope, nr2 = fit(near) if len(near) >= 3 else (0.0, 0.0)
    ok(len(near) >= len(pts) - 2,
       "%s: medians linear in K: %d of %d within 5 %% of the Theil-Sen line (%.4f ns per ADD; "
       "R^2 %.6f over them, %.6f over all)" % (b, len(near), len(pts), ts, nr2, r2))
    ok(slope > 0, "%s: time grows with K" % b)
sims = [c for c in cells if c["backend"] == "sim"]
ok(all(c["simulated"] is True and c["clock"] == "wall" for c in sims), "sim cells are labelled simulated")
EOF
tap_from "$tmp/tap"

# --- CSV -------------------------------------------------------------------
head -n 1 "$tmp/run.csv" | grep -qx 'backend,flush_bytes,kernel,k,i,raw,ns'; ok $? "CSV header"
"$PY" - "$tmp/run.json" "$tmp/run.csv" >"$tmp/tap" <<'EOF'
import csv, json, sys
doc = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
want = [(c["backend"], c["flush_bytes"], c["kernel"], c["k"], i, r, s)
        for c in doc["cells"] for i, (r, s) in enumerate(zip(c["samples"], c["samples_ns"]))]
got = [(r["backend"], int(r["flush_bytes"]), r["kernel"], int(r["k"]), int(r["i"]), float(r["raw"]), float(r["ns"]))
       for r in rows]
ok(len(got) == len(want), "CSV has one row per sample (%d)" % len(got))
ok(got == want, "CSV rows equal the JSON samples exactly")
EOF
tap_from "$tmp/tap"

# --- hidden baselines, jitter, flush, --json - -------------------------------
"$TL_BIN" run --backend 'sim:sd=2,quantum=1' --flush 0,64KiB --kernel 'add:100,jitter:100,50,0.25' -n 200 \
	--json - >"$tmp/j.json" 2>"$tmp/table2"
ok $? "run --json - exits 0"
grep -q '^backend' "$tmp/table2"; ok $? "with --json - the table goes to stderr"
"$PY" - "$tmp/j.json" >"$tmp/tap" <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
cells, base = doc["cells"], doc["baselines"]
ok(len(cells) == 4, "2 flush sizes x 2 kernels = 4 cells")
ok(len(base) == 2 and all(b["baseline"] is True and b["kernel"] == "empty" for b in base),
   "one hidden empty baseline per flush size, flagged")
ok(sorted(c["flush_bytes"] for c in cells) == [0, 0, 65536, 65536], "flush_bytes in bytes")
ok(all(c["backend"] == "sim:sd=2,quantum=1" for c in cells), "the backend id keeps its parameters")
j = [c for c in cells if c["kind"] == "jitter"]
ok(len(j) == 2 and all(len(c["adds"]) == 200 for c in j), "jitter cells carry 200 per-sample ADD counts")
# Codes (bench/kernel.h): ADDs on the chain, bit 40 dependent, arm from bit
# 41; the cell's own arm is every third sample, 67 of 200.
chain = lambda a: a & ((1 << 40) - 1)
ok(all(sorted(set(chain(a) for a in c["adds"])) == [100, 150] and
       sum(a >> 41 == 0 and chain(a) == 150 for a in c["adds"]) == 17 for c in j),
   "a quarter of the jitter cell's own samples (17 of 67) run K+D ADDs")
ok(all("adds" not in c for c in cells if c["kind"] == "add"), "plain add cells leave adds out")
ok(all(c["overhead"] == b["overhead"] for c in cells for b in base if b["flush_bytes"] == c["flush_bytes"]),
   "t_e,std comes from the baseline of the same flush")
EOF
tap_from "$tmp/tap"

# --- atomic writes -----------------------------------------------------------
mkdir "$tmp/adir"
"$TL_BIN" run --backend sim -n 10 --json "$tmp/adir" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 2 ]; ok $? "--json naming a directory is refused (status $st)"
[ -z "$(ls -A "$tmp/adir")" ] && [ -z "$(ls -A "$tmp" | grep '^\.')" ]; ok $? "and leaves no file behind"
echo keep >"$tmp/old.json"
"$TL_BIN" run --backend sim -n 10 --json "$tmp/old.json" >/dev/null 2>&1
"$PY" -m json.tool "$tmp/old.json" >/dev/null; ok $? "an existing file is replaced whole"
[ -z "$(ls -A "$tmp" | grep '^\.')" ]; ok $? "no temporary file is left beside it"

# --- Ctrl-C: keep what was measured, exit 130 ---------------------------------
# A real timer (the simulator takes no time) and far more samples than the
# half second before the signal allows.
slow=clock-gettime
case $(uname -m) in x86_64 | i?86) slow=barrier-tsc ;; esac
"$TL_BIN" run --backend $slow --kernel add:20000 -n 2000000 --json "$tmp/int.json" \
	>"$tmp/int.table" 2>"$tmp/int.err" &
pid=$!
i=0
while ! grep -q '^sampling on CPU' "$tmp/int.err" 2>/dev/null && [ $i -lt 100 ]; do
	sleep 0.1; i=$((i + 1))
done
sleep 0.5
kill -INT $pid
wait $pid; st=$?
[ $st -eq 130 ]; ok $? "SIGINT ends the run with status 130 (got $st)"
grep -q 'interrupted' "$tmp/int.err"; ok $? "and says it was interrupted"
"$PY" - "$tmp/int.json" >"$tmp/tap" <<'EOF'
import json, sys
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
try:
    doc = json.load(open(sys.argv[1]))
except Exception as e:
    ok(False, "the interrupted run wrote valid JSON (%s)" % e)
    sys.exit(0)
ok(doc["interrupted"] is True, "the JSON says interrupted")
c = doc["cells"][0]
ok(c["n"] < c["n_planned"] and len(c["samples"]) == c["n"], "cells keep n = the samples taken (%d of %d)" % (c["n"], c["n_planned"]))
EOF
tap_from "$tmp/tap"

# Drift: the sim's tau is independent from sample to sample, so no cell may
# show drift, continuous or quantized; the column and JSON say so.
"$TL_BIN" run --backend 'sim:quantum=0,spike_rate=0',sim --kernel add:1000,add:5000 -n 5000 \
	--json "$tmp/drift.json" >"$tmp/drift.txt" 2>/dev/null
ok $? "a sim run for drift"
head -n 2 "$tmp/drift.txt" | tail -n 1 | grep -Eq ' drift( +why)?$'; ok $? "the table has a drift column"
awk 'NR == 2 { w = ($NF == "why") } NR > 2 && /add:/ && !/ removed / && $(NF - w) != "-" { bad = 1 }
	END { exit bad }' "$tmp/drift.txt"
ok $? "independent sim samples show no drift"
! grep -q '"drifts": *true' "$tmp/drift.json" && [ "$(grep -o '"drifts": *false' "$tmp/drift.json" | wc -l)" -ge 6 ]
ok $? "the JSON says drifts false for every cell"

done_testing
