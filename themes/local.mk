# themes/: colour themes, installed to $(pkgdatadir)/themes (TL_DATADIR "/themes").
themesdir = $(pkgdatadir)/themes
dist_themes_DATA = themes/default.theme themes/light.theme themes/high-contrast.theme \
	themes/mono.theme
