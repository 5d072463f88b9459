#!/bin/sh
# Inputs that would cost quadratic time or memory without limits: 100
# ranges of 10000 kernels ran an O(K^2) duplicate check for minutes, 5000
# copies of one range took 4 GB. Now a list holds at most 100000 kernels, a
# run at most 20000 cells, and duplicates are found by hashing. `timeout`
# only guards against a hang; nothing here asserts a speed.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to build the lists"

ranges=$("$PY" -c "print(','.join('add:%d:%d:1' % (i * 10000, i * 10000 + 9999) for i in range(100)))")
timeout 120 "$TL_BIN" run -b sim -k "$ranges" -n 10 -q >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "more than 100000 kernels" "$tmp/err"
ok $? "100 ranges of 10000 kernels: status 2 saying the list is too long (status $st)"

same=$("$PY" -c "print(','.join(['add:0:9999:1'] * 5000))")
timeout 120 "$TL_BIN" run -b sim -k "$same" -n 10 -q >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "more than 100000 kernels" "$tmp/err"
ok $? "5000 copies of one range: status 2, refused before 50 M kernels exist (status $st)"

timeout 120 "$TL_BIN" run -b sim,sim:seed=2,sim:seed=3 -k add:0:9999:1 -n 10 -q >/dev/null \
	2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "30000 cells, more than a run takes (20000)" "$tmp/err"
ok $? "3 backends x 10000 kernels: status 2 naming the cell count (status $st: $(cat "$tmp/err"))"

timeout 120 "$TL_BIN" run -b sim -k add:0:9999:1,mul:3,add:9999 -n 10 -q >/dev/null \
	2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "kernel 'add:9999' is given twice" "$tmp/err"
ok $? "a duplicate after 10000 kernels is named (status $st: $(cat "$tmp/err"))"

timeout 300 "$TL_BIN" run -b sim -k add:0:9999:1 -n 2 -q --json "$tmp/r.json" >/dev/null 2>"$tmp/err"
st=$?
n=$("$PY" -c "import json,sys; print(len(json.load(open(sys.argv[1]))['cells']))" "$tmp/r.json" 2>/dev/null)
[ $st -eq 0 ] && [ "$n" = 10000 ]
ok $? "add:0:9999:1 runs: 10000 cells (status $st, $n cells)"
done_testing
