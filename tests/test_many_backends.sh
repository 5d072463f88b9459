#!/bin/sh
# A run file of 4000 distinct backends is read, reported and compared whole:
# a run made here (sim: mul:4 and two load sizes, so the chains, the ladder
# and the lesson are printed) has its cells copied under 4000 backend ids.
# With --os-filter none the numbers do not depend on a cell's seed, so every
# copy's rows, chains and ladder must read as the one run's do (the copies
# hold the same samples), each backend once; compare of the file with itself
# has the one run's compare rows for every backend, and each backend's units
# once. The
# readers group the cells by timer and flush instead of scanning them all
# per backend (bench/bench_many_backends.sh times them); nothing here
# asserts a speed.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to write the file"
N=4000

"$TL_BIN" run -b sim -k mul:4,load:4KiB,load:1MiB -n 20 -q --seed 5 --json "$tmp/one.json" \
	>/dev/null 2>"$tmp/err"
ok $? "a run made here ($(tail -c 200 "$tmp/err"))"
"$PY" - "$tmp/one.json" "$N" "$tmp/many.json" <<'PY'
import json, sys
one, n = json.load(open(sys.argv[1])), int(sys.argv[2])
doc = dict(one)
for key in ("cells", "baselines"):
    doc[key] = [dict(c, backend="sim:seed=%d" % (i + 1)) for i in range(n) for c in one[key]]
json.dump(doc, open(sys.argv[3], "w"))
PY
"$TL_BIN" report "$tmp/one.json" --os-filter none >"$tmp/one.txt" 2>"$tmp/err"
ok $? "report of the one run ($(tail -c 200 "$tmp/err"))"
timeout 600 "$TL_BIN" report "$tmp/many.json" --os-filter none >"$tmp/many.txt" 2>"$tmp/err"
ok $? "report of $N backends: status 0 ($(tail -c 200 "$tmp/err"))"
"$TL_BIN" compare "$tmp/one.json" "$tmp/one.json" >"$tmp/cmp1.txt" 2>"$tmp/err"
ok $? "compare of the one run with itself ($(tail -c 200 "$tmp/err"))"
timeout 600 "$TL_BIN" compare "$tmp/many.json" "$tmp/many.json" >"$tmp/cmp.txt" 2>"$tmp/err"
st=$?
[ $st -eq 0 ]; ok $? "compare of $N backends with itself: status 0 (status $st: $(tail -c 200 "$tmp/err"))"

"$PY" - "$tmp/one.txt" "$tmp/many.txt" "$tmp/cmp1.txt" "$tmp/cmp.txt" "$N" >"$tmp/checks" <<'PY'
import re, sys
one, many, cmp1, cmp_ = (open(p).read().split("\n") for p in sys.argv[1:5])
n = int(sys.argv[5])
ids = ["sim:seed=%d" % (i + 1) for i in range(n)]


def rows(lines, star=r" \*"):
    """backend id -> its table rows (the columns after the id)."""
    out = {}
    for line in lines:
        m = re.match(r"^(sim(?::seed=\d+)?)%s\s+(.*)$" % star, line)
        if m:
            out.setdefault(m.group(1), []).append(re.sub(r"\s+", " ", m.group(2)))
    return out


def blocks(lines, head):
    """backend id -> the lines of its block starting with head."""
    out, cur = {}, None
    for line in lines:
        m = re.match(r"^%s, (sim(?::seed=\d+)?), flush 0: " % head, line)
        if m:
            cur = out.setdefault(m.group(1), [])
        elif not line.startswith("  "):
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def ok(cond, desc):
    print(("ok - " if cond else "not ok - ") + desc)


r1, rn = rows(one)["sim"], rows(many)
ok(sorted(rn) == sorted(ids), "the table has every backend (%d of %d)" % (len(rn), n))
bad = [i for i in ids if rn.get(i) != r1]
ok(not bad, "every backend's rows read as the one run's (%d differ, first %s)"
   % (len(bad), bad[:1]))
for head in ("chains", "memory ladder"):
    b1, bn = blocks(one, head).get("sim"), blocks(many, head)
    bad = [i for i in ids if bn.get(i) != b1]
    ok(b1 and not bad, "a %s block per backend as the one run's (%d of %d; %d differ)"
       % (head, len(bn), n, len(bad)))
c1, cn = rows(cmp1, "")["sim"], rows(cmp_, "")
bad = [i for i in ids if cn.get(i) != c1]
ok(sorted(cn) == sorted(ids) and not bad,
   "compare: every backend's rows read as the one run's (%d backends, %d differ)"
   % (len(cn), len(bad)))
units = [re.match(r"^  (sim:seed=\d+): compared in ", l) for l in cmp_]
units = [m.group(1) for m in units if m]
ok(units == ids, "compare: each backend's units once, in order (%d lines)" % len(units))
PY
tap_from "$tmp/checks"
done_testing
