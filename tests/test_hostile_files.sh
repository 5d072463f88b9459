#!/bin/sh
# Hostile saved files and parameters: values no
# timer reads are refused at read time naming the cell and key (report, and
# tui --replay, exit 2), a directory given as a file says so, sim refuses
# values a file could not hold and unknown keys, add:0 shows no CV, and
# huge values do not make huge columns. The TUI replays a file whose
# histogram has no layout without aborting.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to write the hostile files"

"$TL_BIN" run -b sim -k empty,add:10 -n 50 -q --seed 3 --json "$tmp/ok.json" >/dev/null 2>&1
ok $? "a run file to spoil"
"$PY" - "$tmp" <<'PYEOF'
import json, sys
d = sys.argv[1]
base = json.load(open(d + "/ok.json"))
def spoil(name, f):
    doc = json.loads(json.dumps(base))
    f(doc)
    json.dump(doc, open("%s/%s.json" % (d, name), "w"))
def wide(doc):
    c = doc["cells"][1]
    c["samples"] = c["samples_ns"] = [1e308, -1e308] + [1e308] * (c["n"] - 2)
def big(doc):
    for c in doc["cells"]:
        c["samples"] = c["samples_ns"] = [1e17] * c["n"]
def overhead(doc):
    doc["cells"][0]["overhead"] = 1e300
def edge(doc):  # inside the bounds, but 1e-3 ns bins at 1e15 ns have no layout
    for c in doc["cells"]:
        c["samples"] = c["samples_ns"] = [1e15 - (i % 3) for i in range(c["n"])]
        c["resolution_ns"] = 1e-3
spoil("wide", wide); spoil("big", big); spoil("overhead", overhead); spoil("edge", edge)
PYEOF

refused() { # refused FILE KEY DESCRIPTION: report and tui --replay exit 2 naming KEY
	for cmd in report "tui --replay"; do
		"$TL_BIN" $cmd "$tmp/$1" </dev/null >/dev/null 2>"$tmp/err"; st=$?
		[ $st -eq 2 ] && grep -q -- "$2" "$tmp/err"
		ok $? "$cmd: $3: status 2 naming '$2' (status $st: $(tail -n 1 "$tmp/err"))"
	done
}
refused wide.json "cells\[1\].samples: value 0 is 1e+308" "+-1e308 samples"
refused big.json "cells\[0\].samples: value 0 is 1e+17" "1e17 samples"
refused overhead.json "cells\[0\].overhead: is 1e+300" "an overhead of 1e300"
mkdir "$tmp/dir"
refused dir "is a directory" "a directory"
"$TL_BIN" compare "$tmp/dir" "$tmp/ok.json" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "is a directory" "$tmp/err"
ok $? "compare: a directory: status 2 saying so (status $st)"

"$TL_BIN" report "$tmp/edge.json" >"$tmp/edge.out" 2>&1; st=$?
ok $st "report of values at the 1e15 bound: status 0 (status $st)"
long=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/edge.out")
[ "$long" -le 130 ]; ok $? "and its lines stay narrow ($long characters)"

