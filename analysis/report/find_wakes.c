/* Findings of the wake-outcome ledger. */
#include "sa_findings.h"

void sa_findings_wakes(struct sa_fb *f)
{
	(void)f;
}
