#!/bin/sh
# Strings from files, escaped for where they go: host
# models holding HTML, a '|', a newline and a leading '=' through fleet
# --markdown and --csv, and file names with Markdown's special characters
# through compare --markdown. Checked by the formats' own rules: every
# Markdown table row has its header's columns and no raw tag or link;
# Python's csv reader gives every row its header's fields and no cell a
# spreadsheet would run as a formula.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read the outputs"
command -v xz >/dev/null 2>&1 || skip_all "xz is needed for the fleet fixtures"

mkdir "$tmp/fl"
for i in 1 2 3 4; do
	xz -dc "${TL_TOP_SRCDIR:-.}/tests/fixtures/fleet/n$i.json.xz" >"$tmp/n$i.json" || exit 1
done
"$PY" - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
models = {"n1": "<img src=x onerror=alert(1)>", "n2": "Xeon | fake column",
          "n3": "line one\nline two", "n4": '=HYPERLINK("http://evil/")'}
for n, m in models.items():
    doc = json.load(open("%s/%s.json" % (d, n)))
    doc["host"]["model"] = m
    json.dump(doc, open("%s/fl/%s.json" % (d, n), "w"))
PY
ok $? "four fingerprints with hostile host models"

"$TL_BIN" fleet "$tmp/fl" --markdown "$tmp/f.md" --csv "$tmp/f.csv" >/dev/null 2>"$tmp/err"; st=$?
[ $st -le 1 ] && [ -s "$tmp/f.md" ] && [ -s "$tmp/f.csv" ]
ok $? "fleet --markdown --csv writes both (status $st: $(head -c 120 "$tmp/err"))"

"$PY" - "$tmp/f.md" >"$tmp/py" <<'PY'
import re, sys
md = open(sys.argv[1]).read()
lines = md.split("\n")
def cells(line):  # GFM: a backslash escapes the next character, a bare | splits
    return len(re.findall(r"(?<!\\)(?:\\\\)*\|", line))
def ok(c, what): print(("ok - " if c else "not ok - ") + what)
ok("<" not in md and ">" not in md, "no raw < or > anywhere (a tag, an autolink)")
ok("&lt;img src=x onerror=alert(1)&gt;" in md, "the HTML model reads as text: &lt;img ...&gt;")
ok(not any(l.startswith("line two") for l in lines) and "line one\\\\nline two" in md,
   "the newline is shown escaped, no line forged")
table = [l for l in lines if l.startswith("|")]
ok(len(table) == 6 and len({cells(l) for l in table}) == 1,
   "every table row has the header's columns (%s)" % sorted({cells(l) for l in table}))
groups = [l for l in lines if l.startswith("- group")]
ok(len(groups) == 4 and all(cells(l) == 0 for l in groups), "the group lines hold no bare |")
ok(not re.search(r"(?<!\\)\]\(", md), "no link: no bare ](")
PY
tap_from "$tmp/py"

"$PY" - "$tmp/f.csv" >"$tmp/py" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
head, body = rows[0], rows[1:]
def ok(c, what): print(("ok - " if c else "not ok - ") + what)
ok(len(body) == 4 and all(len(r) == len(head) for r in body),
   "4 rows, each with the header's %d fields" % len(head))
m = {r[0]: r[head.index("model")] for r in body}
ok(m.get("n1") == "<img src=x onerror=alert(1)>", "HTML is CSV's plain text, kept")
ok(m.get("n2") == "Xeon | fake column", "a | is kept")
ok(m.get("n3") == "line one\\nline two", "the newline shown escaped, the record one line")
ok(m.get("n4") == "'=HYPERLINK(\"http://evil/\")", "a leading = made text by a leading '")
text = [r[i] for r in body for i, h in enumerate(head) if h in ("node", "model", "reasons")]
ok(not any(t[:1] in ("=", "+", "-", "@") for t in text), "no text cell a spreadsheet runs")
PY
tap_from "$tmp/py"

# File names quoted by compare --markdown: no longer in a code span (which
# a backtick would close and where entities do not work), escaped instead.
"$TL_BIN" run -b sim -k empty -n 200 -q --seed 1 --json "$tmp/base.json" >/dev/null 2>&1
name='x|`<b>[y](javascript:z).json'
cp "$tmp/base.json" "$tmp/$name"
"$TL_BIN" compare "$tmp/base.json" "$tmp/$name" --markdown "$tmp/c.md" >/dev/null 2>&1; st=$?
[ $st -le 1 ] && ! grep -q '<b>' "$tmp/c.md" &&
	grep -qF 'x\|\`&lt;b&gt;[y\](javascript:z).json against' "$tmp/c.md"
ok $? "compare --markdown: a hostile file name escaped (status $st: $(head -c 100 "$tmp/c.md"))"
done_testing
