#!/bin/sh
# `ticklab plot`: every kind of figure (a run's histograms on a shared and on
# their own axes, its CDFs, its memory ladder, a search's t_min/t_diff and its CV and overlap
# curves) in every format, checked
# to be a valid SVG, PNG or PDF of the size asked for, with the theme's series
# colours and one dash pattern per series; bad input exits 2 and a figure that
# cannot be written exits 1 leaving nothing behind.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read the figures back"
B=$TL_BIN

"$B" plot --help >/dev/null 2>&1 || { ok 1 "ticklab plot exists"; done_testing; exit; }
"$B" run --backend sim,sim:sd=3,sim:quantum=10 --kernel add:100,add:400 -n 600 --seed 7 \
	--json "$tmp/run.json" >/dev/null 2>&1
ok $? "a sim run to draw"
"$B" search --backend sim,sim:sd=3 -n 400 --seed 7 --json "$tmp/search.json" >/dev/null 2>&1
ok $? "a sim search to draw"

# check FILE FORMAT W H: the file parses as FORMAT and is W x H (pixels or points)
check() {
	"$PY" - "$@" <<'PYEOF'
import struct, sys, re, xml.etree.ElementTree as ET
path, fmt, w, h = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
data = open(path, 'rb').read()
if fmt == 'png':
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'png signature'
    assert data[12:16] == b'IHDR', 'IHDR first'
    gw, gh = struct.unpack('>II', data[16:24])
    assert data[-8:-4] == b'IEND', 'IEND last'
elif fmt == 'svg':
    root = ET.fromstring(data)
    assert root.tag == '{http://www.w3.org/2000/svg}svg', root.tag
    gw = float(re.match(r'[\d.]+', root.get('width')).group())
    gh = float(re.match(r'[\d.]+', root.get('height')).group())
else:
    assert data.startswith(b'%PDF-'), 'pdf header'
    assert data.rstrip().endswith(b'%%EOF'), 'pdf trailer'
    m = re.search(rb'/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]', data)
    assert m, 'MediaBox'
    gw, gh = float(m.group(1)), float(m.group(2))
assert (gw, gh) == (w, h), 'size %sx%s, want %sx%s' % (gw, gh, w, h)
PYEOF
}

for fmt in svg png pdf; do
	for kind in "hist --axis shared" "hist --axis own" "cdf"; do
		name=$(echo "$kind" | tr -d ' -')
		"$B" plot "$tmp/run.json" -o "$tmp/$name.$fmt" --kind $kind 2>"$tmp/err"
		ok $? "run --kind $kind as $fmt"
		check "$tmp/$name.$fmt" $fmt 800 600 2>"$tmp/err"
		ok $? "run --kind $kind: a valid $fmt of 800x600 $(head -c 200 "$tmp/err")"
	done
	for kind in search cv overlap; do
		"$B" plot "$tmp/search.json" -o "$tmp/search-$kind.$fmt" --kind $kind 2>"$tmp/err"
		ok $? "search --kind $kind as $fmt $(head -c 200 "$tmp/err")"
		check "$tmp/search-$kind.$fmt" $fmt 800 600 2>"$tmp/err"
		ok $? "search --kind $kind: a valid $fmt of 800x600 $(head -c 200 "$tmp/err")"
	done
done

# the points a search kept: one per evaluation of every repeat, and the
# answer is among them with the statistic the repeat reports
"$PY" - "$tmp/search.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
seen = 0
for c in d["results"]:
    for m, stat in (("tmin", "cv"), ("tdiff", "alpha")):
        for r in c[m]["repeats"]:
            if not r:
                continue
            pts = r["points"]
            assert len(pts) == r["evaluations"], (m, len(pts), r["evaluations"])
            assert all(len(p) == 2 and p[0] >= 0 for p in pts), pts
            if r["converged"]:
                hit = [p for p in pts if p[0] == r["adds"]]
                assert hit and any(abs(p[1] - r[stat]) <= 1e-12 for p in hit), (m, r["adds"], hit)
            seen += len(pts)
