// SPDX-License-Identifier: GPL-2.0
/*
 * Global CPU deadline management: seed patch 007, kernel/sched_cpudl.c.
 *
 * A max-heap keyed by each CPU's earliest -deadline (earliest_dl.curr), so
 * the root is the CPU whose earliest deadline is the latest: the best victim
 * for a push.  CPUs without -deadline tasks are not in the heap but in
 * free_cpus.  cpu_to_idx[] is the back-pointer from CPU to heap slot.
 */
#include <stdlib.h>
#include <string.h>

#include "cpudl.h"
#include "sched.h"

static inline int parent(int i)
{
	return (i - 1) >> 1;
}

static inline int left_child(int i)
{
	return (i << 1) + 1;
}

static inline int right_child(int i)
{
	return (i << 1) + 2;
}

static void cpudl_exchange(struct cpudl *cp, int a, int b)
{
	int cpu_a = cp->elements[a].cpu, cpu_b = cp->elements[b].cpu;
	struct array_item t = cp->elements[a];
	int ti;

	cp->elements[a] = cp->elements[b];
	cp->elements[b] = t;
	ti = cp->cpu_to_idx[cpu_a];
	cp->cpu_to_idx[cpu_a] = cp->cpu_to_idx[cpu_b];
	cp->cpu_to_idx[cpu_b] = ti;
}

/*
 * Heap order: a later deadline is "greater".  Deviation: on equal deadlines
 * the lower CPU number is greater, the CPU latest_cpu_find()'s scan keeps;
 * the seed leaves ties to the heap's history, so heap and linear selection
 * could pick different CPUs and the two schedules could not be compared.
 */
static inline bool cpudl_less(const struct cpudl *cp, int a, int b)
{
	const struct array_item *x = &cp->elements[a], *y = &cp->elements[b];

	if (x->dl != y->dl)
		return dl_time_before(x->dl, y->dl);
	return x->cpu > y->cpu;
}

/* Sift @idx down: adapted in the seed from lib/prio_heap.c. */
static void cpudl_heapify(struct cpudl *cp, int idx)
{
	int l, r, largest;

	while (1) {
		l = left_child(idx);
		r = right_child(idx);
		largest = idx;

		if (l < cp->size && cpudl_less(cp, idx, l))
			largest = l;
		if (r < cp->size && cpudl_less(cp, largest, r))
			largest = r;
		if (largest == idx)
			break;

		/* Push idx down the heap one level and bump one up */
		cpudl_exchange(cp, largest, idx);
		idx = largest;
	}
}

static int cpudl_sift_up(struct cpudl *cp, int idx)
{
	while (idx > 0 && cpudl_less(cp, parent(idx), idx)) {
		cpudl_exchange(cp, idx, parent(idx));
		idx = parent(idx);
	}
	return idx;
}

/* An earlier key sifts down, a later one sifts up (max-heap). */
static void cpudl_change_key(struct cpudl *cp, int idx, u64 new_dl)
{
	if (dl_time_before(new_dl, cp->elements[idx].dl)) {
		cp->elements[idx].dl = new_dl;
		cpudl_heapify(cp, idx);
	} else {
		cp->elements[idx].dl = new_dl;
		idx = cpudl_sift_up(cp, idx);
		cpudl_heapify(cp, idx);		/* an equal key may need to go down */
	}
}

static inline int cpudl_maximum(struct cpudl *cp)
{
	return cp->elements[0].cpu;
}

/*
 * cpudl_find - find the best (later-dl) CPU in the system
 *
 * A free CPU (no -deadline task) in the task's affinity wins outright;
 * otherwise the heap maximum, if the task may run there and its deadline is
 * earlier than that CPU's earliest (so it would preempt).
 *
 * Seed bug fixed: the seed reads elements[0] even when the heap is empty,
 * where a removed CPU's stale entry still sits, and can return that CPU
 * (when @later_mask is NULL, as check_preempt_equal_dl() calls it).  We
 * require cp->size > 0 (test_cpudl.c: stale_root).  Like the seed, a NULL
 * @later_mask skips the free-CPU test.
 */
int cpudl_find(struct cpudl *cp, const struct dlb_cpumask *dlo_mask,
	       struct task_struct *p, struct dlb_cpumask *later_mask)
{
	const struct sched_dl_entity *dl_se = &p->dl;
	int best_cpu = -1;
	unsigned int i;
	bool any = false;

