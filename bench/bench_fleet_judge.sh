#!/bin/sh
# How often the fleet flags a healthy node (false flag) and misses the odd
# one (missed flag), over synthetic fleets with a known odd node. Each
# fleet is 20 small fingerprints made from the fixture n1
# (tests/fixtures/fleet, `--compact`ed): every figure n1's but the
# add:2000 samples, the CV and the drift. A node's median moves from the
# fleet's 551 ns by a normal draw of sd NOISE (the node-to-node spread
# twins show) and its drift figure says about NOISE too (0.7 to 1.3 of
# it); its samples scatter around its median with a CV of 3 % on the
# timer's 10.02 ns lattice; one odd node is EFFECT slower; its samples
# are 620 (a --quick fingerprint's), or 10x or 32x that (a --budget 300
# one). With EFFECT 0 the heavy node is a healthy one. Five seeds per
# cell: false flags are counted over 95 healthy nodes (100 when there is
# no odd node), misses over 5 odd ones.
# Numbers only: `make bench` prints them, nothing passes or fails here.
#   TL_BENCH_FLEET_BEFORE  another ticklab binary to tabulate beside this one
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TL_BIN:-./ticklab}
PY=${TL_PYTHON3:-python3}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

xz -dc "$TOP/tests/fixtures/fleet/n1.json.xz" >"$T/n1raw.json" || exit 1
"$BIN" fingerprint --compact "$T/n1raw.json" --json "$T/n1.json" -q || exit 1

"$PY" - "$T" "$T/n1.json" "$BIN" ${TL_BENCH_FLEET_BEFORE:-} <<'PY'
import json, math, os, random, shutil, subprocess, sys

tmp, tmpl_path, bins = sys.argv[1], sys.argv[2], sys.argv[3:]
tmpl = open(tmpl_path).read()
NODES, SEEDS, BASE, STEP, CV, QUICK = 20, 5, 551.0, 10.0190, 0.03, 620


def node_doc(name, median, drift, n, rng):
    d = json.loads(tmpl)
    d["node"]["name"] = d["node"]["slurm_node"] = d["node"]["hostname"] = name
    s = d["summary"]
    s["facts"]["name"] = s["facts"]["slurm_node"] = s["facts"]["hostname"] = name
    counts = {}
    for _ in range(n):
        v = round(median * math.exp(rng.gauss(0, CV)) / STEP)
        counts[v] = counts.get(v, 0) + 1
    vals = sorted(counts)
    xs = [v * STEP for v in vals for _ in range(counts[v])]
    mean = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
    s["samples"] = {"kind": "exact", "n": n, "rel_error": 0,
                    "values": [v * STEP for v in vals], "counts": [counts[v] for v in vals]}
    s["figures"]["cv_percent"] = 100 * sd / mean
    s["figures"]["ns_per_add"] = xs[(len(xs) - 1) // 2] / 2000
    d["drift"]["rel_sd"] = drift
    return d


def make_fleet(out, noise, effect, heavy, seed):
    rng = random.Random(seed * 7919 + int(noise * 1000) + int(effect * 100000) + heavy)
    os.makedirs(out)
    odd = 7
    for i in range(NODES):
        m = BASE * (1 + rng.gauss(0, noise))
        if effect and i == odd:
            m *= 1 + effect
        n = QUICK * (heavy if i == odd else 1)
        drift = noise * rng.uniform(0.7, 1.3)
        json.dump(node_doc("n%02d" % i, m, drift, n, rng), open("%s/n%02d.json" % (out, i), "w"))
    return "n%02d" % odd


def judge(binary, d):
    r = subprocess.run([binary, "fleet", d, "--json", d + ".out"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    try:
        return {n["name"] for n in json.load(open(d + ".out"))["nodes"] if n["flagged"]}
    except Exception:
        return None


rows = []
for noise in (0.005, 0.02, 0.05):
    for effect in (0, 0.03, 0.10, 0.25):
        for heavy in (1, 10, 32):
            tally = [[0, 0, 0, 0] for _ in bins]  # false, healthy, missed, odd
            for seed in range(SEEDS):
                d = "%s/f" % tmp
                shutil.rmtree(d, ignore_errors=True)
                odd = make_fleet(d, noise, effect, heavy, seed)
                for b, binary in enumerate(bins):
                    fl = judge(binary, d)
                    if fl is None:
                        fl = {"?"}
                    healthy = NODES - (1 if effect else 0)
                    tally[b][0] += len(fl - {odd}) if effect else len(fl)
                    tally[b][1] += healthy
                    if effect:
                        tally[b][2] += odd not in fl
                        tally[b][3] += 1
            rows.append((noise, effect, heavy, tally))

names = ["this"] + ["before"] * (len(bins) - 1)
print("synthetic fleets: %d nodes, %d seeds a cell; false = healthy nodes flagged, "
      "missed = odd nodes not flagged" % (NODES, SEEDS))
head = "  %5s %6s %6s" % ("noise", "effect", "heavy")
for nm in names[::-1]:
    head += "  %-9s %-7s" % (nm + " false", "missed")
print(head)
for noise, effect, heavy, tally in rows:
    line = "  %4.1f%% %5.0f%% %5dx" % (100 * noise, 100 * effect, heavy)
    for t in tally[::-1]:
        line += "  %3d/%-5d %-7s" % (t[0], t[1], "%d/%d" % (t[2], t[3]) if t[3] else "-")
    print(line)
tot = [[sum(r[3][b][k] for r in rows) for k in range(4)] for b in range(len(bins))]
for nm, t in list(zip(names, tot))[::-1]:
    print("  %-6s all cells: %d of %d healthy nodes flagged (%.1f %%), %d of %d odd nodes missed"
          % (nm, t[0], t[1], 100.0 * t[0] / t[1], t[2], t[3]))
PY
exit 0
