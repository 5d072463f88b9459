/* The screen as it stands, kept for a slide: w writes it as text and as SVG
 * beside the exports (tui_export_name), in the colours on screen. */
#ifndef TL_TUI_SNAPSHOT_H
#define TL_TUI_SNAPSHOT_H

struct tui_app;

void tui_snapshot(struct tui_app *app);

#endif
