#!/bin/sh
# fingerprint and fleet on the command line: the %-fields of --json, the
# small default fingerprint and --raw, raw and small mixed, --partial
# merged equal to one step, bad input (skipped and named; status 2 with
# --strict, or for a node seen twice), a node's fleet row equal to
# what `ticklab report` prints for its file, and the fleet's robust scores
# recomputed independently in Python. One real fingerprint (--budget 1) is
# taken; the other nodes are copies of it under other names, so the fleet
# is three twins and flags nothing.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read the JSON"

SLURMD_NODENAME=a1 SLURM_JOB_ID=77 "$TL_BIN" fingerprint --budget 1 -q --json "$tmp/%h-%n-%j.json" \
	2>"$tmp/err"
rc=$?
host=$(hostname -s)
[ $rc -eq 0 ] && [ -f "$tmp/$host-a1-77.json" ]
ok $? "fingerprint --json DIR/%h-%n-%j.json writes $host-a1-77.json (status $rc)"
[ $rc -eq 0 ] || { sed 's/^/#   /' "$tmp/err"; done_testing; exit 1; }
ls -a "$tmp" | grep -q '^\.' && ! ls -a "$tmp" | grep -v '^\.\.\?$' | grep -q '^\.'
ok $? "no temporary file left beside it"

f="$tmp/$host-a1-77.json"
size=$(wc -c <"$f")
[ "$size" -le 262144 ] && grep -q '"summary"' "$f" && ! grep -q '"samples_ns"' "$f"
ok $? "the default fingerprint is small: $size bytes (<= 256 KiB), a summary and no raw samples"
"$TL_BIN" fingerprint --budget 1 -q --raw --json "$tmp/raw.json" 2>/dev/null
rawsize=$(wc -c <"$tmp/raw.json" 2>/dev/null)
grep -q '"samples_ns"' "$tmp/raw.json"
ok $? "--raw keeps the run's samples ($rawsize bytes)"
"$TL_BIN" fingerprint --compact "$tmp/raw.json" --json "$tmp/raw-small.json" -q
[ $? -eq 0 ] && [ "$(wc -c <"$tmp/raw-small.json")" -le 262144 ]
ok $? "--compact re-writes it small ($(wc -c <"$tmp/raw-small.json") bytes)"
"$TL_BIN" report "$tmp/raw.json" >"$tmp/r1" 2>&1 && "$TL_BIN" report "$tmp/raw-small.json" >"$tmp/r2" 2>&1 &&
	cmp -s "$tmp/r1" "$tmp/r2"
ok $? "report prints the same figures for the raw fingerprint and its small form"
# 4xL2 is sized from the levels the node measured where they contradict
# the reported L2 (as run --flush 4xL2 is): expected from the file's host.
"$PY" - "$tmp/raw.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); h = d["host"]
lv = {l["name"]: l for l in h.get("memory_levels") or []}
l2, mem, rep = lv.get("L2"), lv.get("memory"), h.get("l2_bytes") or 0
want = rep
if rep and l2 and not l2["cpuid_agrees"]:
    by = l2["boundary_bytes"] if l2["seen"] else (mem["boundary_bytes"] if mem and mem["seen"] else 0)
    want = by or rep
flushes = sorted(set(c["flush_bytes"] for c in d["run"]["cells"]))
print("flushes %s, L2 reported %s, levels %s" % (flushes, rep, {k: (v["boundary_bytes"], v["cpuid_agrees"]) for k, v in lv.items()}))
sys.exit(0 if flushes == ([0, 4 * want] if want else [0]) else 1)
PY
ok $? "fingerprint's 4xL2 flush is 4x the L2 its own measured levels give"
expect_status 2 "--compact without --json is refused" "$TL_BIN" fingerprint --compact "$tmp/raw.json"

expect_status 2 "%n outside Slurm is refused" env -u SLURMD_NODENAME "$TL_BIN" fingerprint --json "$tmp/%n.json"
grep -q 'SLURMD_NODENAME' /tmp/tl_tap_err.$$; ok $? "and the message names \$SLURMD_NODENAME"
expect_status 2 "an unknown %-field is refused" "$TL_BIN" fingerprint --json "$tmp/%x.json"
expect_status 2 "a missing directory is refused" "$TL_BIN" fingerprint --json "$tmp/no/such/%h.json"
expect_status 2 "--quick with --budget is refused" "$TL_BIN" fingerprint --quick --budget 3
expect_status 2 "--budget 0 is refused" "$TL_BIN" fingerprint --budget 0