assert seen > 0
PYEOF
ok $? "each repeat keeps one point per evaluation, its answer among them"
# a file from before the points: the other kinds still draw, the curves are refused
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["results"]:
    for m in ("tmin", "tdiff"):
        for r in c[m]["repeats"]:
            if r: r.pop("points", None)
json.dump(d, open(sys.argv[2], "w"))' "$tmp/search.json" "$tmp/old.json"
"$B" plot "$tmp/old.json" -o "$tmp/old.png" 2>/dev/null
ok $? "a search file without points still draws its t_min/t_diff figure"
"$B" report "$tmp/old.json" >/dev/null 2>&1
ok $? "and still reads back (report)"
"$B" plot "$tmp/run.json" -o "$tmp/big.PNG" --size 1280x720 2>/dev/null
check "$tmp/big.PNG" png 1280 720
ok $? "--size 1280x720 gives a 1280x720 PNG (the ending's case does not matter)"

# colours and dashes: light's series1..4, as its file gives them, in cairo's
# SVG spelling (each channel in per cent, six decimals, zeros trimmed),
# and, for the four CDFs, four line styles (solid has no dasharray)
svg_rgb() { # svg_rgb ROLE: light.theme's colour of ROLE as cairo writes it
	h=$(sed -n "s/^theme\\[$1\\]=\"#\\([0-9a-fA-F]\\{6\\}\\)\"/\\1/p" "${TL_TOP_SRCDIR:-.}/themes/light.theme")
	[ -n "$h" ] || return 0
	printf '%d %d %d\n' "0x$(echo "$h" | cut -c1-2)" "0x$(echo "$h" | cut -c3-4)" "0x$(echo "$h" | cut -c5-6)" |
		awk '{ s = ""; for (i = 1; i <= 3; i++) { v = sprintf("%.6f", $i * 100 / 255);
			sub(/0+$/, "", v); sub(/\.$/, "", v); s = s (i > 1 ? "," : "") v "%" } print s }'
}
"$B" plot "$tmp/run.json" --kind cdf -o "$tmp/cdf4.svg" 2>/dev/null
n=$(grep -o 'stroke-dasharray:[^;]*' "$tmp/cdf4.svg" | sort -u | wc -l)
[ "$n" -ge 5 ]; ok $? "6 CDFs: at least 5 distinct dash patterns besides solid ($n)"
for r in series1 series2 series3 series4; do
	c=$(svg_rgb $r)
	[ -n "$c" ] && grep -q "rgb($c)" "$tmp/cdf4.svg"; ok $? "light theme's $r rgb($c) is used"
done
"$B" plot "$tmp/run.json" --kind cdf --theme mono -o "$tmp/mono.svg" 2>/dev/null
check "$tmp/mono.svg" svg 800 600; ok $? "--theme mono (terminal colours only) still draws"

