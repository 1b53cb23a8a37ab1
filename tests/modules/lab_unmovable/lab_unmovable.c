// SPDX-License-Identifier: GPL-2.0
/*
 * lab_unmovable: scatter unmovable pages over every node, as the proactive
 * compaction paper's back-off experiment did.  On load, allocate huge-page
 * sized blocks with GFP_KERNEL on each node until @percent of its free
 * memory is taken or allocation fails, and free the first three quarters of
 * each block.  Every huge-page block then holds unmovable pages: compaction
 * cannot lower the score, and proactive compaction must back off.  The
 * pages are returned on unload.
 *
 * @init_delay_ms keeps the load in its init that long first, so that a test
 * can meet a load in progress on every kernel: a load of the same module
 * waits for it.
 */
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/vmalloc.h>
#include <linux/vmstat.h>

#define BLOCK_ORDER	HPAGE_PMD_ORDER
#define BLOCK_PAGES	(1UL << BLOCK_ORDER)
#define KEPT_PAGES	(BLOCK_PAGES / 4)

static unsigned int percent = 95;
module_param(percent, uint, 0444);
MODULE_PARM_DESC(percent, "share of each node's free memory to take (1..100)");

static unsigned int init_delay_ms;
module_param(init_delay_ms, uint, 0444);
MODULE_PARM_DESC(init_delay_ms, "milliseconds to wait in init before scattering");

static struct page **kept;	/* the last quarter of each block */
static unsigned long nr_kept;

static unsigned long node_free_pages(int nid)
{
	pg_data_t *pgdat = NODE_DATA(nid);
	unsigned long free = 0;
	int i;

	for (i = 0; i < MAX_NR_ZONES; i++)
		free += zone_page_state(&pgdat->node_zones[i], NR_FREE_PAGES);
	return free;
}

static unsigned long scatter_node(int nid, unsigned long max)
{
	gfp_t gfp = GFP_KERNEL | __GFP_THISNODE | __GFP_NOWARN | __GFP_NORETRY;
	unsigned long target = node_free_pages(nid) / 100 * percent / BLOCK_PAGES;
	unsigned long n, i;

	for (n = 0; n < target && nr_kept < max; n++) {
		struct page *page = alloc_pages_node(nid, gfp, BLOCK_ORDER);

		if (!page)
			break;
		split_page(page, BLOCK_ORDER);
		for (i = 0; i < BLOCK_PAGES - KEPT_PAGES; i++)
			__free_page(page + i);
		kept[nr_kept++] = page + BLOCK_PAGES - KEPT_PAGES;
	}
	return n;
}

static void release(void)
{
	unsigned long n, i;

	for (n = 0; n < nr_kept; n++)
		for (i = 0; i < KEPT_PAGES; i++)
			__free_page(kept[n] + i);
	nr_kept = 0;
	vfree(kept);
}

static int __init lab_unmovable_init(void)
{
	unsigned long max = totalram_pages() / BLOCK_PAGES;
	int nid;

	if (!percent || percent > 100)
		return -EINVAL;
	msleep(init_delay_ms);
	kept = vmalloc(array_size(max, sizeof(*kept)));
	if (!kept)
		return -ENOMEM;
	for_each_online_node(nid)
		pr_info("lab_unmovable: node %d: %lu blocks scattered\n", nid,
			scatter_node(nid, max));
	return 0;
}

static void __exit lab_unmovable_exit(void)
{
	release();
}

module_init(lab_unmovable_init);
module_exit(lab_unmovable_exit);
MODULE_DESCRIPTION("Scatter unmovable pages to defeat compaction");
MODULE_LICENSE("GPL");
