/* The analysis model: processes, threads and synchronization objects, fed
 * one decoded event at a time (sa_model_feed). Streaming: the state grows
 * with the number of processes, threads and objects, never with the number
 * of events.
 *
 * IDENTITY
 *   process  (trace, vpid, instance): a synctrace_meta:start for a vpid
 *            that already produced events starts a new instance (pid reuse,
 *            exec), so two programs never share objects or threads.
 *   thread   (process, vtid, instance): a synctrace_thread:start for a
 *            thread that already exited starts a new instance (tid reuse).
 *            A thread first seen mid-life (started before the trace, or
 *            not created through pthread_create) is simply created then.
 *   object   (process, address, instance): an init of an object that was
 *            destroyed starts a new instance (heap address reuse).
 *
 * FAMILIES
 *   Each provider family with a model file analysis/model/<family>.c
 *   declares its descriptor `const struct sa_family sa_family_<family>`
 *   (sa_family.h: event handler, per-object state, merge, wait kinds); the
 *   build lists those that have both a .def and a model file in the
 *   generated sa_families.h, and sa_model_feed dispatches each event to
 *   its family. Family state per object hangs off `ext`; event fields are
 *   read by id (sa_fields.h). */
#ifndef SA_MODEL_H
#define SA_MODEL_H

#include <stdint.h>

#include "sa_dist.h"
#include "sa_event.h"
#include "sa_map.h"
#include "sa_waits.h"
#include "sa_wake_ledger.h"
#include "st_codes.h" /* the codes of the fields, named once (.def) */

#define SA_NAME_MAX 24

/* One per family (sa_family.h): SA_OBJ_MUTEX, SA_OBJ_COND, SA_OBJ_SEM,
 * SA_OBJ_RWLOCK, SA_OBJ_BARRIER, SA_OBJ_SPINLOCK, SA_OBJ_ONCE are the
 * types objects have; the families without per-object state (futex,
 * spin, meta, thread, work) have an enumerator no object gets. */
enum sa_obj_type {
	SA_OBJ_UNKNOWN = 0, /* only futex/spin events seen so far */
#define SA_FAMILY(f, F) SA_OBJ_##F,
#include "sa_families.h"
#undef SA_FAMILY
	SA_OBJ_NTYPES
};
/* Its family's name ("mutex", "cond", "spinlock"...), "unknown". */
const char *sa_obj_type_name(enum sa_obj_type t);

struct sa_proc {
	unsigned trace;
	int32_t vpid;
	uint32_t instance;   /* 0, 1, ... for successive processes with this vpid */
	char procname[SA_NAME_MAX];
	int64_t first_ts, last_ts;
	uint64_t events;
	int have_start;      /* synctrace_meta:start seen */
	int fmt_major, fmt_minor, level, spin_mode, spin_limit;
	int have_nonce;      /* start carried a nonce (older traces' do not) */
	uint64_t nonce;      /* the process image's, from its start */
	int stopped;         /* synctrace_meta:stop seen */
	uint32_t nthreads;
	/* synctrace_meta:config (SYNCTRACE_SEM_MAX): have_config 0 = unknown. */
	int have_config, sem_max_mode, sem_max;
	/* Its all_mutexes_spin (format 2.1; have_mutex_spin 0 = unknown). */
	int have_mutex_spin, all_mutexes_spin;
	/* SYNCTRACE_THRESHOLD (format 3.4; 0 off): its mutex waits (from
	 * 3.9: every kind) shorter than this came as summaries, the longer
	 * ones as events. */
	uint64_t threshold_ns;
	/* synctrace_meta:clock (format 3.12; have_clock 0 = not said): what
	 * its durations read (meta_clock), why (meta_clock_why), and the
	 * counter's measured rate (0: none). The latest said. */
	int have_clock, clock_source, clock_why;
	uint64_t clock_hz;
	/* Units of work (synctrace_work:done, or the --work-event). */
	uint64_t units, unit_events;
	uint32_t obj_head;   /* its objects, linked by sa_object.next_in_proc (index + 1) */
};

