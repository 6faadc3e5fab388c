/* Findings of the what-if spin replay: the SYNCTRACE_SPIN to try. */
#include "sa_findings.h"

void sa_findings_spin_plan(struct sa_fb *f)
{
	(void)f;
}