# sim: values beyond what a file may hold and unknown keys are bad input.
for id in sim:overhead=1e308 sim:ns_per_add=1e308 sim:sd=1e13 sim:bogus=1; do
	"$TL_BIN" run -b "$id" -k empty -n 10 -q >/dev/null 2>"$tmp/err"; st=$?
	key=${id#sim:}; key=${key%%=*}
	[ $st -eq 2 ] && grep -q "'$key'\|for $key" "$tmp/err"
	ok $? "run -b $id: status 2 naming $key (status $st)"
done

# add:0: the mean is within noise of 0, so no CV (as for empty).
"$TL_BIN" run -b sim -k add:0,add:100 -n 2000 >"$tmp/add0" 2>/dev/null
# CV counted from the end of the header (a why column may follow drift)
cv() { awk -v k="$1" '/ CV / { for (i = 1; i <= NF; i++) if ($i == "CV") c = NF - i }
	{ for (i = 1; i <= NF; i++) if ($i == k) print $(NF - c) }' "$tmp/add0"; }
[ "$(cv add:0)" = "-" ]; ok $? "add:0 shows no CV ($(cv add:0))"
cv add:100 | grep -q "%"; ok $? "add:100 still shows one ($(cv add:100))"

# Every reader over every hostile case, each under a timeout: a
# refusal must be status 2 naming the file; anything else must be a correct
# result (status 0, no escape byte on the terminal). A table of reader x
# case says what each did.
H="$tmp/h27"; mkdir "$H" "$H/fleet"
"$TL_BIN" search --backend sim -n 200 -q --json "$H/search.json" >/dev/null 2>&1
ok $? "a search file to spoil"
"$PY" - "$tmp/ok.json" "$H" "$TL_TOP_SRCDIR/tests/fixtures/fleet" <<'PYEOF'
import glob, json, lzma, os, socket, sys
run = json.load(open(sys.argv[1])); d = sys.argv[2]
search = json.load(open(d + "/search.json"))
for f in sorted(glob.glob(os.path.join(sys.argv[3], "*.json.xz")))[:3]:
    with lzma.open(f) as i, open(os.path.join(d, "fleet", os.path.basename(f)[:-3]), "wb") as o:
        o.write(i.read())
fp = json.load(open(d + "/fleet/n1.json"))
def spoil(name, base, f):
    doc = json.loads(json.dumps(base)); f(doc)
    json.dump(doc, open("%s/%s.json" % (d, name), "w"))
ESC = "evil\u001b]0;PWNED\u0007\u001b[2J\nn9 | all fine"
def neg(doc):  # on a clock that never goes back (sim's noise may draw below 0)
    for c in doc["cells"] + doc.get("baselines", []):
        c["backend"] = "clock-gettime"
    for c in doc["cells"]:
        c["samples"] = [-x for x in c["samples"]]; c["samples_ns"] = [-x for x in c["samples_ns"]]
def negover(doc): doc["cells"][0]["overhead"] = -1e6
def dup(doc): doc["cells"].append(doc["cells"][1])
def nomark(doc): del doc["ticklab"]
def v99(doc): doc["ticklab"]["version"] = "99.0.0"
def escmodel(doc): doc["host"]["model"] = ESC
def longstr(doc): doc["host"]["model"] = "x" * (1 << 20)
def tmin(doc): doc["results"][0]["tmin"]["repeats"][0]["ns"] = 1e300
def negns(doc): doc["results"][0]["tmin"]["repeats"][0]["ns"] = -5.0
def strcount(doc): doc["results"][0]["tmin"]["repeats"][0]["measurements"] = "1/1"
def nneg(doc): doc["params"]["n"] = -1
def sdup(doc): doc["results"].append(doc["results"][0])
def found(doc): doc["results"][0]["tmin"]["found"] = doc["results"][0]["tmin"]["ran"] + 1
def flushbytes(doc):  # flush "0" named with 0 bytes in one cell, 4096 in the other
    c = json.loads(json.dumps(doc["results"][0])); c["backend"] = "sim:sd=2"; c["flush_bytes"] = 4096
    doc["results"][1:2] = [c]
def fpname(doc): doc["node"]["name"] = ESC
def fpneg(doc): neg(doc["run"])
# one field past its physical or consistency rule each (io/run_keys.c,
# io/fingerprint.c): the file is otherwise one the lab wrote here
def over14(doc): doc["cells"][0]["overhead"] = 1e14
def res14(doc): doc["cells"][0]["resolution_ns"] = 1e14
def simid(v):
    def f(doc):
        for c in doc["cells"] + doc.get("baselines", []):
            c["backend"] = "sim:sd=" + v
    return f
def tsc(v):
    def f(doc): doc["host"]["tsc_ghz"] = v
    return f
def raw1000(doc): doc["cells"][1]["samples"] = [1000 * x for x in doc["cells"][1]["samples"]]
def cpu(doc): doc["sched"]["cpu_seconds"] = 2 * doc["sched"]["seconds"]
def drift(doc): doc["drift"]["lo_ns"] = doc["drift"]["hi_ns"] + 1
for n, b, f in [("run_neg", run, neg), ("run_negoverhead", run, negover), ("run_dupcell", run, dup),
                ("run_nomarker", run, nomark), ("run_v99", run, v99), ("run_escmodel", run, escmodel),
                ("run_longstr", run, longstr), ("s_tmin1e300", search, tmin), ("s_neg5ns", search, negns),
                ("s_strcount", search, strcount), ("s_nneg", search, nneg), ("s_dupcell", search, sdup), ("s_found", search, found),
                ("s_flushbytes", search, flushbytes),
                ("s_v99", search, v99), ("fp_escname", fp, fpname), ("fp_negsamples", fp, fpneg),
                ("fp_v99", fp, v99), ("run_overhead1e14", run, over14),
                ("run_resolution1e14", run, res14), ("run_simsdneg", run, simid("-5")),
                ("run_simsd1e300", run, simid("1e300")), ("run_raw1000", run, raw1000), ("fp_tsc0", fp, tsc(0.0)),
                ("fp_tsc50", fp, tsc(50.0)), ("fp_cpu2x", fp, cpu), ("fp_driftback", fp, drift),
                ("s_tsc14", search, tsc(2.3e14))]:
    spoil(n, b, f)
# a key given twice (jansson keeps one of them unless told not to)
t = json.dumps(search); open(d + "/s_dupkey.json", "w").write(t[:-1] + ', "params": {}}')
s = socket.socket(socket.AF_UNIX); s.bind(d + "/sock.json")
PYEOF
ok $? "hostile cases written"
# The small form (a "summary" of facts, figures, intervals and a samples
# histogram) and fleet --partial files read through one loader: impossible
# numbers in either are refused with the key's path.
"$TL_BIN" fingerprint --compact "$H/fleet/n1.json" --json "$H/fps.json" -q >/dev/null 2>&1 &&
	"$TL_BIN" fleet --partial "$H/part.json" "$H/fleet" >/dev/null 2>&1
ok $? "a small fingerprint and a fleet partial to spoil"
"$PY" - "$H" <<'PYEOF'
import json, sys
d = sys.argv[1]
fps = json.load(open(d + "/fps.json")); part = json.load(open(d + "/part.json"))
def spoil(name, base, f):
    doc = json.loads(json.dumps(base)); f(doc)
    json.dump(doc, open("%s/%s.json" % (d, name), "w"))
def sm(f): return lambda doc: f(doc["summary"])
def pt(f): return lambda doc: f(doc["nodes"][1]["summary"])
def negfig(s): s["figures"]["ns_per_add"] = -0.3006
def hugefig(s): s["figures"]["tmin_ns"] = 1e300
def strfig(s): s["figures"]["cv_percent"] = "1/1"
def negiv(s): s["intervals"]["tmin_ns"] = [-5.0, 708.0]
def backiv(s): s["intervals"]["tmin_ns"] = [708.0, 350.0]
def nsum(s): s["samples"]["n"] += 7
def hugeval(s): s["samples"]["values"][-1] = 1e300
def tsc(s): s["facts"]["tsc_ghz"] = -2.0
def os150(s): s["figures"]["os_removed_percent"] = 150.0
def tmin14(s): s["figures"]["tmin_ns"] = 1e14
for n, f in [("negfig", negfig), ("1e300", hugefig), ("strfig", strfig), ("negiv", negiv),
             ("backiv", backiv), ("nsum", nsum), ("1e300val", hugeval), ("negtsc", tsc),
             ("os150", os150), ("tmin1e14", tmin14)]:
    spoil("fp_s_" + n, fps, sm(f))
for n, f in [("negfig", negfig), ("1e300", hugefig), ("nsum", nsum), ("os150", os150)]:
    spoil("part_" + n, part, pt(f))
PYEOF
ok $? "hostile summaries written"
mkfifo "$H/fifo.json"
ln -s /dev/zero "$H/dev.json"

# reader NAME CMD...: CMD with @ standing for the case file
READERS="report plot plot-cv plot-overlap compare-a compare-b baseline fleet fleet-strict tui"
run_reader() { # run_reader READER FILE
	case $1 in
	report) timeout 20 "$TL_BIN" report "$2" ;;
	plot) timeout 20 "$TL_BIN" plot "$2" -o "$H/fig.svg" ;;
	plot-cv) timeout 20 "$TL_BIN" plot --kind cv "$2" -o "$H/fig.svg" ;;
	plot-overlap) timeout 20 "$TL_BIN" plot --kind overlap "$2" -o "$H/fig.svg" ;;
	compare-a) timeout 20 "$TL_BIN" compare "$2" "$tmp/ok.json" ;;
	compare-b) timeout 20 "$TL_BIN" compare "$tmp/ok.json" "$2" ;;
	baseline) timeout 20 "$TL_BIN" run -b sim -k empty,add:10 -n 50 -q --seed 3 --baseline "$2" ;;
	fleet) timeout 20 "$TL_BIN" fleet -q "$2" ;;
	fleet-strict) timeout 20 "$TL_BIN" fleet -q --strict "$2" ;;
	tui) timeout 20 "$TL_BIN" tui --replay "$2" ;;
	esac
}
applies() { # applies READER CASE: whether the case is that reader's kind of file
	case $2 in
	run_*) [ "$1" != fleet ] && [ "$1" != fleet-strict ] && [ "${1#plot-}" = "$1" ] ;;
	s_*) [ "$1" = report ] || [ "$1" = plot ] || [ "$1" = tui ] ||
		[ "$1" = plot-cv ] || [ "$1" = plot-overlap ] ;;
	fp_*) [ "$1" = report ] || [ "$1" = fleet ] ;;
	part_*) [ "$1" = fleet ] || [ "$1" = fleet-strict ] ;;
	*) [ "$1" != fleet-strict ] && [ "${1#plot-}" = "$1" ] ;;
	esac
}
CASES="fifo dev sock run_neg run_negoverhead run_dupcell run_nomarker run_v99 run_escmodel
run_longstr s_tmin1e300 s_neg5ns s_strcount s_nneg s_dupcell s_found s_flushbytes s_dupkey s_v99 fp_escname
fp_negsamples fp_v99 fp_s_negfig fp_s_1e300 fp_s_strfig fp_s_negiv fp_s_backiv fp_s_nsum
fp_s_1e300val fp_s_negtsc part_negfig part_1e300 part_nsum run_overhead1e14 run_resolution1e14
run_simsdneg run_simsd1e300 run_raw1000 fp_tsc0 fp_tsc50 fp_cpu2x fp_driftback fp_s_os150 fp_s_tmin1e14
part_os150 s_tsc14"
printf '# %-12s %-16s %-6s %s\n' reader case status "first message line" >"$H/table"
bad=0
for c in $CASES; do
	for r in $READERS; do
		applies "$r" "$c" || continue
		run_reader "$r" "$H/$c.json" </dev/null >"$H/out" 2>"$H/err"; st=$?
		first=$(grep -v "not a terminal" "$H/err" | head -n 1 | cut -c 1-110)
		if [ $st -eq 2 ] && grep -q "$c.json" "$H/err"; then
			verdict="2 ok"
		elif [ $st -eq 0 ] && [ "$c" = run_escmodel ] && ! grep -q "$(printf '\033')" "$H/out" "$H/err"; then
			verdict="0 ok"
		elif [ $st -le 1 ] && [ "$r" = fleet ] && grep -q "skipped .*$c.json: node [0-9]*: summary" "$H/err"; then
			# a partial's bad node is skipped and named; --strict refuses it
			verdict="$st skip"
		else
			verdict="$st BAD"; bad=$((bad + 1))
		fi
		printf '# %-12s %-16s %-6s %s\n' "$r" "$c" "$verdict" "$first" >>"$H/table"
	done
