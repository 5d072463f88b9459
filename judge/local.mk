# judge/: the verdicts, pure functions over results (no file formats, no
# files): the jitter verdict and its controls, two runs compared
libticklab_a_SOURCES += judge/jitter.c judge/jitter.h judge/compare.c judge/compare.h
