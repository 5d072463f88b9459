#!/bin/sh
# The chains and the memory ladder under `ticklab run`'s table,
# end to end on sim, whose costs are exact: MUL 0.9 and FMA 1.2 ns against
# 0.3 ns per ADD are 3 and 4 cycles on perfect lines; every load costs
# 1.2 ns whatever the size, so the ladder must say there is no step. Real
# timers are only checked for shape (tests assert no speed).
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed by the test harness"

sim='sim:sd=0,quantum=0,spike_rate=0,ns_per_add=0.3,ns_per_mul=0.9,ns_per_fma=1.2,ns_per_load=1.2'
"$TL_BIN" run --backend "$sim" -n 50 \
	--kernel 'add:0:4000:1000,mul:0:4000:1000,fma:0:4000:1000,load:4KiB..256KiB,100' \
	>"$tmp/out" 2>"$tmp/err"
ok $? "sim run with chains and a load range exits 0"
grep -q '^chains, sim' "$tmp/out"; ok $? "a chains block"
grep -Eq '^  MUL +5 +0\.900 +3\.00 +1\.000000' "$tmp/out"; ok $? "MUL: 5 points, 0.900 ns, 3.00 cycles, R^2 1"
grep -Eq '^  FMA +5 +1\.200 +4\.00 +1\.000000' "$tmp/out"; ok $? "FMA: 1.200 ns, 4.00 cycles"
grep -q 'check: MUL 3.00 cycles at the ADD clock in 2..6: ok' "$tmp/out"; ok $? "MUL cycles check ok"
grep -q '^memory ladder, sim.*, flush 0: ns per load' "$tmp/out"; ok $? "a memory ladder block"
n=$(grep -Ec '^  [0-9.]+[KM]iB +1\.20 ' "$tmp/out")
[ "$n" -ge 7 ]; ok $? "4KiB..256KiB gives the powers of two (7+ sizes at 1.20 ns/load, got $n)"
grep -q '^  64KiB' "$tmp/out"; ok $? "64KiB is one of them"

# The level names depend on this node's caches: only when hwloc sees an
# L1d inside the range must the flat sim ladder be called stepless.
if grep -q '(<= ' "$tmp/out" && grep -q 'memory\|L2' "$tmp/out"; then
	grep -q 'finding: no step at ' "$tmp/out"; ok $? "a flat ladder across a cache end is said plainly"
else
	diag "no cache end inside 4KiB..256KiB on this node: no step to look for"
fi

"$TL_BIN" run --backend "$sim" -n 10 --kernel 'mul:100' >"$tmp/one" 2>&1
grep -q 'ADD  (none in this run' "$tmp/one"; ok $? "without add cells the chains say how to get cycles"

"$TL_BIN" run --backend "$sim" -n 10 --kernel 'load:1MiB..16KiB' >"$tmp/bad" 2>&1
[ $? -eq 2 ]; ok $? "a falling range is bad input (2)"
grep -q 'HI must be larger than LO.*accepted: SIZE, SIZE+SIZE' "$tmp/bad"; ok $? "and says what is accepted"

# report prints the same from the saved run.
"$TL_BIN" run --backend "$sim" -n 20 --kernel 'add:0:2000:1000,mul:0:2000:1000,load:4KiB+64KiB,100' \
	--json "$tmp/r.json" >"$tmp/live" 2>/dev/null
