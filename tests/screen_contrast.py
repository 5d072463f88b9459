#!/usr/bin/env python3
"""screen_contrast.py CAPTURE DEFAULT_FG DEFAULT_BG: reads a tmux
`capture-pane -e -p` capture and prints each (fg, bg) pair that a visible
character is drawn in with its WCAG 2 contrast, worst first; exits 1 when
one is below 4.5:1 (3:1 for box-drawing and block glyphs, which are lines
and bars, not text). DEFAULT_FG/BG (RRGGBB) stand for the terminal's own
colours. Colours as xterm shows them: its 16 ANSI values, the 256-colour
cube and grey ramp, or truecolour. Written from the WCAG 2.1 definition
(relative luminance, (L1 + 0.05) / (L2 + 0.05)), independent of ticklab's
own io/theme_contrast.c."""
import re
import sys

ANSI = [0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
        0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff]
CUBE = [0, 0x5f, 0x87, 0xaf, 0xd7, 0xff]


def pal(i):
    if i < 16:
        return ANSI[i]
    if i >= 232:
        g = 8 + 10 * (i - 232)
        return g << 16 | g << 8 | g
    i -= 16
    return CUBE[i // 36] << 16 | CUBE[i // 6 % 6] << 8 | CUBE[i % 6]


def lum(c):
    def ch(v):
        v /= 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * ch(c >> 16 & 255) + 0.7152 * ch(c >> 8 & 255) + 0.0722 * ch(c & 255)


def contrast(a, b):
    la, lb = lum(a), lum(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def main():
    text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
    dfg, dbg = int(sys.argv[2], 16), int(sys.argv[3], 16)
    fg = bg = None
    rev = False
    pairs = {}
    for tok in re.split(r"(\x1b\[[0-9;]*m)", text):
        m = re.fullmatch(r"\x1b\[([0-9;]*)m", tok)
        if m:
            p = [int(x) if x else 0 for x in m.group(1).split(";")]
            i = 0
            while i < len(p):
                q = p[i]
                if q == 0:
                    fg = bg = None
                    rev = False
                elif q == 7:
                    rev = True
                elif q == 27:
                    rev = False
                elif 30 <= q <= 37:
                    fg = ANSI[q - 30]
                elif 90 <= q <= 97:
                    fg = ANSI[q - 82]
                elif 40 <= q <= 47:
                    bg = ANSI[q - 40]
                elif 100 <= q <= 107:
                    bg = ANSI[q - 92]
                elif q == 39:
                    fg = None
                elif q == 49:
                    bg = None
                elif q in (38, 48) and i + 2 < len(p) and p[i + 1] == 5:
                    if q == 38:
                        fg = pal(p[i + 2])
                    else:
                        bg = pal(p[i + 2])
                    i += 2
                elif q in (38, 48) and i + 4 < len(p) and p[i + 1] == 2:
                    c = p[i + 2] << 16 | p[i + 3] << 8 | p[i + 4]
                    if q == 38:
                        fg = c
                    else:
                        bg = c
                    i += 4
                i += 1
            continue
        for chr_ in tok:
            if chr_ in " \n":
                continue
            f = dfg if fg is None else fg
            b = dbg if bg is None else bg
            if rev:
                f, b = b, f
            line = 0x2500 <= ord(chr_) <= 0x259f or 0x2800 <= ord(chr_) <= 0x28ff
            key = (f, b, line)
            pairs.setdefault(key, [0, chr_])[0] += 1
    worst = sorted(pairs.items(), key=lambda kv: contrast(kv[0][0], kv[0][1]) / (3.0 if kv[0][2] else 4.5))
    bad = 0
    for (f, b, line), (n, ex) in worst:
        c = contrast(f, b)
        need = 3.0 if line else 4.5
        bad += c < need
        print("#%06x on #%06x %6.2f:1 (bar %.1f) %5d chars, e.g. %s%s" %
              (f, b, c, need, n, ex, "  BELOW" if c < need else ""))
    return 1 if bad else 0


sys.exit(main())