struct sa_thread {
	uint32_t proc;       /* index in model->procs */
	int32_t vtid;
	uint32_t instance;
	char procname[SA_NAME_MAX];
	int64_t first_ts, last_ts;
	uint64_t events;
	int started;         /* thread:start seen: began inside the trace */
	int named;           /* thread:name named it: procname contexts (cached by the tracer) no longer rename it */
	int exited, cancelled;
	/* The CPU time it used and its time runnable but waiting for a CPU,
	 * from its thread:exit, the meta:stop it emitted, or the thread:times
	 * that the thread which ran the process's exit emitted for it (format
	 * minor 16 on); have_cpu 0: unknown (an older trace, a process killed,
	 * a thread that ended by other means than a traced exit); have_runq 0:
	 * its run-queue time unknown (a thread that used under 2 ms of CPU,
	 * or no /proc/thread-self/schedstat: src/thread/times.c). */
	uint64_t cpu_ns, runq_ns;
	int have_cpu, have_runq;
	/* What it had used of both when its process was announced (meta:base,
	 * format minor 18 on): taken off those above, its life in the trace
	 * begun there (a process's start-up, a life before the session
	 * began); base_runq -1 unknown (then its run-queue time is unknown). */
	int have_base;
	uint64_t base_cpu;
	int64_t base_runq;
	/* Between its cond:woke and cond:relocked: a mutex acquisition then is
	 * the condvar's re-acquisition, in the ledger as cond-relock only. */
	int in_relock;
	/* The call site of its condvar wait in progress (cond:enqueued's), 0
	 * none: it names the mutex the wait takes back if nothing did yet
	 * (cond.c, relocked), so that a mutex only ever taken there
	 * uncontended has a name (summary.c, agg_cond_relocked, the same). */
	uint64_t cond_caller;
	/* Waiting (lock acquisitions and timeouts with a wait_ns). */
	uint64_t waits, wait_ns, timeouts;
	uint32_t top_obj;    /* object it waited longest on, valid if top_wait_ns */
	uint64_t top_wait_ns;
	/* Futex sleeps. */
	uint64_t futex_waits, futex_slept_ns, wake_then_block;
	int woken_valid;     /* woken from a futex wait on woken_obj, not yet past it */
	uint32_t woken_obj;
	/* Wakeups this thread issued and received (the Wakes report's per-unit
	 * table): futex wakes it issued, threads they woke (the kernel's count)
	 * and those that woke nobody; its futex waits that returned woken;
	 * condvar waiters its signals released (cond:signal moved); semaphore
	 * sleepers its posts woke (sem:post with woken >= 0). */
	uint64_t fx_wakes, fx_woke, fx_wasted, fx_woken;
	uint64_t cond_wakeups, sem_wakeups;
	/* Units of work it declared. */
	uint64_t units, unit_events;
	/* The wait ledger (sa_waits.h): waits, wait_ns and timeouts above are
	 * its totals, over every kind. */
	struct sa_thread_waits w;
	/* The wait in progress (begun, not ended): on which object, since
	 * when (condvar enqueue, semaphore wait_begin, lock requested). */
	int waiting;
	uint32_t wait_obj;
	int64_t wait_begin;
	/* Read holds of rwlocks in progress (full level: their hold times). */
	struct { uint32_t obj; int64_t since; } rd_held[4];
	uint64_t sig_pending; /* signaled events of its signal in progress (cond.c) */
	struct sa_wl_thread wl; /* the wake-outcome ledger's (wake_ledger.c) */
};

struct sa_obj_waits; /* waits.c */
struct sa_waitfor;   /* waitfor.c */

