#!/bin/sh
# One node's run files at scale: the peak
# RSS of `run --json` and of `report` (read, analyse, write again) of one
# seeded sim cell of N samples, in bytes per sample over a tiny run's peak,
# against the aim of 40 B a sample plus 40 MB; and `report`'s file must be
# `run`'s byte for byte. Then the TUI's export of a replayed run of
# TL_BENCH_MEMORY_TUI samples (tmux, when installed) against `report
# --json` of the same file: both stream through io/run_json.c's writer,
# and the export must be the same bytes.
# Numbers only: `make bench` prints them, nothing passes or fails here.
#   TL_BENCH_MEMORY_N    the sample counts ("4000000 40000000"; 40M needs
#                        ~1.7 GB of memory, ~1 GB of disk and minutes)
#   TL_BENCH_MEMORY_TUI  samples of the TUI export case (1000000; 0: skip)
BIN=${TL_BIN:-./ticklab}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
NS=${TL_BENCH_MEMORY_N:-4000000 40000000}
NT=${TL_BENCH_MEMORY_TUI:-1000000}
T=$(mktemp -d) || exit 1
S=tlbm$$
trap 'tmux -L "$S" kill-server >/dev/null 2>&1; rm -rf "$T"' EXIT

# peak OUT ARGS...: ticklab ARGS under /usr/bin/time; prints its peak RSS (kB).
peak() {
	out=$1
	shift
	/usr/bin/time -f %M -o "$T/time" "$BIN" "$@" >"$out" 2>"$T/err" || {
		echo "ticklab $*: failed: $(tail -2 "$T/err")" >&2
		return 1
	}
	tail -1 "$T/time"
}
per() { awk -v b="$1" -v a="$2" -v n="$3" 'BEGIN { printf "%.1f", (b - a) * 1024 / n }'; }
aim() { awk -v n="$1" 'BEGIN { printf "%.0f", (40 * n + 40 * 1048576) / 1048576 }'; }

r0=$(peak /dev/null run -q -b sim -k empty -n 1000 --seed 7 --json "$T/tiny.json") || exit 1
p0=$(peak /dev/null report "$T/tiny.json" --json "$T/tiny2.json") || exit 1
echo "one sim cell (-k empty: no hidden baseline beside it), seed 7; tiny run $r0 kB, its report $p0 kB"
printf '%10s  %-12s %10s  %8s  %9s  %s\n' samples step "peak MB" "B/sample" "aim MB" "bytes"
for n in $NS; do
	r=$(peak /dev/null run -q -b sim -k empty -n "$n" --seed 7 --json "$T/big.json") || exit 1
	printf '%10s  %-12s %10.1f  %8s  %9s  %s\n' "$n" "run --json" "$(echo "$r / 1024" | bc -l)" \
		"$(per "$r" "$r0" "$n")" "$(aim "$n")" "$(wc -c <"$T/big.json")"
	p=$(peak /dev/null report "$T/big.json" --json "$T/again.json") || exit 1
	same=$(cmp -s "$T/big.json" "$T/again.json" && echo "= run's" || echo "DIFFER from run's")
	printf '%10s  %-12s %10.1f  %8s  %9s  %s\n' "$n" "report" "$(echo "$p / 1024" | bc -l)" \
		"$(per "$p" "$p0" "$n")" "$(aim "$n")" "$same"
	rm -f "$T/big.json" "$T/again.json"
done

[ "$NT" -gt 0 ] 2>/dev/null || exit 0
command -v tmux >/dev/null 2>&1 || { echo "TUI export: tmux is not installed"; exit 0; }
"$BIN" run -q -b sim -k empty -n "$NT" --seed 7 --json "$T/tui.json" >/dev/null || exit 1
p=$(peak /dev/null report "$T/tui.json" --json "$T/report.json") || exit 1
mkdir "$T/pane"
tmux -L "$S" -f /dev/null new-session -d -s t -x 120 -y 35 \
	"cd '$T/pane' && env TERM=xterm-256color TL_LEVELS=off HOME='$T' XDG_CONFIG_HOME='$T/xdg' \
	/usr/bin/time -f %M -o '$T/tui.time' '$BIN' tui --replay '$T/tui.json' 2>'$T/tui.err'; sleep 600"
# the replay's first screen, then e, then its message; q once the file is whole
wait_pane() {
	i=0
	while ! tmux -L "$S" capture-pane -p -t t | grep -q "$1"; do
		i=$((i + 1))
		[ $i -lt 1200 ] || { echo "TUI export: no '$1' on the screen after 120 s"; exit 0; }
		sleep 0.1
	done
}
wait_pane replay
tmux -L "$S" send-keys -t t e
wait_pane 'exported to'
tmux -L "$S" send-keys -t t q
i=0
while [ ! -s "$T/tui.time" ] && [ $i -lt 600 ]; do i=$((i + 1)); sleep 0.1; done
x=$(tail -1 "$T/tui.time")
f=$(ls "$T"/pane/ticklab-run-*.json 2>/dev/null | head -1)
same=$([ -n "$f" ] && cmp -s "$f" "$T/report.json" && echo "= report's" || echo "DIFFER from report's")
echo "TUI export of a replayed $NT-sample run (load, analyse, write) against report --json of it:"
printf '  %-22s %8.1f MB\n' "ticklab report --json" "$(echo "$p / 1024" | bc -l)"
printf '  %-22s %8.1f MB  (%s)\n' "ticklab tui, e" "$(echo "$x / 1024" | bc -l)" "$same"
