# stats/ files (see Makefile.am)
