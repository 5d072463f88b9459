# io/ files: JSON/CSV of runs and searches, shared cell analysis
libticklab_a_SOURCES += io/analysis.c io/analysis.h io/results.c io/results.h io/table.c \
	io/table.h io/host_json.c io/host_json.h
