/* The conformance cases: one behaviour each, one process each (main.c
 * runs the case named by argv[1]). Their names are the ids of the README
 * table "Compatibility with glibc" (table.sh checks both ways). */
#ifndef ST_CONFORMANCE_H
#define ST_CONFORMANCE_H

#ifdef __cplusplus
extern "C" {
#endif

/* once.cpp: an init routine that throws */
void once_throw_resets(void);
void call_once_throw_resets(void);
void c11_call_once_throw_resets(void);
void once_throw_wakes_waiter(void);

/* thread_throw.cpp: a start routine that throws */
void thread_throw_terminates(void);

/* sem.c: cancellation points with a cancel already pending */
void sem_wait_token_cancelled(void);
void sem_timedwait_token_cancelled(void);
void sem_timedwait_einval_not_cancelled(void);
void sem_timedwait_expired_cancelled(void);
void sem_clockwait_token_not_cancelled(void);
void sem_clockwait_empty_cancelled(void);
void sem_clockwait_expired_not_cancelled(void);
void sem_trywait_not_cancelled(void);

/* destroy.c: destroying an object that has waiters */
void barrier_destroy_waits_for_round(void);
void cond_destroy_waiter_busy(void);
void cond_destroy_pshared_waits(void);

/* Thread helpers (main.c). */
int conf_gettid(void);
/* Sleep-wait until *flag is non-zero (the state a case needs). */
void conf_wait_flag(volatile int *flag);
/* Until thread tid sleeps in a futex wait, or *done becomes non-zero;
 * returns 1 if it sleeps (and is not done). */
int conf_wait_asleep(int tid, volatile int *done);

#ifdef __cplusplus
}
#endif

#endif
