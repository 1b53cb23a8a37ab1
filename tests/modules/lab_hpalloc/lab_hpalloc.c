// SPDX-License-Identifier: GPL-2.0
/*
 * lab_hpalloc: the huge-page allocation latency driver of the proactive
 * compaction paper.  Writing N to <debugfs>/lab_hpalloc/run allocates
 * huge pages, movable as THP's are, until allocation fails (or N pages, if
 * N > 0), timing each allocation, then frees them all.  The latencies of
 * the allocations that succeeded, in nanoseconds, one per line, are read
 * from <debugfs>/lab_hpalloc/samples; those of the failed attempts that
 * ended the run from <debugfs>/lab_hpalloc/failures.
 *
 * Paced runs: with the module parameter rate=R (huge pages per second;
 * 0, the default, allocates back to back), attempt k starts no earlier
 * than k/R seconds into the run, so that the allocation rate can be set
 * below or above what kcompactd refills; seconds=S (0: no limit) ends a
 * run after S seconds.  A paced attempt that fails still uses its slot.
 *
 * Every attempt of the last run, failed ones included, is in
 * <debugfs>/lab_hpalloc/attempts, one "start_ns duration_ns ok|fail" line
 * each, start_ns on the monotonic clock (ktime_get_ns()), the clock that
 * a trace recorded with "trace-cmd record -C mono" stamps its events
 * with; <debugfs>/lab_hpalloc/pid is the task that made them.  Matched
 * against that task's compaction events, they tell which attempts needed
 * direct compaction (Documentation/protocol.md).  The log holds
 * 2 x limit + MAX_FAILURES attempts; a run that fills it ends there, and
 * <debugfs>/lab_hpalloc/end says why each run ended: count, failures,
 * seconds or log.
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/vmalloc.h>

#define HPAGE_ORDER	HPAGE_PMD_ORDER
/*
 * As a driver's huge-page allocation, movable as THP's: direct reclaim and
 * compaction, kswapd woken, no warning on failure.
 *
 * One failure is not the allocator's last word.  A zone whose compaction
 * failed is deferred: the next attempts skip it, up to 64 of them, before
 * compaction restarts with the pageblock skip hints cleared
 * (compaction_deferred(), compaction_restarting()).  Without reclaimable
 * memory (the fragmented guest has only anonymous memory and no swap),
 * direct reclaim makes no progress and the allocator never retries
 * compaction itself at the priority that ignores the hints, so a run that
 * stopped at the first failure ended behind skipped blocks, at 41-99% of
 * free memory at proactiveness 0.  A run ends after MAX_FAILURES failures
 * in a row instead, enough for each zone to reach the restart; deferred
 * attempts fail fast, so this costs little.
 */
#define HPAGE_GFP	(GFP_TRANSHUGE | __GFP_KSWAPD_RECLAIM | __GFP_RETRY_MAYFAIL)
#define MAX_FAILURES	256

static unsigned int rate;
module_param(rate, uint, 0644);
MODULE_PARM_DESC(rate, "huge pages per second (0: back to back)");
static unsigned int seconds;
module_param(seconds, uint, 0644);
MODULE_PARM_DESC(seconds, "seconds a run may take (0: no limit)");

struct attempt {
	u64 start_ns, ns;
	bool ok;
};

static DEFINE_MUTEX(lock);
static u64 *samples, failures[MAX_FAILURES];
static unsigned long nr_samples, nr_failures;
static struct attempt *attempts;
static unsigned long nr_attempts, max_attempts;
static pid_t run_pid;
static const char *end = "none";
static struct dentry *dir;

/*
 * pace - wait for attempt @k's slot of a paced run that began at @t0 (ns);
 * false once the run has used up its seconds
 */
static bool pace(u64 t0, unsigned long k)
{
	u64 slot = t0 + (rate ? div_u64((u64)k * NSEC_PER_SEC, rate) : 0);
	ktime_t expires = ns_to_ktime(slot);

	if (seconds && slot - t0 >= (u64)seconds * NSEC_PER_SEC)
		return false;
	if (rate && ktime_get_ns() < slot) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule_hrtimeout(&expires, HRTIMER_MODE_ABS);
	}
	return !(seconds && ktime_get_ns() - t0 >= (u64)seconds * NSEC_PER_SEC);
}