done
cat "$H/table"
[ $bad -eq 0 ]; ok $? "every reader x hostile case: status 2 naming the file, or a clean result ($bad not)"
# Each physical or consistency rule names the key, the value and the rule.
rule_msg() { # rule_msg CASE PATTERN
	timeout 20 "$TL_BIN" report "$H/$1.json" >/dev/null 2>"$H/err"; st=$?
	[ $st -eq 2 ] && grep -q "$2" "$H/err"
	ok $? "report $1: status 2 saying '$2' (status $st)"
}
rule_msg run_overhead1e14 'cells\[0\]\.overhead: is 1e+14 ns, beyond what a timer reads'
rule_msg run_resolution1e14 'cells\[0\]\.resolution_ns: is 1e+14 ns, beyond what a timer reads'
rule_msg run_simsdneg "backend: 'sim:sd=-5' is not a backend .run -b. accepts: sim: bad value '-5' for sd"
rule_msg run_simsd1e300 "backend: 'sim:sd=1e300' is not a backend .run -b. accepts"
rule_msg run_raw1000 'cells\[1\]\.samples_ns: value 0 is [0-9.e+]*, but samples\[0\] = [0-9.e+]* times ns_per_unit = 1 is'
rule_msg fp_tsc0 'tsc_ghz is 0, outside the plausible 0.1 to 10 GHz'
rule_msg fp_tsc50 'tsc_ghz is 50, outside the plausible 0.1 to 10 GHz'
rule_msg s_tsc14 'host.tsc_ghz: is 2.3e+14, outside the plausible 0.1 to 10 GHz'
rule_msg fp_cpu2x 'sched.cpu_seconds / sched.seconds (%) is 200, a thread.s CPU time cannot exceed its wall time'
rule_msg fp_driftback 'drift.lo_ns is [0-9.e+]*, above drift.hi_ns = [0-9.e+]* (low <= high)'
rule_msg fp_s_os150 'os_removed_percent is 150, a share must be 0 to 100 %'
rule_msg fp_s_tmin1e14 "tmin_ns is 1e+14, a timer's step must be below 1e9 ns"
# fleet over a directory skips such a node and names it; --strict refuses.
cp "$H/fp_tsc0.json" "$H/fleet/n8.json"
timeout 20 "$TL_BIN" fleet -q "$H/fleet" >/dev/null 2>"$H/err"; st=$?
[ $st -le 1 ] && grep -q 'skipped .*n8.json: tsc_ghz is 0, outside' "$H/err"
ok $? "fleet DIR with a 0 GHz TSC node: skipped and named (status $st)"
timeout 20 "$TL_BIN" fleet -q --strict "$H/fleet" >/dev/null 2>"$H/err"; st=$?
[ $st -eq 2 ] && grep -q 'n8.json: tsc_ghz is 0, outside' "$H/err"
ok $? "fleet --strict DIR with a 0 GHz TSC node: status 2 naming it (status $st)"
rm -f "$H/fleet/n8.json"
# A flush name with two byte counts once sent the search loader past its
# list of flushes (SIGSEGV): every search reader names the key.
for r in report plot plot-cv plot-overlap tui; do
	run_reader "$r" "$H/s_flushbytes.json" </dev/null >/dev/null 2>"$H/err"; st=$?
	[ $st -eq 2 ] && grep -q 'results\[1\]\.flush_bytes: is 4096, but flush "0" is 0 bytes' "$H/err"
	ok $? "$r: a flush name with two byte counts: status 2 naming results[1].flush_bytes (status $st)"