struct sa_object {
	uint32_t proc;
	uint64_t addr;
	uint32_t instance;
	enum sa_obj_type type;
	uint64_t caller;     /* call site of the first event that carried one */
	int64_t first_ts, last_ts;
	/* The instance before it at its address was last seen then (0: none):
	 * a summary's call site from before is of an earlier life, and does
	 * not name this one (analysis/model/summary.c, name_object). */
	int64_t after_ts;
	uint64_t events;
	int destroyed;
	/* Futex: sleeps on it (result codes), wakes issued on it. */
	uint64_t fx_waits, fx_woken_ret, fx_eagain, fx_timedout, fx_eintr, fx_slept_ns;
	uint64_t fx_wakes, fx_wasted, fx_woken, fx_requeues, fx_requeued;
	uint64_t wake_then_block;
	struct sa_dist herd;  /* woken count of wakes that asked for more than one */
	/* Spin loops on it (spin:loop). */
	uint64_t sp_loops, sp_acquired, sp_gave_up, sp_saw_waiters, sp_ns;
	unsigned sp_modes;   /* bit per SYNCTRACE_SPIN mode seen */
	struct sa_dist sp_iter;
	void *ext;           /* the family's state */
	void (*ext_free)(void *);
	/* 1 for an object; a class (destroyed objects folded by (proc, type,
	 * caller), sa_model_fold): the objects it holds; 0 for an object
	 * folded into the class `klass` (its slot keeps proc, addr, type and
	 * caller, nothing else: reports skip it). */
	uint32_t instances;
	/* An object: lives of its init site the trace holds no record of,
	 * which the summary level counted in its aggregates (summary.c: tag
	 * LIFE, b 2) while the analyzer saw this object go on; its class
	 * counts them as objects when it is folded (sa_obj_instances). */
	uint32_t unrecorded;
	uint32_t klass;
	int is_class;        /* a class's slot (outside the object map), whatever its instances */
	int inited;          /* its init event was seen: a lifetime inside the trace */
	int shared;          /* process-shared, one object in every process (shared_key) */
	uint32_t next_in_proc;
	struct sa_obj_waits *w; /* ledger, blame, wakers (waits.c); NULL until a wait */
	struct sa_wl_obj *wl;   /* wake outcomes by call site (wake_ledger.c); NULL until a wake */
};

struct sa_discard {
	unsigned trace;
	char stream[48];
	int64_t begin, end;  /* ns; INT64_MIN when unknown */
	uint64_t count;      /* 0 when unknown */
	int count_known;     /* 0: no count, or one that cannot be true (raw_count) */
	uint64_t raw_count;  /* what the trace said, when it said anything */
};

struct sa_other_provider {
	char name[48];
	uint64_t events;
};

struct sa_model {
	struct sa_proc *procs;
	uint32_t nprocs, capprocs;
	struct sa_thread *threads;
	uint32_t nthreads, capthreads;
	struct sa_object *objs;
	uint32_t nobjs, capobjs;
	struct sa_map proc_map, thread_map, obj_map, pair_map;
	struct sa_pair *pairs;   /* (thread, object, kind) → its ledger (waits.c) */
	uint32_t npairs, cappairs, free_pair;
	struct sa_map class_map; /* (proc, type, caller) → class object */
	struct sa_map node_map;  /* (proc, condvar waiter node) → thread */
	/* meta:base of threads not seen yet: (proc, tid) → bases[], the latest
	 * (a repeat's, a rotating recording's announcement every second),
	 * taken by the thread's first event (new_thread) unless that is its
	 * thread:start (a thread born since, with the tid again). */
	struct sa_map base_map;
	struct sa_base { int64_t ts; uint64_t cpu; int64_t runq; } *bases;
	uint32_t nbases, capbases;
	struct sa_wl_model wl;   /* wakes in flight (wake_ledger.c) */
	int keep_objects;        /* sa_model_keep_objects: never fold */
	/* Process-shared identity (analysis/symbols: sa_symbols_shared_key):
	 * 1 and key = {dev, ino, file offset} when addr, in process vpid of
	 * trace, lies in a shared mapping; the same key in two processes is
	 * one object. NULL: every object belongs to one process. */
	int (*shared_key)(const struct sa_model *m, unsigned trace, int32_t vpid, uint64_t addr,
			  uint64_t key[3]);
	struct sa_map shared_map; /* (ino, dev ^ offset mix) → object */
	/* Folds due once the event's observers have seen it (fold.c). */
	int fold_obj_due, fold_proc_due;
	uint32_t fold_oi, fold_pi;
	uint64_t folded;         /* objects folded into classes */
	uint64_t unrecorded;     /* lives without records (sa_object.unrecorded) */
	/* The wait the event being fed ended, if any (for observers: the
	 * timeline draws it whatever the family). */
	struct {
		int valid;
		uint32_t ti, oi;
		enum sa_wait_kind kind;
		uint64_t ns;
		unsigned flags;  /* SA_WAITED_* */
	} ev_wait;
	/* The hold a mutex:released being fed ended, when the event gives it
	 * (mutex.c reads either trace format). */
	struct {
		int valid;
		uint64_t ns;
	} ev_hold;
	/* Everything seen. */
	uint64_t events, per_id[SA_EV_COUNT];
	struct sa_other_provider other[32];
	unsigned nother;
	uint64_t malformed;      /* events missing a field the model needs */
	int64_t first_ts, last_ts;
	/* The same, announcements (meta start, config, module, mapping) aside:
	 * the span of the run the trace holds. A rotating recording keeps the
	 * announcements in a ring of their own, older than its data's tail
	 * (tools/synctrace/session.c). Unset (first > last) without such. */
	int64_t held_first, held_last;
	/* Discarded events: numbers touching them are lower bounds. */
	struct sa_discard *discards;
	uint32_t ndiscards, capdiscards;
	uint64_t discarded_total;
	int discarded_unknown;   /* some discard message had no count */
	/* Format problems. */
	int newer_format;        /* a meta:start had format_major > SA_FORMAT_MAJOR */
	int newer_major, newer_vpid;
	int oom;
	/* One-entry lookup caches: the last event's process, thread, object
	 * (consecutive events mostly share them). Reset on new instances. */
	int c_proc_ok, c_thread_ok, c_obj_ok;
	unsigned c_trace;
	int32_t c_vpid, c_vtid;
	uint32_t c_pi, c_ti, c_oi;
	uint64_t c_addr;
	/* The unit of work: synctrace_work:done's `units` by default; else
	 * sa_model_set_work_event's event (ours by id, a foreign one by name),
	 * one unit per event or its integer field work_field. */
	enum sa_event_id work_id;     /* SA_EV_UNKNOWN: a foreign event, work_name */
	char *work_name, *work_field; /* NULL: the default */
	/* Trace names, by index (for messages). */
	char **trace_names;
	unsigned ntraces;
	/* The hostname in each trace's environment, by index (NULL: none). */
	char **trace_hosts;
	unsigned nhosted;
	/* Call sites (analysis/symbols): NULL until a statedump or stack event. */
	struct sa_symbols *symbols;
	/* The what-if spin replay (spin_replay.c): NULL until a wait ends. */
	struct sa_spin_replay *replay;
	/* Observers (debug checks, the HTML timeline): called after the model
	 * has taken in each event of a known process, with its process and
	 * thread indexes. They keep their own bounded state. */
	struct sa_observer {
		void (*fn)(void *ctx, struct sa_model *m, const struct sa_event *e,
			   uint32_t pi, uint32_t ti);
		void *ctx;
	} observers[4];
	unsigned nobservers;
	/* The wait-for graph (sa_waitfor.h), fed by sa_model_feed. */
	struct sa_waitfor *waitfor;
};

