#!/bin/sh
# The fleet's tests from histograms (stats/fleet_hist.c) against scipy on
# the same data: tests/test_fleet_stats writes one node's lattice samples
# (shifted by 2 ns), the others' and what the histograms gave; scipy's
# ks_2samp (exact: both sides under 10 000), mannwhitneyu (asymptotic, tie
# and continuity corrections), numpy's median of all pairwise differences
# (Hodges-Lehmann) and of the others must agree.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed"
"$PY" -c 'import scipy.stats, numpy' 2>/dev/null || skip_all "python3-scipy and numpy are needed"
"$TL_TOP_BUILDDIR/tests/test_fleet_stats" "$tmp/case" >/dev/null
ok $? "test_fleet_stats wrote a case"
"$PY" - "$tmp/case" <<'PY'
import sys, numpy as np
from scipy import stats
lines = open(sys.argv[1]).read().split("\n")
x = np.array([float(v) for v in lines[0].split()])
o = np.array([float(v) for v in lines[1].split()])
d, p, mwu_p, hl, med = (float(v) for v in lines[2].split())
ks = stats.ks_2samp(o, x, method="exact")
mw = stats.mannwhitneyu(o, x, method="asymptotic", use_continuity=True)
want = {"KS D": (ks.statistic, d), "KS p": (ks.pvalue, p), "MWU p": (mw.pvalue, mwu_p),
        "HL shift": (np.median(np.subtract.outer(x, o)), hl), "others' median": (np.median(o), med)}
bad = 0
for k, (w, g) in want.items():
    close = abs(w - g) <= 1e-9 * max(abs(w), 1e-300) + (1e-12 if k == "HL shift" else 0)
    print("# %s %s: scipy %.12g, histograms %.12g" % ("same" if close else "DIFFERENT", k, w, g))
    bad += not close
sys.exit(bad)
PY
ok $? "KS D and p, Mann-Whitney p, HL shift and median equal scipy's"
done_testing