done

# A fleet directory: a FIFO named *.json is skipped and named; an escape-
# laden node name is skipped (refused with --strict), named escaped; no ESC
# byte either way.
mkfifo "$H/fleet/zz.json"
timeout 20 "$TL_BIN" fleet -q "$H/fleet" >"$H/out" 2>"$H/err"; st=$?
[ $st -ne 124 ] && grep -q "skipped .*zz.json: is a FIFO (named pipe), not a regular file" "$H/err"
ok $? "fleet DIR with a FIFO: skipped and named (status $st)"
cp "$H/fp_escname.json" "$H/fleet/n9.json"
# By default a bad file is skipped and named (a health check must not go
# blind for one file); --strict makes it status 2. Either way the name is escaped.
timeout 20 "$TL_BIN" fleet -q "$H/fleet" >"$H/out" 2>"$H/err"; st=$?
[ $st -ne 2 ] && [ $st -ne 124 ] && grep -q 'skipped .*n9.json: node.name .evil\\x1B' "$H/err" &&
	! grep -q "$(printf '\033')" "$H/out" "$H/err" && ! grep -q "all fine" "$H/out"
ok $? "fleet -q with an escape-laden name: skipped, named escaped, no ESC, no forged line (status $st)"
rm -f "$H/fleet/zz.json"
timeout 20 "$TL_BIN" fleet -q --strict "$H/fleet" >"$H/out" 2>"$H/err"; st=$?
[ $st -eq 2 ] && grep -q 'n9.json: node.name .evil\\x1B\]0;PWNED\\x07\\x1B\[2J\\nn9 | all fine. is not a host name' "$H/err" &&
	! grep -q "$(printf '\033')" "$H/out" "$H/err" && [ "$(wc -l <"$H/err")" -le 2 ]
