#!/bin/sh
# One truth in the README, the man page, each subcommand's --help and what
# the program does: every long flag the README or ticklab(1) gives a command
# is in that command's --help, every flag a --help offers is in the man
# page, the file names a real `run --csv` writes are the ones the documents
# name, interrupted commands are said to exit 128 + the signal (never a bare
# 130), the memory ladder's range is one range everywhere, and the README
# lists each command once. The documents are read as text; the program is
# asked, never assumed.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
SRC=${TL_TOP_SRCDIR:-.}
BIN=${TL_BIN:-./ticklab}
[ -n "$PY" ] || skip_all "python3 reads the documents"
W=$(mktemp -d "${TMPDIR:-/tmp}/tl_doc.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM

CMDS="info run search report compare plot detect fingerprint fleet tui"
for c in $CMDS; do "$BIN" "$c" --help >"$W/help-$c.txt" 2>&1; done
"$BIN" --help >"$W/help-top.txt" 2>&1

# ---- the file names a real run writes beside --csv
( cd "$W" && "$BIN" run -b sim -n 30 -k empty --csv c.csv --json r.json >/dev/null 2>&1 )
ok $? "a small sim run with --csv c.csv runs"
ls "$W" | grep -v '^help-' >"$W/written.tmp"; mv "$W/written.tmp" "$W/written.txt"
grep -qx 'c.summary.csv' "$W/written.txt" && grep -qx 'c.csv' "$W/written.txt"
ok $? "--csv c.csv writes c.csv and c.summary.csv ($(tr '\n' ' ' <"$W/written.txt"))"

"$PY" - "$SRC" "$W" "$CMDS" "$tap_n" <<'PY'
import os, re, sys
src, w, cmds = sys.argv[1], sys.argv[2], sys.argv[3].split()
failed = 0
readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()
man = open(os.path.join(src, "ticklab.1"), encoding="utf-8").read()
helps = {c: open(os.path.join(w, "help-%s.txt" % c), encoding="utf-8").read() for c in cmds}
top = open(os.path.join(w, "help-top.txt"), encoding="utf-8").read()
written = open(os.path.join(w, "written.txt")).read().split()
n = int(sys.argv[4])
def check(cond, what, found):
    global n
    n += 1
    global failed
    failed += not cond
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    for f in ([] if cond else found[:15]):
        print("#   %s" % f)

def flags(text):
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]+", text))
man_text = man.replace("\\-", "-").replace("\\fB", "").replace("\\fP", "").replace("\\fI", "").replace("\\fR", "")

# 1. a flag the README or the man page gives a command is in its --help
bad = []
for name, text in (("README", readme), ("ticklab.1", man_text)):
    for m in re.finditer(r"ticklab (%s)\b([^`\n]*)" % "|".join(cmds), text):
        for f in flags(m.group(2)):
            if f not in helps[m.group(1)] and f not in ("--help", "--version"):
                bad.append("%s: `ticklab %s ... %s`, not in `ticklab %s --help`" % (name, m.group(1), f, m.group(1)))
check(not bad, "every flag the README and the man page give a command is in its --help", sorted(set(bad)))

# the man page's section of each command names only that command's flags
bad = []
secs = re.split(r'^\.SS "ticklab (\w+)', man_text, flags=re.M)
for i in range(1, len(secs) - 1, 2):
    c, body = secs[i], secs[i + 1].split("\n.SH")[0]
    if c not in helps:
        continue
    for f in flags(body):
        line = next(l for l in body.split("\n") if f in l)
        if f not in helps[c] and f not in ("--help", "--version") and \
                not re.search(r"(ticklab \w+|srun|sbatch|salloc)[^\n]*" + re.escape(f), line):
            bad.append("ticklab.1 section %s: %s is not in `ticklab %s --help`" % (c, f, c))
check(not bad, "each man page section's flags are its command's", sorted(set(bad)))

# 2. every flag a --help offers is documented in the man page
bad = []
for c, h in helps.items():
    for f in flags(h):
        if f not in man_text:
            bad.append("`ticklab %s --help` offers %s; ticklab.1 never names it" % (c, f))