# Three twins: the same fingerprint under the names a1, a2, a3.
mkdir "$tmp/fleet"
for n in a1 a2 a3; do
	"$PY" - "$tmp/$host-a1-77.json" "$tmp/fleet/$n.json" "$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["node"]["name"] = d["node"]["slurm_node"] = sys.argv[3]
json.dump(d, open(sys.argv[2], "w"))
PY
done
expect_status 0 "fleet of three twins: nothing flagged, status 0" "$TL_BIN" fleet "$tmp/fleet"
"$TL_BIN" fleet "$tmp/fleet/a1.json" "$tmp/fleet/a2.json" "$tmp/fleet/a3.json" \
	--json "$tmp/fleet.json" --markdown "$tmp/fleet.md" >/dev/null 2>&1
ok $? "fleet FILES... --json --markdown"
# the lesson: as many nodes stand out as the table flags, in the table's
# words and the Markdown's alike
"$TL_BIN" fleet "$tmp/fleet" >"$tmp/fleet.txt" 2>/dev/null
nflag=$(grep -c ' FLAGGED$' "$tmp/fleet.txt")
said=$(sed -n 's/^In short: //p' "$tmp/fleet.txt")
if [ "$nflag" -eq 0 ]; then
	echo "$said" | grep -q '^all 3 nodes agree within their hardware'
else
	echo "$said" | grep -q "^$nflag of 3 nodes stand"
fi
ok $? "fleet's In short line matches its table ($nflag flagged): $said"
sed "s/\\\\|/|/g" "$tmp/fleet.md" | grep -qF "**In short:** $said"; ok $? "the Markdown's first line says the same (its | escaped)"

# Old (raw) and small fingerprints mix: a3 as raw, then as its small form,
# give the same fleet.
mkdir "$tmp/mix" "$tmp/mix2"
cp "$tmp/fleet/a1.json" "$tmp/fleet/a2.json" "$tmp/mix/"
cp "$tmp/fleet/a1.json" "$tmp/fleet/a2.json" "$tmp/mix2/"
"$PY" - "$tmp/raw.json" "$tmp/mix/a3.json" "$tmp/raw-small.json" "$tmp/mix2/a3.json" <<'PY'
import json, sys
for src, dst in ((sys.argv[1], sys.argv[2]), (sys.argv[3], sys.argv[4])):
    d = json.load(open(src)); d["node"]["name"] = "a3"
    json.dump(d, open(dst, "w"))
PY
"$TL_BIN" fleet "$tmp/mix" --json "$tmp/mix.json" >/dev/null 2>&1
"$TL_BIN" fleet "$tmp/mix2" --json "$tmp/mix2.json" >/dev/null 2>&1
"$PY" - "$tmp/mix.json" "$tmp/mix2.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    for n in d["nodes"]: n.pop("file")
sys.exit(0 if a == b and len(a["nodes"]) == 3 else 1)
PY
ok $? "fleet on raw and small fingerprints mixed equals fleet on the small ones"

# A node's row equals `ticklab report` of its file, figure by figure.
"$TL_BIN" report "$tmp/fleet/a2.json" >"$tmp/report.txt" 2>&1
"$PY" - "$tmp/report.txt" "$tmp/fleet.md" a2 <<'PY' >"$tmp/rows" 2>&1
import sys
report = {}
for line in open(sys.argv[1]):  # "%-10s %12s  from": label, value
    if len(line) > 23 and line[10] == " ":
        report.setdefault(line[:10].strip(), line[11:23].strip())
md = [l for l in open(sys.argv[2]) if l.startswith("|")]
head = [c.strip() for c in md[0].strip().strip("|").split("|")]
row = next(l for l in md if l.startswith("| " + sys.argv[3] + " "))
cells = [c.strip().strip("*") for c in row.strip().strip("|").split("|")]
bad = 0
for h, c in zip(head, cells):
    if h in ("node", "group", "KS D", "flagged"):
        continue
    if report.get(h) != c:
        print("figure %s: report %s, fleet %s" % (h, report.get(h), c)); bad += 1
print("compared %d figures" % (len(head) - 4))
sys.exit(1 if bad else 0)
PY
ok $? "a2's fleet row equals \`ticklab report\` of a2.json ($(tail -n 1 "$tmp/rows"))"
grep -v '^compared' "$tmp/rows" | sed 's/^/#   /'

