#!/bin/sh
# The lecture seen from the back row, driven in tmux: every character on
# Setup, Live and Search is drawn in a pair that clears WCAG 2's 4.5:1 (3:1
# for lines and bars), on a dark and a light terminal, with 256 and with 8
# colours (tests/screen_contrast.py, written from the WCAG definition, reads
# the pane's SGR colours); the theme follows the terminal's background
# (COLORFGBG, OSC 11) unless one is asked for; w writes the screen as text
# and SVG; a finished run says its lesson in the words `ticklab report`
# prints for the same file.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

PY=${TL_PYTHON3:-$(command -v python3)}
[ -n "$PY" ] && [ -x "$PY" ] || skip_all "python3 is not installed"
FX=$SRC/tests/fixtures
"$BIN" run --backend sim,sim:sd=3 --flush 0,64KiB --kernel add:100,add:400 -n 600 --seed 3 \
	--json "$W/r.json" -q
ok $? "a sim run to replay"

# contrast NAME FG BG: the pane's pairs against the bar; the table on failure
contrast() {
	X capture-pane -e -p -t t >"$W/$1.ansi"
	"$PY" "$SRC/tests/screen_contrast.py" "$W/$1.ansi" "$2" "$3" >"$W/$1.pairs"
	rc=$?
	[ $rc -eq 0 ] || sed 's/^/#   /' "$W/$1.pairs"
	return $rc
}

for size in "80 24" "120 35"; do
	set -- $size
	cols=$1 rows=$2
	for mode in dark light; do
		if [ $mode = light ]; then fgbg="COLORFGBG='0;15'" dfg=000000 dbg=ffffff want=light
		else fgbg="COLORFGBG='15;0'" dfg=e5e5e5 dbg=000000 want=default; fi
		for term in xterm-256color xterm; do
			tag="$cols x $rows, $mode terminal, TERM=$term"
			start "$cols" "$rows" "LANG=$UTF8 TERM=$term $fgbg" tui --replay "'$W/r.json'"
			wait_for 'replay' 20
			# the title line names the theme where it has the room
			[ "$cols" -lt 120 ] || { wait_for "theme $want" 5; ok $? "$tag: theme $want"; }
			contrast "live-$cols-$mode-$term" $dfg $dbg; ok $? "$tag: Live's pairs clear the bar"
			keys 1
			wait_for 'Backends' 10
			contrast "setup-$cols-$mode-$term" $dfg $dbg; ok $? "$tag: Setup's pairs clear the bar"
			start "$cols" "$rows" "LANG=$UTF8 TERM=$term $fgbg" tui --replay "'$FX/search-8rows.json'"
			wait_for 'replay' 20
			contrast "search-$cols-$mode-$term" $dfg $dbg; ok $? "$tag: Search's pairs clear the bar"
		done
	done
done

# a search's reasons: the plain sentence first, the statistics after
start 120 35 "LANG=$UTF8 TERM=xterm-256color" tui --replay "'$FX/search-8rows.json'"
wait_for 'replay' 20
keys Down Down
wait_for 'row 3/8' 5
joined >"$W/joined3"
grep -q 'The repeats disagree on t_diff, the smallest extra work this timer tells apart, so it is marked !\. Detail: t_diff UNSTABLE' "$W/joined3"
ok $? "an unstable t_diff is said in plain words, then in detail"

# a theme asked for wins over the terminal's background
start 120 35 "LANG=$UTF8 TERM=xterm-256color COLORFGBG='0;15'" tui --theme high-contrast --replay "'$W/r.json'"
wait_for 'theme high-contrast' 20; ok $? "--theme wins over a light COLORFGBG"

# no COLORFGBG: the terminal's answer to OSC 11 (tmux gives its window style)
X kill-server >/dev/null 2>&1
nserv=$((nserv + 1))
S=tl$$-$nserv
X new-session -d -s t -x 120 -y 35 "exec sleep 600"
X set -g window-style 'bg=#fafafa,fg=#1c1c1c'
X respawn-pane -k -t t "cd '$W' && env -i PATH='$PATH' HOME='$W' XDG_CONFIG_HOME='$W/xdg-osc' TL_LEVELS=off \
	LANG=$UTF8 TERM=xterm-256color '$BIN' tui --replay '$W/r.json' 2>>'$W/stderr'; exec sleep 600"
wait_for 'theme light' 20; ok $? "a light background told by OSC 11: theme light"

# w: the screen as text (what the pane shows) and as SVG
start 120 35 "LANG=$UTF8 TERM=xterm-256color" tui --replay "'$W/r.json'"
wait_for 'replay' 20
sleep 1
screen | sed 's/ *$//' >"$W/before.txt"
keys w
wait_for 'screen written to' 10; ok $? "w says where the screen went"
txt=$(ls "$W"/ticklab-screen-*.txt 2>/dev/null | head -1)
svg=${txt%.txt}.svg
[ -n "$txt" ] && sed 's/ *$//' "$txt" | diff - "$W/before.txt" >"$W/snap.diff"
ok $? "the text file is the screen as it was ($(head -c 300 "$W/snap.diff"))"
[ -s "$svg" ] && head -c 300 "$svg" | grep -q '<svg' && grep -q 'width="1440' "$svg"
ok $? "the SVG is 120 columns of 12 pt ($(head -c 200 "$svg" | tr '\n' ' '))"
grep -q 'rgb(0%, *0%, *0%)\|rgb(0%,0%,0%)' "$svg"; ok $? "the SVG paints the theme's black background"

# a finished run's lesson: the words report prints for its exported file
start 120 35 "LANG=$UTF8 TERM=xterm-256color" tui -b sim,sim:sd=3 -k add:100,add:400 -n 600 --start
wait_for 'run done' 60; ok $? "the run ends"
screen >"$W/done.txt"
keys e
wait_for 'exported to' 20
json=$(sed -n 's/.*exported to \([^ ;]*\.json\).*/\1/p' "$W/screen" | head -1)
[ -f "$json" ] && "$BIN" report "$json" >"$W/report.txt" 2>/dev/null
said=$(sed -n 's/^In short: //p' "$W/report.txt")
[ -n "$said" ]; ok $? "report says the lesson: $said"
tr -s ' \n' '  ' <"$W/done.txt" | sed 's/×/x/g' | grep -qF "$said"
ok $? "the TUI's end-of-run message says the same words"
keys q
wait_for 'TL_EXIT=' 10
done_testing
