"""The signal matrix of tests/test_signals.sh.

INT, TERM, HUP and QUIT reach `run` and `search` at the start (handlers
armed, nothing measured yet), during sampling, during run's analysis (the
raw file is on disk) and during run's final write; every case must exit
128 + the signal and keep what it promises. Once the raw file is on disk a
signal ends the run at once, in the analysis and in the final write alike
(the write of millions of samples takes seconds). Phases are found by watching the process
(/proc/PID/status SigCgt, the raw file appearing, the final temporary's
descriptor), not by sleeping, except "during sampling", which is a short
delay into a sampling phase many times longer."""
import json
import os
import signal
import subprocess
import sys
import time

from taplib import Tap, temp_open

BIN, TMP = sys.argv[1], sys.argv[2]
SIGS = [("INT", signal.SIGINT), ("TERM", signal.SIGTERM), ("HUP", signal.SIGHUP),
        ("QUIT", signal.SIGQUIT)]
STOP_MASK = 0
for _, s in SIGS:
    STOP_MASK |= 1 << (s - 1)
TAP = Tap()
ok = TAP.ok


def wait_for(pred, proc, limit=300.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if pred():
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.002)
    return False


def handlers_armed(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return int(line.split()[1], 16) & STOP_MASK == STOP_MASK
    except OSError:
        pass
    return False


def stderr_has(path, text):
    try:
        with open(path) as f:
            return text in f.read()
    except OSError:
        return False


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def kept(doc):
    cells = doc["cells"] + doc.get("baselines", [])
    return sum(c["n"] for c in cells), sum(c["n_planned"] for c in cells)


def launch(args, out):
    return subprocess.Popen([BIN] + args, stdout=open(out + ".out", "w"),
                            stderr=open(out + ".err", "w"))


def run_case(phase, name, sig):
    d = os.path.join(TMP, "run-%s-%s" % (phase, name))
    os.mkdir(d)
    path = os.path.join(d, "r.json")
    # 4 cells x 400k sim samples: about a second each of sampling, analysis
    # and final writing here (longer under sanitizers). For the sampling
    # case a 1 MiB flush before every sample makes sampling take minutes,
    # so the signal half a second in lands in it.
    flush = ["-f", "1MiB"] if phase == "sampling" else []
    p = launch(["run", "-b", "sim,sim:seed=2", "-k", "empty,add:50", "-n", "400000",
                "--json", path] + flush, os.path.join(d, "log"))
    if phase == "start":
        seen = wait_for(lambda: handlers_armed(p.pid), p)
    elif phase == "sampling":
        seen = wait_for(lambda: stderr_has(os.path.join(d, "log.err"), "sampling on CPU"), p)
        time.sleep(0.5)
    elif phase == "analysis":
        seen = wait_for(lambda: os.path.exists(path), p)
    else:
        # The raw write's temporary stays open a moment after its file
        # appears (an O_TMPFILE descriptor reads '(deleted)' even once
        # linked): wait for it to close, then for the final one.
        seen = (wait_for(lambda: os.path.exists(path) and not temp_open(p.pid, path), p)
                and wait_for(lambda: temp_open(p.pid, path), p))
    if seen:
        p.send_signal(sig)
    st = p.wait()
    what = "run, %s during %s" % (name, phase)
    ok(seen, "%s: the phase was seen" % what)
    ok(st == 128 + sig, "%s: exit status %d (want %d)" % (what, st, 128 + sig))
    doc = load(path)
    ok(doc is not None, "%s: r.json is kept and is valid JSON" % what)
    if doc is None:
        return
    got, want = kept(doc)
    analysed = doc.get("analysed", True)
    table = stderr_has(os.path.join(d, "log.out"), "backend")
    if phase in ("start", "sampling"):
        # The samples are in the file; the analysis is left to
        # report and said, so the process ends once they are written.
        ok(doc["interrupted"] and got < want and not analysed and not table and
           stderr_has(os.path.join(d, "log.err"), "not analysed now (`ticklab report"),
           "%s: interrupted, %d of %d samples kept raw, analysis left to report (said)"
           % (what, got, want))
        if phase == "sampling":
            ok(got > 0, "%s: what was sampled (%d) is kept" % (what, got))
    else:
        if phase == "analysis":
            ok(got == want and not analysed and not table,
               "%s: every sample (%d of %d) kept raw, analysis skipped, no table"
               % (what, got, want))
        else:
            ok(got == want and not analysed and table,
               "%s: the final write dropped, every sample (%d of %d) kept raw, the table "
               "shown (%s)" % (what, got, want, table))
        ok(stderr_has(os.path.join(d, "log.err"), "the raw samples are saved, not analysed"),
           "%s: said" % what)
        r = subprocess.run([BIN, "report", path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        ok(r.returncode == 0, "%s: report reads the raw file" % what)
    left = [f for f in os.listdir(d) if f.startswith(".")]
    ok(not left, "%s: no temporary left (%s)" % (what, " ".join(left)))


def search_case(phase, name, sig):
    d = os.path.join(TMP, "search-%s-%s" % (phase, name))
    os.mkdir(d)
    path = os.path.join(d, "s.json")
    p = launch(["search", "-b", "sim,sim:seed=2", "-n", "20000", "--json", path],
               os.path.join(d, "log"))
    seen = wait_for(lambda: handlers_armed(p.pid), p)
    if phase == "searching":
        time.sleep(0.5)
    if seen:
        p.send_signal(sig)
    st = p.wait()
    what = "search, %s during %s" % (name, phase)
    ok(seen and st == 128 + sig, "%s: exit status %d (want %d)" % (what, st, 128 + sig))
    doc = load(path)
    ok(doc is not None and doc.get("interrupted") is True,
       "%s: s.json is kept, valid, and says interrupted" % what)


for phase in ("start", "sampling", "analysis", "writing"):
    for name, sig in SIGS:
        run_case(phase, name, sig)
for phase in ("start", "searching"):
    for name, sig in SIGS:
        search_case(phase, name, sig)
sys.exit(TAP.done())
