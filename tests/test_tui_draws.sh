#!/bin/sh
# "A draw reads state", held by what draws do, not only by their names.
# The read side of the TUI is every function in tui/ that takes the app
# through `const struct tui_app *` (each screen's draw, its helpers, and
# the questions the loop asks a screen). None of them may
#   - take a lock (a draw never waits on a worker: poll copies for it),
#   - cast to a pointer type without const (a cast is how const is lost),
#   - keep a static that is not const (a buffer shared across frames;
#     nor may any function that puts text on the terminal),
#   - hold a screen's state, or anything the app points to, through a
#     pointer without const (priv is void *: the compiler would let it;
#     what a function allocates afresh is its own).
# And every function named draw_* or *_draw takes the app as const, with
# its other struct pointers const too (but where it writes on purpose:
# the click map and a canvas of its own). Screens are chosen by the table
# of tui/screens.def: no switch on the screen, no branch on it in tui.c.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
SRC=${TL_TOP_SRCDIR:-.}
T=${TMPDIR:-/tmp}/tl_draws.$$
trap 'rm -f "$T".*' EXIT

# One line per offence, "file:line: function: what: text". A function
# starts at a line holding only "{" (the house style), its signature is
# the lines before it since the last top-level statement, it ends at "}".
# A function that puts text on the terminal (tui_put*, tui_fill) draws
# too, whatever it takes: it may keep no static either.
awk '
function judge(   i, line, c, cast) {
	draws = body ~ /tui_put|tui_fill/;
	for (i = 1; i <= nb; i++) {
		line = lines[i]; sub(/\/\*.*$/, "", line); sub(/^[ \t]*\*.*$/, "", line);
		if ((reader || draws) && line ~ /^[ \t]+static / && line !~ /^[ \t]+static const /)
			printf "%s:%d: %s: keeps a static that is not const: %s\n", FILENAME, at[i], name, lines[i];
		if (!reader)
			continue;
		if (line ~ /pthread_mutex_(lock|trylock)|pthread_rwlock_|sem_wait|tui_job_lock|flockfile/)
			printf "%s:%d: %s: takes a lock: %s\n", FILENAME, at[i], name, lines[i];
		c = line;
		while (match(c, /\((const )?(struct |union |enum )?[a-z_][a-z_0-9]* \*+\)/)) {
			cast = substr(c, RSTART, RLENGTH);
			if (cast !~ /^\(const /)
				printf "%s:%d: %s: casts to a pointer without const: %s\n", FILENAME, at[i], name, lines[i];
			c = substr(c, RSTART + RLENGTH);
		}
		if (line ~ /^[ \t]+(struct|union) [a-z_]+ \*+[a-z_0-9]+ = &?[A-Za-z_]*\(?app\)?->/)
			printf "%s:%d: %s: holds state without const: %s\n", FILENAME, at[i], name, lines[i];
	}
}
FNR == 1 { depth = 0; sig = ""; }
depth == 0 && /^\{$/ {
	depth = 1; name = sig; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name);
	reader = sig ~ /const struct tui_app \*/;
	isdraw = name ~ /^draw(_|$)|_draw$/;
	if (isdraw && !reader && name != "tui_live_may_draw")
		printf "%s:%d: %s: a draw without a const app: %s\n", FILENAME, FNR, name, sig;
	if (isdraw) {
		s = sig; gsub(/const struct [a-z_]+ \*/, "", s);
		gsub(/struct tui_hits \*|struct tui_canvas \*/, "", s);
		if (s ~ /struct [a-z_]+ \*/)
			printf "%s:%d: %s: a draw takes state without const: %s\n", FILENAME, FNR, name, sig;
	}
	sig = ""; nb = 0; body = ""; next;
}
depth == 0 {
	if ($0 ~ /^[a-z]/) sig = $0; else if (sig != "" && $0 ~ /^[ \t]/) sig = sig " " $0;
	if ($0 ~ /;[ \t]*$/ || $0 ~ /^}/ || $0 ~ /^#/) sig = "";
	next;
}
/^\}/ { depth = 0; judge(); next; }
{ lines[++nb] = $0; at[nb] = FNR; body = body "\n" $0; }
' "$SRC"/tui/*.c >"$T.bad"

readers=$(awk 'depth == 0 && /^\{$/ { depth = 1; if (sig ~ /const struct tui_app \*/) n++; sig = ""; next }
	depth == 0 { if ($0 ~ /^[a-z]/) sig = $0; else if (sig != "" && $0 ~ /^[ \t]/) sig = sig " " $0;
		     if ($0 ~ /;[ \t]*$/ || $0 ~ /^}/) sig = ""; next }
	/^\}/ { depth = 0 } END { print n + 0 }' "$SRC"/tui/*.c)
[ "$readers" -gt 40 ]
ok $? "the read side is found ($readers functions take a const app)"

for what in "a draw without a const app" "a draw takes state without const" "takes a lock" \
	"casts to a pointer without const" "keeps a static that is not const" \
	"holds state without const"; do
	grep -F ": $what: " "$T.bad" >"$T.one"
	[ ! -s "$T.one" ]
	ok $? "no reader: $what ($(wc -l <"$T.one") found)"
	sed 's/^/#   /' "$T.one"
done

! grep -nE 'switch \(app->screen\)' "$SRC"/tui/*.c
ok $? "no screen is chosen by a switch"
grep -nE 'app->screen [!=]=' "$SRC/tui/tui.c" >"$T.one"
[ ! -s "$T.one" ]
ok $? "the event loop (tui.c) has no branch on the screen shown ($(wc -l <"$T.one") found)"
sed 's/^/#   /' "$T.one"
screens=$(grep -c '^TUI_SCREEN(' "$SRC/tui/screens.def")
ops=$(grep -l 'const struct tui_screen_ops tui_[a-z]*_screen = {' "$SRC"/tui/*.c | wc -l)
[ "$screens" -eq "$ops" ]
ok $? "each of the $screens lines of screens.def has its screen's ops in one file ($ops)"
done_testing
