#!/bin/sh
# `ticklab detect`: on sim with a known noise the smallest D
# detected sits where a two-sample test of m = n/2 samples a side starts to
# see a shift: Mann-Whitney's power is 1/2 at a shift of about
# z(0.975) sigma sqrt(2/m) sqrt(pi/3) (its efficiency 3/pi on normal data),
# i.e. D50 = that / ns_per_add (~12 ADDs at sd 40, n 2000). A D counts when
# 2 of 3 draws detect it, so the answer estimates D50 but is random: the
# test looks at 20 seeds: their median within [D50/2, 2 D50], and a
# noise twice as large needs a larger D in most seeds.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON"

n=2000
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	"$TL_BIN" detect --backend "sim:sd=40,quantum=0,spike_rate=0,seed=$s" -n $n --seed "$s" \
		--json "$tmp/a$s.json" >"$tmp/a$s.txt" 2>&1 || echo "sd=10 seed $s: $?" >>"$tmp/fail"
	"$TL_BIN" detect --backend "sim:sd=80,quantum=0,spike_rate=0,seed=$s" -n $n --seed "$s" \
		--json "$tmp/b$s.json" >/dev/null 2>&1 || echo "sd=20 seed $s: $?" >>"$tmp/fail"
done
[ ! -e "$tmp/fail" ]; ok $? "40 detect runs exit 0"
[ -e "$tmp/fail" ] && sed 's/^/# /' "$tmp/fail"
grep -q 'smallest D detected by jitter:500,D,0.5 with 2000 samples' "$tmp/a1.txt"
ok $? "the table says what was searched"

"$PY" - "$tmp" $n >"$tmp/tap" <<'EOF2'
import json, math, statistics, sys
d, n = sys.argv[1], int(sys.argv[2])
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
def load(p):
    return json.load(open(p))["results"][0]
a = [load("%s/a%d.json" % (d, s)) for s in range(1, 21)]
b = [load("%s/b%d.json" % (d, s)) for s in range(1, 21)]
ok(all(r["found"] for r in a + b), "every seed found a D")
ok(all(abs(r["ns_per_add"] - 0.3) < 1e-3 for r in a), "ns per ADD measured as sim's 0.3 (15 timings of 1e6 ADDs)")
ok(all(abs(r["d_ns"] - r["d_adds"] * r["ns_per_add"]) < 1e-9 for r in a), "D ns = D ADDs x ns per ADD")
ok(all(r["mwu_p"] < 0.05 and r["shift_ns"] >= 0 for r in a), "at D: p < 0.05, shift upward")
ok(all(r["below_adds"] < r["d_adds"] for r in a), "the last miss lies below D")
m = n / 2
d50 = 1.959964 * 40 * math.sqrt(2 / m) * math.sqrt(math.pi / 3) / 0.3
med = statistics.median(r["d_adds"] for r in a)
ok(d50 / 2 <= med <= 2 * d50, "sd 40: median D %g ADDs within [%.1f, %.1f] (D50 %.1f)" % (med, d50 / 2, 2 * d50, d50))
larger = sum(y["d_adds"] > x["d_adds"] for x, y in zip(a, b))
ok(larger >= 15, "sd 80 needs a larger D than sd 40 in >= 15 of 20 seeds (%d)" % larger)
print("# sd 40: D %s; sd 80: D %s" % (sorted(r["d_adds"] for r in a), sorted(r["d_adds"] for r in b)))
EOF2
tap_from "$tmp/tap"

expect_status 2 "detect without --backend" "$TL_BIN" detect
expect_status 2 "detect -n 1" "$TL_BIN" detect --backend sim -n 1
expect_status 2 "detect --alpha 2" "$TL_BIN" detect --backend sim --alpha 2
expect_status 2 "detect with an unknown backend" "$TL_BIN" detect --backend nope
expect_status 2 "detect --flush 3 bananas" "$TL_BIN" detect --backend sim --flush bananas
expect_status 2 "detect --max-d 257: past the D the jitter kernel delivers whole" "$TL_BIN" detect --backend sim --max-d 257
expect_status 2 "detect --max-d 0" "$TL_BIN" detect --backend sim --max-d 0

done_testing
