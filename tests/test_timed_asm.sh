#!/bin/sh
# The barrier timed functions, as compiled: nothing but the kernel's chain
# (ADD, MUL, FMA, load or DIV) between the first and the last read (no call),
# each read fenced as lfence; rdtscp; lfence (barrier-tsc) or lfence; rdtsc;
# lfence (barrier-rdtsc), and each 256-operation unrolled block present;
# the jitter kernel's plain and injected samples one code path, its
# pieces and switches all in place.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
command -v objdump >/dev/null 2>&1 || skip_all "objdump not installed"
case "$(uname -m)" in x86_64) ;; *) skip_all "barrier-tsc is x86-64 only" ;; esac
top=${TL_TOP_BUILDDIR:-.}
# Each kernel of the table instantiates the template per reading recipe in
# its own file (bench/kernels/NAME.c): the library holds them all.
obj=$top/libticklab.a
[ -f "$obj" ] || { echo "Bail out! no $top/libticklab.a"; exit 1; }

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
	for f in ${pfx}_time_empty ${pfx}_time_adds ${pfx}_time_muls ${pfx}_time_fmas \
		${pfx}_time_loads ${pfx}_time_divs; do
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

	chain ${pfx}_time_muls $rd '^imul[[:space:]]+%r[0-9a-z]+,%r[0-9a-z]+$' "register IMULs"
	chain ${pfx}_time_fmas $rd '^vfmadd231sd[[:space:]]+%xmm[0-9]+,%xmm[0-9]+,%xmm[0-9]+$' \
		"register FMAs" '^vmovq[[:space:]]'
	chain ${pfx}_time_loads $rd '^mov[[:space:]]+\(%r[0-9a-z]+\),%r[0-9a-z]+$' \
		"dependent loads"
	chain ${pfx}_time_divs $rd '^div[[:space:]]+%r[0-9a-z]+$' "register DIVs"
}

# chain FUNC READ OP WHAT [EXTRA]: between the reads, 256 OP in one block
# entered by a computed jump, and nothing else but the block's loop, padding,
# register moves and EXTRA (the FMA's moves between integer and vector
# registers) -- in particular no other memory access.
chain() {
	f=$1 rd=$2 op=$3 what=$4 extra=${5:-'^$'}
	mid=$(between $f $rd)
	n=$(printf '%s\n' "$mid" | grep -Ec "$op")
	[ "$n" -eq 256 ]; ok $? "$f: one unrolled block of 256 $what (found $n)"
	printf '%s\n' "$mid" | grep -Eq '^jmp[[:space:]]+\*%'
	ok $? "$f: remainder entered by a computed jump into the block"
	others=$(printf '%s\n' "$mid" | grep -Ev "$op" | grep -Ev "$extra" |
		grep -Ev '^(lfence|mov[[:space:]]+%[a-z0-9]+,%[a-z0-9]+|lea[[:space:]]+0x[0-9a-f]+\(%rip\)|sub[[:space:]]|jmp[[:space:]]+\*%|jae[[:space:]]|jnc[[:space:]]|nop|data16|cs nop|xchg|xor[[:space:]]+%|$)')
	[ -z "$others" ]; ok $? "$f: nothing but the chain between the reads${others:+: $others}"
}

