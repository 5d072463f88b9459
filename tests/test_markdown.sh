#!/bin/sh
# Summaries people paste: --markdown for run, report,
# compare and search is a well-formed Markdown table carrying the numbers
# the text table prints; --csv FILE gets a per-cell summary CSV beside the
# raw samples whose numbers are the JSON summary's; bad paths exit 2.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON and CSV"

sim='sim:sd=2,quantum=0.5'
"$TL_BIN" run --backend "$sim" --kernel 'empty,add:1000,jitter:200,40,0.3' -n 600 --seed 4 \
	--json "$tmp/a.json" --csv "$tmp/raw.csv" --markdown "$tmp/a.md" >"$tmp/a.txt" 2>&1
ok $? "run with --json, --csv and --markdown"
[ -s "$tmp/raw.summary.csv" ]; ok $? "raw.csv gets raw.summary.csv beside it"
"$TL_BIN" run --backend "$sim" --kernel 'empty,add:1000,jitter:200,40,0.3' -n 600 --seed 5 \
	--json "$tmp/b.json" >/dev/null 2>&1
"$TL_BIN" compare "$tmp/a.json" "$tmp/b.json" --markdown "$tmp/c.md" --csv "$tmp/c.csv" \
	--json "$tmp/c.json" >"$tmp/c.txt" 2>&1
[ $? -le 1 ]; ok $? "compare with --markdown and --csv"
"$TL_BIN" search --backend "$sim" --repeats 1 -n 1000 --json "$tmp/s.json" \
	--markdown "$tmp/s.md" --quiet >/dev/null 2>&1
ok $? "search with --markdown"
"$TL_BIN" report "$tmp/s.json" --markdown "$tmp/s2.md" >/dev/null 2>&1 && cmp -s "$tmp/s.md" "$tmp/s2.md"
ok $? "report of the search file writes the same Markdown"
"$TL_BIN" report "$tmp/a.json" --markdown "$tmp/r.md" >/dev/null 2>&1 && cmp -s "$tmp/a.md" "$tmp/r.md"
ok $? "report of the run file writes the same Markdown as the run"

"$PY" - "$tmp" >"$tmp/tap" <<'EOF2'
import csv, json, re, sys
d = sys.argv[1]
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)

def tables(path):
    """Markdown tables: lists of rows (cells split on unescaped |)."""
    out, cur = [], None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("|"):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if cur is None:
                cur = []
                out.append(cur)
            cur.append(cells)
        else:
            cur = None
    return out

def well_formed(t):
    return (len(t) >= 3 and all(len(r) == len(t[0]) for r in t)
            and all(re.fullmatch(r":?---:?", c) for c in t[1]))

run = json.load(open(d + "/a.json"))
cells = run["cells"]
md = tables(d + "/a.md")
ok(len(md) == 2 and all(well_formed(t) for t in md), "run Markdown: summary and jitter tables, "
   "every row as wide as its header, a rule under it")
head = md[0][0]
rows = md[0][2:]
ok(len(rows) == len(cells), "one summary row per visible cell (%d)" % len(rows))
txt = [l.split() for l in open(d + "/a.txt") if l.startswith("sim:")]
p50 = head.index("p50")
ok(all(r[p50] == "%.1f" % c["summary"]["p50"] for r, c in zip(rows, cells)),
   "p50 column = the JSON summary's p50 at the table's precision")
jit = md[1][2]
jc = [c for c in cells if c["kind"] == "jitter"][0]["jitter"]
ok(jit[-1] == "**detected**" and jit[6] == "[%.2f, %.2f]" % (jc["ci_lo_ns"], jc["ci_hi_ns"]),
   "jitter row: the interval of the JSON and a bold verdict")

summ = list(csv.DictReader(open(d + "/raw.summary.csv")))
ok(len(summ) == len(cells) and [s["kernel"] for s in summ] == [c["kernel"] for c in cells],
   "summary CSV: one row per visible cell, in order, kernels quoted where they hold commas")
ok(all(float(s["p50_ns"]) == c["summary"]["p50"] and float(s["sd_ns"]) == c["summary"]["sd"]
       and int(s["n"]) == c["summary"]["n"] for s, c in zip(summ, cells)),
   "summary CSV numbers equal the JSON summary exactly (full precision)")
js = [s for s in summ if s["kernel"].startswith("jitter")][0]
ok(float(js["jitter_shift_ns"]) == jc["shift_ns"] and js["jitter_detected"] == "true"
   and all(s["jitter_shift_ns"] == "" for s in summ if not s["kernel"].startswith("jitter")),
   "jitter columns filled for the jitter cell only")

cmd = json.load(open(d + "/c.json"))["cells"]
cm = tables(d + "/c.md")
ok(len(cm) == 1 and well_formed(cm[0]) and len(cm[0]) - 2 == len(cmd), "compare Markdown: one row per compared cell")
ok(all(r[-1].strip("*").startswith(c["verdict"]) for r, c in zip(cm[0][2:], cmd)),
   "compare Markdown verdicts = the JSON's")
cc = list(csv.DictReader(open(d + "/c.csv")))
ok(len(cc) == len(cmd) and all(float(a["shift_ns"]) == b["shift_ns"] and a["verdict"] == b["verdict"]
                               for a, b in zip(cc, cmd)), "compare CSV = the JSON's rows")

s = json.load(open(d + "/s.json"))["results"]
sm = tables(d + "/s.md")
ok(len(sm) == 1 and well_formed(sm[0]) and len(sm[0]) - 2 == len(s), "search Markdown: one row per backend x flush")
r = sm[0][2]
ok(r[3] == "%.0f" % s[0]["tmin"]["adds"] and r[6] == "%.0f" % s[0]["tdiff"]["adds"],
   "search Markdown t_min and t_diff = the JSON's")
EOF2
tap_from "$tmp/tap"

expect_status 2 "run --markdown into a missing directory" \
	"$TL_BIN" run --backend sim --kernel add:5 -n 10 --markdown "$tmp/no/such.md"
expect_status 2 "run: --json - and --markdown - both on stdout" \
	"$TL_BIN" run --backend sim --kernel add:5 -n 10 --json - --markdown -
expect_status 2 "compare: --csv - and --markdown - both on stdout" \
	"$TL_BIN" compare "$tmp/a.json" "$tmp/b.json" --csv - --markdown -
"$TL_BIN" run --backend sim --kernel add:5 -n 10 --markdown - 2>/dev/null | grep -q '^| sim'
ok $? "run --markdown - writes the table to stdout"

done_testing
