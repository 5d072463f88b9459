#!/bin/sh
# In tmux: the Live screen lists, under a column, the
# causes the noise tracker gave its samples (the commonest three, then
# "other"), from the replayed file's own cells[].noise, and marks none for
# a simulated timer (its samples were drawn, never interrupted). The
# expectations come from the file this node just wrote.
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

"$BIN" run --backend clock-gettime --kernel add:2000 -n 4000 --seed 1 --json "$W/real.json" -q
ok $? "a real run of clock-gettime"
start 120 35 "LANG=$UTF8 TERM=xterm-256color" tui --replay real.json
wait_for '^n [0-9]+ +os_rm' 20; ok $? "the replay is on the Live screen"
sleep 1
screen >"$W/screen"
show
alive || why_dead
alive && "$PY" - "$W/real.json" "$W/screen" <<'PY'
import json, re, sys
cell = json.load(open(sys.argv[1]))["cells"][0]
nz = cell.get("noise")
lines = [l.strip() for l in open(sys.argv[2]) if l.startswith("causes:")]
if not nz:  # no tracker here: nothing to list
    print("no noise in the file; lines %s" % lines); sys.exit(0 if not lines else 1)
causes = {k: v for k, v in nz["causes"].items() if v}
total = sum(causes.values())
if not total:
    sys.exit(0 if lines == ["causes: none measured"] else 1)
if len(lines) != 1:
    print("causes lines: %s" % lines); sys.exit(1)
pairs = [p.rsplit(" ", 1) for p in lines[0][len("causes:"):].strip().split(", ") if p]
named = [(n, int(c)) for n, c in pairs if n != "other"]
other = sum(int(c) for n, c in pairs if n == "other")
top = sorted(causes.values(), reverse=True)
ok = all(causes.get(n) == c for n, c in named) and sum(c for _, c in named) + other == total \
    and [c for _, c in named] == top[:len(named)] and len(named) == min(3, len(causes))
print("file %s; screen %s" % (causes, lines[0]))
sys.exit(0 if ok else 1)
PY
ok $? "under the column: the file's three commonest causes with their counts, the rest as other"

# The stacked column at the histogram's right edge is named under itself:
# "N caused ^" ends the axis row when the file's caused samples (value less
# the cell's t_e,std) lie past the axis's end, and nothing names it
# otherwise. The end is read off the screen, rounded as printed: N must lie
# between the counts past 1.01 and 0.99 times it. With nothing past the end
# and no "+N>", the end's unit closes the row (tmux drops trailing blanks).
alive && "$PY" - "$W/real.json" "$W/screen" <<'PY'
import json, re, sys
cell = json.load(open(sys.argv[1]))["cells"][0]
screen = open(sys.argv[2]).read().splitlines()
axis = [l for l in screen if re.match(r"^-?[0-9.]+ [num]?s ", l)]
if not axis:
    print("no axis row"); sys.exit(1)
m = re.search(r"(-?[0-9.]+) (ns|us|ms) *(?:\+[0-9]+> *)?(?:([0-9]+) caused \^|([0-9]+)\^)?\s*$", axis[0])
if not m:
    print("axis row %r" % axis[0]); sys.exit(1)
hi = float(m.group(1)) * {"ns": 1, "us": 1e3, "ms": 1e6}[m.group(2)]
shown = int(m.group(3) or m.group(4) or 0)
nz = cell.get("noise") or {}
vals = [cell["samples_ns"][i] - cell["overhead"] for i, _ in nz.get("flagged", [])]
lo_n = sum(v >= hi * 1.01 for v in vals)
hi_n = sum(v >= hi * 0.99 for v in vals)
print("axis %r: shown %d, the file's caused past the end %d..%d" % (axis[0][-40:], shown, lo_n, hi_n))
sys.exit(0 if lo_n <= shown <= hi_n else 1)
PY
ok $? "the caused column is labelled under itself with the file's count of caused samples past the axis"

"$BIN" run --backend 'sim:sd=2,seed=1' --kernel add:100 -n 2000 --seed 1 --json "$W/sim.json" -q
start 120 35 "LANG=$UTF8 TERM=xterm-256color" tui --replay sim.json
wait_for '^n [0-9]+ +os_rm' 20
lacks '^causes:'; ok $? "a simulated timer's column lists no causes"
done_testing
