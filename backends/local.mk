# backends/ files (see Makefile.am)
