/* INT, TERM, HUP and QUIT for the commands that measure (run, search, the
 * default table): armed before the work starts and kept until every file
 * is written, so a signal at any moment keeps what was measured.
 *
 * The handler always remembers the first signal. What else it does
 * depends on the phase the command says it is in:
 *   - stopping (default): it also sets the flag given to cli_stop_target,
 *     so a sampling or search loop ends at its next check;
 *   - exiting: everything worth keeping is already on disk (the raw
 *     samples, written before the long analysis), so it writes the
 *     message given to cli_stop_exiting on stderr and _exits at once.
 * A command ends with cli_stop_status: 128 + the signal (130 INT, 143 TERM,
 * 129 HUP, 131 QUIT) when one came, as a shell reports a process killed by
 * it. */
#ifndef TL_CLI_STOP_H
#define TL_CLI_STOP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/* Installs the handlers and forgets any earlier signal. */
void cli_stop_arm(void);
/* Restores the handlers that were there before cli_stop_arm. */
void cli_stop_disarm(void);
/* For a loop whose only stop is flag (detect, fingerprint): clears flag,
 * arms and targets it; cli_stop_disarm ends it. */
void cli_stop_watch(atomic_bool *flag);
/* flag (may be NULL) is set by later signals, and now if one already came. */
void cli_stop_target(atomic_bool *flag);
/* flag is set by later signals only: one that already came (and stopped
 * the sampling) does not cut short what comes after it. */
void cli_stop_target_later(atomic_bool *flag);
/* From now a signal prints msg (a static string) and exits 128 + the first
 * signal; so does one that came since cli_stop_count() was `since` (while
 * the files were being written), at once. Earlier ones (which stopped the
 * sampling) do not. */
void cli_stop_exiting(const char *msg, int since);
/* Back to stopping: signals are remembered and set the target flag. */
void cli_stop_stopping(void);
/* Signals caught since cli_stop_arm: a change says a new one came. */
int cli_stop_count(void);
/* 128 + the first signal when there was one, else rc. */
int cli_stop_status(int rc);

/* tl_run_execute with these signals setting run->stop (the samples taken
 * so far are kept) and, when progress is set, a progress line on stderr.
 * Returns tl_run_execute's status: 0 done, 1 stopped early, -1 error. */
struct tl_run;
int cli_run_execute(struct tl_run *run, bool progress, char *why, size_t whylen);

#endif
