// SPDX-License-Identifier: GPL-2.0
/*
 * fragscore: the per-node fragmentation score that kcompactd acts on,
 * recomputed in userspace from /proc/buddyinfo and /proc/zoneinfo.
 *
 * A zone's score is its external fragmentation at the huge-page order
 * (mm/vmstat.c, extfrag_for_order()): the share of free memory that is not
 * in blocks of at least that order.  The node's score is the sum of zone
 * scores weighted by the zone's present pages over the node's present pages
 * plus one (mm/compaction.c, fragmentation_score_node()), with the kernel's
 * integer divisions.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab-opt.h"

#define MAX_NODES 64
#define MAX_ZONES 8
#define MAX_ORDERS 16

struct zone {
	char name[16];
	unsigned long nr_free[MAX_ORDERS];
	int orders;
	unsigned long present;
};

struct node {
	struct zone zones[MAX_ZONES];
	int nr_zones;
};

static struct node nodes[MAX_NODES];

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fragscore [--order N] [--zones] [--proc DIR]\n"
		"Print each node's fragmentation score as kcompactd computes it:\n"
		"  node N score S\n"
		"  -o, --order N  huge-page order (default 9, x86-64's PMD order)\n"
		"  -z, --zones    also print each zone's unweighted score\n"
		"  -p, --proc DIR read DIR/buddyinfo and DIR/zoneinfo (default /proc),\n"
		"                 e.g. copies taken at one moment\n"
		"  -h, --help     this text\n");
}

static struct zone *find_zone(int nid, const char *name, int create)
{
	struct node *n = &nodes[nid];
	int i;

	for (i = 0; i < n->nr_zones; i++)
		if (!strcmp(n->zones[i].name, name))
			return &n->zones[i];
	if (!create || n->nr_zones == MAX_ZONES)
		return NULL;
	snprintf(n->zones[n->nr_zones].name, sizeof(n->zones[0].name), "%s", name);
	return &n->zones[n->nr_zones++];
}

static FILE *open_proc(const char *dir, const char *name)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "r");
}

static int read_buddyinfo(const char *dir)
{
	FILE *f = open_proc(dir, "buddyinfo");
	char line[512];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char name[16], *p;
		int nid, off;
		struct zone *z;

		if (sscanf(line, "Node %d, zone %15s%n", &nid, name, &off) != 2 ||
		    nid < 0 || nid >= MAX_NODES)
			continue;
		z = find_zone(nid, name, 1);
		if (!z)
			continue;
		for (p = line + off, z->orders = 0; z->orders < MAX_ORDERS; z->orders++) {
			char *end;

			z->nr_free[z->orders] = strtoul(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
	}
	fclose(f);
	return 0;
}

static int read_zoneinfo(const char *dir)
{
	FILE *f = open_proc(dir, "zoneinfo");
	char line[512], name[16];
	struct zone *z = NULL;
	unsigned long v;
	int nid;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %15s", &nid, name) == 2)
			z = (nid >= 0 && nid < MAX_NODES) ? find_zone(nid, name, 1) : NULL;
		else if (z && sscanf(line, " present %lu", &v) == 1)
			z->present = v;
	}
	fclose(f);
	return 0;
}

/* extfrag_for_order() */
static unsigned int zone_score(const struct zone *z, int order)
{
	unsigned long long free_pages = 0, suitable = 0;
	int o;

	for (o = 0; o < z->orders; o++) {
		free_pages += (unsigned long long)z->nr_free[o] << o;
		if (o >= order)
			suitable += (unsigned long long)z->nr_free[o] << (o - order);
	}
	if (!free_pages)
		return 0;
	return (free_pages - (suitable << order)) * 100 / free_pages;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "order", required_argument, NULL, 'o' },
		{ "zones", no_argument, NULL, 'z' },
		{ "proc", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *proc = "/proc";
	int order = 9, zones = 0, c, nid, i;

	while ((c = getopt_long(argc, argv, "o:zp:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			order = int_opt("fragscore", "order", optarg, 0, MAX_ORDERS - 1);
			break;
		case 'z':
			zones = 1;
			break;
		case 'p':
			proc = optarg;
			break;
		default:
			help_or_bad_opt(c, usage);
		}
	}
	if (read_buddyinfo(proc) || read_zoneinfo(proc)) {
		fprintf(stderr, "fragscore: cannot read %s/buddyinfo and %s/zoneinfo: %s\n",
			proc, proc, strerror(errno));
		return 1;
	}
	for (nid = 0; nid < MAX_NODES; nid++) {
		struct node *n = &nodes[nid];
		unsigned long long node_present = 0, score = 0;

		if (!n->nr_zones)
			continue;
		for (i = 0; i < n->nr_zones; i++)
			node_present += n->zones[i].present;
		for (i = 0; i < n->nr_zones; i++)
			score += n->zones[i].present * zone_score(&n->zones[i], order) /
				 (node_present + 1);
		printf("node %d score %llu\n", nid, score);
		for (i = 0; zones && i < n->nr_zones; i++)
			printf("node %d zone %s present %lu score %u\n", nid,
			       n->zones[i].name, n->zones[i].present,
			       zone_score(&n->zones[i], order));
	}
	return 0;
}
