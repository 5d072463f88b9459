#!/bin/bash
# Cross-compiles backends/ and bench/ for Armv8 (the barrier-cntvct and
# barrier-pmccntr paths) with -Werror, then, when qemu-aarch64 is there,
# runs a small probe of the barrier family under it: the ADD chain's
# computed branch must run exactly K ADDs, barrier-cntvct must time, and
# every other barrier backend must refuse with a reason. Then, when the
# arm64 libraries are there, cross-builds the whole tree with
# configure --host and runs the non-TUI unit tests under qemu (below).
set -euo pipefail
cd "$(dirname "$0")/.."
CC=aarch64-linux-gnu-gcc
command -v $CC >/dev/null || { echo "skip: $CC not installed"; exit 0; }
# A directory of its own: parallel CI runs on one machine must not share it.
out=$(mktemp -d /tmp/tl-aarch64.XXXXXX)
trap 'rc=$?; [ $rc = 0 ] && rm -rf "$out" || echo "aarch64: build kept in $out"; exit $rc' EXIT
cat > $out/config.h <<'H'
#define _GNU_SOURCE 1
#define HAVE_LINUX_PERF_EVENT_H 1
#define HAVE_SYS_AUXV_H 1
H
CFLAGS="-std=c11 -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes"
objs=()
# hwloc's headers are per architecture (hwloc/autogen/config.h): without
# libhwloc-dev:arm64 the cache reader, which has no arch-specific code, is left out.
skip=""
echo '#include <hwloc.h>' | $CC -E -x c - >/dev/null 2>&1 || skip=bench/topology.c
[ -z "$skip" ] || echo "aarch64: no hwloc headers for $CC, $skip not compiled"
for f in base/*.c backends/*.c bench/*.c bench/kernels/*.c; do
	[ "$f" != "$skip" ] || continue
	o=$out/$(basename "${f%.c}").o
	$CC $CFLAGS -I. -I$out -DPCRE2_CODE_UNIT_WIDTH=8 -c "$f" -o "$o"
	objs+=("$o")
done
echo "aarch64: compiled ${#objs[@]} files from base/, backends/ and bench/"

command -v qemu-aarch64 >/dev/null || { echo "aarch64: qemu-aarch64 not installed, probe skipped"; exit 0; }
cat > $out/probe.c <<'C'
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "backends/internal.h"
#include "backends/reads.h"

/* barrier-cntvct's recipe with the empty and ADD bodies, as the kernel
 * table's files instantiate it (bench/kernels/), without their parsers. */
static double cntvct_empty(struct tl_timer *t)
	TL_TIMED_BODY(uint64_t, TL_TIMED_NO_PREP, TL_BARRIER_CNTVCT_READ, TL_TIMED_DIFF_INT,
		      (void)0, (void)0, (void)0)
static double cntvct_adds(struct tl_timer *t, uint64_t n)
	TL_TIMED_BODY(uint64_t, TL_TIMED_NO_PREP, TL_BARRIER_CNTVCT_READ, TL_TIMED_DIFF_INT,
		      struct tl_timed_chain chain_ = tl_timed_chain_prepare(n),
		      (void)tl_timed_chain_run(chain_), (void)0)

static int fails;
#define CHECK(c, ...) do { int ok_ = (c); printf("%s: ", ok_ ? "ok" : "FAIL"); \
	printf(__VA_ARGS__); printf("\n"); fails += !ok_; } while (0)

int main(void)
{
	const struct tl_backend *refuse[] = { &tl_backend_barrier_tsc, &tl_backend_rdtsc,
		&tl_backend_barrier_pmc, &tl_backend_barrier_pmccntr };
	struct tl_timer t;
	char why[TL_WHY_MAX];
	uint64_t bad = 0;

	for (uint64_t k = 0; k < 1100; k++)
		bad += tl_timed_add_chain(k) != k;
	CHECK(bad == 0 && tl_timed_add_chain(20000) == 20000, "ADD chain runs exactly K ADDs");
	{
		uint64_t pow = 1, badm = 0, badf = 0, badl = 0, bits;
		const void *ring[3] = { &ring[1], &ring[2], &ring[0] };
		double d;
		for (uint64_t k = 0; k < 1100; k++, pow *= TL_TIMED_MUL_FACTOR) {
			badm += tl_timed_mul_run(tl_timed_mul_prepare(k)) != pow;
			bits = tl_timed_fma_run(tl_timed_fma_prepare(k));
			memcpy(&d, &bits, sizeof d);
			badf += d != (double)k;
			badl += tl_timed_load_run(tl_timed_load_prepare(&ring[0], k)) != &ring[k % 3];
		}
		CHECK(badm == 0 && badf == 0 && badl == 0,
		      "MUL, FMA and load chains run exactly K operations");
	}
	memset(&t, 0, sizeof t);
	t.backend = &tl_backend_barrier_cntvct;
	why[0] = '\0';
	if (t.backend->open(&t, NULL, why, sizeof why) == 0) {
		double e = cntvct_empty(&t), a = cntvct_adds(&t, 2000000);
		CHECK(t.ns_per_unit > 0 && e >= 0 && a > e, "barrier-cntvct: %g ns/tick, empty %g, "
		      "add:2000000 %g ticks", t.ns_per_unit, e, a);
	} else {
		CHECK(why[0] != '\0', "barrier-cntvct unavailable: %s", why);
	}
	for (size_t i = 0; i < sizeof refuse / sizeof refuse[0]; i++) {
		memset(&t, 0, sizeof t);
		t.backend = refuse[i];
		why[0] = '\0';
		CHECK(refuse[i]->open(&t, NULL, why, sizeof why) < 0 && why[0],
		      "%s unavailable: %s", refuse[i]->id, why);
	}
	return fails != 0;
}
C
$CC $CFLAGS -static -I. -I$out $out/probe.c $out/barrier.o $out/util.o $out/perf.o $out/x86.o $out/xalloc.o \
	-lpthread -o $out/probe