/* Allocate until failure (or @limit pages), timing each; free them all. */
static int run(unsigned long limit)
{
	unsigned long max = totalram_pages() >> HPAGE_ORDER, k = 0;
	LIST_HEAD(pages);
	struct page *page, *next;
	u64 t0 = ktime_get_ns();

	if (!limit || limit > max)
		limit = max;
	vfree(samples);
	vfree(attempts);
	nr_samples = 0;
	nr_failures = 0;
	nr_attempts = 0;
	max_attempts = 2 * limit + MAX_FAILURES;
	run_pid = task_pid_nr(current);
	end = "none";
	samples = vmalloc(array_size(limit, sizeof(*samples)));
	attempts = vmalloc(array_size(max_attempts, sizeof(*attempts)));
	if (!samples || !attempts)
		return -ENOMEM;

	/* nr_failures counts the failures in a row, the last ones kept. */
	while (nr_samples < limit && nr_failures < MAX_FAILURES &&
	       nr_attempts < max_attempts && pace(t0, k++)) {
		struct attempt *a = &attempts[nr_attempts++];

		a->start_ns = ktime_get_ns();
		page = alloc_pages(HPAGE_GFP, HPAGE_ORDER);
		a->ns = ktime_get_ns() - a->start_ns;
		a->ok = page != NULL;
		if (!page) {
			failures[nr_failures++] = a->ns;
			cond_resched();
			continue;
		}
		samples[nr_samples++] = a->ns;
		nr_failures = 0;
		list_add(&page->lru, &pages);
		cond_resched();
	}
	if (nr_samples == limit)
		end = "count";
	else if (nr_failures == MAX_FAILURES)
		end = "failures";
	else if (nr_attempts == max_attempts)
		end = "log";
	else
		end = "seconds";
	list_for_each_entry_safe(page, next, &pages, lru) {
		list_del(&page->lru);
		__free_pages(page, HPAGE_ORDER);
	}
	return 0;
}

static ssize_t run_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	unsigned long limit;
	int ret;

	ret = kstrtoul_from_user(buf, count, 10, &limit);
	if (ret)
		return ret;
	mutex_lock(&lock);
	ret = run(limit);
	mutex_unlock(&lock);
	return ret ? ret : count;
}

static const struct file_operations run_fops = {
	.owner = THIS_MODULE,
	.write = run_write,
};

static void show_ns(struct seq_file *m, const u64 *ns, unsigned long n)
{
	unsigned long i;

	mutex_lock(&lock);
	for (i = 0; i < n; i++)
		seq_printf(m, "%llu\n", ns[i]);
	mutex_unlock(&lock);
}

static int samples_show(struct seq_file *m, void *v)
{
	show_ns(m, samples, nr_samples);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(samples);

static int failures_show(struct seq_file *m, void *v)
{
	show_ns(m, failures, nr_failures);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(failures);

static int attempts_show(struct seq_file *m, void *v)
{
	unsigned long i;

	mutex_lock(&lock);
	for (i = 0; i < nr_attempts; i++)
		seq_printf(m, "%llu %llu %s\n", attempts[i].start_ns, attempts[i].ns,
			   attempts[i].ok ? "ok" : "fail");
	mutex_unlock(&lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(attempts);

static int pid_show(struct seq_file *m, void *v)
{
	mutex_lock(&lock);
	seq_printf(m, "%d\n", run_pid);
	mutex_unlock(&lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pid);

static int end_show(struct seq_file *m, void *v)
{
	mutex_lock(&lock);
	seq_printf(m, "%s\n", end);
	mutex_unlock(&lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(end);

static int __init lab_hpalloc_init(void)
{
	dir = debugfs_create_dir("lab_hpalloc", NULL);
	debugfs_create_file("run", 0200, dir, NULL, &run_fops);
	debugfs_create_file("samples", 0444, dir, NULL, &samples_fops);
	debugfs_create_file("failures", 0444, dir, NULL, &failures_fops);
	debugfs_create_file("attempts", 0444, dir, NULL, &attempts_fops);
	debugfs_create_file("pid", 0444, dir, NULL, &pid_fops);
	debugfs_create_file("end", 0444, dir, NULL, &end_fops);
	return 0;
}

static void __exit lab_hpalloc_exit(void)
{
	debugfs_remove_recursive(dir);
	vfree(samples);
	vfree(attempts);
}

module_init(lab_hpalloc_init);
module_exit(lab_hpalloc_exit);
MODULE_DESCRIPTION("Huge-page allocation latency driver");
MODULE_LICENSE("GPL");