/* The newest trace format this model understands (tracepoints/st_probes.h);
 * it reads the older ones too (1: mutex:released had hold_ns, not acq_ts;
 * 3: events in synctrace_batch:records, tracepoints/st_batch.h; 4: a
 * spin that ended a semaphore, mutex, rwlock, barrier or condvar wait is
 * in the wait's last event, with no loop event of its own: model.c,
 * folded_spin). */
#define SA_FORMAT_MAJOR 4
#define SA_FORMAT_FOLDS_SPINS 4

struct sa_model *sa_model_new(void);
void sa_model_free(struct sa_model *m);

/* Feed one event (timestamps non-decreasing per trace, as the muxer
 * delivers them). Returns 0, or -1 if the event is from a trace of a newer
 * format major (the model then ignores that process). */
int sa_model_feed(struct sa_model *m, const struct sa_event *e);
/* The span of the run the trace holds, in ns (held_first..held_last, or
 * first_ts..last_ts when the trace holds only announcements). */
int64_t sa_model_span(const struct sa_model *m);

/* The tracer lost events in [begin, end] on one stream. */
void sa_model_discarded(struct sa_model *m, unsigned trace, const char *stream,
			int64_t begin, int64_t end, uint64_t count, int count_known);

/* Add an observer (at most 4); 0, or -1 when full. */
int sa_model_observe(struct sa_model *m,
		     void (*fn)(void *ctx, struct sa_model *m, const struct sa_event *e,
				uint32_t pi, uint32_t ti),
		     void *ctx);

/* The unit of work for the Wakes report: "PROVIDER:EVENT" (one unit per
 * event) or "PROVIDER:EVENT/FIELD" (its integer field's value), any event
 * in the trace, ours or the program's own; replaces synctrace_work:done.
 * Call before feeding. 0, or -1 (a synctrace_ name this build does not
 * know, or no ':'). m NULL: only check spec. */