ok $? "fleet -q --strict with an escape-laden name: status 2, the name escaped, no ESC (status $st)"
cat -v "$H/err" | sed 's/^/# fleet -q | cat -v: /'
rm -f "$H/fleet/n9.json" "$H/fleet/zz.json"

# Strings a fingerprint or a partial carries besides the validated names
# (the CPU model here) are escaped at print: the table, fleet -q and the
# Markdown hold no ESC byte, one line per node, and '|' in Markdown is
# escaped so a row keeps the header's columns.
mkdir "$H/escm"
"$PY" - "$H" <<'PYEOF'
import glob, json, os, sys
d = sys.argv[1]
BAD = "Evil\u001b]0;PWNED\u0007\u001b[2J | CPU\nn9 | all fine"
for f in sorted(glob.glob(d + "/fleet/*.json")):
    doc = json.load(open(f)); doc["host"]["model"] = BAD
    json.dump(doc, open(os.path.join(d, "escm", os.path.basename(f)), "w"))
part = json.load(open(d + "/part.json"))
for n in part["nodes"]:
    n["summary"]["facts"]["model"] = BAD
    n["summary"]["from"]["ns_per_add"] = "from\u001b[31m | x\ny"
json.dump(part, open(d + "/part_escmodel.json", "w"))
PYEOF
ESCB=$(printf '\033')
nodes=$(ls "$H/escm" | wc -l)
for src in "$H/escm" "$H/part_escmodel.json"; do
	what=$(basename "$src")
	timeout 20 "$TL_BIN" fleet "$src" --markdown "$H/esc.md" >"$H/out" 2>"$H/err"; st=$?
	rows=$(grep -c '^n[0-9]  *[0-9]' "$H/out")
	flagged=$(grep -c 'FLAGGED' "$H/out")
	[ $st -le 1 ] && [ "$rows" -eq "$nodes" ] && ! grep -q "$ESCB" "$H/out" "$H/err" "$H/esc.md" &&
		grep -q 'Evil\\x1B\]0;PWNED' "$H/out"
	ok $? "fleet $what with an escape-laden model: status $st, $rows node rows of $nodes, no ESC, shown escaped"
	cols() { sed 's/\\|//g' | awk -F'|' '{ print NF }'; }
	head_cols=$(grep '^| node' "$H/esc.md" | cols)
	bad_rows=$(grep '^| n[0-9]' "$H/esc.md" | cols | grep -cvx "$head_cols")
	grep -q '^- group 1: Evil.*\\| CPU' "$H/esc.md" && [ "$bad_rows" -eq 0 ] &&
		[ "$(grep -c '^| n[0-9]' "$H/esc.md")" -eq "$nodes" ]
	ok $? "its Markdown: '|' escaped, every node row with the header's $head_cols columns ($bad_rows not)"
	timeout 20 "$TL_BIN" fleet -q "$src" >"$H/out" 2>"$H/err"; st=$?
	[ $st -le 1 ] && [ "$(wc -l <"$H/out")" -eq "$flagged" ] && ! grep -q "$ESCB" "$H/out" "$H/err"
	ok $? "fleet -q $what: one line per flagged node ($flagged), no ESC (status $st)"
	cat -v "$H/out" | sed "s/^/# fleet -q $what | cat -v: /"
