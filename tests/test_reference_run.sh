#!/bin/sh
# Cross-checks `ticklab run --json` against an independent numpy/scikit-learn
# re-analysis (tests/reference/check_run.py) on the sim backend and barrier-tsc.
. "$TL_TOP_SRCDIR/tests/tap.sh"
py=$PY
[ -n "$py" ] && $py -c 'import numpy, sklearn' 2>/dev/null || skip_all "needs a python3 with numpy and scikit-learn (python3-sklearn)"
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
"$TL_BIN" run --backend sim,barrier-tsc --flush 0 --kernel empty,add:500,add:3000 -n 2000 \
	--seed 7 --quiet --json "$out/run.json" >/dev/null 2>&1
ok $? "ticklab run wrote $out/run.json"
# check_run.py prints its own TAP; renumber it into this stream.
$py "$TL_TOP_SRCDIR/tests/reference/check_run.py" "$out/run.json" "$TL_BIN" >"$out/tap" 2>&1
rc=$?
grep -E '^(not )?ok ' "$out/tap" | sed -E 's/^(not )?ok [0-9]+ - //' >"$out/names"
grep -E '^(not )?ok ' "$out/tap" | while IFS= read -r line; do
	case $line in "not ok"*) echo 1 ;; *) echo 0 ;; esac
done >"$out/st"
paste -d'|' "$out/st" "$out/names" >"$out/both"
while IFS='|' read -r st name; do ok "$st" "reference: $name"; done <"$out/both"
[ "$rc" -eq 0 ]; ok $? "check_run.py exit status ($rc)"
done_testing
