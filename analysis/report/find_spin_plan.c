/* The spin finding: how the recorded spin loops ended (sa_spin_verdict),
 * then what the what-if replay (sa_spin_replay.h) says to set, with its
 * evidence and how far to trust it. One row, kind `spin`: verdict the
 * loops' verdict, try the SYNCTRACE_SPIN to set (none when the default
 * is as good, or when the replay does not reproduce the recorded run), count/of the futex waits it predicts / those recorded,
 * waits the waits replayed, wait_total_ns the predicted waiting. */
#include <stdio.h>
#include <string.h>

#include "sa_findings.h"
#include "sa_report_util.h"
#include "sa_spin_replay.h"
#include "sa_verdicts.h"

static void loops_sentence(struct sa_fb *f, const struct sa_spin_verdict *v)
{
	char a[32];
	if (!v->loops) {
		sa_finding_say(f, "no spin loop in the trace. ");
		return;
	}
	double n = (double)v->loops;
	sa_finding_say(f, "of %s spin loops %.0f %% acquired, %.0f %% gave up at the limit, "
		       "%.0f %% bailed out on seeing sleepers. ", sa_fmt_count(a, sizeof(a), v->loops),
		       100.0 * (double)v->acquired / n, 100.0 * (double)v->gave_up / n,
		       100.0 * (double)v->saw_waiters / n);
}

