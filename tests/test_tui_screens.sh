#!/bin/sh
# Screens keep their own state. A search started from Live must
# not touch the run's clock: Esc from Search back to Live shows the run's
# own "done in" time, never a negative one, and the search says its own.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

# One simulated timer, no flush, one kernel: a run and a search that are
# quick on any node. The setup comes from the remembered-setup file.
M="XDG_CONFIG_HOME=$W/mem"
mkdir -p "$W/mem/ticklab"
printf '%s\n' '{"ticklab_setup": 1, "backends": ["sim"], "flushes": ["0"],' \
	'"kernels": ["add:100"], "n": 2000, "theme": "default"}' >"$W/mem/ticklab/setup.json"

start 80 24 "LANG=$UTF8 TERM=xterm-256color $M" tui
wait_for 'Backends +1 selected' 20; ok $? "the remembered setup selects the one sim timer"
keys o C-u 'n=10 repeats=1' Enter
wait_for 'the next search' 5; ok $? "a short search is set up"
keys Enter
wait_for 'run done: [0-9]+ samples in [0-9.]+ s' 60; ok $? "the run finishes"
wait_for 'done in [0-9]' 5; ok $? "Live says how long the run took"
run_took=$(grep -Eo 'done in [0-9.]+s' "$W/screen" | head -n 1)
keys s
wait_for 'search done in [0-9.]+ s' 120; ok $? "a search from Live runs to its end"
lacks 'in -[0-9]'; ok $? "the search's own time is not negative"
keys Escape
wait_for 'done in [0-9.]+s' 5; ok $? "Esc from Search returns to Live"
lacks "in -[0-9]"; st=$?; ok $st "Live's time is not negative after the search"
[ $st -eq 0 ] || show
shows "$run_took"; st=$?; ok $st "Live still shows the run's own time ($run_took)"
[ $st -eq 0 ] || show

done_testing