check(not bad, "every flag of every --help is in the man page", sorted(bad))

# 3. file names: what --csv writes is what the documents say
docs = {"README": readme, "ticklab.1": man_text}
docs.update({"%s --help" % c: h for c, h in helps.items()})
bad = []
if "c.summary.csv" in written:
    for name, text in docs.items():
        for m in re.finditer(r"\b(FILE|[\w-]+\.csv)\.summary\.csv", text):
            bad.append("%s: %s (--csv x.csv writes x.summary.csv)" % (name, m.group(0)))
check(not bad, "the summary CSV is named as the program names it", bad)

# 4. exit statuses: 128 + the signal, never a bare 130
bad = []
for name, text in docs.items():
    for m in re.finditer(r"[^\n]*\b130\b[^\n]*", text):
        line = m.group(0)
        ctx = text[max(0, m.start() - 200):m.end()]
        if "128" not in ctx and "INT" not in line and "143" not in line:
            bad.append("%s: %r" % (name, line.strip()))
check(not bad, "an interruption's exit status is 128 + the signal everywhere", bad)

# 5. one memory-ladder range
ranges = {}
tui_ladder = open(os.path.join(src, "tui", "ladder.c"), encoding="utf-8").read()
pre = re.search(r'preset_ranges\[\] = \{"load:([^"]+)"', tui_ladder)
if pre:
    ranges.setdefault(pre.group(1), []).append("the TUI's preset (tui/ladder.c)")
for name, text in docs.items():
    for m in re.finditer(r"4KiB\.\.(\d+xL3)", text):
        ranges.setdefault("4KiB.." + m.group(1), []).append(name)
check(len(ranges) == 1, "one memory-ladder range: %s" % ", ".join(sorted(ranges)),
      ["%s in %s" % (r, ", ".join(sorted(set(w)))) for r, w in ranges.items()])

# 6. the README lists each command line once
seen, bad = {}, []
for m in re.finditer(r"^[-*] (`ticklab [^`]*`)", readme, flags=re.M):
    seen[m.group(1)] = seen.get(m.group(1), 0) + 1
bad = ["README lists %s %d times" % (k, v) for k, v in seen.items() if v > 1]
check(not bad, "the README's list names each command line once", bad)

# 7. the top-level --help names every command
bad = [c for c in cmds if not re.search(r"^  %s\b" % c, top, flags=re.M)]
check(not bad, "ticklab --help names every command", bad)

# 8. the man page's GLOSSARY is the TUI's glossary table, word for word,
# entry for entry and in its order
gdef = open(os.path.join(src, "tui", "glossary.def"), encoding="utf-8").read()
table = re.findall(r'^TUI_GLOSS\("((?:[^"\\]|\\.)*)",[^"]*"((?:[^"\\]|\\.)*)"\)\s*$', gdef, flags=re.M)
check(len(table) >= 20, "tui/glossary.def reads as a table (%d entries)" % len(table), [])
sec = re.search(r"^\.SH GLOSSARY\n(.*?)^\.SH ", man, flags=re.M | re.S)
entries = []
for block in (sec.group(1).split("\n.TP\n")[1:] if sec else []):
    head, _, body = block.partition("\n")
    term = re.sub(r'^\.B "?(.*?)"?$', r"\1", head)
    text = " ".join(body.split())
    entries.append(tuple(t.replace("\\-", "-").replace("\\e", "\\") for t in (term, text)))
check(sec is not None, "ticklab.1 has a GLOSSARY section", [])
bad = ["%s: table %r, man %r" % (a[0], a[1], b[1] if b else None)
       for a, b in zip(table, entries + [None] * len(table)) if a != b]
bad += ["man has %r, not in the table" % (e[0],) for e in entries[len(table):]]
check(not bad, "every glossary entry of the TUI is the man page's, in the same words and order", bad)
print("1..%d" % n)
sys.exit(1 if failed else 0)
PY
st=$?
[ "$tap_failed" -eq 0 ] || exit 1
exit $st
