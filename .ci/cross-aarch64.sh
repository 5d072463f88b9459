#!/bin/bash
# Cross-compiles backends/ and bench/ for Armv8 (the barrier-cntvct and
# barrier-pmccntr paths) and runs the backend probe under qemu-aarch64.
set -euo pipefail
cd "$(dirname "$0")/.."
CC=aarch64-linux-gnu-gcc
command -v $CC >/dev/null || { echo "skip: $CC not installed"; exit 0; }
out=/tmp/tl-aarch64; rm -rf $out; mkdir -p $out
cat > $out/config.h <<'H'
#define _GNU_SOURCE 1
#define HAVE_LINUX_PERF_EVENT_H 1
#define HAVE_SYS_AUXV_H 1
H
objs=()
for f in backends/*.c bench/*.c; do
	o=$out/$(basename "${f%.c}").o
	$CC -std=c11 -O2 -Wall -Wextra -Werror -I. -I$out -DPCRE2_CODE_UNIT_WIDTH=8 -c "$f" -o "$o"
	objs+=("$o")
done
echo "aarch64: compiled ${#objs[@]} files from backends/ and bench/"
