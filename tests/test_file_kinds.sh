#!/bin/sh
# One reader per file kind, the same refusals in every
# face. A run, a search and a fingerprint with a duplicate key are each
# refused by report, plot and the TUI's replay (in tmux, a real terminal)
# in the same words; the kind of an intact file is told in one place
# (io/file_kind.c): report and plot read a run and a search, the TUI
# replays both, and refuses a fingerprint naming what it is.
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"
[ -n "$PY" ] || skip_all "python3 is needed to write the files"
ABS=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

"$ABS" run -q -b sim -k add:10 -n 200 --seed 3 --json "$W/run.json" &&
	cp "$SRC/tests/fixtures/search-tmin-1of3.json" "$W/search.json" &&
	"$PY" - "$SRC/tests/fixtures/fleet/n1.json.xz" "$W/fp.json" <<'PY'
import lzma, sys
open(sys.argv[2], "wb").write(lzma.open(sys.argv[1]).read())
PY
ok $? "a run, a search and a fingerprint"

# dup KIND: KIND.json with its "host" key given twice, as KIND-dup.json
for kind in run search fp; do
	"$PY" - "$W/$kind.json" "$W/$kind-dup.json" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index("{") + 1
open(sys.argv[2], "w").write(s[:i] + '"host": {}, ' + s[i:])
PY
done

# said NAME: what the last pane's ticklab said on stderr, without "ticklab tui: "
for kind in run search fp; do
	f=$kind-dup.json
	"$ABS" report "$W/$f" >/dev/null 2>"$W/report.err"; st=$?
	want=$(sed -n 's/^ticklab report: //p' "$W/report.err" | head -1)
	[ $st -eq 2 ] && echo "$want" | grep -q "duplicate object key"
	ok $? "report refuses $f with status 2: $want"
	"$ABS" plot "$W/$f" -o "$W/x.svg" >/dev/null 2>"$W/plot.err"; st=$?
	[ $st -eq 2 ] && grep -qF "ticklab plot: $want" "$W/plot.err"
	ok $? "plot refuses it in the same words (status $st: $(head -1 "$W/plot.err"))"
	: >"$W/stderr"
	start 100 30 "TERM=xterm-256color" tui --replay "'$W/$f'"
	wait_for 'TL_EXIT=2' 20
	st=$?
	[ $st -eq 0 ] && grep -qF "ticklab tui: $want" "$W/stderr"
	ok $? "the TUI's replay refuses it in the same words, status 2 ($(head -1 "$W/stderr"))"
done

# A flush name with two byte counts (results[1] = results[0] with another
# backend and flush_bytes 4096) once crashed every search reader: refused
# in the TUI's replay in report's words.
"$PY" - "$W/search.json" "$W/search-fb.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = json.loads(json.dumps(d["results"][0])); c["backend"] = "sim:sd=2"; c["flush_bytes"] = 4096
d["results"][1:] = [c]
json.dump(d, open(sys.argv[2], "w"))
PY
"$ABS" report "$W/search-fb.json" >/dev/null 2>"$W/report.err"; st=$?
want=$(sed -n 's/^ticklab report: //p' "$W/report.err" | head -1)
[ $st -eq 2 ] && echo "$want" | grep -q 'results\[1\]\.flush_bytes'
ok $? "report refuses a flush name with two byte counts, status 2: $want"
: >"$W/stderr"
start 100 30 "TERM=xterm-256color" tui --replay "'$W/search-fb.json'"
wait_for 'TL_EXIT=2' 20 && grep -qF "ticklab tui: $want" "$W/stderr"
ok $? "the TUI's replay refuses it in the same words, status 2 ($(head -1 "$W/stderr"))"

for kind in run search; do
	"$ABS" report "$W/$kind.json" >/dev/null 2>"$W/err"
	ok $? "report reads the $kind file"
	start 100 30 "TERM=xterm-256color" tui --replay "'$W/$kind.json'"
	wait_for 'replay' 20; ok $? "the TUI replays the $kind file"
	keys q
	wait_for 'TL_EXIT=0' 10; ok $? "and quits with status 0"
done
: >"$W/stderr"
start 100 30 "TERM=xterm-256color" tui --replay "'$W/fp.json'"
wait_for 'TL_EXIT=2' 20 && grep -q "fingerprint" "$W/stderr"
ok $? "the TUI refuses to replay a fingerprint, naming it ($(head -1 "$W/stderr"))"

done_testing
