# cli/ files (see Makefile.am)