done

# Memory: under a limit jansson's failed allocations end the read at once.
"$PY" -c "
import json, sys
s = json.dumps(json.load(open(sys.argv[1])))
open(sys.argv[2], 'w').write(s[:-1] + ', \"junk\": [' + ','.join(['1.5'] * 6000000) + ']}')" "$tmp/ok.json" "$H/arr.json"
asan=false
{ ldd "$TL_BIN" 2>/dev/null | grep -q libasan || nm "$TL_BIN" 2>/dev/null | grep -q __asan_init; } &&
	asan=true
limit_ok=false
$asan || { (ulimit -v 150000; exec "$TL_BIN" report "$tmp/ok.json") >/dev/null 2>&1 && limit_ok=true; }
$limit_ok || diag "an ASan build, or a report that does not run under ulimit -v 150000: the memory case is skipped"
$limit_ok && for r in report compare-a; do
	start=$(date +%s)
	( ulimit -v 150000; run_reader $r "$H/arr.json" ) </dev/null >/dev/null 2>"$H/err"; st=$?
	secs=$(($(date +%s) - start))
	[ $st -eq 2 ] && grep -q "out of memory reading $H/arr.json" "$H/err"
	ok $? "$r under ulimit -v 150000 of a 6e6-number file: status 2, out of memory, ${secs} s (status $st)"
done
TICKLAB_READ_LIMIT=1K timeout 20 "$TL_BIN" report "$tmp/ok.json" >/dev/null 2>"$H/err"; st=$?
[ $st -eq 2 ] && grep -q "over the read limit of 1024 bytes" "$H/err"
ok $? "TICKLAB_READ_LIMIT=1K refuses a larger file (status $st: $(head -n 1 "$H/err"))"

# Outputs: two options naming one file are refused before
# anything is measured; a file size limit is said, not a silent SIGXFSZ.
for cmd in "run -b sim -k empty -n 10 -q --json $H/o --csv $H/o --markdown $H/o" \
	"run -b sim -k empty -n 10 -q --json $H/o --csv $H/./o" \
	"search --backend sim -n 200 -q --json $H/o --markdown $H/o" \
	"compare $tmp/ok.json $tmp/ok.json --json $H/o --csv $H/o" \
	"fleet $H/fleet --json $H/o --markdown $H/o" \
	"fleet $H/fleet --json $H/o --markdown $H/../h27/o"; do
	timeout 20 "$TL_BIN" $cmd >/dev/null 2>"$H/err"; st=$?
	[ $st -eq 2 ] && grep -q "both name" "$H/err" && [ ! -e "$H/o" ]
	ok $? "${cmd%% *} with two outputs naming one file: status 2, nothing written (status $st)"
