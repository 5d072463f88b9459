# The tmux harness of tests/test_tui.sh, for TUI tests in their own files:
# the ticklab binary runs in a private tmux server, the test types keys and
# polls the pane's text (never a fixed sleep). Source after tests/tap.sh.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"

command -v tmux >/dev/null 2>&1 || skip_all "tmux is not installed"
SRC=${TL_TOP_SRCDIR:-.}
BIN=${TL_BIN:-./ticklab}
GOLDEN=$SRC/tests/golden
W=$(mktemp -d "${TMPDIR:-/tmp}/tl_tui.XXXXXX")
# A fresh server (socket) per pane: restarting one under the same name races.
nserv=0
S=tl$$-0
X() { tmux -L "$S" -f /dev/null "$@"; }
cleanup() {
	i=0
	while [ $i -le $nserv ]; do tmux -L "tl$$-$i" kill-server >/dev/null 2>&1; i=$((i + 1)); done
	rm -rf "$W" "/tmp/tl_tap_out.$$" "/tmp/tl_tap_err.$$"
}
trap cleanup EXIT INT TERM
unset TMUX
UTF8=C.UTF-8
locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || UTF8=en_US.UTF-8

# start COLS ROWS "ENV..." ARGS...: a fresh pane running `ticklab tui ARGS`;
# after it exits the pane shows its status and the terminal's modes. Each
# pane gets its own empty XDG_CONFIG_HOME, so a setup one pane remembers
# never leaks into the next; ENV may name a shared one (XDG_CONFIG_HOME=...).
start() {
	cols=$1 rows=$2 envs=$3
	shift 3
	X kill-server >/dev/null 2>&1
	nserv=$((nserv + 1))
	S=tl$$-$nserv
	X new-session -d -s t -x "$cols" -y "$rows" \
		"cd '$W' && env -i PATH='$PATH' HOME='$W' TZ=UTC XDG_CONFIG_HOME='$W/xdg-$nserv' TL_LEVELS=off \
		ASAN_OPTIONS=detect_leaks=0 $envs '$BIN' $* 2>>'$W/stderr'; \
		echo TL_EXIT=\$?; stty -a; echo TL_END; exec sleep 600"
}
screen() { X capture-pane -p -t t; }
# The pane's text is ticklab's screen while it runs; when it ends, the shell
# prints TL_EXIT=status, the terminal's modes and TL_END (the epilogue).
ended() { grep -q 'TL_EXIT=' "$W/screen"; }
# settled: the epilogue is whole, so the pane will not change any more.
settled() { ended && grep -q '^TL_END' "$W/screen"; }
# alive: ticklab runs and its screen has something on it. Every judgement
# asks this first: a pane ticklab never drew, or one it has left, lacks
# everything, and `lacks` passed while ticklab had exited with status 2.
alive() { ! ended && grep -q '[^[:space:]]' "$W/screen"; }
# why_dead: says, for a failed check, why there was no screen to judge.
why_dead() {
	if ended; then
		diag "ticklab has ended ($(grep -o 'TL_EXIT=[0-9]*' "$W/screen" | head -n 1)); its stderr ends:"
		tail -n 3 "$W/stderr" 2>/dev/null | sed 's/^/#   /'
	else
		diag "the pane is blank: ticklab has drawn nothing"
	fi
}
# poll SECONDS CHECK...: captures the pane into $W/screen until CHECK
# succeeds (0) or the time is up (1). A screen is drawn in pieces, so every
# check of what it shows polls; none reads one capture. A pane whose
# epilogue is whole will not change: the poll stops there.
poll() {
	limit=$(( $(date +%s) + $1 ))
	shift
	while :; do
		screen >"$W/screen" 2>/dev/null
		"$@" && return 0
		settled && return 1
		[ "$(date +%s)" -ge "$limit" ] && return 1
		sleep 0.05
	done
}
# shows REGEX: a line of ticklab's running screen matches. Once ticklab has
# ended only the harness's own marks are judged (TL_EXIT=status, TL_END),
# never what ticklab left on the terminal or stty's words; a test that reads
# those (the modes, the message printed on the way out) greps $W/screen.
shows() {
	if ended; then
		grep -oE 'TL_EXIT=[0-9]+|^TL_END' "$W/screen" | grep -Eq -- "$1"
	else
		alive && grep -Eq -- "$1" "$W/screen"
	fi
}
# lacks REGEX: ticklab runs, shows its screen, and no line matches.
lacks() { alive && ! grep -Eq -- "$1" "$W/screen"; }
# gone_without REGEX: ticklab has ended and never left REGEX on the pane
# (for a start that must fail before any screen opens).
gone_without() { ended && ! grep -Eq -- "$1" "$W/screen"; }
# wait_for REGEX [SECONDS]: until a line matches (the last screen shown if not).
wait_for() { poll "${2:-10}" shows "$1" || { show; alive || why_dead; return 1; }; }
# wait_gone REGEX [SECONDS]: until ticklab's screen shows no line matching.
wait_gone() { poll "${2:-10}" lacks "$1" || { alive || why_dead; return 1; }; }
keys() { X send-keys -t t "$@"; }
show() { sed 's/^/#   | /' "$W/screen"; }
# joined: the running screen's lines joined with single spaces (a wrapped
# message reads whole); nothing, and failure, when there is no screen.
joined() { alive && tr -s ' \n' '  ' <"$W/screen"; }
# golden NAME [SECONDS]: polls until `view` (each test defines it: the part
# of $W/screen under test) matches tests/golden/NAME, and diffs when the
# time is up. GENERATE=1 writes the view instead, and also the docs/screens
# copy when GOLDEN_DOCS is set. GOLDEN_WHAT names the view in the check.
view_is_golden() {
	alive || return 1
	view >"$W/view"
	[ -z "$GENERATE" ] && cmp -s "$GOLDEN/$1" "$W/view"
}
golden() {
	poll "${2:-10}" view_is_golden "$1"
	if ! alive; then
		ok 1 "${GOLDEN_WHAT:-screen} matches tests/golden/$1: there is no screen"
		why_dead
		return
	fi
	if [ -n "$GENERATE" ]; then
		cp "$W/view" "$GOLDEN/$1"
		[ -z "$GOLDEN_DOCS" ] || cp "$W/view" "$SRC/docs/screens/$1"
		ok 0 "golden $1 written"
		return
	fi
	diff -u "$GOLDEN/$1" "$W/view" >"$W/diff" 2>&1
	st=$?
	ok $st "${GOLDEN_WHAT:-screen} matches tests/golden/$1"
	[ $st -eq 0 ] || sed 's/^/#   /' "$W/diff" | head -n 40
}
