# base/ files (see Makefile.am): the policies every layer shares.
libticklab_a_SOURCES += base/xalloc.c base/xalloc.h base/suggest.c base/suggest.h \
	base/file_guard.c base/file_guard.h base/list.c base/list.h \
	base/note.c base/note.h

check_PROGRAMS += tests/test_xalloc tests/test_suggest tests/test_note
tests_test_xalloc_SOURCES = tests/test_xalloc.c
tests_test_xalloc_LDADD = $(TL_LIBS)
TESTS += tests/test_xalloc
tests_test_suggest_SOURCES = tests/test_suggest.c
tests_test_suggest_LDADD = $(TL_LIBS)
TESTS += tests/test_suggest
tests_test_note_SOURCES = tests/test_note.c
tests_test_note_LDADD = $(TL_LIBS)
TESTS += tests/test_note
