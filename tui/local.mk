# tui/ files (see Makefile.am)
