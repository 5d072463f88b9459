# judge/: the verdicts, pure functions over results (no file formats):
# the jitter verdict and its controls
libticklab_a_SOURCES += judge/jitter.c
