# themes/ files (see Makefile.am)
