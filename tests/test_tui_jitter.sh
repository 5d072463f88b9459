#!/bin/sh
# The TUI's jitter verdicts, driven for real in a private
# tmux server as tests/test_tui.sh does (a copy of its few helpers, so the
# two files can change apart): a replayed sim run with one timer that sees
# 5 ns and one too coarse and noisy to, each saying so under its histogram,
# compared with golden screens at 80x24, 120x35 and 200x50 (also docs/screens/),
# both controls on screen; a run with D = 0, 1, 5 ns and 200 whose verdict
# on Live is the CLI's sentence for each; and a saved run whose A/A control
# moved says "unreliable here".
# GENERATE=1 rewrites the golden screens.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
SRC=${TL_TOP_SRCDIR:-.}
BIN=${TL_BIN:-./ticklab}
GOLDEN=$SRC/tests/golden
W=$(mktemp -d "${TMPDIR:-/tmp}/tl_tuij.XXXXXX")
# A fresh server (socket) per pane: restarting one under the same name races.
nserv=0
S=tlj$$-0
X() { tmux -L "$S" -f /dev/null "$@"; }
cleanup() {
	i=0
	while [ $i -le $nserv ]; do tmux -L "tlj$$-$i" kill-server >/dev/null 2>&1; i=$((i + 1)); done
	rm -rf "$W"
}
trap cleanup EXIT INT TERM
unset TMUX
UTF8=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || UTF8=en_US.UTF-8

start() { # COLS ROWS ARGS...
	cols=$1 rows=$2
	shift 2
	X kill-server >/dev/null 2>&1
	nserv=$((nserv + 1))
	S=tlj$$-$nserv
	X new-session -d -s t -x "$cols" -y "$rows" \
		"cd '$W' && env -i PATH='$PATH' HOME='$W' TZ=UTC XDG_CONFIG_HOME='$W/xdg' TL_LEVELS=off \
		ASAN_OPTIONS=detect_leaks=0 LANG=$UTF8 TERM=xterm-256color '$BIN' $*; exec sleep 600"
}
# The pane, with what differs between machines masked: the CPU sampled on.
view() { X capture-pane -p -t t | sed -E 's/CPU [0-9]+/CPU N/'; }
# poll SECONDS: until the pane equals the golden file $1 (or time is up).
matches() {
	limit=$(( $(date +%s) + $2 ))
	while :; do
		view >"$W/view" 2>/dev/null
		[ -n "$GENERATE" ] && grep -q 'sees' "$W/view" && grep -q 'cannot' "$W/view" && return 0
		cmp -s "$W/view" "$GOLDEN/$1" && return 0
		[ "$(date +%s)" -ge "$limit" ] && return 1
		sleep 0.1
	done
}
golden() { # NAME
	if [ -n "$GENERATE" ]; then
		cp "$W/view" "$GOLDEN/$1"
		cp "$W/view" "$SRC/docs/screens/$1"
		ok 0 "golden $1 written"
		return
	fi
	matches "$1" 20; st=$?
	[ $st -eq 0 ] || diff "$GOLDEN/$1" "$W/view" | head -n 20 | sed 's/^/#   /'
	ok $st "screen matches tests/golden/$1"
}

# sd 2 on a 0.5 ns clock sees 5 ns; a 1 us clock cannot (a 0.5 % change in
# how often a tick falls inside, against a 2 % scatter with 1000 samples a side).
"$BIN" run --backend 'sim:sd=2,quantum=0.5,seed=1,sim:sd=5,quantum=1000,seed=2' \
	--kernel 'jitter:500,5ns,0.5' -n 2000 --seed 1 --json "$W/jit.json" -q
ok $? "a sim run with a jitter cell"
for size in "80 24" "120 35" "200 50"; do
	set -- $size
	start "$1" "$2" tui --replay jit.json
	matches "jitter-$1x$2.txt" 20
	golden "jitter-$1x$2.txt"
	grep -q '^sees ' "$W/view" || grep -q ' sees ' "$W/view"
	ok $? "$1x$2: the 0.5 ns clock says it sees the injected ns"
	grep -q 'cannot' "$W/view"; ok $? "$1x$2: the 1 us clock says it cannot"
	grep -q 'A/A.*p' "$W/view" && grep -q 'P-swap.*p' "$W/view"
	ok $? "$1x$2: both controls are on screen with their shifts and p"
done

# D = 0, 1, 5 ns and 200 ADDs on the 0.5 ns clock alone: Live's verdict
# (one column, wide enough for the long form) is the CLI's sentence, word
# for word, as `report` prints it ("in words: ..."): one builder.
"$BIN" run --backend 'sim:sd=2,quantum=0.5,seed=1' \
	--kernel 'jitter:500,0,0.5,jitter:500,1,0.5,jitter:500,5ns,0.5,jitter:500,200,0.5' \
	-n 2000 --seed 1 --json "$W/ds.json" -q
ok $? "a sim run with D = 0, 1, 5ns and 200"
"$BIN" report "$W/ds.json" >"$W/ds.txt" 2>&1
start 200 50 tui --replay ds.json
for label in 'jitter:500,0,0.5' 'jitter:500,1,0.5' 'jitter:500,5ns,0.5' 'jitter:500,200,0.5'; do
	cli=$(awk -v l=", $label: " 'index($0, l) { f = 1 } f && /^  in words: / { sub(/^  in words: /, ""); print; exit }' "$W/ds.txt")
	tries=0
	until view | grep -qF "kernel ▲ $label ▼" && view | grep -qE '^(sees|cannot|unreliable)'; do
		tries=$((tries + 1))
		[ $tries -gt 40 ] && break
		[ $((tries % 5)) -eq 0 ] && X send-keys -t t Down
		sleep 0.2
	done
	tui=$(view | grep -E '^(sees|cannot|unreliable)' | head -n 1 | sed 's/ *$//')
	[ -n "$cli" ] && [ "$tui" = "$cli" ]
	ok $? "$label: Live says what the CLI says ('$tui' / '$cli')"
done

# A cell whose A/A arm moved (its dependent samples pushed up by 20 ns in
# the saved file): the verdict line says unreliable here, not sees.
[ -n "$PY" ] || { done_testing; exit 0; }
"$PY" - "$W/jit.json" "$W/aa.json" <<'EOF2'
import json, sys
doc = json.load(open(sys.argv[1]))
c = doc["cells"][0]
for i, a in enumerate(c["adds"]):
    if a >> 41 == 1 and a >> 40 & 1:
        c["samples"][i] += 20
        c["samples_ns"][i] += 20
json.dump(doc, open(sys.argv[2], "w"))
EOF2
ok $? "a saved run with a moved A/A arm"
start 200 50 tui --replay aa.json
limit=$(( $(date +%s) + 20 ))
until view 2>/dev/null | grep -q 'unreliable here: the A/A control'; do
	[ "$(date +%s)" -ge "$limit" ] && break
	sleep 0.2
done
view | grep -q 'unreliable here: the A/A control'
ok $? "200x50: the moved A/A arm makes the verdict 'unreliable here' with its reason"

done_testing