done
# fleet: an output naming a fingerprint it reads would replace that node's
# only record; refused before reading, the file untouched.
sum=$(cksum <"$H/fleet/n1.json")
for opt in --json --markdown --partial; do
	timeout 20 "$TL_BIN" fleet "$H/fleet/n1.json" "$H/fleet/n2.json" $opt "$H/fleet/n1.json" \
		>/dev/null 2>"$H/err"; st=$?
	[ $st -eq 2 ] && grep -q "an input file and $opt both name" "$H/err" &&
		[ "$(cksum <"$H/fleet/n1.json")" = "$sum" ]
	ok $? "fleet $opt naming one of its inputs: status 2, the input untouched (status $st: $(head -n 1 "$H/err"))"
done
( ulimit -f 8; exec timeout 60 "$TL_BIN" run -b sim -k empty,add:10 -n 20000 -q --json "$H/fsz.json" ) \
	>/dev/null 2>"$H/err"; st=$?
[ $st -eq 1 ] && grep -q "cannot write '$H/fsz.json': file size limit reached" "$H/err"
ok $? "ulimit -f 8: status 1 naming the file and the limit, not killed by SIGXFSZ (status $st)"

# Files named by the environment get a saved file's guards: a FIFO (which
# hung `info` in open) or /dev/zero (read forever) is refused and named.
mkfifo "$H/env.fifo"
for v in "TL_LEVELS_FROM=$H/env.fifo" TL_LEVELS_FROM=/dev/zero "HWLOC_XMLFILE=$H/env.fifo" \
	HWLOC_XMLFILE=/dev/zero; do
	env TL_LEVELS=off "$v" timeout 20 "$TL_BIN" info >"$H/out" 2>&1; st=$?
	[ $st -ne 124 ] && grep -q "${v#*=}.*not a regular file" "$H/out"
	ok $? "info with $v: refused and named, no hang (status $st: $(grep -o "${v#*=}.*not a regular file" "$H/out" | head -n 1))"
done

# The TUI on a terminal: the file at the bound replays (no histogram
# layout, no abort) and a hostile one exits 2.
if command -v tmux >/dev/null 2>&1; then
	# A fresh server (socket) per pane: restarting one under a name races.
	S=tlh$$-0
	trap 'for s in 1 2 3 4 5 6 7 8; do tmux -L "tlh$$-$s" kill-server >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT
	npane=0
	tui() { # tui FILE: runs tui --replay FILE in a pane, status in $tmp/pane
		npane=$((npane + 1))
		S=tlh$$-$npane
		tmux -L "$S" -f /dev/null new-session -d -s t -x 120 -y 40 \
			"env TERM=xterm ASAN_OPTIONS=detect_leaks=0 '$TL_BIN' tui --replay '$1' 2>'$tmp/tui.err'; echo TL_EXIT=\$?; exec sleep 60"
	}
	pane_has() { # pane_has REGEX SECONDS
		i=0
		while [ $i -lt $(($2 * 20)) ]; do
			tmux -L "$S" capture-pane -p -t t >"$tmp/pane" 2>/dev/null
			grep -Eq "$1" "$tmp/pane" && return 0
			sleep 0.05; i=$((i + 1))
		done
		return 1
	}
	tui "$tmp/edge.json"
	pane_has "replay" 10; ok $? "tui --replay of the file at the bound opens"
	tmux -L "$S" send-keys -t t q
	pane_has "TL_EXIT=0" 10; ok $? "and quits with status 0 ($(grep TL_EXIT "$tmp/pane"))"
	tui "$tmp/wide.json"
	pane_has "TL_EXIT=" 10
	grep -q "TL_EXIT=2" "$tmp/pane" && grep -q "value 0 is 1e+308" "$tmp/tui.err"
	ok $? "tui --replay on a terminal: +-1e308 exits 2 naming the value ($(grep TL_EXIT "$tmp/pane"))"
	# A theme that is /dev/zero once spun the loader forever.
	# It is an option, so it is checked before the terminal is looked at:
	# status 2 and the same words with a terminal and without one.
	mkdir "$tmp/t" && ln -s /dev/zero "$tmp/t/z.theme"
	npane=$((npane + 1))
	S=tlh$$-$npane
	tmux -L "$S" -f /dev/null new-session -d -s t -x 120 -y 40 \
		"env TERM=xterm ASAN_OPTIONS=detect_leaks=0 '$TL_BIN' tui --themes-dir '$tmp/t' --theme z 2>'$tmp/z.err'; echo TL_EXIT=\$?; exec sleep 60"
	pane_has "TL_EXIT=" 10
	grep -q "TL_EXIT=2" "$tmp/pane" && grep -q "z.theme: not a regular file" "$tmp/z.err"
	ok $? "--theme z (/dev/zero) on a terminal: status 2 with a message ($(grep TL_EXIT "$tmp/pane"): $(head -c 100 "$tmp/z.err"))"
	timeout 20 "$TL_BIN" tui --themes-dir "$tmp/t" --theme z </dev/null >/dev/null 2>"$tmp/z2.err"; st=$?
	[ $st -eq 2 ] && cmp -s "$tmp/z.err" "$tmp/z2.err"
	ok $? "and without a terminal: status 2, the same message (status $st: $(head -c 100 "$tmp/z2.err"))"
	# The remembered setup is a FIFO: read, it is refused (not a regular
	# file); written at q, it is refused too instead of waiting in open for
	# a reader that never comes, so the TUI exits.
	mkdir -p "$tmp/xdg/ticklab" && mkfifo "$tmp/xdg/ticklab/setup.json"
	npane=$((npane + 1))
	S=tlh$$-$npane
	tmux -L "$S" -f /dev/null new-session -d -s t -x 120 -y 40 \
		"env TERM=xterm XDG_CONFIG_HOME='$tmp/xdg' TL_LEVELS=off ASAN_OPTIONS=detect_leaks=0 '$TL_BIN' tui 2>'$tmp/x.err'; echo TL_EXIT=\$?; exec sleep 60"
	pane_has "clock-gettime" 20
	tmux -L "$S" send-keys -t t q
	pane_has "TL_EXIT=" 10
	grep -q "TL_EXIT=0" "$tmp/pane" && grep -q "setup.json': it is a FIFO" "$tmp/x.err" &&
		[ -p "$tmp/xdg/ticklab/setup.json" ]
	ok $? "setup.json a FIFO: q exits, saying the setup is not remembered ($(grep TL_EXIT "$tmp/pane"): $(head -c 100 "$tmp/x.err"))"
	# SIGQUIT (Ctrl-\) puts the terminal back like INT, TERM and HUP.
	npane=$((npane + 1))
	S=tlh$$-$npane
	tmux -L "$S" -f /dev/null new-session -d -s t -x 120 -y 40 \
		"env TERM=xterm ASAN_OPTIONS=detect_leaks=0 '$TL_BIN' tui --replay '$tmp/ok.json' 2>/dev/null; echo TL_EXIT=\$?; stty -a | grep -o -- ' -*icanon' | sed 's/^ /MODE=/'; exec sleep 60"
	pane_has "replay" 10
	pid=$(pgrep -f "tui --replay $tmp/ok.json" | while read -r p; do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = ticklab ] && echo "$p"; done | head -n 1)
	[ -n "$pid" ] && kill -QUIT "$pid"
	pane_has "MODE=" 10
	grep -q "TL_EXIT=131" "$tmp/pane" && grep -q "MODE=icanon" "$tmp/pane"
	ok $? "SIGQUIT ends the TUI with 131 and the terminal canonical again ($(grep -E 'TL_EXIT|MODE' "$tmp/pane" | tr '\n' ' '))"
	# A signal the lab has no use for, whose default ends the process
	# (kill -USR1, an alarm left by a wrapper): it still ends it, as that
	# signal (128 + its number), but with the terminal put back first.
	for pair in USR1:10 ALRM:14; do # Linux's numbers: dash's kill -l takes no name
		sig=${pair%:*}
		npane=$((npane + 1))
		S=tlh$$-$npane
		tmux -L "$S" -f /dev/null new-session -d -s t -x 120 -y 40 \
			"env TERM=xterm ASAN_OPTIONS=detect_leaks=0 '$TL_BIN' tui --replay '$tmp/ok.json' 2>/dev/null; echo TL_EXIT=\$?; stty -a | grep -o -- ' -*icanon' | sed 's/^ /MODE=/'; exec sleep 60"
		pane_has "replay" 10
		pid=$(pgrep -f "tui --replay $tmp/ok.json" | while read -r p; do
			[ "$(cat /proc/$p/comm 2>/dev/null)" = ticklab ] && echo "$p"; done | head -n 1)
		[ -n "$pid" ] && kill -$sig "$pid"
		pane_has "MODE=" 10
		want=$((128 + ${pair#*:}))
		grep -q "TL_EXIT=$want" "$tmp/pane" && grep -q "MODE=icanon" "$tmp/pane" &&
			[ "$(tmux -L "$S" display -p -t t '#{alternate_on}')" = 0 ]
		ok $? "SIG$sig ends the TUI ($want) with the terminal canonical and off the alternate screen ($(grep -E 'TL_EXIT|MODE' "$tmp/pane" | tr '\n' ' '))"
	done
else
	diag "no tmux: the terminal replays are skipped"
fi
done_testing
