"""Mutation test of every reader (tests/test_mutate.sh).

Real files of each kind (a run, a search and a partial made here, a
fingerprint made here when TL_MUTATE_FP=1, and the fixtures) are mutated
one leaf at a time: every numeric field negated ("neg") and pushed 1e14
times past itself ("huge"), every string replaced by terminal, Markdown
and HTML specials ("ctl") or a spreadsheet formula ("formula"). Arrays
are mutated at their first element (a sample array at samples[0]). Each
mutant goes through every reader of its kind. A reader's answer is:
  status 2            the file was refused;
  accepted-unchanged  status 0/1 and the same output as the unmutated file;
  accepted-changed    status 0/1 and another output.
It fails on a mutation of a field with a rule (RULES below: times, rates,
shares, counts) accepted-changed with status 0 or 1 (a value that breaks a
rule shown as a result, or judged), and on any output holding a raw
special character of its destination (ESC anywhere, "<img" in Markdown, a
line or cell of CSV or Markdown that starts with the formula). A failing
mutant is copied to TMP/found: add it to tests/mutants (the corpus), whose
every case must be refused by every reader of its kind (rule cases) or
come out clean (string cases). The table reader x mutation class is
printed as TAP comments.

Each distinct mutated file is written once and read once by each reader
(a mutation that leaves the file as it was shares the unmutated file's
answers), in its own directory, with as many readers at once as the CPUs
this process may use. TL_MUTATE_ALL=1 (make check-mutate-all) mutates every
plain field, not a spread of them."""
import concurrent.futures
import glob
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import time

from taplib import Tap

BIN, TMP, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), sys.argv[3]
CORPUS = os.path.join(SRC, "tests", "mutants")
CTL = "a\x1b[31m|<img src=x onerror=alert(1)>\n`b`"
FORMULA = '=HYPERLINK("http://e/"),x'
TAP = Tap()
ok = TAP.ok


# Fields whose value has a rule (issue: times within what a timer reads,
# rates plausible, shares 0-100 %, counts found <= ran), by normalised
# path, with the classes that break it.
RULES = [
    (r"^cells\[\]\.(overhead|resolution_ns)$", ("huge",)),
    (r"^cells\[\]\.samples(_ns)?\[\]$", ("neg", "huge")),
    (r"^cells\[\]\.ns_per_unit$", ("neg", "huge")),
    (r"^cells\[\]\.n$", ("huge",)),
    (r"(^|\.)tsc_ghz$", ("neg", "huge")),
    (r"(^|\.)(os_removed_percent|tail_percent)(\.(value|lo|hi))?$", ("neg", "huge")),
    (r"(^|\.)(tmin_ns|tdiff_ns)(\.(value|lo|hi))?$", ("huge",)),
    (r"(^|\.)cpu_seconds$", ("huge",)),
]


def has_rule(path, cls):
    return any(re.search(p, path) and cls in c for p, c in RULES)


