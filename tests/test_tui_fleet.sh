#!/bin/sh
# The fleet, the TUI's side, driven in tmux: `ticklab tui --fleet DIR`
# (and plain `ticklab --fleet`) opens the Fleet screen on four real
# `ticklab fingerprint --quick` files (tests/fixtures/fleet/, n3 taken beside
# a busy loop on its sampling CPU): a row per node whose figures are those of
# `ticklab fleet`'s table, the add:K CDFs overlaid, n3 flagged with its
# reason; golden screens at 80x24 and 200x50 (and NO_COLOR on a vt100),
# groups of other hardware on their own page, the too-small screen, and bad
# fleet input refused with status 2 and `ticklab fleet`'s message.
# GENERATE=1 rewrites tests/golden/fleet-*.txt.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"
[ -n "$PY" ] || skip_all "python3 is needed to unpack the fixtures (lzma) and read the JSON"

mkdir "$W/fleet"
"$PY" - "$SRC/tests/fixtures/fleet" "$W/fleet" <<'PY' || { ok 1 "fixtures unpacked"; done_testing; exit 1; }
import glob, lzma, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json.xz"))):
    with lzma.open(f) as i, open(os.path.join(sys.argv[2], os.path.basename(f)[:-3]), "wb") as o:
        o.write(i.read())
PY

# the body and bars (not the title row) against a golden file
view() { sed -n '2,$p' "$W/screen"; }
GOLDEN_WHAT='the fleet screen'

# `ticklab fleet` on the same files: the table the screen must agree with.
"$BIN" fleet "$W/fleet" --markdown "$W/fleet.md" >"$W/fleet.txt" 2>&1
st=$?
[ $st -eq 1 ] && grep -q '^n3: CPU% ' "$W/fleet.txt" && [ "$(grep -c FLAGGED "$W/fleet.txt")" = 1 ]
ok $? "ticklab fleet on the fixtures flags n3 and no other (status $st)"

start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --fleet fleet
wait_for 'FLAGGED' 20; ok $? "tui --fleet opens on the Fleet screen with a node flagged"
shows '^ ticklab  Setup  Live  Search  Info  Fleet '; ok $? "the Fleet tab is shown beside the others"
# Every figure shown equals the fleet table's cell of that node and column.
"$PY" - "$W/screen" "$W/fleet.md" <<'PY' >"$W/same" 2>&1
import re, sys
screen = open(sys.argv[1], encoding="utf-8").read().splitlines()
md = [l for l in open(sys.argv[2]) if l.startswith("|")]
head = [c.strip() for c in md[0].strip().strip("|").split("|")]
rows = {}
for l in md[2:]:
    cells = [c.strip().strip("*") for c in l.strip().strip("|").split("|")]
    rows[cells[0]] = dict(zip(head, cells))
shead = next(l for l in screen if re.match(r"^\s+node\s", l))
labels = re.split(r"\s{2,}", shead.strip())  # labels hold single spaces ("t_min ns")
seen = 0
for l in screen:
    m = re.match(r"^ .. (n\d)\s+(.*)$", l)
    if not m or m.group(1) not in rows:
        continue
    for label, v in zip(labels[1:], m.group(2).split()):
        if label == "flag":
            continue
        want = rows[m.group(1)][label]
        if v.rstrip("!") != want:
            print("%s %s: screen %s, fleet %s" % (m.group(1), label, v, want)); sys.exit(1)
        seen += 1
print("%d figures compared" % seen)
sys.exit(0 if seen >= 4 * 8 else 1)
PY
ok $? "the screen's figures are ticklab fleet's ($(tail -n 1 "$W/same"))"
shows '^ ▶◆ n3 .* FLAGGED' && shows '2\.8!'
ok $? "n3's row is picked, its CPU share marked odd and the row FLAGGED"
shows '^ n3: CPU% 2\.8 % vs fleet'; ok $? "and its reason is said in words"
shows '^ 1\.0 ' && shows '^ 0\.5 ' && shows '◆' && shows '■'
ok $? "the CDFs are drawn, each node's glyph on its curve"
golden fleet-80x24.txt
keys Down
wait_for '^ ▶■ n4 ' 5; ok $? "Down picks the next node"
keys Tab
wait_for '^ ▶● n1 ' 5; ok $? "Tab with one group stays on it, from its first node"
keys '?'
wait_for 'Help: Fleet screen keys' 5 && shows '5 F6 +Fleet screen' && shows 'Tab +next group'
ok $? "? lists the Fleet screen's keys from the key table"
keys x 1
wait_for 'Flush sizes' 10
keys 5
wait_for 'FLAGGED' 5; ok $? "5 comes back to the Fleet screen from Setup"