# jitter FUNC READ: plain and injected samples are one code path. The
# variant (dep) is data, an index into the switch's words: the function has
# no conditional branch but the blocks' loop ends (so no branch, and no
# computed jump, depends on it). Between the reads: K's head block and the
# first piece's block (256 register ADDs each) and TL_JITTER_PIECES - 1
# unrolled stretches and pieces (TL_JITTER_KPIECE and TL_JITTER_PIECE ADDs),
# each entered by a computed jump whose target depends on K or D alone;
# one merge ADD per switch; and as the only memory accesses, per switch,
# one store of the chain to 8(base) and two loads from base + 8 x index
# and 8 past it, the same base and index in every switch (the one place
# the variants differ, by the index's value), and the later stretches' and
# pieces' sizes read from 24(base) and 32(base). The same kernel runs,
# untimed, before the first read.
jitter() {
	f=$1 rd=$2
	hdr=${TL_TOP_SRCDIR:-.}/backends/timed.h
	pieces=$(sed -n 's/^#define TL_JITTER_PIECES \([0-9]*\).*/\1/p' "$hdr")
	piece=$(sed -n 's/^#define TL_JITTER_PIECE \([0-9]*\).*/\1/p' "$hdr")
	kpiece=$(sed -n 's/^#define TL_JITTER_KPIECE \([0-9]*\).*/\1/p' "$hdr")
	want_adds=$((512 + (pieces - 1) * (kpiece + piece) + pieces))
	b=$(body $f)
	[ -n "$b" ]; ok $? "$f is in $(basename "$obj")"
	n=$(printf '%s\n' "$b" | awk -v r="$rd" '$1 == r { c++ } END { print c + 0 }')
	[ "$n" -eq 2 ]; ok $? "$f has two $rd (found $n)"
	cond=$(printf '%s\n' "$b" | grep -Ev '^jmp[[:space:]]' | grep -Ec '^j[a-z]+[[:space:]]')
	[ "$cond" -eq 5 ]
	ok $? "$f: no conditional branch but the two block loops, untimed and timed, and the untimed runs' count (found $cond)"
	mid=$(between $f $rd)
	cond=$(printf '%s\n' "$mid" | grep -Ev '^jmp[[:space:]]' | grep -Ec '^j[a-z]+[[:space:]]')
	[ "$cond" -eq 2 ]; ok $? "$f: between the reads, the two block loops' branches alone (found $cond)"
	adds=$(printf '%s\n' "$mid" | grep -Ec '^add[[:space:]]+%r[0-9a-z]+,%r[0-9a-z]+$')
	[ "$adds" -eq "$want_adds" ]
	ok $? "$f: 2 blocks of 256, $((pieces - 1)) stretches of $kpiece and pieces of $piece register ADDs, $pieces merges (found $adds of $want_adds)"
	# Outside the reads: the kernel's ADDs once more (its untimed runs, in
	# a loop) and a few of the set-up's arithmetic.
	all=$(printf '%s\n' "$b" | grep -Ec '^add[[:space:]]+%r[0-9a-z]+,%r[0-9a-z]+$')
	[ $((all - adds)) -ge "$want_adds" ] && [ $((all - adds)) -le $((want_adds + 16)) ]
	ok $? "$f: the kernel, untimed, before the first read ($((all - adds)) ADDs outside the reads)"
	jumps=$(printf '%s\n' "$mid" | grep -Ec '^jmp[[:space:]]+\*%')
	[ "$jumps" -eq $((2 * pieces)) ]; ok $? "$f: each block, stretch and piece entered by a computed jump ($jumps)"
	st=$(printf '%s\n' "$mid" | grep -E '^mov[[:space:]]+%r[0-9a-z]+,0x8\(%r[0-9a-z]+\)$')
	stores=$(printf '%s\n' "$st" | grep -c .)
	base=$(printf '%s\n' "$st" | sed 's/^.*,0x8(\(%r[0-9a-z]*\))$/\1/' | sort -u)
	[ "$stores" -eq "$pieces" ] && [ "$(printf '%s\n' "$base" | grep -c .)" -eq 1 ]
	ok $? "$f: one store per switch, all to 8 past one base register ($stores: $(echo $base))"
	ld=$(printf '%s\n' "$mid" | grep -E '^mov[[:space:]]+(0x0|0x8)?\(%r[0-9a-z]+,%r[0-9a-z]+,8\),%r[0-9a-z]+$')
	loads=$(printf '%s\n' "$ld" | grep -c .)
	ldist=$(printf '%s\n' "$ld" | sed 's/^mov[[:space:]]*//; s/),.*/)/; s/^0x0(/(/' | sort -u)
	[ "$loads" -eq $((2 * pieces)) ] && [ "$(printf '%s\n' "$ldist" | grep -c .)" -eq 2 ] &&
		[ "$(printf '%s\n' "$ldist" | sed 's/^0x8//' | sort -u)" = "($base,$(printf '%s\n' "$ldist" | head -1 | sed 's/^.*,\(%r[0-9a-z]*\),8)$/\1/'),8)" ]
	ok $? "$f: two loads per switch, from base + 8 x index and 8 past it, one index throughout ($loads: $(echo $ldist))"
	sz=$(printf '%s\n' "$mid" | grep -E '^sub[[:space:]]+0x(18|20)\(%r[0-9a-z]+\),%r[0-9a-z]+$')
	[ "$(printf '%s\n' "$sz" | grep -c .)" -eq $((2 * (pieces - 1))) ] &&
		[ "$(printf '%s\n' "$sz" | sed 's/^.*(\(%r[0-9a-z]*\)),.*$/\1/' | sort -u)" = "$base" ]
	ok $? "$f: each later stretch's and piece's size read from the same words (24 and 32 past the base)"
	others=$(printf '%s\n' "$mid" | grep -Ev '^add[[:space:]]+%r[0-9a-z]+,%r[0-9a-z]+$' |
		grep -Ev '^(lfence|mov[[:space:]]+%[a-z0-9]+,%[a-z0-9]+|mov[[:space:]]+\$0x1,%[a-z0-9]+|mov[[:space:]]+%r[0-9a-z]+,0x8\(%r[0-9a-z]+\)|mov[[:space:]]+(0x0|0x8)?\(%r[0-9a-z]+,%r[0-9a-z]+,8\),%r[0-9a-z]+|sub[[:space:]]+0x(18|20)\(%r[0-9a-z]+\),%r[0-9a-z]+|lea[[:space:]]+0x[0-9a-f]+\(%rip\)|sub[[:space:]]+(%|\$)|jmp[[:space:]]+\*%|jae[[:space:]]|jnc[[:space:]]|nop|data16|cs nop|xchg|xor[[:space:]]+%|$)')
	[ -z "$others" ]; ok $? "$f: nothing but the chain, its pieces and switches between the reads${others:+: $others}"
	diag "between the reads of $f (ADDs and padding elided):"
	printf '%s\n' "$mid" | grep -Ev '^(add[[:space:]]+%r|nop|data16|cs nop|xchg)' | sed 's/^/#   /'
}

check barrier_tsc rdtscp
check barrier_rdtsc rdtsc
jitter barrier_tsc_time_jitter rdtscp
jitter barrier_rdtsc_time_jitter rdtsc
done_testing
