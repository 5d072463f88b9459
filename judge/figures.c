#include "config.h"

#include "judge/figures.h"

#include <math.h>
#include <stdio.h>

/* bad, floor_abs and floor_rel: see the header. The floors are what a
 * person would call "the same" between twin nodes. */
const struct tl_fig_info tl_fig_info[TL_FIG_COUNT] = {
	[TL_FIG_NS_PER_ADD] = {"ns_per_add", "ns/ADD", " ns", "%.4f", 0, 0, 0.01, NULL},
	[TL_FIG_CV] = {"cv_percent", "CV%", " %", "%.3g", +1, 0.5, 0.5, NULL},
	[TL_FIG_OS] = {"os_removed_percent", "OS%", " %", "%.2f", +1, 1, 0.25, NULL},
	[TL_FIG_TAIL] = {"tail_percent", "tail%", " %", "%.3g", +1, 2, 0.5, NULL},
	[TL_FIG_OVERHEAD] = {"overhead_ns", "t_e ns", " ns", "%.1f", +1, 2, 0.1, NULL},
	[TL_FIG_FLUSH] = {"add_4xl2_ns", "4xL2 ns", " ns", "%.1f", +1, 5, 0.1, NULL},
	[TL_FIG_PAPI] = {"add_papi_ns", "papi ns", " ns", "%.1f", +1, 5, 0.1, NULL},
	[TL_FIG_CGT] = {"add_cgt_ns", "cgt ns", " ns", "%.1f", +1, 5, 0.1, NULL},
	[TL_FIG_DRIFT] = {"drift_percent", "drift%", " %", "%.2f", +1, 0.5, 0.25, NULL},
	[TL_FIG_CPU] = {"cpu_share_percent", "CPU%", " %", "%.1f", -1, 0.5, 0.03, NULL},
	[TL_FIG_PREEMPT] = {"preemptions_per_s", "preempt/s", "/s", "%.1f", +1, 20, 0.25, NULL},
	[TL_FIG_TMIN] = {"tmin_ns", "t_min ns", " ns", "%.1f", 2, 0, 0, NULL},
	[TL_FIG_TDIFF] = {"tdiff_ns", "t_diff ns", " ns", "%.1f", 2, 0, 0, NULL},
	/* the floors: rates a quiet twin could show one probe to the next */
	[TL_FIG_NZ_PREEMPT] = {"noise_preempted_per_s", "nz pre/s", "/s", "%.1f", +1, 5, 0.25,
			       "preemptions"},
	[TL_FIG_NZ_FAULTS] = {"noise_faults_per_s", "nz flt/s", "/s", "%.1f", +1, 5, 0.25,
			      "page faults"},
	[TL_FIG_NZ_MIGRATIONS] = {"noise_migrations_per_s", "nz mig/s", "/s", "%.1f", +1, 1, 0.25,
				  "migrations"},
	[TL_FIG_NZ_TICKS] = {"noise_ticks_per_s", "nz tick/s", "/s", "%.0f", +1, 50, 0.25,
			     "timer ticks"},
	[TL_FIG_NZ_IRQS] = {"noise_irqs_per_s", "nz irq/s", "/s", "%.0f", +1, 50, 0.25,
			    "interrupts"},
	[TL_FIG_NZ_SOFTIRQS] = {"noise_softirqs_per_s", "nz sirq/s", "/s", "%.0f", +1, 50, 0.25,
				"softirqs"},
	[TL_FIG_NZ_UNEXPLAINED] = {"noise_unexplained_per_s", "nz unex/s", "/s", "%.1f", +1, 10,
				   0.25, "unexplained gaps"},
};

void tl_fig_format(enum tl_fig i, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, tl_fig_info[i].fmt, v);
}