start 200 50 "LANG=$UTF8 TERM=xterm-256color" --fleet fleet
wait_for 'FLAGGED' 20; ok $? "plain ticklab --fleet opens the Fleet screen too"
shows 'preempt/s +t_min ns +t_diff ns +KS D'; ok $? "at 200 columns every figure of the fleet table is a column"
# the judge's notes (told apart, within the node's own noise) as the CLI says them
notes=$(grep -c ': add:2000 samples .* not flagged$' "$W/fleet.txt")
[ "$notes" -ge 1 ] && [ "$(grep -c '^ n[0-9]: add:2000 samples .*' "$W/screen")" = "$notes" ]
ok $? "the $notes notes of ticklab fleet (not flagged) are said under the curves too"
lesson=$(sed -n 's/^In short: //p' "$W/fleet.txt")
[ -n "$lesson" ] && joined | grep -qF "In short: $lesson"
ok $? "the screen's first line says the fleet's lesson as ticklab fleet does ($lesson)"
golden fleet-200x50.txt

start 80 24 "LANG=C TERM=vt100 NO_COLOR=1" tui --fleet fleet/n1.json fleet/n2.json fleet/n3.json fleet/n4.json
wait_for 'FLAGGED' 20; ok $? "--fleet FILE... on a vt100 without colour"
shows '^ >\+ n3 '; ok $? "plain glyphs tell the nodes apart"
golden fleet-vt100-80x24.txt

start 50 15 "LANG=$UTF8 TERM=xterm-256color" tui --fleet fleet
wait_for 'Terminal too small' 20; ok $? "below the minimum: the too-small screen"

# Other hardware: two copies of n1 as a Xeon are a group of their own.
cp -r "$W/fleet" "$W/mixed"
for n in x1 x2; do
	"$PY" - "$W/fleet/n1.json" "$W/mixed/$n.json" "$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["node"]["name"] = d["node"]["slurm_node"] = sys.argv[3]
d["host"]["model"] = "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz"
json.dump(d, open(sys.argv[2], "w"))
PY
done
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --fleet mixed
wait_for 'group 1 of 2 \(Tab: next\): AMD' 20; ok $? "two groups: the first shown, Tab named"
lacks ' x1 '; ok $? "no node of the other group in its table"
keys Tab
wait_for 'group 2 of 2 \(Tab: next\): Intel' 5 && wait_for 'too few to compare' 5 &&
	shows '^ ▶● x1 ' && lacks ' n1 '
ok $? "Tab shows the Xeon group alone, with why it was not compared"

# Bad input: status 2 with `ticklab fleet --strict`'s message, before any
# screen (the screen refuses a bad file; `ticklab fleet` alone skips it).
echo '{"ticklab": {"version": "0", "command": "run"}}' >"$W/fleet/zz.json"
"$BIN" fleet --strict "$W/fleet" 2>"$W/fleet.err" >/dev/null
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --fleet "$W/fleet"
wait_for 'TL_EXIT=' 20
shows 'TL_EXIT=2' && gone_without 'Fleet of'; ok $? "a file that is not a fingerprint: status 2, no screen"
sed 's/^ticklab fleet: //' "$W/fleet.err" >"$W/want"
sed -n 's/^ticklab tui: //p' "$W/stderr" >"$W/got"
[ -s "$W/want" ] && cmp -s "$W/want" "$W/got"
ok $? "with ticklab fleet's message, naming zz.json ($(cat "$W/got"))"
expect_status 2 "without a terminal: status 2 too" "$BIN" tui --fleet "$W/fleet"
grep -q 'zz.json: not a fingerprint' /tmp/tl_tap_err.$$; ok $? "and the message names zz.json"
expect_status 2 "--fleet without a value: status 2" "$BIN" tui --fleet
done_testing
