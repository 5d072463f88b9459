#!/bin/sh
# The layers' one-way dependencies, kept true by grepping the includes:
# cli/tui -> io -> judge -> bench -> stats/backends -> base. A file may include its own
# folder and the folders below it; tui/ is reached from cli/ only through
# cli/cmd_tui.c and cli/main.c, and nothing below cli/ includes cli/.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
SRC=${TL_TOP_SRCDIR:-.}

# layer FOLDER "ALLOWED FOLDERS": every project include of FOLDER's sources
# names one of the allowed folders (or FOLDER itself).
layer() {
	dir=$1 allowed="$1 $2"
	bad=""
	for f in "$SRC/$dir"/*.c "$SRC/$dir"/*.h; do
		[ -e "$f" ] || continue
		for inc in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/.*".*/\1/p' "$f" | sort -u); do
			case " $allowed " in
			*" $inc "*) ;;
			*) bad="$bad ${f#$SRC/}->$inc/" ;;
			esac
		done
	done
	[ -z "$bad" ]; ok $? "$dir/ includes only $dir/${2:+ and $2}${bad:+ (found:$bad)}"
}

layer base ""
layer backends "base"
layer stats "base"
layer bench "backends stats base"
layer bench/kernels "bench backends stats base"
layer judge "bench backends stats base"
layer io "judge bench backends stats base"
layer tui "io judge bench backends stats base"
layer cli "tui io judge bench backends stats base"

# Every folder of sources is one of the floors above: a new one would be
# checked by nothing.
layers=" base backends stats bench judge io tui cli "
bad=""
for d in "$SRC"/*/; do
	d=${d%/}; d=${d##*/}
	case $d in tests | contrib | themes | docs | m4 | build-aux | autom4te.cache) continue ;; esac
	ls "$SRC/$d"/*.c >/dev/null 2>&1 || continue
	case $layers in *" $d "*) ;; *) bad="$bad $d/" ;; esac
done
[ -z "$bad" ]; ok $? "every folder of sources is a checked floor${bad:+ (not: $bad)}"

# cli/ reaches tui/ only where the TUI is started.
bad=$(grep -l '^[[:space:]]*#[[:space:]]*include[[:space:]]*"tui/' "$SRC"/cli/*.c "$SRC"/cli/*.h 2>/dev/null |
	sed "s|^$SRC/||" | grep -v -e '^cli/cmd_tui\.c$' -e '^cli/main\.c$' | tr '\n' ' ')
[ -z "$bad" ]; ok $? "only cli/cmd_tui.c and cli/main.c include tui/${bad:+ (also: $bad)}"

# The check itself sees includes: a folder with none would pass vacuously.
n=$(grep -c '#include "stats/' "$SRC"/bench/*.c | awk -F: '{ s += $2 } END { print s }')
[ "$n" -gt 0 ]; ok $? "the grep finds bench/'s includes of stats/ ($n)"
n=$(grep -c '#include "bench/' "$SRC"/judge/*.c "$SRC"/judge/*.h | awk -F: '{ s += $2 } END { print s }')
[ "$n" -gt 0 ]; ok $? "the grep finds judge/'s includes of bench/ ($n)"
done_testing
