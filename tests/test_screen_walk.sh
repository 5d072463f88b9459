#!/bin/sh
# Every screen whole at three sizes: Setup, help, Live after a short run,
# Info, Search (a replayed search), the memory ladder and Fleet (on the
# fleet fixtures), each at 80x24, 120x35 and 200x50, and Live at 100x30,
# driven in tmux. A screen fails when a message it draws is shown cut inside
# a word, or cut at a word with no sign (…), when the key bar loses "? help"
# or "q quit", when Info's columns break alignment or its backends table is
# below the fold unannounced (tests/screen_walk.py says what it checks; the
# messages come from the backends' sources, `ticklab info` and `ticklab
# fleet`).
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"
[ -n "$PY" ] || skip_all "python3 reads the screens"

mkdir "$W/fleet"
"$PY" - "$SRC/tests/fixtures/fleet" "$W/fleet" <<'PY' || { ok 1 "fixtures unpacked"; done_testing; exit 1; }
import glob, lzma, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json.xz"))):
    with lzma.open(f) as i, open(os.path.join(sys.argv[2], os.path.basename(f)[:-3]), "wb") as o:
        o.write(i.read())
PY
cp "$SRC/tests/fixtures/search-tmin-1of3.json" "$W/s.json"
TL_LEVELS=off "$BIN" info >"$W/info.txt" 2>&1
"$BIN" fleet "$W/fleet" >"$W/fleet.txt" 2>&1
"$PY" "$SRC/tests/screen_catalogue.py" "$SRC" "$W/info.txt" "$W/fleet.txt" >"$W/cat.json"
ok $? "the catalogue of messages is built from the sources, info and fleet"

# judge NAME SIZE: the screen's cuts, as a check (and listed when there are)
judge() {
	alive || { ok 1 "$1 at $2: ticklab shows a screen to judge"; why_dead; return; }
	"$PY" "$SRC/tests/screen_walk.py" "$W/screen" "$1" "${2%x*}" "$W/cat.json" >"$W/cuts" 2>&1
	st=$?
	ok $st "$1 at $2: every line whole"
	[ $st -eq 0 ] || { sed 's/^/#   cut: /' "$W/cuts"; show; }
}
# settle REGEX: the screen shows REGEX and has stopped changing
same_twice() { screen >"$W/s2"; cmp -s "$W/screen" "$W/s2"; }
settle() { wait_for "$1" "${2:-20}" && poll 3 same_twice; }

SYN='pack:1 l3:1(size=4194304) l2:1(size=524288) l1d:1(size=32768) core:1 pu:1'
for size in 80x24 120x35 200x50; do
	c=${size%x*} r=${size#*x}
	start "$c" "$r" "LANG=$UTF8 TERM=xterm-256color" tui -n 300
	settle 'Kernels +[0-9]+ selected'; judge setup "$size"
	keys '?'; settle 'Help: Setup'; judge help "$size"
	keys x; wait_gone 'Help:' 5
	keys / '^sim ' Enter; wait_for 'shows 1 of' 5 && keys Space
	keys / C-u Enter; wait_for 'filter cleared' 5
	keys Enter; settle 'done in' 90; judge live "$size"
	keys i; settle 'What can spoil' 30; poll 20 lacks 'measuring this node'; poll 3 same_twice
	judge info "$size"

	start "$c" "$r" "LANG=$UTF8 TERM=xterm-256color" tui --replay s.json
	settle 'replay: s.json'; judge search "$size"

	start "$c" "$r" "LANG=$UTF8 TERM=xterm-256color HWLOC_SYNTHETIC='$SYN'" tui --cpu 0 -n 100
	settle 'Flush sizes'
	keys m; wait_for 'memory ladder:' 5; keys Enter
	settle 'Memory ladder: ns per load' 120; judge ladder "$size"

	start "$c" "$r" "LANG=$UTF8 TERM=xterm-256color" tui --fleet fleet
	settle 'FLAGGED'; judge fleet "$size"
done
# Live at 100 columns too: its OS-filter line was cut there mid-phrase
# while whole at 80 (another wrap point than the three sizes above).
start 100 30 "LANG=$UTF8 TERM=xterm-256color" tui -n 300
settle 'Kernels +[0-9]+ selected'
keys / '^sim ' Enter; wait_for 'shows 1 of' 5 && keys Space
keys / C-u Enter; wait_for 'filter cleared' 5
keys Enter; settle 'done in' 90; judge live 100x30
done_testing
