/* pair.c - a second thread, made once and handed the jobs of a run. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "base/base.h"

/*
 * state: IDLE (no job), GIVEN (fn(arg) to run), DONE (it ran), QUIT.  The
 * caller sets GIVEN and QUIT, the thread DONE; fold_pair_wait() puts IDLE
 * back.  A side that waits looks at state SPIN times first, awake (a job
 * often comes or ends a moment later), then sleeps on cv; every change is
 * made under mu and broadcast, so a sleeper cannot miss it.
 */
enum { IDLE, GIVEN, DONE, QUIT };
#define SPIN 20000

struct fold_pair {
	pthread_t thr;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	void *(*fn)(void *);
	void *arg;
	atomic_int state;
};

/* Wait until p's state is a or b; which. */
static int
wait_for(struct fold_pair *p, int a, int b)
{
	int i, s;

	for (i = 0; i < SPIN; i++) {
		s = atomic_load_explicit(&p->state, memory_order_acquire);
		if (s == a || s == b)
			return s;
	}
	pthread_mutex_lock(&p->mu);
	while ((s = atomic_load(&p->state)) != a && s != b)
		pthread_cond_wait(&p->cv, &p->mu);
	pthread_mutex_unlock(&p->mu);
	return s;
}

static void
set_state(struct fold_pair *p, int s)
{
	pthread_mutex_lock(&p->mu);
	atomic_store(&p->state, s);
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static void *
run(void *arg)
{
	struct fold_pair *p = arg;

	while (wait_for(p, GIVEN, QUIT) == GIVEN) {
		p->fn(p->arg);
		set_state(p, DONE);
	}
	return NULL;
}

struct fold_pair *
fold_pair_new(void)
{
	struct fold_pair *p = xmalloc(sizeof(*p));

	atomic_init(&p->state, IDLE);
	p->fn = NULL;
	p->arg = NULL;
	if (pthread_mutex_init(&p->mu, NULL) != 0)
		goto nomu;
	if (pthread_cond_init(&p->cv, NULL) != 0)
		goto nocv;
	if (pthread_create(&p->thr, NULL, run, p) == 0)
		return p;
	pthread_cond_destroy(&p->cv);
nocv:
	pthread_mutex_destroy(&p->mu);
nomu:
	free(p);
	return NULL;
}

void
fold_pair_start(struct fold_pair *p, void *(*fn)(void *), void *arg)
{
	p->fn = fn;
	p->arg = arg;
	set_state(p, GIVEN);
}

void
fold_pair_wait(struct fold_pair *p)
{
	(void)wait_for(p, DONE, DONE);
	atomic_store(&p->state, IDLE);
}

void
fold_pair_both(struct fold_pair *p, void *(*fn)(void *), void *a0, void *a1)
{
	if (p == NULL) {
		(void)fn(a0);
		(void)fn(a1);
		return;
	}
	fold_pair_start(p, fn, a1);
	(void)fn(a0);
	fold_pair_wait(p);
}

void
fold_pair_free(struct fold_pair *p)
{
	if (p == NULL)
		return;
	if (atomic_load(&p->state) == GIVEN)	/* (a job not waited for) */
		fold_pair_wait(p);
	set_state(p, QUIT);
	pthread_join(p->thr, NULL);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p);
}
