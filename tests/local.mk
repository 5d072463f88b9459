# tests/ files (see Makefile.am)
