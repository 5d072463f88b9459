#!/bin/sh
# Recaptures docs/screens/ from a build tree: ./docs/screens/capture.sh [fleet]
# (the tmux harness of the tests; the node's preselected backends and sim,
# N=3000, at 80x24 and 200x50). The numbers are this machine's.
TL_TOP_SRCDIR=${TL_TOP_SRCDIR:-.}
TL_BIN=${TL_BIN:-$PWD/ticklab}
. "$TL_TOP_SRCDIR/tests/tui_harness.sh"
OUT=$TL_TOP_SRCDIR/docs/screens
# The Fleet screen of the test fixtures (tests/fixtures/fleet: four --quick
# fingerprints, n3 beside a busy loop); `capture.sh fleet` takes only these.
mkdir "$W/fleet"
for f in "$TL_TOP_SRCDIR"/tests/fixtures/fleet/*.json.xz; do
	python3 -c 'import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$f" \
		>"$W/fleet/$(basename "$f" .xz)"
done
for size in 80x24 200x50; do
	start "${size%x*}" "${size#*x}" "LANG=$UTF8 TERM=xterm-256color" tui --fleet fleet
	wait_for 'FLAGGED' 30 || exit 1
	sleep 1
	screen >"$OUT/fleet-$size.txt"
	keys q
done
[ "$1" = fleet ] && exit 0
for size in 80x24 200x50; do
	start "${size%x*}" "${size#*x}" "LANG=$UTF8 TERM=xterm-256color" -n 3000
	wait_for 'Flush sizes' 30 || exit 1
	keys / '^sim ' Enter
	wait_for 'shows 1 of' 5 && keys Space && keys / C-u Enter
	wait_for 'filter cleared' 5
	screen >"$OUT/setup-$size.txt"
	keys Enter
	wait_for 'done in' 120 || exit 1
	sleep 1
	screen >"$OUT/live-$size.txt"
	keys s
	wait_for 'search done' 900 || exit 1
	sleep 1
	screen >"$OUT/search-$size.txt"
	keys i
	wait_for 'spoil timing' 60 && sleep 3
	screen >"$OUT/info-$size.txt"
	keys q
done
