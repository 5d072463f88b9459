# bench/ files (see Makefile.am)