# bad input: 2 with a message naming what is accepted; nothing written
expect_status 2 "no -o" "$B" plot "$tmp/run.json"
expect_status 2 "unknown ending" "$B" plot "$tmp/run.json" -o "$tmp/x.jpg"
grep -q '.svg, .png or .pdf' /tmp/tl_tap_err.$$; ok $? "the message names the endings"
expect_status 2 "bad --axis" "$B" plot "$tmp/run.json" -o "$tmp/x.png" --axis both
expect_status 2 "bad --size" "$B" plot "$tmp/run.json" -o "$tmp/x.png" --size 10x10
expect_status 2 "unknown theme" "$B" plot "$tmp/run.json" -o "$tmp/x.png" --theme nope
expect_status 2 "a run has no kind search" "$B" plot "$tmp/run.json" -o "$tmp/x.png" --kind search
expect_status 2 "a search file without points has no CV curve" "$B" plot "$tmp/old.json" -o "$tmp/x.png" --kind cv
grep -q 'no CV-vs-t curve' /tmp/tl_tap_err.$$; ok $? "the message says the search file has no curve"
expect_status 2 "nor an overlap curve" "$B" plot "$tmp/old.json" -o "$tmp/x.png" --kind overlap
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["results"][0]["tmin"]["repeats"][0]["points"][0] = [1, "x"]
json.dump(d, open(sys.argv[2], "w"))' "$tmp/search.json" "$tmp/badpts.json"
expect_status 2 "a malformed point is bad input" "$B" plot "$tmp/badpts.json" -o "$tmp/x.png" --kind cv
grep -q 'results\[0\].tmin.repeats\[0\].points\[0\]' /tmp/tl_tap_err.$$; ok $? "the message names the point"
# --kind ladder on a recorded node (the Zen 5 guest's hwloc XML and chase):
# the ladder's 2xL3 goes by the chase's 4MiB L3, its host records both
# sizes, and the figure is drawn in every format; a run without load cells
# has no ladder.
FX=${TL_TOP_SRCDIR:-.}/tests/fixtures
HWLOC_XMLFILE=$FX/hwloc-amd-zen5-bhyve-guest.xml TL_LEVELS_FROM=$FX/chase/amd-zen5-bhyve-guest.txt \
	"$B" run --backend sim --kernel load:4KiB..2xL3 -n 100 --seed 7 --json "$tmp/ladder.json" \
	>/dev/null 2>"$tmp/err"
ok $? "a sim ladder run on the recorded Zen 5 guest"
grep -q 'cache multiples go by L3 4MiB measured by a chase (hwloc says 508MiB)' "$tmp/err"
ok $? "run says the multiples go by the measured L3"
"$PY" - "$tmp/ladder.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
h = d["host"]
lv = {l["name"]: l for l in h["memory_levels"]}
assert lv["L3"]["cpuid_bytes"] == 508 << 20 and lv["L3"]["boundary_bytes"] == 4 << 20, lv["L3"]
assert lv["L3"]["seen"] and not lv["L3"]["cpuid_agrees"], lv["L3"]
assert "L3 4MiB" in h["cache_multiples_sized_by"], h["cache_multiples_sized_by"]
assert d["cells"] and not any("GiB" in c["kernel"] for c in d["cells"]), "no size past 8MiB"
PYEOF
ok $? "the run's host states the measured and reported L3, and no load size is sized by 508MiB"
for fmt in svg png pdf; do
	"$B" plot "$tmp/ladder.json" -o "$tmp/ladder.$fmt" --kind ladder 2>"$tmp/err"
	ok $? "run --kind ladder as $fmt $(head -c 200 "$tmp/err")"
	check "$tmp/ladder.$fmt" $fmt 800 600 2>"$tmp/err"
	ok $? "run --kind ladder: a valid $fmt of 800x600 $(head -c 200 "$tmp/err")"
done
# bad input, not a failure to draw: the run cannot be a ladder
expect_status 2 "a run without load cells has no ladder" "$B" plot "$tmp/run.json" -o "$tmp/x.png" --kind ladder
grep -q 'no load cells' /tmp/tl_tap_err.$$; ok $? "the message says why"
"$B" plot "$tmp/run.json" -o "$tmp/x.png" --kind ladr 2>&1 | grep -q "did you mean 'ladder'?"
ok $? "a kind misspelt is offered fixed"
"$B" plot "$tmp/run.json" -o "$tmp/x.png" --theme ligth 2>&1 | grep -q "did you mean 'light'?"
ok $? "a theme misspelt is offered fixed"
# a fingerprint is a file plot does not draw: the message names its readers
printf '{"ticklab": {"version": "0.1.0", "command": "fingerprint"}}\n' >"$tmp/fp.json"
expect_status 2 "a fingerprint is not plotted" "$B" plot "$tmp/fp.json" -o "$tmp/x.png"
grep -q 'ticklab report' /tmp/tl_tap_err.$$ && grep -q 'ticklab fleet' /tmp/tl_tap_err.$$
ok $? "a fingerprint's refusal names report and fleet as its readers"
expect_status 2 "a run has no kind cv" "$B" plot "$tmp/run.json" -o "$tmp/x.png" --kind cv
expect_status 2 "not a ticklab file" "$B" plot "$tmp/err" -o "$tmp/x.png"
[ ! -e "$tmp/x.png" ] && [ ! -e "$tmp/x.jpg" ]; ok $? "no file left by refused input"
expect_status 2 "a missing directory (bad input, as for run --json)" "$B" plot "$tmp/run.json" -o /nonexistent/dir/x.png

