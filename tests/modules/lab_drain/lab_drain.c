// SPDX-License-Identifier: GPL-2.0
/*
 * lab_drain: hold a node's free memory below its zones' min watermark, with
 * a few free pages left in movable pageblocks, so that compaction finds
 * free pages but may take none of them to migrate into.
 *
 * __isolate_free_page() refuses to take a free page from a zone at or
 * below its min watermark.  While this module is loaded, the free scanner
 * of a compaction of the node meets such a free page in a movable
 * pageblock (the only kind it scans), isolates nothing there and stops,
 * compaction_alloc() returns NULL, and migrate_pages() fails with -ENOMEM
 * before the scanners met: the zone's compaction ends COMPACT_CONTENDED,
 * which the series counts as an aborted proactive round.
 *
 * On load, from node @nid, take
 *   1. all it has in CHUNK_ORDER chunks,
 *   2. then order-0 pages until every zone of the node holds at most half
 *      of @percent % of its min watermark free,
 * and give back the chunks taken first, which lie in movable pageblocks
 * (see give_back()), while the zone stays at or below @percent % of its
 * min watermark.  A
 * chunk is above the per-CPU lists' orders, so it goes back to the buddy
 * lists at once, where the free scanner sees it.  The pages are allocated
 *   - movable (__GFP_MOVABLE), but they are not on the LRU: no compaction
 *     moves them;
 *   - without reclaim and without waking kswapd: a running kswapd would end
 *     proactive rounds for a reason of its own;
 *   - past the watermarks (__GFP_MEMALLOC), which is the point.
 * The pages are returned on unload.  Loading fails (-ENOSPC) when no chunk
 * could be given back.
 */
#include <linux/gfp.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mmzone.h>
#include <linux/module.h>
#include <linux/nodemask.h>
#include <linux/vmstat.h>

static int nid = 1;
module_param(nid, int, 0444);
MODULE_PARM_DESC(nid, "the node to drain");

static unsigned int percent = 50;
module_param(percent, uint, 0444);
MODULE_PARM_DESC(percent, "free pages to leave, in % of each zone's min watermark (1..99)");

#define CHUNK_ORDER	(PAGE_ALLOC_COSTLY_ORDER + 1)

static LIST_HEAD(chunks);	/* CHUNK_ORDER pages */
static LIST_HEAD(pages);	/* order-0 pages */
static unsigned long nr_chunks, nr_pages;

static const gfp_t gfp = __GFP_MOVABLE | __GFP_THISNODE | __GFP_MEMALLOC |
			 __GFP_NOWARN | __GFP_NORETRY;

static unsigned long target(struct zone *zone, unsigned int pct)
{
	return zone->_watermark[WMARK_MIN] * pct / 100;
}

/* free pages above half the target in the node's zones that serve us */
static unsigned long excess(pg_data_t *pgdat)
{
	unsigned long sum = 0, free;
	int i;

	for (i = 0; i <= ZONE_NORMAL; i++) {
		struct zone *zone = &pgdat->node_zones[i];

		if (!populated_zone(zone))
			continue;
		free = zone_page_state_snapshot(zone, NR_FREE_PAGES);
		if (free > target(zone, percent / 2))
			sum += free - target(zone, percent / 2);
	}
	return sum;
}

static void take(void)
{
	unsigned long left;
	struct page *page;

	while ((page = alloc_pages_node(nid, gfp, CHUNK_ORDER))) {
		list_add(&page->lru, &chunks);
		nr_chunks++;
	}
	while ((left = excess(NODE_DATA(nid)))) {
		/* a batch, then a fresh look at the counters */
		while (left--) {
			page = alloc_pages_node(nid, gfp, 0);
			if (!page)
				return;
			list_add(&page->lru, &pages);
			nr_pages++;
		}
	}
}

/*
 * Give back the chunks taken first: they came off the movable free lists
 * (__rmqueue_smallest() serves a movable request from those before it
 * steals from a pageblock of another type), so they lie in movable
 * pageblocks.  (A module cannot read a pageblock's type:
 * get_pfnblock_flags_mask() is not exported.)
 */
static unsigned long give_back(void)
{
	unsigned long given = 0;
	struct page *page, *prev;

	list_for_each_entry_safe_reverse(page, prev, &chunks, lru) {
		struct zone *zone = page_zone(page);

		if (zone_page_state_snapshot(zone, NR_FREE_PAGES) +
		    (1UL << CHUNK_ORDER) > target(zone, percent))
			break;
		list_del(&page->lru);
		nr_chunks--;
		__free_pages(page, CHUNK_ORDER);
		given++;
	}
	return given;
}

static void release(void)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &chunks, lru)
		__free_pages(page, CHUNK_ORDER);
	list_for_each_entry_safe(page, next, &pages, lru)
		__free_page(page);
	INIT_LIST_HEAD(&chunks);
	INIT_LIST_HEAD(&pages);
	nr_chunks = nr_pages = 0;
}

static int __init lab_drain_init(void)
{
	pg_data_t *pgdat;
	struct zone *zone;
	unsigned long given;

	if (nid < 0 || nid >= MAX_NUMNODES || !node_online(nid) ||
	    !node_state(nid, N_MEMORY) || !percent || percent > 99)
		return -EINVAL;
	pgdat = NODE_DATA(nid);
	take();
	given = give_back();
	for (zone = pgdat->node_zones; zone <= &pgdat->node_zones[ZONE_NORMAL]; zone++)
		if (populated_zone(zone))
			pr_info("lab_drain: node %d zone %s: %lu pages free, min watermark %lu\n",
				nid, zone->name,
				zone_page_state_snapshot(zone, NR_FREE_PAGES),
				zone->_watermark[WMARK_MIN]);
	pr_info("lab_drain: node %d: %lu pages taken, %lu order-%d chunks given back\n",
		nid, (nr_chunks << CHUNK_ORDER) + nr_pages, given, CHUNK_ORDER);
	if (!given) {
		release();
		return -ENOSPC;
	}
	return 0;
}
static void __exit lab_drain_exit(void)
{
	release();
}

module_init(lab_drain_init);
module_exit(lab_drain_exit);
MODULE_DESCRIPTION("Hold a node's free memory below its min watermark");
MODULE_LICENSE("GPL");
