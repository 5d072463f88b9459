#!/bin/sh
# What --json replaces (issue 11 item 2): a FIFO, a device and a symlink are
# not replaced by a regular file; a symlink's target gets the file; an
# existing file keeps its mode; no .NAME.XXXXXX temporary is left behind.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON"

run() { "$TL_BIN" run -b sim -k empty -n 100 --seed 1 --json "$@" >/dev/null 2>"$tmp/err"; }
valid() { "$PY" -m json.tool "$1" >/dev/null 2>&1; }

# A FIFO: written in place, read by the other end, still a FIFO.
if mkfifo "$tmp/fifo" 2>/dev/null; then
	cat "$tmp/fifo" >"$tmp/fifo.out" &
	reader=$!
	run "$tmp/fifo"; st=$?
	ok $st "--json into a FIFO exits 0"
	# A writer that replaced the FIFO never opened it: the reader would wait forever.
	if [ $st -eq 0 ] && [ -p "$tmp/fifo" ]; then wait $reader; else kill $reader; fi
	[ -p "$tmp/fifo" ]; ok $? "the FIFO is still a FIFO"
	valid "$tmp/fifo.out"; ok $? "and its reader got the JSON"
else
	diag "mkfifo failed: FIFO checks skipped"
fi

# A device (/dev/full's numbers, made here so a regression cannot replace
# the real one): written in place, its error reported, still a device.
if [ "$(id -u)" = 0 ] && mknod "$tmp/full" c 1 7 2>/dev/null; then
	run "$tmp/full"; st=$?
	[ $st -ne 0 ] && grep -q "No space left on device" "$tmp/err"
	ok $? "--json into a full device fails naming ENOSPC (status $st)"
	[ -c "$tmp/full" ]; ok $? "the device node is still a device node"
else
	diag "not root or mknod refused: device check skipped"
fi

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
