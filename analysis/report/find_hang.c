/* Findings of the wait-for graph: hangs and waits nothing can end. */
#include "sa_findings.h"

void sa_findings_hang(struct sa_fb *f, const struct sa_report_opts *o)
{
	(void)f;
	(void)o;
}