def leaves(doc, path="", norm=""):
    """(path list, normalised path, value) of every leaf, arrays at [0]."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from leaves_at(v, path + [k], (norm + "." if norm else "") + k)
    elif isinstance(doc, list) and doc:
        yield from leaves_at(doc[0], path + [0], norm + "[]")


def leaves_at(v, path, norm):
    if isinstance(v, (dict, list)):
        yield from leaves(v, path, norm)
    else:
        yield path, norm, v


def leaves_top(doc):
    return leaves(doc, [], "")


# Strings every file's mutants carry through each destination's specials:
# the names a reader prints.
NAMED = re.compile(r"(^|\.)(model|backend|kernel|flush_name|flush|node|hostname|reference|"
                   r"name|vendor)$")


def ruled(norm):
    return has_rule(norm, "neg") or has_rule(norm, "huge")


def mutations(doc, budget):
    """Every field with a rule, every named string, and of the other
    leaves an even spread of at most budget (TL_MUTATE_ALL=1: all)."""
    seen, plain = {}, []
    for path, norm, v in leaves_top(doc):
        if norm in seen or isinstance(v, bool) or v is None:
            continue
        seen[norm] = (path, v)
        if not (ruled(norm) or (isinstance(v, str) and NAMED.search(norm))):
            plain.append(norm)
    step = 1 if os.environ.get("TL_MUTATE_ALL") == "1" else max(1, len(plain) // budget)
    skip = set(plain) - set(plain[::step])
    for norm, (path, v) in seen.items():
        if norm in skip:
            continue
        if isinstance(v, (int, float)):
            yield path, norm, "neg", (-abs(v) if v else -1)
            yield path, norm, "huge", (v * 10 ** 14 if v else 10 ** 14)
        elif isinstance(v, str):
            yield path, norm, "ctl", CTL
            yield path, norm, "formula", FORMULA


def sh(args, cwd, timeout=60):
    try:
        r = subprocess.run([BIN] + args, cwd=cwd, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           env=dict(os.environ, TERM="dumb", TL_LEVELS="off"))
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return "hang", b"", b""


# Each reader: (name, argv with X the file under test, output files it
# writes, destination of its standard output).
RUN_READERS = [
    ("report", ["report", "X"], [], "term"),
    ("report --markdown", ["report", "X", "--markdown", "-"], [], "md"),
    ("report --csv", ["report", "X", "--csv", "-"], [], "csv"),
    ("plot", ["plot", "X", "-o", "o.svg"], ["o.svg"], "svg"),
    ("compare X base", ["compare", "X", "B"], [], "term"),
    ("compare base X", ["compare", "B", "X"], [], "term"),
    ("compare --markdown", ["compare", "X", "B", "--markdown", "-"], [], "md"),
    ("run --baseline", ["run", "-b", "sim", "-k", "empty,add:10", "-n", "30", "-q",
                        "--seed", "3", "--baseline", "X", "--markdown", "-"], [], "md"),
    ("tui --replay", ["tui", "--replay", "X"], [], "term"),
]
SEARCH_READERS = [
    ("report", ["report", "X"], [], "term"),
    ("report --markdown", ["report", "X", "--markdown", "-"], [], "md"),
    ("plot", ["plot", "X", "-o", "o.svg"], ["o.svg"], "svg"),
    ("tui --replay", ["tui", "--replay", "X"], [], "term"),
]
FP_READERS = [
    ("report", ["report", "X"], [], "term"),
    ("fleet --markdown", ["fleet", "--strict", "X", "F2", "F3", "F4", "--markdown", "-"], [],
     "md"),
    ("fleet --csv", ["fleet", "--strict", "X", "F2", "F3", "F4", "--csv", "-"], [], "csv"),
]
PARTIAL_READERS = [
    ("fleet --strict", ["fleet", "--strict", "X"], [], "term"),
    ("fleet --markdown", ["fleet", "--strict", "X", "--markdown", "-"], [], "md"),
    ("fleet --csv", ["fleet", "--strict", "X", "--csv", "-"], [], "csv"),
]


def dirty(out, dest):
    """Why out holds a raw special of its destination, or None."""
    if b"\x1b" in out:
        return "a raw ESC"
    text = out.decode("utf-8", "replace")
    if dest in ("md", "svg") and "<img" in text:
        return "a raw <img"
    for line in text.split("\n"):
        if dest == "csv" and (re.match(r'^"?=HYPERLINK', line) or
                              re.search(r',"?=HYPERLINK', line)):
            return "a formula at the start of a cell"
        if dest == "md" and line.startswith("`b`"):
            return "a raw newline inside a Markdown line"
    return None


def run_reader(work, reader, extra):
    name, argv, files, dest = reader
    args = [extra.get(a, a) for a in argv]
    for f in files:
        try:
            os.unlink(os.path.join(work, f))
        except OSError:
            pass
    st, out, err = sh(args, work)
    for f in files:
        try:
            with open(os.path.join(work, f), "rb") as fh:
                out += fh.read()
        except OSError:
            pass
    return st, out, err


def normal_status(st):
    return st in (0, 1)


def pool():
    """As many readers at once as the CPUs this process may use."""
    return concurrent.futures.ThreadPoolExecutor(len(os.sched_getaffinity(0)))


def classify(norm, cls, value, reader, st, out, base_out):
    """(result, why it fails or None) of one reader on one mutant."""
    if st == 2:
        res = "refused"
    elif st == "hang" or not normal_status(st):
        res = "crash/hang(%s)" % st
    elif out == base_out:
        res = "accepted-unchanged"
    else:
        res = "accepted-changed"
    bad = None
    if res.startswith("crash"):
        bad = "status %s" % st
    elif res == "accepted-changed" and has_rule(norm, cls):
        bad = "status %s shows %s = %r (a rule's field)" % (st, norm, value)
    elif cls in ("ctl", "formula") and normal_status(st):
        why = dirty(out, reader[3])
        if why:
            bad = "%s in its output for %s = %s" % (why, norm, cls)
    return res, bad


def mutant_texts(doc, budget, seen_texts, base_text):
    """(norm, cls, value, dir) of every mutation of doc, each distinct
    mutated file written once (in place: the mutation is undone after its
    text is taken); a mutant whose text is the unmutated file's, or
    another mutant's, shares that file and its readers' answers."""
    out = []
    for path, norm, cls, value in mutations(doc, budget):
        t = doc
        for p in path[:-1]:
            t = t[p]
        old = t[path[-1]]
        t[path[-1]] = value
        text = json.dumps(doc)
        t[path[-1]] = old
        if text == base_text:
            out.append((norm, cls, value, None))
            continue
        d = seen_texts.get(text)
        if d is None:
            d = os.path.join(TMP, "m%d" % len(seen_texts))
            os.makedirs(d)
            with open(os.path.join(d, "x.json"), "w") as f:
                f.write(text)
            seen_texts[text] = d
        out.append((norm, cls, value, d))
    return out


def judge_all(jobs, extra, found):
    """jobs: (kind, base file) pairs. Every reader of every distinct
    mutant (and of each unmutated file) runs once, all in one pool;
    returns the table rows and the count of reader runs."""
    seen_texts, plan = {}, []
    for kind, base_path in jobs:
        with open(base_path) as f:
            doc = json.load(f)
        work0 = os.path.join(TMP, "b%d" % len(plan))
        os.makedirs(work0)
        base_text = json.dumps(doc)
        with open(os.path.join(work0, "x.json"), "w") as f:
            f.write(base_text)
        plan.append((kind, work0, mutant_texts(doc, BUDGET[kind], seen_texts, base_text)))
    dirs = {}
    for kind, work0, ms in plan:
        for r in READERS[kind]:
            dirs[(work0, r[0])] = (work0, r)
            for _, _, _, d in ms:
                if d:
                    dirs[(d, r[0])] = (d, r)
    with pool() as ex:
        answers = dict(zip(dirs, ex.map(lambda a: run_reader(a[0], a[1], extra)[:2],
                                        dirs.values())))
    results = []
    for kind, work0, ms in plan:
        for norm, cls, value, d in ms:
            for r in READERS[kind]:
                base_out = answers[(work0, r[0])][1]
                st, out = answers[(d or work0, r[0])]
                res, bad = classify(norm, cls, value, r, st, out, base_out)
                results.append((kind, r[0], cls, res))
                if bad:
                    os.makedirs(found, exist_ok=True)
                    slug = re.sub(r"[^A-Za-z0-9_.]+", "_", norm)[:60]
                    dst = os.path.join(found, "%s--%s--%s.json" % (kind, cls, slug))
                    shutil.copy(os.path.join(d or work0, "x.json"), dst)
                    ok(False, "%s %s: %s (kept as %s)" % (kind, r[0], bad, dst))
    return results, len(dirs)


def unxz(n, d):
    p = os.path.join(d, "n%d.json" % n)
    with lzma.open(os.path.join(SRC, "tests", "fixtures", "fleet", "n%d.json.xz" % n)) as f, \
            open(p, "wb") as g:
        g.write(f.read())
    return p


def make_files():
    files = {}
    d = os.path.join(TMP, "base")
    os.makedirs(d)
    r = os.path.join(d, "run.json")
    s = os.path.join(d, "search.json")
    part = os.path.join(d, "part.json")
    fps = [unxz(n, d) for n in (1, 2, 3, 4)]
    # The fleet beside a mutated raw n1: n2-n4 compact (the same figures and
    # the same table as raw, for a seventh of the reading).
    small = [os.path.join(d, "s%d.json" % n) for n in (2, 3, 4)]
    made = [(["run", "-b", "clock-gettime,sim", "-k", "empty,add:10", "-n", "300", "-q",
              "--seed", "3", "--json", r], "a run file made here"),
            (["search", "-b", "sim", "-n", "2000", "--json", s], "a search file made here"),
            (["fleet", "--partial", part] + fps, "a partial made here")]
    made += [(["fingerprint", "--compact", f, "--json", g, "-q"], "%s made small" % f)
             for f, g in zip(fps[1:], small)]
    with pool() as ex:
        for (args, what), (st, _, err) in zip(made, ex.map(lambda m: sh(m[0], d), made)):
            ok(st == 0, "%s (status %s%s)" % (what, st, err.decode()[-200:].strip()))
    files["run"] = [r]
    files["search"] = [s, os.path.join(SRC, "tests", "fixtures", "search-8rows.json")]
    files["fingerprint"] = [fps[0]]
    if os.environ.get("TL_MUTATE_FP") == "1":
        p = os.path.join(d, "here.json")
        st, _, _ = sh(["fingerprint", "--quick", "--compact", "-q", "--json", p], d, 300)
        if st == 0:
            files["fingerprint"].append(p)
    files["partial"] = [part]
    extra = {"X": "x.json", "B": r, "F2": small[0], "F3": small[1], "F4": small[2]}
    return files, extra


# Plain numbers mutated per file (readers x 2 classes each); TL_MUTATE_ALL=1
# (make check-mutate-all) mutates every one.
BUDGET = {"run": 8, "search": 4, "fingerprint": 5, "partial": 6}
READERS = {"run": RUN_READERS, "search": SEARCH_READERS, "fingerprint": FP_READERS,
           "partial": PARTIAL_READERS}


def corpus(extra):
    """Every kept case: rule cases refused by every reader of their kind,
    string cases with clean outputs."""
    cases = []
    for i, path in enumerate(sorted(glob.glob(os.path.join(CORPUS, "*.json")))):
        kind, cls = os.path.basename(path).split("--")[:2]
        work = os.path.join(TMP, "corpus%d" % i)
        os.makedirs(work)
        shutil.copy(path, os.path.join(work, "x.json"))
        cases += [(path, cls, work, r) for r in READERS[kind]]
    with pool() as ex:
        answers = list(ex.map(lambda c: run_reader(c[2], c[3], extra), cases))
    for (path, cls, work, r), (st, out, err) in zip(cases, answers):
        name = "corpus %s: %s" % (os.path.basename(path), r[0])
        if cls in ("ctl", "formula"):
            why = dirty(out, r[3]) if normal_status(st) else None
            ok(st in (0, 1, 2) and not why, "%s: status %s, %s" % (name, st, why or "clean"))
        else:
            ok(st == 2, "%s: refused (status %s: %s)" % (name, st,
                                                         err.decode()[-160:].strip()))
    return len(cases)


def main():
    t0 = time.monotonic()
    found = os.environ.get("TL_MUTATE_FOUND") or os.path.join(TMP, "found")
    files, extra = make_files()
    # TL_MUTATE_CORPUS_ONLY=1: the kept cases alone (a sanitizer build).
    kinds = () if os.environ.get("TL_MUTATE_CORPUS_ONLY") == "1" else (
        "run", "search", "fingerprint", "partial")
    table, spawned = judge_all([(k, p) for k in kinds for p in files[k]], extra, found)
    spawned += corpus(extra)
    counts = {}
    for kind, reader, cls, res in table:
        key = (kind, reader, cls)
        c = counts.setdefault(key, {})
        c[res] = c.get(res, 0) + 1
    print("# reader x mutation class: refused (status 2) / accepted-unchanged / "
          "accepted-changed [/ crash]")
    print("# %-11s %-20s %-8s %8s %10s %8s %6s" % ("kind", "reader", "class", "refused",
                                                  "unchanged", "changed", "crash"))
    for (kind, reader, cls), c in sorted(counts.items()):
        crash = sum(v for k, v in c.items() if k.startswith("crash"))
        print("# %-11s %-20s %-8s %8d %10d %8d %6d" % (
            kind, reader, cls, c.get("refused", 0), c.get("accepted-unchanged", 0),
            c.get("accepted-changed", 0), crash))
    cpu = os.times()
    ok(True, "%d reader answers from %d reader runs in %.1f s (CPU: this driver %.1f s, the "
       "readers %.1f s)" % (len(table), spawned, time.monotonic() - t0,
                            cpu.user + cpu.system, cpu.children_user + cpu.children_system))
    return TAP.done()


sys.exit(main())
