#!/usr/bin/env python3
"""Reference numbers for tests/test_stats.c, computed with numpy.

Quantiles use numpy's default (method="linear", position (n-1)p), the rule
stats_quantile_sorted implements; sd uses ddof=1; the noisy linear fit is
numpy.polyfit(x, y, 1) with R^2 = 1 - SS_res/SS_tot. Not run by
`make check` (the numbers are embedded); regenerate with
    python3 tests/reference/stats_ref.py
"""
import numpy as np

X = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5], dtype=float)
FIT_X = np.array([0, 256, 512, 1024, 2048, 4096, 8192], dtype=float)
FIT_Y = np.array([31.0, 118.5, 205.2, 378.9, 733.1, 1420.4, 2801.7])


def main():
    print("summary of", X.tolist())
    for p in (0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99):
        print(f"  q({p}) = {np.quantile(X, p):.17g}")
    m, sd = X.mean(), X.std(ddof=1)
    print(f"  mean = {m:.17g}  sd = {sd:.17g}  cv = {sd / m:.17g}")
    slope, icept = np.polyfit(FIT_X, FIT_Y, 1)
    res = FIT_Y - (icept + slope * FIT_X)
    r2 = 1 - (res ** 2).sum() / ((FIT_Y - FIT_Y.mean()) ** 2).sum()
    print(f"fit: slope = {slope:.17g}  intercept = {icept:.17g}  r2 = {r2:.17g}")


if __name__ == "__main__":
    main()
