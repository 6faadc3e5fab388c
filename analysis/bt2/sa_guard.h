/* Reading in a child process: libbabeltrace2 can die on a corrupt stream
 * (a sequence length read from garbage makes it allocate length elements:
 * GLib aborts, or without a limit the machine's memory is exhausted). A
 * guarded run forks, limits the child's address space, and when the child
 * dies runs again stopping before the batch of messages it died in, so the
 * report covers what came before, marked partial. */
#ifndef SA_GUARD_H
#define SA_GUARD_H

#include <stdint.h>

/* The work: read (stopping after stop_after messages if > 0; publishing
 * the count through progress) and report; returns the exit code. died: 0,
 * or the signal that ended the first attempt (this is the retry). */
typedef int (*sa_guarded_fn)(void *arg, uint64_t stop_after, volatile uint64_t *progress,
			     int died);

/* fn's exit code; or 2 if it died and nothing could be read before (the
 * message names what). SYNCTRACE_REPORT_MEMORY_MB sets the child's
 * address-space limit (default: half the RAM, at most 8 GiB; 0: none). */
int sa_guard_run(sa_guarded_fn fn, void *arg, const char *what);

#endif
