#!/bin/sh
# Readers over many distinct backends. One real run made here (sim, add:50,
# 200 samples) has its cell and its baseline copied under N backend ids
# (sim:seed=1..N); for N = 1000, 2000, 4000 and 8000 this prints the CPU
# seconds (user + system) of
#   report --os-filter none   reading the file and printing the table,
#                             chains, ladder and lesson
#   report                    the same with the default filter (iforest) per cell
#   compare F F               the file against itself (cells matched by id)
#   plot -o F.svg             every cell analysed and drawn
# and each time's ratio to the N before it: linear is 2.0x a step (these
# were quadratic: 4000 backends took about 9x the time of 1000). Then the
# same for a run of mul:4, load:4KiB and load:1MiB (20 samples), whose
# chains, ladder and lesson go per backend, up to the 20000 cells a run
# holds (N = 4000 of 4 cells; larger N print "-"). fleet reads
# fingerprints, whose battery of backends is fixed: its size is the nodes
# (bench/bench_fleet.sh). Numbers only: nothing passes or fails here.
#   TL_BENCH_BACKENDS_N       the sizes ("1000 2000 4000 8000")
#   TL_BENCH_BACKENDS_BEFORE  another ticklab binary (an older build) timed
#                             beside this one
TOP=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TL_BIN:-./ticklab}
PY=${TL_PYTHON3:-python3}
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT

"$BIN" run -b sim -k add:50 -n 200 -q --json "$T/one.json" || exit 1
"$BIN" run -b sim -k mul:4,load:4KiB,load:1MiB -n 20 -q --json "$T/kernels.json" || exit 1
"$PY" - "$T" "$BIN" "${TL_BENCH_BACKENDS_BEFORE:-}" ${TL_BENCH_BACKENDS_N:-1000 2000 4000 8000} \
	<<'PY' || exit 1
import json, os, subprocess, sys

tmp, bins, sizes = sys.argv[1], [b for b in sys.argv[2:4] if b], [int(n) for n in sys.argv[4:]]
MAX_CELLS = 20000


def write(name, n):
    """The run with its cells and baselines copied under n backend ids,
    or None past the cells a run holds."""
    one = json.load(open(os.path.join(tmp, name + ".json")))
    if n * (len(one["cells"]) + len(one["baselines"])) > MAX_CELLS:
        return None
    doc = dict(one)
    for key in ("cells", "baselines"):
        doc[key] = [dict(c, backend="sim:seed=%d" % (i + 1)) for i in range(n)
                    for c in one[key]]
    path = os.path.join(tmp, "%s%d.json" % (name, n))
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def cpu(argv):
    """CPU seconds of one run of argv (its own rusage), its status."""
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         env=dict(os.environ, TL_LEVELS="off"))
    _, status, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime, os.waitstatus_to_exitcode(status)


readers = [("one", "report --os-filter none", lambda f: ["report", f, "--os-filter", "none"]),
           ("one", "report (iforest)", lambda f: ["report", f]),
           ("one", "compare F F", lambda f: ["compare", f, f]),
           ("one", "plot", lambda f: ["plot", f, "-o", os.path.join(tmp, "p.svg")]),
           ("kernels", "report, 3 kernels", lambda f: ["report", f, "--os-filter", "none"]),
           ("kernels", "compare, 3 kernels", lambda f: ["compare", f, f])]
files = {(name, n): write(name, n) for name in ("one", "kernels") for n in sizes}
print("CPU s (ratio to the N before; linear: 2.0x a step), %s" % ", ".join(bins))
print("%-24s %-10s" % ("reader", "binary") + "".join("%16s" % ("N=%d" % n) for n in sizes))
for shape, name, args in readers:
    for b in bins:
        row, last = "", None
        for n in sizes:
            f = files[(shape, n)]
            if not f:
                row, last = row + "%16s" % "-", None
                continue
            t, st = cpu([b] + args(f))
            cell = "%.2f" % t if st in (0, 1) else "status %s" % st
            if last and st in (0, 1):
                cell += " (%.1fx)" % (t / last if last > 0 else float("nan"))
            last = t if st in (0, 1) else None
            row += "%16s" % cell
        print("%-24s %-10s%s" % (name, os.path.basename(b) if b != bins[0] else "this", row))
PY
