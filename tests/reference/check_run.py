#!/usr/bin/env python3
"""Independent re-analysis of a `ticklab run --json` file with numpy and
scikit-learn: recomputes t_e,std, filter_cost, the isolation-forest filter (a sample
kept when most of FORESTS forests' bounded beta searches keep it, as stats.h says)
with the paper's beta search and its two guards (lattice levels kept, the
far-out fence when the forest is inactive), and the summary, and compares them with what
ticklab printed. Prints TAP.

Usage: check_run.py RUN.json TICKLAB

Isolation forests with different random trees agree only in distribution,
and on real timer data the beta search is discontinuous: one forest in twenty
can pick a neighbouring beta that moves a whole group of samples. So one
ticklab forest is never compared with one sklearn forest. ticklab re-analyses
the same samples with SEEDS forest seeds (`ticklab report` of the file with
its seed rewritten) and sklearn fits SEEDS forests; the median of ticklab's
answers must lie inside the range of sklearn's (plus a stated slack). The
unfiltered numbers (n, ns, t_e,std) must match exactly."""
import json
import os
import subprocess
import sys
import tempfile

SEEDS = 11
FORESTS = 8  # TL_IFOREST_FORESTS
FORESTS_MAX = 24  # TL_IFOREST_FORESTS_MAX: when the first FORESTS leave samples undecided

import numpy as np
from sklearn.ensemble import IsolationForest

n_ok = 0
n_fail = 0


def ok(cond, msg):
    global n_ok, n_fail
    n_ok += 1
    if not cond:
        n_fail += 1
    print(("ok" if cond else "not ok") + f" {n_ok} - {msg}")
    sys.stdout.flush()


def far_bound(x):
    """Where one sample alone would decide the CV: one sample at D from the
    mean adds D^2/(n-1) to the variance, the body's sigma^2 at D = sqrt(n-1)
    sigma; sigma = 1.4826 MAD (MAD 0: the nearest other value's distance)."""
    med = np.median(x)
    dev = np.abs(x - med)
    mad = np.median(dev)
    if mad == 0:
        mad = dev[dev > 0].min() if (dev > 0).any() else 0.0
    return med + np.sqrt(max(len(x) - 1, 1)) * 1.4826 * mad


def beta_search(values, scores):
    """The filter's conventions: beta_k = -0.60 - 0.01 k down to the lowest score; the largest
    kept value per beta, counted only up to far_bound; the beta just before the first forward
    difference above the mean difference; inactive when < 2 betas or no such jump."""
    bound = far_bound(values)
    lowest = scores.min()
    betas = []
    k = 0
    while -0.60 - 0.01 * k >= lowest - 1e-9:
        betas.append(-0.60 - 0.01 * k)
        k += 1
    if len(betas) < 2:
        return None
    maxes = np.array([min(values[scores >= b - 1e-9].max(), bound) for b in betas])
    diffs = np.diff(maxes)
    mean = diffs.mean()
    for i, d in enumerate(diffs):
        if d > mean * (1 + 1e-9) and d > 0:
            return betas[i]
    return None


def guarded_keep(x, forest_scores):
    """The iforest method as a whole (stats.h): per forest the paper's cut
    (bounded search), or, when its search is inactive, Tukey's far-out fence
    with IQR never below the smallest gap; a sample kept when most forests
    keep it (FORESTS of them, or FORESTS_MAX when the first FORESTS leave at
    least max(ceil(1 % n), 5) samples split; forest_scores(f) gives forest
    f's scores) (the fence alone when none is active); then every value inside
    that fence that at least max(ceil(1 % n), 5) samples hold exactly is kept
    whatever decided. Returns keep and what ran."""
    q1, q3 = np.percentile(x, [25, 75])
    gaps = np.diff(np.unique(x))
    iqr = max(q3 - q1, gaps.min() if len(gaps) else 0.0)
    inside = (x >= q1 - 3 * iqr) & (x <= q3 + 3 * iqr)
    votes = np.zeros(len(x), int)
    active = 0
    used = 0
    for f in range(FORESTS_MAX):
        if f == FORESTS:
            # more than a quarter and fewer than three quarters kept these
            split = ((4 * votes > f) & (4 * votes < 3 * f)).sum()
            if split < max(int(np.ceil(0.01 * len(x))), 5):
                break
        scores = forest_scores(f)
        used += 1
        beta = beta_search(x, scores)
        if beta is not None:
            votes += scores >= beta - 1e-9
            active += 1
        else:
            votes += inside
    if active > 0:
        keep, ran = 2 * votes > used, "iforest"
    else:
        keep, ran = inside.copy(), "fence"
    vals, counts = np.unique(x, return_counts=True)
    levels = vals[counts >= max(int(np.ceil(0.01 * len(x))), 5)]
    levels = levels[np.isin(levels, x[inside])]
    back = ~keep & np.isin(x, levels)
    if back.any():
        keep, ran = keep | back, ran + "+levels"
    return keep, ran


def summary(x):
    q = np.percentile(x, [1, 5, 50, 95, 99])
    sd = x.std(ddof=1)
    return dict(n=len(x), min=x.min(), p1=q[0], p5=q[1], p50=q[2], p95=q[3], p99=q[4],
                max=x.max(), mean=x.mean(), sd=sd, cv=sd / x.mean())