"$TL_BIN" report "$tmp/r.json" >"$tmp/again" 2>/dev/null
sed -n '/^chains/,$p' "$tmp/live" >"$tmp/a"
sed -n '/^chains/,$p' "$tmp/again" >"$tmp/b"
[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; ok $? "report prints the chains and ladder the run printed"

# info measures a load's latency per level where hwloc knows the caches
# (shape only: a number per level, or a reason), once, in its levels lines.
"$TL_BIN" info >"$tmp/info" 2>&1
if grep -q '^caches: .*L1d' "$tmp/info"; then
	grep -A1 '^levels:' "$tmp/info" | grep -Eq '^ +L1d +[0-9.]+ ns a load ' && ! grep -q '^load latency:' "$tmp/info"
	ok $? "info: load latency per level, L1d first, said once (in the levels lines)"
	"$TL_BIN" info --json | "$PY" -c 'import json,sys
l = json.load(sys.stdin)["host"]["load_latency"]
assert l[0]["level"] == "L1d" and l[-1]["level"] == "memory"
assert all(x["ns_per_load"] is None or x["ns_per_load"] > 0 for x in l)
assert all(x["ns_per_load"] is not None or x["note"] for x in l)'
	ok $? "info --json: host.load_latency, a positive number or a reason per level"
else
	diag "hwloc sees no L1d here: info has no load latency to show"
fi

# The "caches" spoiler says what memory_levels says, from the same chase:
# bad exactly when a reported level disagrees with it, in those words.
"$TL_BIN" info --json >"$tmp/info.json" 2>/dev/null
"$PY" - "$tmp/info.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))["host"]
sp = [s for s in h["spoilers"] if s["what"] == "caches"]
levels = h.get("memory_levels") or []
bad = any(l["cpuid_bytes"] and not l["cpuid_agrees"] for l in levels)
words = h.get("memory_levels_disagree") or ""
print("caches spoiler %s; levels disagree: %s" % (sp, bad))
ok = len(sp) == 1 and sp[0]["bad"] == bad and (not bad or sp[0]["why"].startswith(words[:190]))
sys.exit(0 if ok else 1)
PY
ok $? "info's caches spoiler is bad exactly when memory_levels disagrees with the reported sizes, and says how"

# A saved ladder is labelled by the levels its run measured (host's
# memory_levels, where they contradict the reported sizes), as the run
# printed it: each size's level recomputed here from the file.
"$TL_BIN" run --backend "$sim" -n 20 --kernel 'load:4KiB..4xL3' --json "$tmp/lad.json" \
	>"$tmp/lad.live" 2>/dev/null
"$TL_BIN" report "$tmp/lad.json" >"$tmp/lad.again" 2>/dev/null
sed -n '/^memory ladder/,$p' "$tmp/lad.live" >"$tmp/a"
sed -n '/^memory ladder/,$p' "$tmp/lad.again" >"$tmp/b"
[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; ok $? "report prints the ladder the run printed, labels included"
cat >"$tmp/labels.py" <<'PY'
import json, re, sys
h = json.load(open(sys.argv[1]))["host"]
lv = {l["name"]: l for l in h.get("memory_levels") or []}
mem = lv.get("memory")
ends, replaced = [], 0
for name, key in (("L1d", "l1d_bytes"), ("L2", "l2_bytes"), ("L3", "l3_bytes")):
    size, l = h.get(key) or 0, lv.get(name)
    if size and l and not l["cpuid_agrees"]:  # as bench/levels.c tl_levels_sizing
        by = l["boundary_bytes"] if l["seen"] else (mem["boundary_bytes"] if mem and mem["seen"] else 0)
        if by:
            size, replaced = by, replaced + 1
    # a level at or below the one under it is not a level there: the first
    # size chased past its step (or past the level below), as tl_levels_sizing
    below = ends[-1][1] if ends else 0
    if size and below and size <= below and h.get("memory_levels_measured"):
        up = l["boundary_hi_bytes"] if l and l["seen"] else None
        if not up or up <= below:
            up = next((p["bytes"] for p in h.get("memory_levels_chase") or [] if p["bytes"] > below), 0)
        size, replaced = up, replaced + 1
    if size:
        ends.append((name, size))
units = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
bad = rows = 0
text = open(sys.argv[2]).read()
for m in re.finditer(r"^  ([0-9.]+)(B|KiB|MiB|GiB) +[0-9.]+  (\S+)", text, re.M):
    b = float(m.group(1)) * units[m.group(2)]
    want = next((n for n, e in ends if b <= e), "memory")
    rows += 1
    if m.group(3) != want:
        print("%s%s: labelled %s, the file's levels say %s" % (m.group(1), m.group(2), m.group(3), want)); bad += 1
said = "(level ends from the node's measured levels:" in text
print("%d sizes, ends %s, %d replaced by the chase" % (rows, ends, replaced))
sys.exit(1 if bad or rows == 0 or said != (replaced > 0) else 0)
PY
"$PY" "$tmp/labels.py" "$tmp/lad.json" "$tmp/b"
ok $? "every size of the saved ladder carries the level the file's measured levels give it"

# Sizes given in bytes size no flush by the levels, yet the ladder's level
# column is still a node fact: the run measures the levels for it (a VM's
# CPUID L3 can be 508MiB where a chase reads memory from 8MiB) and the file
# keeps them.
"$TL_BIN" run --backend "$sim" -n 20 --kernel 'load:1MiB..16MiB' --json "$tmp/lad2.json" \
	>"$tmp/lad2.live" 2>/dev/null
"$PY" -c 'import json,sys; h = json.load(open(sys.argv[1]))["host"]; sys.exit(not (h.get("memory_levels_source") and "memory_levels" in h))' \
	"$tmp/lad2.json"
ok $? "a ladder of sizes in bytes records the node's memory levels (or why not)"
"$TL_BIN" report "$tmp/lad2.json" >"$tmp/lad2.again" 2>/dev/null
sed -n '/^memory ladder/,$p' "$tmp/lad2.live" >"$tmp/a"
sed -n '/^memory ladder/,$p' "$tmp/lad2.again" >"$tmp/b"
[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; ok $? "report prints that ladder as the run did"
"$PY" "$tmp/labels.py" "$tmp/lad2.json" "$tmp/b"
ok $? "and labels its sizes by the measured levels"
done_testing
