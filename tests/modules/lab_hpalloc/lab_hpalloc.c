// SPDX-License-Identifier: GPL-2.0
/*
 * lab_hpalloc: the huge-page allocation latency driver of the proactive
 * compaction paper.  Writing N to <debugfs>/lab_hpalloc/run allocates
 * huge pages, movable as THP's are, until an allocation fails (or N pages,
 * if N > 0), timing each allocation, then frees them all.  The latencies, in
 * nanoseconds, one per line, are read from <debugfs>/lab_hpalloc/samples,
 * the last one being the failed allocation's.
 */
#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/vmalloc.h>

#define HPAGE_ORDER	HPAGE_PMD_ORDER
/*
 * As a THP fault in a MADV_HUGEPAGE region (GFP_TRANSHUGE: movable, direct
 * reclaim and compaction, no warning on failure), retried until compaction
 * at its highest priority, which ignores the pageblock skip hints, fails:
 * "until allocation fails" means out of huge pages, not one compaction
 * attempt that trusted stale hints.  The hints also outlive a run (THP
 * allocations do not wake kswapd, whose sleep would reset them), so the
 * demo boots a fresh guest for every measurement.
 */
#define HPAGE_GFP	(GFP_TRANSHUGE | __GFP_RETRY_MAYFAIL)

static DEFINE_MUTEX(lock);
static u64 *samples;
static unsigned long nr_samples;
static struct dentry *dir;

/* Allocate until failure (or @limit pages), timing each; free them all. */
static int run(unsigned long limit)
{
	unsigned long max = totalram_pages() >> HPAGE_ORDER;
	LIST_HEAD(pages);
	struct page *page, *next;

	if (!limit || limit > max)
		limit = max;
	vfree(samples);
	nr_samples = 0;
	samples = vmalloc(array_size(limit + 1, sizeof(*samples)));
	if (!samples)
		return -ENOMEM;

	while (nr_samples <= limit) {
		u64 start = ktime_get_ns();

		page = alloc_pages(HPAGE_GFP, HPAGE_ORDER);
		samples[nr_samples++] = ktime_get_ns() - start;
		if (!page)
			break;
		list_add(&page->lru, &pages);
		cond_resched();
	}
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

static int samples_show(struct seq_file *m, void *v)
{
	unsigned long i;

	mutex_lock(&lock);
	for (i = 0; i < nr_samples; i++)
		seq_printf(m, "%llu\n", samples[i]);
	mutex_unlock(&lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(samples);

static int __init lab_hpalloc_init(void)
{
	dir = debugfs_create_dir("lab_hpalloc", NULL);
	debugfs_create_file("run", 0200, dir, NULL, &run_fops);
	debugfs_create_file("samples", 0444, dir, NULL, &samples_fops);
	return 0;
}

static void __exit lab_hpalloc_exit(void)
{
	debugfs_remove_recursive(dir);
	vfree(samples);
}

module_init(lab_hpalloc_init);
module_exit(lab_hpalloc_exit);
MODULE_DESCRIPTION("Huge-page allocation latency driver");
MODULE_LICENSE("GPL");
