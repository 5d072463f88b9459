#!/bin/sh
# What an output may be: a FIFO or a device is
# refused before measuring by every writer, never replaced and never
# opened; a symlink's target gets the file, and a link to another output is
# that output; an existing file keeps its mode; no .NAME.XXXXXX temporary
# is left behind.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON"

run() { "$TL_BIN" run -b sim -k empty -n 100 --seed 1 --json "$@" >/dev/null 2>"$tmp/err"; }
valid() { "$PY" -m json.tool "$1" >/dev/null 2>&1; }

# A FIFO, a device, or a link to either: refused with status 2 before
# anything is measured, by every writer. Opening a FIFO for writing waits
# for a reader (a writer that did so hung after measuring), and a device is
# not a file to keep. The FIFO has no reader here: a writer that opened it
# would block until the timeout (status 124).
"$TL_BIN" run -b sim -k empty -n 100 --seed 2 -q --json "$tmp/r2.json" >/dev/null 2>&1
mkdir "$tmp/fleet"
for i in 1 2; do
	xz -dc "${TL_TOP_SRCDIR:-.}/tests/fixtures/fleet/n$i.json.xz" >"$tmp/fleet/n$i.json" 2>/dev/null
done
have_fifo=false
mkfifo "$tmp/o.svg" 2>/dev/null && have_fifo=true
ln -s /dev/null "$tmp/null.svg"
# refused KIND TARGET OPT ARGS...: ARGS with @ standing for TARGET
refused() {
	kind=$1 target=$2 opt=$3; shift 3
	args=""
	for a in "$@"; do [ "$a" = @ ] && a=$target; args="$args $a"; done
	# shellcheck disable=SC2086
	timeout 20 "$TL_BIN" $args >"$tmp/out" 2>"$tmp/err" </dev/null; st=$?
	[ $st -eq 2 ] && grep -q -- "$opt '$target' is $kind, not a regular file" "$tmp/err" &&
		! grep -q "sampling on CPU" "$tmp/err"
	ok $? "$* into $kind: status 2 naming it, before measuring (status $st: $(head -c 120 "$tmp/err"))"
}
each_writer() { # each_writer KIND TARGET
	refused "$1" "$2" --json run -b sim -k empty -n 100 -q --json @
	refused "$1" "$2" --csv run -b sim -k empty -n 100 -q --csv @
	refused "$1" "$2" --markdown run -b sim -k empty -n 100 -q --markdown @
	refused "$1" "$2" --json search -b sim -n 200 -q --json @
	refused "$1" "$2" --markdown search -b sim -n 200 -q --markdown @
	refused "$1" "$2" --json detect -b sim -n 1000 --json @
	refused "$1" "$2" --json fingerprint --quick -q --json @
	refused "$1" "$2" --json report "$tmp/r2.json" --json @
	refused "$1" "$2" --markdown report "$tmp/r2.json" --markdown @
	refused "$1" "$2" --csv report "$tmp/r2.json" --csv @
	refused "$1" "$2" --json compare "$tmp/r2.json" "$tmp/r2.json" --json @
	refused "$1" "$2" --markdown compare "$tmp/r2.json" "$tmp/r2.json" --markdown @
	refused "$1" "$2" --csv compare "$tmp/r2.json" "$tmp/r2.json" --csv @
	refused "$1" "$2" --json fleet "$tmp/fleet" --json @
	refused "$1" "$2" --markdown fleet "$tmp/fleet" --markdown @
	refused "$1" "$2" --csv fleet "$tmp/fleet" --csv @
	refused "$1" "$2" --partial fleet "$tmp/fleet/n1.json" --partial @
	refused "$1" "$2" -o plot "$tmp/r2.json" -o @
}
if $have_fifo; then
	each_writer "a FIFO (named pipe)" "$tmp/o.svg"
	[ -p "$tmp/o.svg" ]; ok $? "the FIFO is still a FIFO"
else
	diag "mkfifo failed: FIFO checks skipped"
fi
each_writer "a character device" /dev/null
each_writer "a character device" "$tmp/null.svg"
[ -L "$tmp/null.svg" ]; ok $? "the link to /dev/null is still a link"

# Two outputs that lead to one file through a link (even a dangling one,
# the file not made yet) are one file: refused before measuring.
ln -s t.json "$tmp/d.json"
same() { # same DESCRIPTION ARGS...
	d=$1; shift
	timeout 20 "$TL_BIN" "$@" >/dev/null 2>"$tmp/err" </dev/null; st=$?
	[ $st -eq 2 ] && grep -q "both name" "$tmp/err" && [ ! -e "$tmp/t.json" ]
	ok $? "$d: refused, nothing written (status $st: $(head -c 120 "$tmp/err"))"
}
same "run --json LINK --markdown ITS-TARGET" run -b sim -k empty -n 100 -q --json "$tmp/d.json" --markdown "$tmp/t.json"
same "run --csv ITS-TARGET --json LINK" run -b sim -k empty -n 100 -q --csv "$tmp/t.json" --json "$tmp/d.json"
same "search --json LINK --markdown ITS-TARGET" search -b sim -n 200 -q --json "$tmp/d.json" --markdown "$tmp/t.json"
same "report --json LINK --markdown ITS-TARGET" report "$tmp/r2.json" --json "$tmp/d.json" --markdown "$tmp/t.json"
same "compare --json LINK --csv ITS-TARGET" compare "$tmp/r2.json" "$tmp/r2.json" --json "$tmp/d.json" --csv "$tmp/t.json"
same "fleet --json LINK --markdown ITS-TARGET" fleet "$tmp/fleet" --json "$tmp/d.json" --markdown "$tmp/t.json"
rm -f "$tmp/d.json" "$tmp/o.svg" "$tmp/null.svg"

# A symlink: followed; the link stays, its target gets the file.
run "$tmp/real.json" && ln -s real.json "$tmp/link.json"
run "$tmp/link.json"; ok $? "--json through a symlink exits 0"
[ -L "$tmp/link.json" ]; ok $? "the symlink is still a symlink"
valid "$tmp/real.json" && valid "$tmp/link.json"; ok $? "its target holds the JSON"
# A dangling symlink names the file to create.
ln -s made.json "$tmp/dangling.json"
run "$tmp/dangling.json"; ok $? "--json through a dangling symlink exits 0"
[ -L "$tmp/dangling.json" ] && valid "$tmp/made.json"; ok $? "the link stays and its target is created"

# An existing 0600 file stays 0600 (a new one gets 0666 & ~umask).
run "$tmp/private.json" && chmod 600 "$tmp/private.json"
run "$tmp/private.json"; ok $? "rewriting a 0600 file exits 0"
mode=$(stat -c %a "$tmp/private.json")
[ "$mode" = 600 ]; ok $? "and it keeps mode 600 (got $mode)"

# A directory is refused with a message.
mkdir "$tmp/dir.json"
run "$tmp/dir.json"; st=$?
[ $st -ne 0 ] && grep -q "directory" "$tmp/err"; ok $? "--json onto a directory is refused (status $st)"

left=$(ls -A "$tmp" | grep -c '^\.' || true)
[ "$left" -eq 0 ]; ok $? "no temporary files left behind ($left)"
done_testing
