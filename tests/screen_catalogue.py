#!/usr/bin/env python3
"""The messages the screens draw from, for tests/screen_walk.py:
python3 screen_catalogue.py SRCDIR INFO.txt FLEET.txt > catalogue.json.
Backend descriptions come from the backends' sources (up to the first macro
in a concatenated literal), unavailable reasons from `ticklab info`, the
fleet's sentences from `ticklab fleet`."""
import glob, json, re, sys

src, info, fleet = sys.argv[1:4]
backends = {}
lit = r'"((?:[^"\\]|\\.)*)"'
for f in sorted(glob.glob(src + "/backends/*.c")):
    text = open(f, encoding="utf-8").read()
    for m in re.finditer(r"\.id\s*=\s*" + lit + r"(.*?)\n\};", text, re.S):
        body = m.group(2)
        h = re.search(r"\.how\s*=\s*((?:" + lit + r"\s*)+)", body)
        if h:
            how = "".join(re.findall(lit, h.group(1)))
            backends[m.group(1)] = {"how": how.encode().decode("unicode_escape")}
for line in open(info, encoding="utf-8"):
    m = re.match(r"^  (\S+)\s+\S+\s+\S+\s+\S+\s+-\s+unavailable: (.*)$", line.rstrip("\n"))
    if m:
        backends.setdefault(m.group(1), {})["reason"] = m.group(2)
sent = [l.rstrip("\n") for l in open(fleet, encoding="utf-8") if re.match(r"^n\d+: ", l)]
json.dump({"backends": backends, "fleet": sent}, sys.stdout, indent=1)
