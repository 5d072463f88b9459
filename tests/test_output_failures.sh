#!/bin/sh
# Output failures are found, and found early: a full
# stdout makes run, report and info exit 1 with a message; an unwritable
# --json path is refused before sampling starts; a kill -9 during sampling
# leaves no temporary file (O_TMPFILE) where the file system has it.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to probe O_TMPFILE"

[ -w /dev/full ] || skip_all "no /dev/full"
"$TL_BIN" run -b sim -k empty -n 100 --seed 1 -q --json "$tmp/r.json" >/dev/null 2>&1
ok $? "a run file to report on"

full() { # full DESCRIPTION ARGS...: ticklab ARGS > /dev/full must exit 1 with a message
	d=$1; shift
	"$TL_BIN" "$@" >/dev/full 2>"$tmp/err"; st=$?
	[ $st -eq 1 ] && grep -q "cannot write to standard output" "$tmp/err"
	ok $? "$d > /dev/full exits 1 saying so (status $st)"
}
full "run" run -b sim -k empty -n 100
full "run --json -" run -b sim -k empty -n 100 -q --json -
full "report" report "$tmp/r.json"
full "info" info

# A directory that cannot take the file: refused before any sampling.
if [ "$(id -u)" = 0 ]; then
	ro=/proc # root can create files anywhere but here
else
	mkdir "$tmp/ro" && chmod 555 "$tmp/ro" && ro=$tmp/ro
fi
"$TL_BIN" run -b sim -k empty -n 3000000 --json "$ro/r.json" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 1 ] && grep -q "cannot write '$ro/r.json'" "$tmp/err"
ok $? "--json into an unwritable directory exits 1 naming the file (status $st)"
! grep -q "sampling on CPU" "$tmp/err"
ok $? "before sampling starts"

# search, detect and fingerprint measure for seconds to minutes: their
# outputs are opened first too, so nothing is measured (nothing printed on
# stdout, where their tables go) before the path is refused.
early() { # early DESCRIPTION FILE ARGS...
	d=$1; f=$2; shift 2
	"$TL_BIN" "$@" >"$tmp/out" 2>"$tmp/err"; st=$?
	[ $st -eq 1 ] && grep -q "cannot write '$f'" "$tmp/err" && [ ! -s "$tmp/out" ]
	ok $? "$d into an unwritable directory exits 1 naming the file, before measuring (status $st: $(head -c 120 "$tmp/err"))"
}
early "search --json" "$ro/s.json" search -b sim --json "$ro/s.json"
early "search --markdown" "$ro/s.md" search -b sim --markdown "$ro/s.md"
early "detect --json" "$ro/d.json" detect -b sim --json "$ro/d.json"
early "fingerprint --json" "$ro/f.json" fingerprint --quick --json "$ro/f.json"

# kill -9 mid-run: the output was opened before sampling, as an anonymous
# O_TMPFILE, so nothing is left behind.
mkdir "$tmp/k"
if "$PY" -c 'import os,sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY))' "$tmp/k" 2>/dev/null; then
	# A million readings of 20 000 ADDs: 6-7 s of sampling here; killed
	# after 1. (Ten million sim samples were drawn in about a second, and
	# the raw samples are saved as soon as sampling ends, so a kill at 1 s
	# sometimes came after it and found the raw file, as it should.)
	"$TL_BIN" run -b clock-gettime -k add:20000 -n 1000000 -q --json "$tmp/k/r.json" >/dev/null 2>&1 &
	pid=$!
	sleep 1
	kill -9 $pid 2>/dev/null; alive=$?
	wait $pid 2>/dev/null
	left=$(ls -A "$tmp/k" | wc -l)
	[ $alive -eq 0 ] && [ "$left" -eq 0 ]
	ok $? "kill -9 during sampling leaves no file (killed: $alive, left $left: $(ls -A "$tmp/k" | tr '\n' ' '))"
else
	diag "no O_TMPFILE on $tmp: kill -9 check skipped"
fi
done_testing
