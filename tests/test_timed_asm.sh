#!/bin/sh
# The barrier-tsc timed functions, as compiled: nothing but the ADD chain
# between the first and the last rdtscp (no call), each read fenced as
# lfence; rdtscp; lfence, and the 256-ADD unrolled block present.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
command -v objdump >/dev/null 2>&1 || skip_all "objdump not installed"
case "$(uname -m)" in x86_64) ;; *) skip_all "barrier-tsc is x86-64 only" ;; esac
top=${TL_TOP_BUILDDIR:-.}
obj=$top/backends/barrier.o
[ -f "$obj" ] || obj=$top/libticklab.a
[ -f "$obj" ] || { echo "Bail out! no $top/backends/barrier.o or libticklab.a"; exit 1; }

tmp=${TMPDIR:-/tmp}/tl_timed_asm.$$
trap 'rm -f "$tmp"' EXIT
objdump -d --no-show-raw-insn "$obj" >"$tmp" 2>/dev/null

# body FUNC: the instructions of FUNC, one mnemonic + operands a line.
body() {
	awk -v f="<$1>:" '$2 == f { on = 1; next } on && /^$/ { exit } on { sub(/^[ \t]*[0-9a-f]+:[ \t]*/, ""); print }' "$tmp"
}
# between FUNC: the lines strictly between the first and last rdtscp.
between() {
	body "$1" | awk '/^rdtscp/ { n++; if (n > 1) { buf = buf acc } acc = ""; next } n >= 1 { acc = acc $0 "\n" } END { printf "%s", buf }'
}

for f in barrier_tsc_time_empty barrier_tsc_time_adds; do
	b=$(body $f)
	[ -n "$b" ]; ok $? "$f is in $(basename "$obj")"
	n=$(printf '%s\n' "$b" | grep -c '^rdtscp')
	[ "$n" -eq 2 ]; ok $? "$f has two rdtscp (found $n)"
	fenced=$(printf '%s\n' "$b" | awk '/^lfence/ { if (p == "rdtscp") c++; } { p = $1 } END { print c + 0 }')
	pre=$(printf '%s\n' "$b" | awk '/^rdtscp/ { if (p == "lfence") c++; } { p = $1 } END { print c + 0 }')
	[ "$fenced" -eq 2 ] && [ "$pre" -eq 2 ]; ok $? "$f: both reads are lfence; rdtscp; lfence"
	mid=$(between $f)
	printf '%s\n' "$mid" | grep -Eq '^(call|jmp[[:space:]]+[0-9a-f]+ <[^>]*@plt>)'
	[ $? -ne 0 ]; ok $? "$f: no call between the first and last rdtscp"
	printf '%s\n' "$mid" | grep -Eq '^(push|pop|syscall)'
	[ $? -ne 0 ]; ok $? "$f: no push/pop/syscall between the reads"
done

mid=$(between barrier_tsc_time_empty)
n=$(printf '%s\n' "$mid" | grep -cv '^\(lfence\|mov \|$\)')
[ "$n" -eq 0 ]; ok $? "empty: only lfence and register moves between the reads ($n others)"

mid=$(between barrier_tsc_time_adds)
adds=$(printf '%s\n' "$mid" | grep -Ec '^add[[:space:]]+%r[0-9a-z]+,%r[0-9a-z]+$')
[ "$adds" -eq 256 ]; ok $? "adds: one unrolled block of 256 register ADDs (found $adds)"
printf '%s\n' "$mid" | grep -Eq '^add[[:space:]]+\$'
[ $? -ne 0 ]; ok $? "adds: no immediate ADDs (renamers can fold those)"
printf '%s\n' "$mid" | grep -Eq '^jmp[[:space:]]+\*%'
ok $? "adds: remainder entered by a computed jump into the block"
diag "between the reads of barrier_tsc_time_adds (ADDs elided):"
printf '%s\n' "$mid" | grep -Ev '^(add[[:space:]]+%r|nop|data16|cs nop|xchg)' | sed 's/^/#   /'
done_testing