# The robust scores, recomputed in Python from the figures: z = (x -
# median(others)) / (1.4826 max(MAD(others), floor)), or with fewer than 4
# others the distance beyond their range over the floor.
"$PY" - "$tmp/fleet.json" <<'PY'
import json, sys, statistics as st
d = json.load(open(sys.argv[1]))
floors = {"cpu_share_percent": (0.5, 0.03), "ns_per_add": (0, 0.01)}
bad = 0
for i, n in enumerate(d["nodes"]):
    for key, (fa, fr) in floors.items():
        x = n["figures"][key]
        o = [m["figures"][key] for j, m in enumerate(d["nodes"]) if j != i]
        med = st.median(o); mad = st.median([abs(v - med) for v in o])
        if len(o) < 4:  # few others: distance beyond their range over the floor
            edge = min(o) if x < min(o) else max(o) if x > max(o) else x
            z = (x - edge) / (1.4826 * max(fa, fr * abs(edge)))
        else:
            z = (x - med) / (1.4826 * max(mad, fa, fr * abs(med)))
        if abs(z - n["robust_z"][key]) > 1e-9:
            print("%s %s: %r vs %r" % (n["name"], key, z, n["robust_z"][key])); bad += 1
sys.exit(bad)
PY
ok $? "robust z of every node equals Python's"

# The NHC-style wrapper: silent for twins; a node whose sampling thread got
# half the CPU (edited into its file) gives one "host | reason" line.
NHC="$TL_TOP_SRCDIR/contrib/check_ticklab_fleet"
out=$(TICKLAB=$TL_BIN sh "$NHC" "$tmp/fleet"); rc=$?
[ $rc -eq 0 ] && [ -z "$out" ]; ok $? "check_ticklab_fleet on twins: silent, status 0 (status $rc)"
"$PY" - "$tmp/fleet/a3.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["sched"]["cpu_seconds"] /= 2
json.dump(d, open(sys.argv[1], "w"))
PY
out=$(TICKLAB=$TL_BIN sh "$NHC" "$tmp/fleet"); rc=$?
[ $rc -eq 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -q '^a3 | CPU% '
ok $? "half the CPU on a3: status 1 and one line 'a3 | CPU% ...' (status $rc: $out)"
# The reduction: two --partial summaries merged give the one-step answer.
"$TL_BIN" fleet "$tmp/fleet" --json "$tmp/one.json" >/dev/null 2>&1
"$TL_BIN" fleet --partial "$tmp/p1.json" "$tmp/fleet/a1.json" "$tmp/fleet/a2.json" &&
	"$TL_BIN" fleet --partial "$tmp/p2.json" "$tmp/fleet/a3.json"
ok $? "fleet --partial writes two summaries"
"$TL_BIN" fleet "$tmp/p1.json" "$tmp/p2.json" --json "$tmp/merged.json" >/dev/null 2>&1
rc=$?
[ $rc -eq 1 ] && cmp -s "$tmp/one.json" "$tmp/merged.json"
ok $? "fleet over the partials: the one-step JSON byte for byte, status 1 (status $rc)"
# Parts are as strict as files: a part that skipped a file is refused by
# --strict (and by check_ticklab_fleet with TICKLAB_FLEET_STRICT=1), a part
# of another version is refused, a part skipped contributes no node, and a
# node seen twice names the part it came in.
echo '{}' >"$tmp/empty.json"
"$TL_BIN" fleet --partial "$tmp/pskip.json" "$tmp/fleet/a1.json" "$tmp/fleet/a2.json" \
	"$tmp/empty.json" 2>/dev/null
ok $? "fleet --partial over two fingerprints and a file that is none writes its part"
expect_status 1 "the part and a3 without --strict: the skipped file carried, the rest judged (a3 flagged: status 1)" \
	"$TL_BIN" fleet -q "$tmp/pskip.json" "$tmp/p2.json"
expect_status 2 "fleet --strict refuses the part that skipped a file" \
	"$TL_BIN" fleet --strict "$tmp/pskip.json" "$tmp/p2.json"
grep -q "pskip.json: a part that skipped a file.*empty.json" /tmp/tl_tap_err.$$
ok $? "and names the part and the file it skipped"
TICKLAB=$TL_BIN TICKLAB_FLEET_STRICT=1 sh "$NHC" "$tmp/pskip.json" "$tmp/p2.json" >/dev/null 2>&1
rc=$?; [ $rc -eq 2 ]; ok $? "check_ticklab_fleet with TICKLAB_FLEET_STRICT=1 refuses it too (status $rc)"
"$PY" - "$tmp/p1.json" "$tmp/p9.json" "$tmp/pbad.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["ticklab"]["version"] = "9.9.9"
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1])); d["nodes"][1]["summary"]["samples"]["counts"][0] = -1
json.dump(d, open(sys.argv[3], "w"))
PY
expect_status 2 "a part marked 9.9.9 beside parts of this version is refused" \
	"$TL_BIN" fleet "$tmp/p2.json" "$tmp/p9.json"