	(void)dlo_mask;
	if (later_mask) {
		/*
		 * cpumask_and(later_mask, free_cpus, cpus_allowed) (all CPUs
		 * active), over the words that hold this simulation's CPUs
		 */
		unsigned int words = ((unsigned int)cp->nr_cpus + 63) / 64;

		for (i = words; i < DLB_MAX_CPUS / 64; i++)
			later_mask->bits[i] = 0;
		for (i = 0; i < words; i++) {
			later_mask->bits[i] = cp->free_cpus.bits[i] & p->cpus_allowed.bits[i];
			any |= later_mask->bits[i] != 0;
		}
	}
	if (any) {
		/* cpumask_any(): the first set CPU */
		best_cpu = (int)dlb_cpumask_next(later_mask, 0);
	} else if (cp->size > 0 &&
		   dlb_cpumask_test(&p->cpus_allowed, (unsigned int)cpudl_maximum(cp)) &&
		   dl_time_before(dl_se->deadline, cp->elements[0].dl)) {
		best_cpu = cpudl_maximum(cp);
		if (later_mask)
			dlb_cpumask_set(later_mask, (unsigned int)best_cpu);
	}
	return best_cpu;
}

/*
 * cpudl_set - update the cpudl max-heap
 * @is_valid: 0 removes @cpu (it has no -deadline task any more: it is free),
 *            1 inserts it or changes its key to @dl.
 */
void cpudl_set(struct cpudl *cp, int cpu, u64 dl, int is_valid)
{
	int old_idx, new_cpu;

	old_idx = cp->cpu_to_idx[cpu];
	if (!is_valid) {
		/* Not in the heap: nothing to remove (the seed would index -1). */
		if (old_idx == IDX_INVALID) {
			dlb_cpumask_set(&cp->free_cpus, (unsigned int)cpu);
			return;
		}
		/* remove item: the last element takes its slot, then re-sift */
		new_cpu = cp->elements[cp->size - 1].cpu;
		cp->elements[old_idx].dl = cp->elements[cp->size - 1].dl;
		cp->elements[old_idx].cpu = new_cpu;
		cp->size--;
		cp->cpu_to_idx[new_cpu] = old_idx;
		cp->cpu_to_idx[cpu] = IDX_INVALID;
		if (old_idx < cp->size)
			old_idx = cpudl_sift_up(cp, old_idx);
		dlb_cpumask_set(&cp->free_cpus, (unsigned int)cpu);
		cpudl_heapify(cp, old_idx);
		return;
	}

	if (old_idx == IDX_INVALID) {
		cp->size++;
		cp->elements[cp->size - 1].dl = 0;
		cp->elements[cp->size - 1].cpu = cpu;
		cp->cpu_to_idx[cpu] = cp->size - 1;
		cpudl_change_key(cp, cp->size - 1, dl);
		dlb_cpumask_clr(&cp->free_cpus, (unsigned int)cpu);
	} else {
		cpudl_change_key(cp, old_idx, dl);
	}
}

int cpudl_init(struct cpudl *cp, int nr_cpus)
{
	int i;

	memset(cp, 0, sizeof(*cp));
	cp->nr_cpus = nr_cpus;
	cp->cpu_to_idx = malloc(sizeof(*cp->cpu_to_idx) * (size_t)nr_cpus);
	cp->elements = calloc((size_t)nr_cpus, sizeof(*cp->elements));
	if (!cp->cpu_to_idx || !cp->elements) {
		cpudl_cleanup(cp);
		return -1;
	}
	for (i = 0; i < nr_cpus; i++) {
		cp->cpu_to_idx[i] = IDX_INVALID;
		dlb_cpumask_set(&cp->free_cpus, (unsigned int)i);
	}
	return 0;
}

void cpudl_cleanup(struct cpudl *cp)
{
	free(cp->cpu_to_idx);
	free(cp->elements);
	cp->cpu_to_idx = NULL;
	cp->elements = NULL;
}

int cpudl_check(const struct cpudl *cp, const char **why)
{
	int i, n = 0;

	for (i = 0; i < cp->size; i++) {
		int c = cp->elements[i].cpu;

		if (c < 0 || c >= cp->nr_cpus || cp->cpu_to_idx[c] != i) {
			*why = "cpudl: cpu_to_idx does not point back to the heap slot";
			return -1;
		}
		if (i > 0 && cpudl_less(cp, parent(i), i)) {
			*why = "cpudl: heap order broken (child later than parent)";
			return -1;
		}
		if (dlb_cpumask_test(&cp->free_cpus, (unsigned int)c)) {
			*why = "cpudl: a CPU in the heap is also in free_cpus";
			return -1;
		}
	}
	for (i = 0; i < cp->nr_cpus; i++)
		if (cp->cpu_to_idx[i] != IDX_INVALID)
			n++;
	if (n != cp->size) {
		*why = "cpudl: cpu_to_idx has more valid entries than the heap size";
		return -1;
	}
	return 0;
}
