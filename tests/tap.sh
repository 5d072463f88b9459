# TAP helpers for shell tests; source this file.
# PY: configure's python3 (TL_PYTHON3: the first on PATH with numpy, scipy
# and sklearn), else the first python3 on PATH; empty when there is none.
PY=${TL_PYTHON3:-$(command -v python3 2>/dev/null)}
tap_n=0
tap_failed=0
ok() { # ok STATUS DESCRIPTION
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"; else echo "not ok $tap_n - $2"; tap_failed=$((tap_failed + 1)); fi
}
diag() { echo "# $*"; }
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
done_testing() { echo "1..$tap_n"; [ "$tap_failed" -eq 0 ]; }
# tap_from FILE: feeds an embedded python check's "ok"/"not ok" lines (and
# its "#" notes) into this TAP stream.
tap_from() {
	while read -r line; do
		case $line in
		"ok "*) ok 0 "${line#ok - }" ;;
		"not ok "*) ok 1 "${line#not ok - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$1"
}
# expect_status WANT DESCRIPTION CMD...: runs CMD, checks its exit status.
expect_status() {
	want=$1; desc=$2; shift 2
	"$@" >/tmp/tl_tap_out.$$ 2>/tmp/tl_tap_err.$$; got=$?
	[ "$got" -eq "$want" ]; ok $? "$desc (status $got, want $want)"
	[ "$got" -eq "$want" ] || sed 's/^/#   /' /tmp/tl_tap_err.$$ | head -n 5
}
# cli_test_init WHY: the start of a test of the ticklab binary. TL_TOP_SRCDIR,
# TL_TOP_BUILDDIR and TL_BIN default to a run from the build directory, PY
# must be a python3 (without one the test is skipped, saying WHY) and $tmp
# is a scratch directory removed on exit.
cli_test_init() {
	: "${TL_TOP_SRCDIR:=.}" "${TL_TOP_BUILDDIR:=.}" "${TL_BIN:=./ticklab}"
	[ -n "$PY" ] && [ -x "$PY" ] || skip_all "$1"
	tmp=$(mktemp -d) || exit 1
	trap 'rm -rf "$tmp"' EXIT
}
