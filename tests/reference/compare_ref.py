#!/usr/bin/env python3
"""Reference numbers for tests/test_compare.c, computed with numpy alone.

Written from the textbook definitions, independently of stats/compare.c:
Hodges-Lehmann is the median of every pairwise difference b_j - a_i
(listed in full); Mann-Whitney ranks the pooled sample with average ranks
for ties and uses scipy.stats.mannwhitneyu's asymptotic form (tie-corrected
variance, continuity correction 0.5, two-sided); Kolmogorov-Smirnov is the
largest gap between the two ECDFs evaluated at every pooled value, with
p = Q((sqrt(en) + 0.12 + 0.11/sqrt(en)) D) (Stephens' correction) and Q the
Kolmogorov series. The normal tail uses math.erfc. Not run by
`make check` (the numbers are embedded); regenerate with
    python3 tests/reference/compare_ref.py
"""
import math
import numpy as np

# Timer-like data: quantized, with ties inside and across the samples.
A = np.array([10, 12, 12, 13, 15, 15, 15, 18, 20, 11, 12, 14], dtype=float)
B = np.array([13, 15, 15, 16, 17, 17, 20, 22, 15, 14, 19], dtype=float)
# Two larger draws on a 0.5 ns lattice, so ties are common.
rng = np.random.default_rng(12)
C = np.round(rng.normal(100.0, 3.0, 200) * 2) / 2
D = np.round(rng.normal(101.0, 3.0, 150) * 2) / 2


def hodges_lehmann(a, b):
    return float(np.median((b[None, :] - a[:, None]).ravel()))


def avg_ranks(x):
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x))
    xs = x[order]
    i = 0
    while i < len(x):
        j = i
        while j < len(x) and xs[j] == xs[i]:
            j += 1
        ranks[order[i:j]] = (i + 1 + j) / 2.0
        i = j
    return ranks


def mann_whitney(a, b):
    n1, n2 = len(a), len(b)
    pooled = np.concatenate([a, b])
    r = avg_ranks(pooled)
    u1 = r[:n1].sum() - n1 * (n1 + 1) / 2.0
    u2 = n1 * n2 - u1
    n = n1 + n2
    _, t = np.unique(pooled, return_counts=True)
    tie = (t ** 3 - t).sum()
    s = math.sqrt(n1 * n2 / 12.0 * ((n + 1) - tie / (n * (n - 1))))
    z = (max(u1, u2) - n1 * n2 / 2.0 - 0.5) / s
    p = min(1.0, math.erfc(z / math.sqrt(2)))
    return u1, p


def kolmogorov_q(z):
    if z < 0.2:
        return 1.0
    k = np.arange(1, 201)
    return float(min(1.0, max(0.0, 2 * np.sum((-1.0) ** (k - 1) * np.exp(-2 * k * k * z * z)))))


def ks(a, b):
    grid = np.unique(np.concatenate([a, b]))
    fa = np.searchsorted(np.sort(a), grid, side="right") / len(a)
    fb = np.searchsorted(np.sort(b), grid, side="right") / len(b)
    d = float(np.max(np.abs(fa - fb)))
    en = math.sqrt(len(a) * len(b) / (len(a) + len(b)))
    return d, kolmogorov_q((en + 0.12 + 0.11 / en) * d)


def main():
    for name, a, b in (("A,B", A, B), ("C,D", C, D)):
        print(name)
        print(f"  hl = {hodges_lehmann(a, b):.17g}")
        u, p = mann_whitney(a, b)
        print(f"  mwu u = {u:.17g} p = {p:.17g}")
        d, p = ks(a, b)
        print(f"  ks d = {d:.17g} p = {p:.17g}")
    print("C =", ", ".join(f"{v:g}" for v in C))
    print("D =", ", ".join(f"{v:g}" for v in D))


if __name__ == "__main__":
    main()

# The KS p-values in tests/test_compare.c are scipy's own since ks_2samp's
# default (exact below 10 000 a side) replaced Stephens' approximation:
#   /usr/bin/python3 -c "import scipy.stats as s; print(s.ks_2samp(A, B).pvalue)"
# gives 0.16885342413677318 for (A, B) and 0.020459627261141772 for (C, D)
# (scipy 1.10.1, Debian python3-scipy).
