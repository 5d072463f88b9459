#!/bin/sh
# The node's levels record: measured once, read by every later run on the
# node, so 4xL3 is the same bytes in each; stale or broken records are
# chased again, never trusted; cells are keyed by the flush's name, and
# compare says when one name became other bytes. Real chases on this node:
# the expectations are the node's own first chase, never a fixed size.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed by the test harness"
XDG_CACHE_HOME=$tmp/cache
export XDG_CACHE_HOME
unset TL_LEVELS TL_LEVELS_FROM
FX=$TL_TOP_SRCDIR/tests/fixtures

levels() { # levels JSON: each level's name, boundary and range, one line
	"$PY" -c 'import json,sys
h = json.load(open(sys.argv[1]))["host"]
print(" ".join("%s:%s:%s" % (l["name"], l["boundary_bytes"], l.get("boundary_range_bytes")) for l in h["memory_levels"]))' "$1"
}
kept() { "$PY" -c 'import json,sys; print(json.load(open(sys.argv[1]))["host"]["memory_levels_kept"] or "")' "$1"; }

"$TL_BIN" info --json >"$tmp/i1.json" 2>"$tmp/err"; ok $? "info --json chases the levels"
case $(kept "$tmp/i1.json") in "kept in $XDG_CACHE_HOME/ticklab/levels-"*) r=0 ;; *) r=1 ;; esac
ok $r "the first chase is kept under XDG_CACHE_HOME: $(kept "$tmp/i1.json")"
"$PY" -c 'import json,sys
h = json.load(open(sys.argv[1]))["host"]
bad = [l["name"] for l in h["memory_levels"] if l["seen"] and l["boundary_range_bytes"] and
       not (l["boundary_range_bytes"][0] <= l["boundary_bytes"] <= l["boundary_range_bytes"][1])]
sys.exit(1 if bad or not h["memory_levels_passes"] or h["memory_levels_passes"] < 3 else 0)' "$tmp/i1.json"
ok $? "each boundary lies inside its stated range, from 3 or more passes"

"$TL_BIN" info --json >"$tmp/i2.json" 2>>"$tmp/err"
case $(kept "$tmp/i2.json") in "read from "*) r=0 ;; *) r=1 ;; esac
ok $r "the second info reads the record: $(kept "$tmp/i2.json")"
[ "$(levels "$tmp/i1.json")" = "$(levels "$tmp/i2.json")" ]
ok $? "the same levels twice: $(levels "$tmp/i2.json")"

# Four runs of 4xL3: the same bytes each time, and compare finds the cell.
for i in 1 2 3 4; do
	"$TL_BIN" run -b barrier-tsc -f 4xL3 -k add:100 -n 20 -q --json "$tmp/f$i.json" 2>>"$tmp/err"
done
bytes=$("$PY" -c 'import json,sys
print(" ".join(str(sorted({c["flush_bytes"] for c in json.load(open(f))["cells"] if c.get("flush_name") == "4xL3"})) for f in sys.argv[1:]))' \
	"$tmp"/f1.json "$tmp"/f2.json "$tmp"/f3.json "$tmp"/f4.json)
set -- $bytes
[ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$1" = "$4" ] && [ "$1" != "[]" ]
ok $? "4xL3 is the same bytes in four runs: $bytes"
"$TL_BIN" compare "$tmp/f1.json" "$tmp/f3.json" >"$tmp/cmp" 2>&1; r=$?
[ $r -le 1 ] && grep -q '^barrier-tsc  *4xL3 (' "$tmp/cmp"
ok $? "compare f1 f3 finds the 4xL3 cell (status $r)"
"$TL_BIN" report "$tmp/f2.json" >"$tmp/rep" 2>&1 && grep -q '4xL3 (' "$tmp/rep"
ok $? "report shows the name given beside its bytes"

# One name, other bytes (another day's levels): matched, and said.
TL_LEVELS_FROM=$FX/chase/amd-zen5-bhyve-guest-busy.txt HWLOC_XMLFILE=$FX/hwloc-amd-zen5-bhyve-guest.xml \
	"$TL_BIN" run -b barrier-tsc -f 4xL3 -k add:100 -n 20 -q --json "$tmp/g.json" 2>>"$tmp/err"
"$TL_BIN" compare "$tmp/f1.json" "$tmp/g.json" --json "$tmp/cmp.json" >"$tmp/cmp" 2>&1; r=$?
if "$PY" -c 'import json,sys
a = {c["flush_bytes"] for c in json.load(open(sys.argv[1]))["cells"] if c.get("flush_name") == "4xL3"}
b = {c["flush_bytes"] for c in json.load(open(sys.argv[2]))["cells"] if c.get("flush_name") == "4xL3"}
sys.exit(0 if a != b else 1)' "$tmp/f1.json" "$tmp/g.json"; then
	[ $r -le 1 ] && grep -q 'NEW [0-9.]*[KMG]iB)' "$tmp/cmp"
	ok $? "4xL3 resolved to other bytes: matched by name, the bytes said ($(grep -o '4xL3 ([^)]*)' "$tmp/cmp"))"
else
	diag "the busy bhyve ladder gave this node's 4xL3 the same bytes: nothing to tell apart"
fi

# --remeasure chases again; a stale, broken or FIFO record is not trusted.
"$TL_BIN" info --remeasure --json >"$tmp/i3.json" 2>>"$tmp/err"
case $(kept "$tmp/i3.json") in "kept in "*) r=0 ;; *) r=1 ;; esac
ok $r "info --remeasure chases again and keeps it"
rec=$(ls "$XDG_CACHE_HOME"/ticklab/levels-*.txt)
sed 's/^boot .*/boot another-boot/' "$rec" >"$tmp/rec" && cp "$tmp/rec" "$rec"
"$TL_BIN" info --json >"$tmp/i4.json" 2>>"$tmp/err"
case $(kept "$tmp/i4.json") in "kept in "*) r=0 ;; *) r=1 ;; esac
ok $r "a record from another boot is stale: chased again"
printf 'ticklab-levels 1\npoint banana\n' >"$rec"
"$TL_BIN" info --json >"$tmp/i5.json" 2>>"$tmp/err"; r=$?
case $(kept "$tmp/i5.json") in "kept in "*) [ $r -eq 0 ] ;; *) false ;; esac
ok $? "a malformed record is chased again (status $r)"
rm -f "$rec" && mkfifo "$rec"
timeout 60 "$TL_BIN" info --json >"$tmp/i6.json" 2>>"$tmp/err"; r=$?
[ $r -eq 0 ]; ok $? "a FIFO in the record's place neither hangs nor fails info (status $r)"
rm -f "$rec"
HOME=/proc/version XDG_CACHE_HOME= "$TL_BIN" info --json >"$tmp/i7.json" 2>>"$tmp/err"; r=$?
case $(kept "$tmp/i7.json") in "not kept: "*) [ $r -eq 0 ] ;; *) false ;; esac
ok $? "no place to keep it: measured, and said ($(kept "$tmp/i7.json"))"
done_testing