qemu-aarch64 $out/probe

# ---- The non-TUI unit tests, cross-built with configure --host and run
# under qemu-aarch64, so the tests' own assertions about this node (Armv8
# under qemu-user: barrier-cntvct times, barrier-pmccntr and the perf
# backends refuse with a reason, the x86 backends say wrong architecture)
# are counted. Needs the arm64 libraries (.ci/run installs them; then
# TL_AARCH64_TESTS=required turns a missing piece into a failure).
need() {
	if [ "${TL_AARCH64_TESTS:-}" = required ]; then echo "aarch64 tests: $1" >&2; exit 1; fi
	echo "aarch64: unit tests skipped: $1"; exit 0
}
# test_search first: it is the long one (about 2 CPU minutes under qemu, 6x
# native), so make -j2 runs the others beside it.
tests="tests/test_search tests/test_backend tests/test_sim tests/test_kernel tests/test_size
	tests/test_topology tests/test_flush tests/test_runner tests/test_stats tests/test_stats_iforest
	tests/test_json_io tests/test_analysis_kept tests/test_cli_opts"
arm=/usr/lib/aarch64-linux-gnu
for pc in jansson libpcre2-8 ncursesw hwloc; do
	[ -f $arm/pkgconfig/$pc.pc ] || need "no $arm/pkgconfig/$pc.pc (apt-get install lib{jansson,pcre2,ncurses,hwloc}-dev:arm64)"
done
# libgsl-dev is not Multi-Arch: same (installing :arm64 removes :amd64),
# so its arm64 headers and static libraries are unpacked here instead.
gsl=$out/gsl
mkdir -p $gsl
(cd $gsl && apt-get download -q libgsl-dev:arm64 >/dev/null 2>&1) || need "apt-get download libgsl-dev:arm64 failed (dpkg --add-architecture arm64 && apt-get update)"
dpkg -x $gsl/libgsl-dev_*_arm64.deb $gsl/root
start=$SECONDS
git clone -q . $out/src
cd $out/src || exit 1
./autogen.sh >/dev/null 2>&1
PKG_CONFIG_LIBDIR=$arm/pkgconfig:/usr/share/pkgconfig PKG_CONFIG_PATH= \
	./configure -q --host=aarch64-linux-gnu --with-papi=no --without-cairo --enable-werror \
	GSL_CFLAGS="-I$gsl/root/usr/include" \
	GSL_LIBS="$gsl/root$arm/libgsl.a $gsl/root$arm/libgslcblas.a -lm" >/dev/null 2>&1 \
	|| { tail -20 config.log; exit 1; }
make -j2 >/dev/null
echo "aarch64: configure --host=aarch64-linux-gnu and make: $((SECONDS - start)) s"
# -L /: the program interpreter and libc are Debian's libc6:arm64 (the :arm64
# -dev packages pull it in). -L /usr/aarch64-linux-gnu would pair the cross
# toolchain's ld.so with that libc.so.6, and a fork()ed child (barrier-cntvct's
# probe) then spins forever. timeout: a hang fails the program instead of CI.
rc=0
make -j2 check TESTS="$(echo $tests)" LOG_COMPILER=timeout LOG_FLAGS="600 qemu-aarch64 -L /" \
	>check.out 2>&1 || rc=$?
grep -E '^(FAIL|ERROR|XPASS)' check.out || true
grep -hE '^ok .*(off x86|without perf_event_open|barrier-cntvct (opens|measures)|barrier-pmccntr refuses)' \
	tests/test_backend.log \
	| sed 's/^/aarch64: /' || true
echo "aarch64: $(echo $tests | wc -w) test programs under qemu-aarch64 (all stages $((SECONDS - start)) s):"
sh tests/summary.sh test-suite.log
exit $rc