int sa_model_set_work_event(struct sa_model *m, const char *spec);
/* The unit's name for reports ("synctrace_work:done" by default). */
const char *sa_model_work_name(const struct sa_model *m);

/* Name trace index i (kept for messages and the summary). */
void sa_model_name_trace(struct sa_model *m, unsigned i, const char *name);
/* Trace index i was recorded on host `host` (its environment's hostname). */
void sa_model_host_trace(struct sa_model *m, unsigned i, const char *host);

/* Thread t's CPU time over its life (its first to its last event; from
 * its process's announcement if alive then: meta:base), in
 * [0, 1]; -1 when unknown: no CPU time in the trace, no life, or clearly
 * more CPU time than life (a thread that ran long before its first event:
 * a main thread whose first synchronization came late). */
double sa_thread_cpu_share(const struct sa_thread *t);
/* The same of its time runnable, waiting for a CPU; -1 when unknown. */
double sa_thread_runq_share(const struct sa_thread *t);
/* Take t's CPU and run-queue times from e's fields cpu_field and
 * runq_field (thread:exit, meta:stop; format minor 16), if it has them. */
void sa_thread_times(struct sa_thread *t, const struct sa_event *e, int cpu_field, int runq_field);
/* A meta:base for a thread of process pi (thread.c). */
void sa_thread_base(struct sa_model *m, uint32_t pi, const struct sa_event *e);
/* Its pending meta:base, if any, to a thread just made by event e. */
void sa_thread_take_base(struct sa_model *m, struct sa_thread *t, const struct sa_event *e);

/* Lookups for family modules (create when asked). NULL on out of memory. */
struct sa_proc *sa_model_proc(struct sa_model *m, const struct sa_event *e, uint32_t *idx);
struct sa_thread *sa_model_thread(struct sa_model *m, const struct sa_event *e, uint32_t *idx);
struct sa_object *sa_model_object(struct sa_model *m, const struct sa_event *e,
				  uint64_t addr, uint32_t *idx);
/* Object lookup for an init event: a destroyed object at that address
 * becomes a new instance. */
struct sa_object *sa_model_object_init(struct sa_model *m, const struct sa_event *e,
				       uint64_t addr, uint32_t *idx);
/* The object at addr for an event of family `type` (an init: is_init):
 * as sa_model_object (or _init), but an object of another family there
 * had its memory reused without a destroy the trace showed (none was
 * called, or the summary level kept it back: src/trace/summary.c,
 * graves): it ends, and a new instance begins; NULL for a destroy (of
 * the object that ended). */
struct sa_object *sa_model_object_as(struct sa_model *m, const struct sa_event *e, uint64_t addr,
				     int is_init, enum sa_obj_type type, uint32_t *idx);
/* The object a family's event is about (its address: sa_ev_obj; an init
 * event starts a new instance), typed and with the family's state
 * (sa_model_typed); its first call site noted. NULL: no such field
 * (counted malformed), out of memory, or an object of another type. */
struct sa_object *sa_model_family_object(struct sa_model *m, const struct sa_event *e,
					 int is_init, enum sa_obj_type type, uint32_t *idx);
/* o typed `type`, with its family's state (zeroed, made on first use);
 * NULL if o has another type, or out of memory. */
void *sa_model_typed(struct sa_model *m, struct sa_object *o, enum sa_obj_type type);
/* Fold object oi into its class (proc, type, caller) (fold.c): at once
 * (sa_model_fold), or after the current event's observers: object oi was
 * destroyed (sa_model_destroyed, which marks it so), process pi ended
 * (its objects whose init was seen fold; those never initialised in the
 * trace, static ones, stay themselves: their address names them). No-op
 * with keep_objects. */
void sa_model_fold(struct sa_model *m, uint32_t oi);
void sa_model_destroyed(struct sa_model *m, uint32_t oi);
void sa_model_proc_ended(struct sa_model *m, uint32_t pi);
void sa_model_fold_due(struct sa_model *m);
/* Grow the array *arr of n elements of elem bytes (capacity *cap, which
 * doubles, new room zeroed) to hold one more; 0 or -1. */