grep -q "p9.json: a part written by ticklab 9.9.9" /tmp/tl_tap_err.$$; ok $? "and the line names it"
expect_status 2 "so is a part marked 9.9.9 that comes first" "$TL_BIN" fleet "$tmp/p9.json" "$tmp/p2.json"
"$TL_BIN" fleet "$tmp/pbad.json" "$tmp/p2.json" "$tmp/fleet/a2.json" --json "$tmp/pbad.out" \
	>/dev/null 2>&1
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); names=sorted(n["name"] for n in d["nodes"]); sys.exit(0 if names == ["a2", "a3"] and len(d["skipped"]) == 1 and "pbad.json" in d["skipped"][0]["file"] else 1)' "$tmp/pbad.out"
ok $? "a part skipped (its second node broken) contributes no node, its good a1 included"
expect_status 2 "a node seen twice across two parts is refused" "$TL_BIN" fleet "$tmp/p1.json" "$tmp/pskip.json"
grep -q "node 'a1' is seen twice (also in .*a1.json (in part .*p1.json))" /tmp/tl_tap_err.$$
ok $? "and the line names the part each came in"
# Progress: a line on standard error over a terminal, nothing otherwise.
if command -v script >/dev/null 2>&1; then
	script -qec "$TL_BIN fleet -q $tmp/fleet" /dev/null >"$tmp/tty.out" 2>&1
	grep -q 'read 3 of 3 files' "$tmp/tty.out" && grep -q 'judged 3 of 3 nodes' "$tmp/tty.out"
	ok $? "over a terminal: 'read 3 of 3 files', then 'judged 3 of 3 nodes'"
fi
"$TL_BIN" fleet -q "$tmp/fleet" 2>"$tmp/notty.err" >/dev/null
[ ! -s "$tmp/notty.err" ]; ok $? "without a terminal: no progress line"
expect_status 2 "--partial with --json is refused" "$TL_BIN" fleet --partial "$tmp/p3.json" --json - "$tmp/fleet"
cp "$tmp/fleet/a1.json" "$tmp/fleet/a3.json"
"$PY" - "$tmp/fleet/a3.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["node"]["name"] = d["node"]["slurm_node"] = "a3"
json.dump(d, open(sys.argv[1], "w"))
PY

# Bad input among many: named and skipped, the rest judged; --strict
# refuses it (status 2).
echo '{"ticklab": {"version": "0", "command": "run"}}' >"$tmp/fleet/zz.json"
head -c 3000 "$tmp/fleet/a1.json" >"$tmp/fleet/zt.json"
expect_status 0 "a foreign and a truncated file: skipped, the twins judged (status 0)" \
	"$TL_BIN" fleet "$tmp/fleet"
grep -q "skipped .*zz.json: not a fingerprint" /tmp/tl_tap_err.$$ &&
	grep -q "skipped .*zt.json" /tmp/tl_tap_err.$$
ok $? "and both are named on standard error"
"$TL_BIN" fleet "$tmp/fleet" --json "$tmp/skip.json" >/dev/null 2>&1
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if len(d["skipped"]) == 2 and len(d["nodes"]) == 3 else 1)' "$tmp/skip.json"
ok $? "the JSON lists the two skipped files beside the three nodes"
expect_status 2 "--strict: a file that is not a fingerprint is status 2" "$TL_BIN" fleet --strict "$tmp/fleet"
grep -q "zz.json: not a fingerprint\|zt.json" /tmp/tl_tap_err.$$; ok $? "and the line names the file"
rm "$tmp/fleet/zz.json" "$tmp/fleet/zt.json"
"$PY" - "$tmp/fleet/a3.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["ticklab"]["version"] = "0.0.0-other"
json.dump(d, open(sys.argv[1], "w"))
PY
expect_status 2 "mixed versions: status 2" "$TL_BIN" fleet "$tmp/fleet"
grep -q "a3.json: made by ticklab 0.0.0-other" /tmp/tl_tap_err.$$; ok $? "and the line names a3.json"
cp "$tmp/fleet/a1.json" "$tmp/fleet/a3.json"
expect_status 2 "a node seen twice: status 2" "$TL_BIN" fleet "$tmp/fleet"
grep -q "a3.json: node 'a1' is seen twice (also in .*a1.json)" /tmp/tl_tap_err.$$
ok $? "and the line names both files, a3.json and a1.json"
expect_status 2 "fleet with no file: status 2" "$TL_BIN" fleet
expect_status 2 "an empty directory: status 2" "$TL_BIN" fleet "$tmp/fleet/.."/no-such-dir
rm -f /tmp/tl_tap_out.$$ /tmp/tl_tap_err.$$
done_testing