void sa_findings_spin_plan(struct sa_fb *f)
{
	struct sa_spin_verdict v;
	struct sa_sr_eval ev;
	char a[32], b[32], c1[32], c2[32], c3[32];
	sa_spin_verdict(f->m, &v);
	sa_spin_replay_eval(f->m, NULL, NULL, &ev);
	/* Nothing spun, nothing to change (the default, or the setting it ran
	 * with), no warning: nothing to say. */
	if (v.code == SA_SPIN_NO_LOOPS &&
	    (!ev.waits || ((ev.rec == SA_SR_DEFAULT || (int)ev.rec == ev.recorded) && !ev.overloaded)))
		return;
	struct sa_cell *c = sa_finding_row(f, "spin");
	if (!c)
		return;
	sa_cell_str(&c[SA_FND_VERDICT], v.name);
	sa_finding_say(f, "spinning: ");
	loops_sentence(f, &v);
	if (!ev.waits) {
		if (v.try_)
			sa_cell_str(&c[SA_FND_TRY], v.try_);
		sa_finding_say(f, "No wait ended in the trace to replay.");
		sa_finding_done(f, c);
		return;
	}
	const struct sa_sr_total *r = &ev.s[ev.rec], *d = &ev.s[SA_SR_DEFAULT];
	sa_set_u(&c[SA_FND_WAITS], ev.waits);
	sa_set_u(&c[SA_FND_COUNT], r->sleeps);
	sa_set_u(&c[SA_FND_OF], ev.rec_sleeps);
	sa_set_u(&c[SA_FND_WAIT], r->wait_ns);
	sa_set_u(&c[SA_FND_TIMEOUTS], ev.timeouts);
	if (!strcmp(ev.confidence, "low") && ev.rec != SA_SR_DEFAULT && ev.recorded >= 0 &&
	    !ev.reproduces) {
		/* A replay that does not reproduce the recorded run gives no
		 * advice: say so in one sentence; its numbers are in spin.plan
		 * and the JSON. */
		sa_finding_say(f, "The what-if replay of %s waits is not conclusive here (confidence "
			       "low: ", sa_fmt_count(a, sizeof(a), ev.waits));
		sa_finding_say(f, "at the recorded setting it predicts %s futex waits, %s were "
			       "recorded", sa_fmt_count(c1, sizeof(c1), ev.s[ev.recorded].sleeps),
			       sa_fmt_count(c2, sizeof(c2), ev.rec_sleeps));
		sa_finding_say(f, "); its best guess, %s, is in table spin.plan.",
			       sa_sr_name(ev.rec, b, sizeof(b)));
		sa_finding_done(f, c);
		return;
	}
	sa_finding_say(f, "Replaying %s waits: ", sa_fmt_count(a, sizeof(a), ev.waits));
	if (ev.rec == SA_SR_DEFAULT) {
		sa_finding_say(f, "leave SYNCTRACE_SPIN unset: ");
		if (ev.best == SA_SR_DEFAULT || ev.s[ev.best].score >= d->score)
			sa_finding_say(f, "the default is the best setting replayed");
		else
			sa_finding_say(f, "no setting beats the default by %.0f %% (best %s, %.1f %% "
				       "better)", 100.0 * SA_SR_MARGIN, sa_sr_name(ev.best, b, sizeof(b)),
				       d->score > 0 ? 100.0 * (1 - ev.s[ev.best].score / d->score) : 0.0);
		sa_finding_say(f, "; it predicts %s futex wait(s), %s recorded. ",
			       sa_fmt_count(c1, sizeof(c1), d->sleeps),
			       sa_fmt_count(c2, sizeof(c2), ev.rec_sleeps));
	} else {
		char try_[48];
		snprintf(try_, sizeof(try_), "SYNCTRACE_SPIN=%s", sa_sr_name(ev.rec, b, sizeof(b)));
		sa_cell_str(&c[SA_FND_TRY], try_);
		sa_finding_say(f, "%s predicts %s futex wait(s) (the default %s), waiting %s (%s) and "
			       "spin CPU %s (%s): ", try_, sa_fmt_count(c1, sizeof(c1), r->sleeps),
			       sa_fmt_count(c2, sizeof(c2), d->sleeps),
			       sa_fmt_ns(c3, sizeof(c3), (double)r->wait_ns),
			       sa_fmt_ns(a, sizeof(a), (double)d->wait_ns),
			       sa_fmt_ns(b, sizeof(b), (double)r->spin_ns),
			       sa_fmt_ns((char[32]){ 0 }, 32, (double)d->spin_ns));
		if (ev.gain >= SA_SR_MARGIN)
			sa_finding_say(f, "%.1f %% less wait + spin CPU than the default. ",
				       100.0 * ev.gain);
		else
			sa_finding_say(f, "no more waiting than the default, for less spinning. ");
	}
	if (ev.second != ev.best)
		sa_finding_say(f, "Next best %s, %.1f %% worse. ", sa_sr_name(ev.second, b, sizeof(b)),
			       100.0 * ev.gap);
	if (ev.recorded >= 0)
		sa_finding_say(f, "At the recorded setting (%s) the replay predicts %s futex waits "
			       "against %s recorded%s. ", sa_sr_name((unsigned)ev.recorded, b, sizeof(b)),
			       sa_fmt_count(c1, sizeof(c1), ev.s[ev.recorded].sleeps),
			       sa_fmt_count(c2, sizeof(c2), ev.rec_sleeps),
			       ev.reproduces ? "" : ": it does not reproduce this run, trust it less");
	if (ev.held_off)
		sa_finding_say(f, "%s of %s recorded spins that ran out were released right after "
			       "their end (the releaser waited for the spinner's CPU?): replayed so. ",
			       sa_fmt_count(c1, sizeof(c1), ev.ran_out_near),
			       sa_fmt_count(c2, sizeof(c2), ev.ran_out));
	if (ev.overloaded)
		sa_finding_say(f, "Woken threads waited %s (median) for a CPU: on a machine this "
			       "loaded a spinner competes with the thread it waits for, which the "
			       "replay does not see: it recommends no setting that spins more than the "
			       "default. ",
			       sa_fmt_ns(c1, sizeof(c1), (double)ev.wake_ns));
	sa_finding_say(f, "Confidence %s: %s waits, the choice %s%s.", ev.confidence,
		       sa_fmt_count(a, sizeof(a), ev.waits),
		       ev.agree ? "holds on both halves of them" : "differs between their halves",
		       ev.wake_assumed ? "; the wake latency is assumed (no wait that slept once "
					 "had its release traced before its end)"
				       : "");
	sa_finding_done(f, c);
}
