#!/usr/bin/env python3
"""Reference isolation-forest scores for tests/test_stats_iforest.c.

Runs scikit-learn's IsolationForest(n_estimators=100, max_samples=min(256, n))
.score_samples with many random_states on the test's fixed datasets and prints
the mean and standard deviation of each point's score across seeds: the
distribution ticklab's forest must agree with. Not run by `make check`
(the numbers are embedded in the test); regenerate with
    python3 tests/reference/iforest_ref.py
"""
import numpy as np
from sklearn.ensemble import IsolationForest

SEEDS = 200


def dataset_a():
    # 40 points on a 10 ns grid around 1000 ns, plus three OS-noise spikes.
    base = [1000 + 10 * ((i * 7) % 5) for i in range(37)]
    return np.array(base + [1400.0, 2500.0, 9000.0]).reshape(-1, 1)


def dataset_b():
    # 1000 rows, two features (ns and cycles), quantized, with duplicates and
    # a few spikes: exercises psi = 256 subsampling and duplicate leaves.
    rows = []
    for i in range(1000):
        ns = 500 + 10 * ((i * 37) % 11)
        cy = 1300 + 26 * ((i * 53) % 7)
        if i % 97 == 0:
            ns += 3000
            cy += 7800
        rows.append((float(ns), float(cy)))
    return np.array(rows)


def report(name, X, points):
    n = len(X)
    scores = np.array([
        IsolationForest(n_estimators=100, max_samples=min(256, n), random_state=s)
        .fit(X).score_samples(points) for s in range(SEEDS)])
    print(f"/* {name}: n={n}, {SEEDS} random_states: mean, sd per point */")
    for p, m, sd in zip(points, scores.mean(axis=0), scores.std(axis=0, ddof=1)):
        print(f"\t{{ {{ {', '.join('%g' % v for v in p)} }}, {m:.6f}, {sd:.6f} }},")


def main():
    a = dataset_a()
    report("dataset A", a, np.unique(a, axis=0))
    b = dataset_b()
    report("dataset B", b, np.unique(b, axis=0)[::4])


if __name__ == "__main__":
    main()
