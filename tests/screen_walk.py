#!/usr/bin/env python3
"""Checks one captured TUI screen for text cut off: python3 screen_walk.py
SCREEN_FILE NAME COLS CATALOGUE.json; prints one line per cut, exits 1 when
there is one. NAME is setup, live, info, search, ladder, fleet or help.

A message is "cut" when the screen shows a proper prefix of it that ends
inside a word (or ends at a space with no ellipsis and the message is not
continued on the next line). The catalogue holds every message the screens
draw from (backend descriptions from the sources, unavailable reasons and
the fleet's sentences from the CLI), keyed by backend id where a row has one.
"""
import json, re, sys

screen = open(sys.argv[1], encoding="utf-8").read().split("\n")
name, cols = sys.argv[2], int(sys.argv[3])
cat = json.load(open(sys.argv[4], encoding="utf-8"))
cuts = []
ELL = ("…", "...")


def cut(msg):
    cuts.append(msg)


def mid_word(full, shown):
    """shown is a proper prefix of full: does it end inside a word?"""
    n = len(shown)
    return n < len(full) and not full[n - 1].isspace() and not full[n].isspace()


def check_prefix(where, full, shown, rest_blank):
    """shown: what the screen has of full (stripped at the right)."""
    shown = shown.rstrip()
    if shown.endswith(ELL):
        return  # said to be cut: the whole text is elsewhere
    if shown == full or not full.startswith(shown) or not shown:
        return
    if mid_word(full, shown):
        cut("%s: %r cut mid-word (of %r)" % (where, shown, full))
    elif not rest_blank:
        cut("%s: %r cut at a word with no sign (of %r)" % (where, full[len(shown):][:0] + shown, full))


def segment(line, x):
    """The text from column x up to a gap of 2+ spaces before a list box or
    the end of the line (a neighbouring panel starts after such a gap)."""
    s = line[x:]
    m = re.search(r" \[[ x]\] ", s)
    if m:
        s = s[:m.start()]
    return s


# ---- every screen but help: the key bar keeps ? help and q quit
keybar = [l for l in screen if l.strip()][-1] if any(l.strip() for l in screen) else ""
if name != "help":
    for k in ("? help", "q quit"):
        if k not in keybar:
            cut("key bar lacks %r: %r" % (k, keybar.strip()))

# ---- setup: each backend row's description, each kernel's
if name == "setup":
    for y, line in enumerate(screen):
        for m in re.finditer(r"\[[ x]\] (\S+)\s+", line):
            label, x = m.group(1), m.end()
            text = segment(line, x).rstrip()
            nxt = screen[y + 1][x:] if y + 1 < len(screen) else ""
            rest_blank = True
            if label in cat["backends"]:
                b = cat["backends"][label]
                if text.startswith("unavailable: "):
                    full = "unavailable: " + b.get("reason", "")
                    check_prefix("setup %s" % label, full, text, True)
                elif b.get("how"):
                    how = b["how"]
                    i = text.find(how[:6])
                    if i < 0 and "  " in text:
                        i = text.rfind("  ") + 2
                    if i >= 0:
                        check_prefix("setup %s" % label, how, text[i:], True)
                    else:
                        cut("setup %s: its description is missing (%r)" % (label, text))
            km = re.match(r"add:(\d+)$", label)
            if km:
                check_prefix("setup %s" % label, "%s dependent ADDs" % km.group(1), text, True)
            if label == "empty":
                check_prefix("setup empty", "the timer's own cost", text, True)

# ---- live: the OS-noise filter's note, whole or as its head clause
if name == "live":
    for y, line in enumerate(screen):
        x = line.find("OS-noise filter")
        if x < 0:
            continue
        end = re.search(r"\s{2,}\S", line[x:])
        parts = [line[x:x + end.start()] if end else line[x:].rstrip()]
        for z in screen[y + 1:]:
            seg = z[x:]
            nxt = re.search(r"\s{2,}\S", seg)
            seg = (seg[:nxt.start()] if nxt else seg).rstrip()
            if not seg or seg[0] == " " or seg.startswith(("CDF", "min <")):
                break
            parts.append(seg)
        text = " ".join(p.strip() for p in parts)
        # whole (ends in a number or a parenthesis), or its first clause alone
        if not (re.search(r"[\d)]$", text) or re.fullmatch(r"[\w -]+", text)
                or text.endswith(ELL)):
            cut("live: the filter note ends %r" % text[-40:])

# ---- info: the spoilers' columns align, the fold is signalled, rows whole
if name == "info":
    body = screen[1:-2]
    for line in body:
        m = re.match(r"^  (?:✓|✗|!|-|\?) (\S+)\s+", line)
        if m and m.end() != 16:
            cut("info: spoiler %s's value starts at column %d, not 16" % (m.group(1), m.end()))
        if m and len(line) > 34 and line[33] != " ":
            cut("info: spoiler %s's value runs into the reason column: %r" % (m.group(1), line[16:60]))
    starts = set()
    inb = False
    for line in body:
        if "Backends on this node" in line:
            inb = True
            continue
        m = re.match(r"^   (\S+)( +)(\S)", line)
        if inb and m and m.group(1) in cat["backends"]:
            starts.add(m.start(3))
    if len(starts) > 1:
        cut("info: backend rows start their description at columns %s" % sorted(starts))
    if not any("Backends on this node" in l for l in body) and \
            not any(re.search(r"(▼|v) .*below", l) for l in body[-2:]):
        cut("info: the backends table is below the fold and nothing says so")
    flat = re.sub(r"\s+", " ", " ".join(body))
    if "(defaults sd=" in flat and not re.search(r"\(defaults [^)]*seed=\d+\)", flat):
        cut("info: the sim's description lacks its closing ')'")
    for y, line in enumerate(body):
        for b, v in cat["backends"].items():
            r = v.get("reason")
            if r and ("unavailable: " + r[:20]) in line:
                i = line.find("unavailable: ")
                shown = line[i:].rstrip()
                for z in body[y + 1:]:  # wrapped onto indented lines
                    if not z.startswith(" " * 20) or not z.strip():
                        break
                    shown += " " + z.strip()
                check_prefix("info %s" % b, "unavailable: " + r, shown, False)

# ---- fleet: its sentences are ticklab fleet's, whole
if name == "fleet":
    for s in cat.get("fleet", []):
        for y, line in enumerate(screen):
            i = line.find(s[:16])
            if i < 0:
                continue
            shown = line[i:].rstrip()
            for z in screen[y + 1:]:  # wrapped onto rows indented 2 past its start
                if len(z) <= i + 2 or z[:i + 2].strip() or z[i + 2] == " ":
                    break
                shown += " " + z.strip()
            check_prefix("fleet", s, shown, y + 1 < len(screen) and not screen[y + 1].strip())

# ---- help: the box is whole (each row ends at its right border)
if name == "help":
    rows = [l for l in screen if "│" in l or "|" in l]
    for l in rows:
        t = l.rstrip()
        if t.count("│") == 1 and not t.endswith("┐") and not t.endswith("┘"):
            cut("help: a row has no right border: %r" % t[-30:])

for c in cuts:
    print(c)
sys.exit(1 if cuts else 0)