def check_drift(name, x, d):
    """Chunk medians of consecutive samples after filter_cost: exact numbers.
    (Whether they count as drift depends on a seeded shuffle; not compared.)"""
    chunk = d["chunk"]
    k = len(x) // chunk
    ok(d["chunks"] == k, f"{name}: drift over {k} chunks of {chunk}")
    if k < 4:
        return
    med = np.median(x[:k * chunk].reshape(k, chunk), axis=1)
    ref = dict(median=np.median(x[:k * chunk]), lo=med.min(), hi=med.max(), sd=med.std(ddof=1))
    good = all(abs(d[key] - v) <= 1e-9 * max(1.0, abs(v)) for key, v in ref.items())
    ok(good, f"{name}: drift median/lo/hi/sd " +
       " ".join(f"{d[key]:.4f}={v:.4f}" for key, v in ref.items()))


def ticklab_summaries(path, ticklab):
    """Per cell, the summaries ticklab's report gives for forest seeds 1..SEEDS."""
    run = json.load(open(path))
    per_cell = [[] for _ in run["cells"]]
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(1, SEEDS + 1):
            run["seed"] = seed
            seeded = os.path.join(tmp, "seeded.json")
            with open(seeded, "w") as f:
                json.dump(run, f)
            out = subprocess.run([ticklab, "report", seeded, "--json", "-"],
                                 capture_output=True, text=True, check=True).stdout
            for i, c in enumerate(json.loads(out)["cells"]):
                per_cell[i].append(dict(c["summary"], ran=c["os_filter"]["ran"],
                                        levels_kept=c["os_filter"]["levels_kept"],
                                        active=c["os_filter"]["active"]))
    return per_cell


def main(path, ticklab):
    run = json.load(open(path))
    ours_by_cell = ticklab_summaries(path, ticklab)
    base = {(b["backend"], b["flush_bytes"]): b for b in run.get("baselines", [])}
    for c in run["cells"]:
        if c["kernel"] == "empty":
            base.setdefault((c["backend"], c["flush_bytes"]), c)
    for c, ours in zip(run["cells"], ours_by_cell):
        name = f'{c["backend"]} flush {c["flush_bytes"]} {c["kernel"]}'
        raw = np.array(c["samples"], dtype=float)
        ns = np.array(c["samples_ns"], dtype=float)
        ok(len(raw) == c["n"] and len(ns) == c["n"], f"{name}: n samples")
        ok(np.allclose(raw * c["ns_per_unit"], ns, rtol=1e-12, atol=1e-9), f"{name}: ns = raw x ns_per_unit")
        b = base[(c["backend"], c["flush_bytes"])]
        te = float(np.median(np.array(b["samples_ns"], dtype=float)))
        ok(abs(te - c["overhead"]) < 1e-9, f"{name}: t_e,std {c['overhead']} = median of empty {te}")
        x = ns - te
        s = c["summary"]
        check_drift(name, x, c["drift"])
        if c.get("os_filter", {}).get("method", "iforest") != "iforest":
            continue
        removed = []
        sums = []
        for rs in range(SEEDS):
            def sc(j, rs=rs):
                return IsolationForest(n_estimators=100, max_samples=min(256, len(x)),
                                       random_state=rs * FORESTS_MAX + j).fit(x.reshape(-1, 1)) \
                    .score_samples(x.reshape(-1, 1))
            keep, _ = guarded_keep(x, sc)
            removed.append(len(x) - keep.sum())
            sums.append(summary(x[keep]))
        good = all(t["ran"] in ("iforest", "fence") and t["levels_kept"] == 0 or
                   t["ran"] in ("iforest+levels", "fence+levels") and t["levels_kept"] > 0
                   for t in ours) and \
            all(t["ran"].startswith("iforest") == t["active"] for t in ours)
        ok(good, f"{name}: os_filter.ran names the path (iforest when active, fence when not, "
           f"+levels when levels were kept): {sorted(set(t['ran'] for t in ours))}")
        lo, hi = min(removed), max(removed)
        mine = float(np.median([t["os_removed"] for t in ours]))
        # Quantized data moves whole groups of equal values at once, so allow
        # 1 % of n beyond sklearn's spread.
        slack = max(3, 0.01 * len(x))
        ok(lo - slack <= mine <= hi + slack,
           f"{name}: median os_removed {mine:g} over {SEEDS} seeds within sklearn's [{lo}, {hi}] +- {slack:.0f}")
        step = c["resolution_ns"]
        for key in ("p50", "min", "mean"):
            vals = [t[key] for t in sums]
            mine = float(np.median([t[key] for t in ours]))
            ok(min(vals) - step - 1e-9 <= mine <= max(vals) + step + 1e-9,
               f"{name}: median {key} {mine:.3f} within sklearn's [{min(vals):.3f}, {max(vals):.3f}] +- one step {step:.3f}")
    print(f"1..{n_ok}")
    return 1 if n_fail else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: check_run.py RUN.json TICKLAB")
    sys.exit(main(sys.argv[1], sys.argv[2]))