# slides: picking cells as run does, the clip stated, a log axis, a large page
"$B" run --backend sim,sim:sd=3 --flush 0,64KiB --kernel empty,add:100 -n 400 --seed 7 \
	--json "$tmp/grid.json" >/dev/null 2>&1
ok $? "a 2 x 2 x 2 sim run to pick from"
expect_status 2 "an unknown --backend" "$B" plot "$tmp/grid.json" -o "$tmp/x.png" --backend barrier-tsc
grep -q "backend 'barrier-tsc'.*accepted (what it has): sim, sim:sd=3" /tmp/tl_tap_err.$$
ok $? "the message names the backends the file has"
expect_status 2 "an unknown --kernel" "$B" plot "$tmp/grid.json" -o "$tmp/x.png" -k add:999
grep -q "accepted (what it has): empty, add:100" /tmp/tl_tap_err.$$; ok $? "and its kernels"
expect_status 2 "an unknown --flush" "$B" plot "$tmp/grid.json" -o "$tmp/x.png" -f 1MiB
grep -q "accepted (what it has): 0, 64KiB" /tmp/tl_tap_err.$$; ok $? "and its flush sizes"
expect_status 2 "a kernel run cannot parse" "$B" plot "$tmp/grid.json" -o "$tmp/x.png" -k bogus
expect_status 2 "--clip below 0.5" "$B" plot "$tmp/grid.json" -o "$tmp/x.png" --clip 0.3
grep -q "accepted: a quantile from 0.5 to 1" /tmp/tl_tap_err.$$; ok $? "the message names the accepted clips"
expect_status 2 "--clip junk" "$B" plot "$tmp/grid.json" -o "$tmp/x.png" --clip 99x
expect_status 2 "--log-x is for hist and cdf" "$B" plot "$tmp/search.json" -o "$tmp/x.png" --kind cv --log-x
expect_status 2 "picking cells is for hist and cdf" "$B" plot "$tmp/search.json" -o "$tmp/x.png" -b sim
# one cell picked (65536 is 64KiB, add:0100 is add:100, as run reads them):
# the first series colour only
"$B" plot "$tmp/grid.json" -o "$tmp/one.svg" --kind cdf -b sim:sd=3 -f 65536 -k add:0100 2>/dev/null
ok $? "one cell picked by values written as run takes them"
grep -q "rgb($(svg_rgb series1))" "$tmp/one.svg" &&
	! grep -q "rgb($(svg_rgb series3))" "$tmp/one.svg" &&
	! grep -q 'stroke-dasharray' "$tmp/one.svg"
