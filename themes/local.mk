# themes/: colour themes, installed to $(pkgdatadir)/themes (TL_DATADIR "/themes")
# and compiled into the program (io/theme_builtin.c), so a build tree has them too.
themesdir = $(pkgdatadir)/themes
THEME_FILES = themes/default.theme themes/light.theme themes/high-contrast.theme \
	themes/mono.theme
dist_themes_DATA = $(THEME_FILES)
EXTRA_DIST += themes/embed.sh

io/theme_builtin.c: $(THEME_FILES) themes/embed.sh
	$(AM_V_GEN)$(MKDIR_P) io && \
	$(SHELL) $(srcdir)/themes/embed.sh $(srcdir) $(THEME_FILES) >$@.tmp && mv $@.tmp $@
BUILT_SOURCES = io/theme_builtin.c
nodist_libticklab_a_SOURCES = io/theme_builtin.c
CLEANFILES += io/theme_builtin.c
