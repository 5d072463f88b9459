#!/bin/sh
# run.sh CORPUS SECONDS NAME...: runs tests/fuzz/fuzz_NAME for SECONDS on a
# scratch copy of CORPUS/NAME (the seeds in the tree stay as they are),
# prints "fuzz NAME: N executions, F findings" and fails on any finding.
corpus=$1 secs=$2
shift 2
fail=0
for name in "$@"; do
	work=$(mktemp -d) || exit 1
	cp "$corpus/$name"/* "$work/" 2>/dev/null
	log=tests/fuzz/fuzz_$name.log
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		./tests/fuzz/fuzz_"$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-max_len=65536 -artifact_prefix="tests/fuzz/crash-$name-" "$work" >"$log" 2>&1
	st=$?
	execs=$(grep -o 'Done [0-9]* runs' "$log" | grep -o '[0-9]*')
	findings=$(ls tests/fuzz/crash-"$name"-* tests/fuzz/leak-"$name"-* tests/fuzz/timeout-"$name"-* 2>/dev/null | wc -l)
	echo "fuzz $name: ${execs:-?} executions, $findings findings (status $st)"
	if [ $st -ne 0 ] || [ "$findings" -ne 0 ]; then
		fail=1
		tail -n 30 "$log"
	fi
	rm -rf "$work"
done
exit $fail