int sa_grow(void **arr, uint32_t n, uint32_t *cap, size_t elem);
/* A new zeroed object slot, in no map (a class). NULL on out of memory. */
struct sa_object *sa_model_slot(struct sa_model *m, uint32_t *idx);
/* waits.c: fold object oi's ledger, blame, wakers and pairs into class ci. */
void sa_waits_fold(struct sa_model *m, uint32_t ci, uint32_t oi);
/* Never fold (reports by object): call before feeding. */
void sa_model_keep_objects(struct sa_model *m, int keep);
/* The row an object's numbers are in: itself, or its class once folded. */
uint32_t sa_model_row(const struct sa_model *m, uint32_t oi);
/* Objects seen: every slot but the classes' (m->nobjs counts those too). */
uint32_t sa_model_objects_seen(const struct sa_model *m);
/* The wait ledger (waits.c). A wait of `ns` of kind k by thread ti on
 * object oi ended; flags: SA_WAITED_TIMEOUT (timed out, cancelled or
 * interrupted), SA_WAITED_AT_ONCE (it neither spun nor slept). */
#define SA_WAITED_TIMEOUT 1
#define SA_WAITED_AT_ONCE 2
void sa_model_waited(struct sa_model *m, uint32_t ti, uint32_t oi, enum sa_wait_kind k,
		     uint64_t ns, unsigned flags);
/* The summary level's form (model/summary.c): d's values as so many waits,
 * `timeouts` of them timed out, `contended` spun or slept. */
void sa_model_waited_many(struct sa_model *m, uint32_t ti, uint32_t oi, enum sa_wait_kind k,
			  const struct sa_dist *d, uint64_t timeouts, uint64_t contended);
/* Thread ti began waiting on oi at ts (its waker's latency counts from here). */
void sa_model_wait_begins(struct sa_model *m, uint32_t ti, uint32_t oi, int64_t ts);
/* Blame (mutexes, rwlocks): a wait begins (the holder then, when the event
 * names it), a wait ends without the lock, the lock is taken by ti (site:
 * its acquire call site), or released by ti at site (hold_ns when the
 * level gives it). */
void sa_blame_requested(struct sa_model *m, uint32_t oi, uint32_t waiter_ti, int have_owner,
			uint32_t owner_ti, int64_t ts);
void sa_blame_wait_over(struct sa_model *m, uint32_t oi, int64_t ts);
void sa_blame_acquired(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site, int64_t ts);
void sa_blame_released(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site, int64_t ts,
		       int have_hold, uint64_t hold_ns);
/* A condvar waiter re-acquired mutex oi after waiting ns for it (it was
 * not among the lock's waiters): its wait goes to the hold it waited on,
 * and it holds the mutex now. */
void sa_blame_relocked(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t ns, int64_t ts);
/* Wakers (condvars, semaphores): `calls` wakes by ti at site that released
 * `released` waiters, their latency unknown (a shared condvar's signal; a
 * thread's summary, site 0); one more waiter released by
 * (ti, site); a post that found sleepers, and a waiter (waiting since
 * `begin`) that took a token: each post is matched with one such waiter,
 * whichever event comes first. */
void sa_waker_wake(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site, uint64_t calls,
		   uint64_t released);
void sa_waker_released(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site,
		       uint64_t latency_ns);
void sa_waker_post(struct sa_model *m, uint32_t oi, uint32_t ti, uint64_t site, int64_t ts);
void sa_waker_took(struct sa_model *m, uint32_t oi, int64_t begin);
void sa_obj_waits_free(struct sa_object *o);
/* Thread vtid of e's process (created when first named, as the owner a
 * waiter saw in a lock word). NULL on out of memory. */
struct sa_thread *sa_model_thread_tid(struct sa_model *m, const struct sa_event *e, int32_t vtid,
				      uint32_t *idx);

/* Processes recorded at the summary level (model/summary.c): their counts
 * come from per-thread aggregates, with no order between two threads'. */
uint32_t sa_model_summary_procs(const struct sa_model *m);
/* The process of thread ti, whose call sites are named with that process's
 * loaded objects (a class folds objects of several processes, hosts
 * even); fallback when ti is no thread. */
static inline uint32_t sa_model_thread_proc(const struct sa_model *m, uint32_t ti,
					    uint32_t fallback)
{
	return ti < m->nthreads ? m->threads[ti].proc : fallback;
}

/* Does synctrace_meta:start e begin a new instance of process p (the
 * current one for its trace and vpid)? Yes for an exec or a reused pid; no
 * when p is the process announcing itself again (meta.c). */
int sa_meta_new_instance(const struct sa_proc *p, const struct sa_event *e);

#include "sa_family.h"

#endif
