#!/bin/sh
# The barrier timed functions, as compiled: nothing but the ADD chain
# between the first and the last read (no call), each read fenced as
# lfence; rdtscp; lfence (barrier-tsc) or lfence; rdtsc; lfence
# (barrier-rdtsc), and the 256-ADD unrolled block present.
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
# between FUNC READ: the lines strictly between the first and last READ
# (the mnemonic alone: rdtsc is not rdtscp).
between() {
	body "$1" | awk -v r="$2" '$1 == r { n++; if (n > 1) { buf = buf acc } acc = ""; next } n >= 1 { acc = acc $0 "\n" } END { printf "%s", buf }'
}

# check PREFIX READ: the two timed functions of one barrier backend.
check() {
	pfx=$1 rd=$2
	for f in ${pfx}_time_empty ${pfx}_time_adds; do
		b=$(body $f)
		[ -n "$b" ]; ok $? "$f is in $(basename "$obj")"
		n=$(printf '%s\n' "$b" | awk -v r="$rd" '$1 == r { c++ } END { print c + 0 }')
		[ "$n" -eq 2 ]; ok $? "$f has two $rd (found $n)"
		fenced=$(printf '%s\n' "$b" | awk -v r="$rd" '$1 == "lfence" { if (p == r) c++; } { p = $1 } END { print c + 0 }')
		pre=$(printf '%s\n' "$b" | awk -v r="$rd" '$1 == r { if (p == "lfence") c++; } { p = $1 } END { print c + 0 }')
		[ "$fenced" -eq 2 ] && [ "$pre" -eq 2 ]; ok $? "$f: both reads are lfence; $rd; lfence"
		mid=$(between $f $rd)
		printf '%s\n' "$mid" | grep -Eq '^(call|jmp[[:space:]]+[0-9a-f]+ <[^>]*@plt>)'
		[ $? -ne 0 ]; ok $? "$f: no call between the first and last $rd"
		printf '%s\n' "$mid" | grep -Eq '^(push|pop|syscall)'
		[ $? -ne 0 ]; ok $? "$f: no push/pop/syscall between the reads"
	done

	mid=$(between ${pfx}_time_empty $rd)
	n=$(printf '%s\n' "$mid" | grep -cv '^\(lfence\|mov \|$\)')
	[ "$n" -eq 0 ]; ok $? "$pfx empty: only lfence and register moves between the reads ($n others)"

	mid=$(between ${pfx}_time_adds $rd)
	adds=$(printf '%s\n' "$mid" | grep -Ec '^add[[:space:]]+%r[0-9a-z]+,%r[0-9a-z]+$')
	[ "$adds" -eq 256 ]; ok $? "$pfx adds: one unrolled block of 256 register ADDs (found $adds)"
	printf '%s\n' "$mid" | grep -Eq '^add[[:space:]]+\$'
	[ $? -ne 0 ]; ok $? "$pfx adds: no immediate ADDs (renamers can fold those)"
	printf '%s\n' "$mid" | grep -Eq '^jmp[[:space:]]+\*%'
	ok $? "$pfx adds: remainder entered by a computed jump into the block"
	diag "between the reads of ${pfx}_time_adds (ADDs elided):"
	printf '%s\n' "$mid" | grep -Ev '^(add[[:space:]]+%r|nop|data16|cs nop|xchg)' | sed 's/^/#   /'
}

check barrier_tsc rdtscp
check barrier_rdtsc rdtsc
done_testing
