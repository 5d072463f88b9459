#!/bin/sh
# Every reader against files of every kind with each numeric field pushed
# past its rule and each string through its destination's specials, and the
# corpus of cases found so far (tests/mutants); the driver is
# tests/mutate.py, which prints the table reader x mutation class.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to write the mutants"
# A mutant that fails is kept beside the build for the corpus.
TL_MUTATE_FOUND="$TL_TOP_BUILDDIR/mutants-found" "$PY" "$TL_TOP_SRCDIR/tests/mutate.py" "$TL_BIN" "$tmp" "$TL_TOP_SRCDIR"
