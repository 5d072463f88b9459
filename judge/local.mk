# judge/: the verdicts, pure functions over results (no file formats, no
# files): the jitter verdict and its controls, two runs compared, a node's
# figures and how the fleet judges them, the fleet judge
libticklab_a_SOURCES += judge/jitter.c judge/jitter.h judge/compare.c judge/compare.h \
	judge/figures.c judge/figures.h judge/fleet.c judge/fleet.h \
	judge/lesson.c judge/lesson.h
