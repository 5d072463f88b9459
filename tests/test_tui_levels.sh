#!/bin/sh
# Measured memory levels in the TUI, on a recorded node (the Zen 5 bhyve guest's hwloc XML
# and chase, tests/fixtures): the NxLk presets go by the L3 the chase sees
# (4xL3 = 16MiB, not 4 x 508MiB) and Setup says so; a run whose flushes
# make it long is said with its estimate before it starts, and starts on a
# second Enter. The estimate's numbers are measured here, so the golden
# (tests/golden/long-run-80x24.txt) has them masked as N.
# GENERATE=1 rewrites the golden.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

FX=$SRC/tests/fixtures
view() { joined | sed -n 's/.*\(a long run, .*shortens it\).*/\1/p' | sed 's/[0-9][0-9.]*/N/g; s/about N \(h\|min\|s\):/about N T:/'; }
GOLDEN_WHAT='the long-run message'

start 80 24 "LANG=$UTF8 TERM=xterm-256color HWLOC_XMLFILE=$FX/hwloc-amd-zen5-bhyve-guest.xml \
TL_LEVELS_FROM=$FX/chase/amd-zen5-bhyve-guest.txt" tui --cpu 1 -n 20000
wait_for 'Flush sizes' 20; ok $? "setup screen"
shows '4xL3 +=  *16MiB'; ok $? "4xL3 is 4 x the measured 4MiB L3"
shows 'cache multiples go by L3 4MiB measured by a chase \(hwloc says 508MiB\)'
ok $? "Setup says which sizes the multiples go by"
lacks '1\.98GiB'; ok $? "no 1.98GiB flush offered"

keys Tab
keys a
wait_for '^add: ' 5
keys 1GiB Enter
wait_for 'added flush size 1GiB' 5; ok $? "a 1GiB flush added"
keys Enter
wait_for 'Enter again starts it' 30; ok $? "a long run is said before it starts"
golden long-run-80x24.txt 5
shows 'Flush sizes'; ok $? "still on Setup"
keys Enter
wait_for ' ETA ' 30; ok $? "Enter again starts it"

# Info's M measures the levels again while the TUI runs: here the recorded
# chase the node reads changes under it (the busy moment's, L3 2 MiB), and
# Setup's 4xL3 follows (8MiB), as `info --remeasure` would make it for the CLI.
cp "$FX/chase/amd-zen5-bhyve-guest.txt" "$tmp/chase.txt"
start 80 24 "LANG=$UTF8 TERM=xterm-256color HWLOC_XMLFILE=$FX/hwloc-amd-zen5-bhyve-guest.xml \
TL_LEVELS_FROM=$tmp/chase.txt" tui --cpu 1 -n 2000
wait_for 'Flush sizes' 20; ok $? "setup screen, second start"
shows '4xL3 +=  *16MiB'; ok $? "4xL3 is 16MiB from the quiet chase"
cp "$FX/chase/amd-zen5-bhyve-guest-busy.txt" "$tmp/chase.txt"
keys 4
wait_for 'Info' 10
keys M
wait_for 'levels measured again' 30; ok $? "Info's M measures the levels again and says so"
keys 1
wait_for 'Flush sizes' 10
shows '4xL3 +=  *8MiB'; ok $? "Setup's 4xL3 follows the new levels (8MiB)"
done_testing