ok $? "one cell drawn: the first series colour and line (solid), not the third's"
"$B" plot "$tmp/grid.json" -o "$tmp/four.svg" --kind cdf -k add:100 2>/dev/null
"$B" plot "$tmp/grid.json" -o "$tmp/eight.svg" --kind cdf 2>/dev/null
n4=$(grep -o 'stroke-dasharray:[^;]*' "$tmp/four.svg" | sort -u | wc -l)
n8=$(grep -o 'stroke-dasharray:[^;]*' "$tmp/eight.svg" | sort -u | wc -l)
[ "$n4" -ge 3 ] && [ "$n4" -lt "$n8" ]
ok $? "-k add:100 draws 4 of the 8 CDFs: fewer dash patterns ($n4 < $n8), 3 or more"
# the share outside the axis: every cell loses at most 1 - Q at each end, so
# at most 1 % in all at Q = 0.995; none with --clip none
clip_share() {
	sed -n 's/.*: \([0-9]*\) of \([0-9]*\) samples (.*) outside$/\1 \2/p' "$1"
}
for kind in hist cdf; do
	"$B" plot "$tmp/grid.json" -o "$tmp/c.svg" --kind $kind 2>"$tmp/err"
	grep -q "note: $tmp/c.svg: x axis p0.5..p99.5 of each cell (shared)" "$tmp/err"
	ok $? "$kind: the default clip is said on stderr $(head -c 200 "$tmp/err")"
	set -- $(clip_share "$tmp/err")
	[ -n "$2" ] && [ "$2" -gt 0 ] && [ $(($1 * 100)) -le "$2" ]
	ok $? "$kind: at most 1 % of the samples outside p0.5..p99.5 ($1 of $2)"
	"$B" plot "$tmp/grid.json" -o "$tmp/c.svg" --kind $kind --clip none 2>"$tmp/err"
	grep -q "x axis min..max .*: 0 of $2 samples (0%) outside" "$tmp/err"
	ok $? "$kind --clip none: nothing outside $(head -c 200 "$tmp/err")"
	"$B" plot "$tmp/grid.json" -o "$tmp/c.svg" --kind $kind --clip p90 2>"$tmp/err"
	set -- $(clip_share "$tmp/err")
	[ -n "$2" ] && [ $(($1 * 5)) -le "$2" ]
	ok $? "$kind --clip p90: at most 20 % outside ($1 of $2)"
	"$B" plot "$tmp/grid.json" -o "$tmp/log.svg" --kind $kind --log-x -k add:100 2>"$tmp/err"
	ok $? "$kind --log-x draws"
	check "$tmp/log.svg" svg 800 600; ok $? "$kind --log-x: a valid svg"
	grep -q ", log: [0-9]* of [0-9]* samples" "$tmp/err"; ok $? "$kind --log-x: said with the clip"
	# the empty kernel's samples sit around 0 after the timer's cost is taken off:
	# on a log axis those <= 0 go to the marked edge bin, none is lost
	"$B" plot "$tmp/grid.json" -o "$tmp/log0.svg" --kind $kind --log-x --clip none -k empty 2>"$tmp/err"
	n0=$(sed -n 's/.*: 0 of \([0-9]*\) samples (0%) outside; \([0-9]*\) (.*) <= 0 drawn in the "<= 0" bin.*/\2 \1/p' "$tmp/err")
	set -- $n0
	[ -n "$1" ] && [ "$1" -gt 0 ] && [ "$1" -lt "$2" ]
	ok $? "$kind --log-x --clip none: nothing outside, the ${1:-?} samples <= 0 in the edge bin ($(head -c 240 "$tmp/err"))"
done
# the cv figure says how many points sit on its cut top edge (8 x eps), as
# counted from the file's points
"$B" plot "$tmp/search.json" -o "$tmp/cv.svg" --kind cv 2>"$tmp/err"
"$PY" - "$tmp/search.json" "$tmp/err" <<'PYEOF'
import json, math, re, sys
d = json.load(open(sys.argv[1]))
eps = d["params"]["eps"]
ys = [p[1] for c in d["results"] for r in c["tmin"]["repeats"] if r
      for p in r.get("points", []) if p[0] > 0 and math.isfinite(p[1])]
top = min(max(max(ys), 2 * eps), 8 * eps)
above = sum(y > top for y in ys)
err = open(sys.argv[2]).read()
if above:
    m = re.search(r"CV axis cut at 8 x eps = ([\d.e-]+): (\d+) of (\d+) points", err)
    assert m and int(m.group(2)) == above and int(m.group(3)) == len(ys), (err, above, len(ys))
else:
    assert "CV axis cut" not in err, err
PYEOF
ok $? "cv: the points above 8 x eps, counted as the file has them"
"$B" plot "$tmp/grid.json" -o "$tmp/slide.png" --size 1920x1080 -k add:100 2>/dev/null
check "$tmp/slide.png" png 1920 1080; ok $? "--size 1920x1080 with picked cells"
done_testing
