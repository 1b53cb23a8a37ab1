// SPDX-License-Identifier: GPL-2.0
/*
 * fragmenter: fragment every node's memory the way the proactive compaction
 * paper did.  Fill most of each node's free memory with transparent huge
 * pages, then free three of every four base pages of each 2 MiB chunk, so
 * that no huge-page sized block is left free and every node's score is
 * close to 100.
 *
 * Freeing part of a THP only splits the mapping: the huge page waits on the
 * deferred split queue with all its memory still allocated.  The split is
 * forced through <debugfs>/split_huge_pages so that the freed base pages
 * really reach the buddy allocator.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lab-opt.h"

#define CHUNK (2UL << 20)
#define MPOL_BIND 2
#define MAX_NODES 64

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: fragmenter [--percent P] [--keep K] [--hold] [--ready FILE]\n"
		"Fill P%% (default 97) of each node's free memory with THP, then in\n"
		"every 2 MiB chunk free the first K - 1 base pages of every K\n"
		"(default 4) and keep the last.  With --hold, keep the memory until SIGINT or SIGTERM;\n"
		"--ready FILE is created once memory is fragmented.\n"
		"  -p, --percent P  share of each node's free memory to fill\n"
		"  -k, --keep K     keep one base page in K (2..512)\n"
		"  -H, --hold       hold the memory until signalled\n"
		"  -r, --ready FILE touch FILE when fragmented\n"
		"  -h, --help       this text\n");
}

/* A "Node N ..." meminfo value of node nid, in kB; -1 if there is none. */
static long node_meminfo(int nid, const char *key)
{
	char path[96], line[256], k[64];
	long v, ret = -1;
	int n;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", nid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Node %d %63s %ld", &n, k, &v) == 3 &&
		    !strncmp(k, key, strlen(key)) && k[strlen(key)] == ':')
			ret = v;
	fclose(f);
	return ret;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, val, strlen(val)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

/* Map and fill len bytes of THP on node nid; returns the 2 MiB aligned map. */
static char *fill_node(int nid, size_t len)
{
	unsigned long mask[MAX_NODES / 64] = { 0 };
	size_t i, page = sysconf(_SC_PAGESIZE);
	char *raw, *p;

	raw = mmap(NULL, len + CHUNK, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (raw == MAP_FAILED)
		return NULL;
	p = (char *)(((unsigned long)raw + CHUNK - 1) & ~(CHUNK - 1));
	mask[nid / 64] = 1UL << (nid % 64);
	if (syscall(SYS_mbind, p, len, MPOL_BIND, mask, MAX_NODES + 1, 0)) {
		perror("mbind");
		return NULL;
	}
	if (madvise(p, len, MADV_HUGEPAGE))
		perror("madvise(MADV_HUGEPAGE)");
	/*
	 * A non-zero byte in every page: since 6.12, a THP split remaps its
	 * zero-filled base pages to the shared zero page and frees them
	 * (thp_underused), which would free the pages meant to be kept.
	 */
	for (i = 0; i < len; i += page)
		p[i] = (char)(i / page) | 1;
	return p;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "percent", required_argument, NULL, 'p' },
		{ "keep", required_argument, NULL, 'k' },
		{ "hold", no_argument, NULL, 'H' },
		{ "ready", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int percent = 97, keep = 4, hold = 0, c, nid;
	const char *ready = NULL;
	size_t page = sysconf(_SC_PAGESIZE);

	while ((c = getopt_long(argc, argv, "p:k:Hr:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			percent = int_opt("fragmenter", "percent", optarg, 1, 99);
			break;
		case 'k':
			keep = int_opt("fragmenter", "keep", optarg, 2, 512);
			break;
		case 'H':
			hold = 1;
			break;
		case 'r':
			ready = optarg;
			break;
		default:
			help_or_bad_opt(c, usage);
		}
	}

	for (nid = 0; nid < MAX_NODES; nid++) {
		long free_kb = node_meminfo(nid, "MemFree");
		size_t len, off, i;
		char *p;

		if (free_kb < 0)
			continue;
		len = (size_t)free_kb * 1024 / 100 * percent / CHUNK * CHUNK;
		if (!len)
			continue;
		p = fill_node(nid, len);
		if (!p) {
			fprintf(stderr, "fragmenter: cannot fill node %d\n", nid);
			return 1;
		}
		printf("node %d filled %zu MiB, AnonHugePages %ld MiB\n", nid,
		       len >> 20, node_meminfo(nid, "AnonHugePages") >> 10);
		/*
		 * Free the first K - 1 base pages of every K and keep the last.
		 * Keeping the first instead would leave every page at a
		 * multiple of K allocated, and the free scanner, which samples
		 * every 2nd..32nd page of a block once it finds blocks without
		 * free pages (isolate_freepages()), would never find a free
		 * page: compaction would make no progress at all.
		 */
		for (off = 0; off < len; off += CHUNK)
			for (i = 0; i < CHUNK; i += keep * page)
				madvise(p + off + i, (keep - 1) * page, MADV_DONTNEED);
		/*
		 * Keep khugepaged off the holes: it would collapse every chunk
		 * back into a huge page (max_ptes_none allows 511 missing),
		 * compacting and allocating behind the experiment's back.
		 */
		if (madvise(p, len, MADV_NOHUGEPAGE))
			perror("madvise(MADV_NOHUGEPAGE)");
	}
	if (write_file("/sys/kernel/debug/split_huge_pages", "1"))
		fprintf(stderr, "fragmenter: cannot split huge pages: %s\n", strerror(errno));
	for (nid = 0; nid < MAX_NODES; nid++)
		if (node_meminfo(nid, "MemFree") >= 0)
			printf("node %d MemFree %ld MiB after fragmenting\n", nid,
			       node_meminfo(nid, "MemFree") >> 10);
	fflush(stdout);
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT, 0644);

		if (fd >= 0)
			close(fd);
	}
	if (hold) {
		signal(SIGINT, on_signal);
		signal(SIGTERM, on_signal);
		while (!stop)
			pause();
	}
	return 0;
}
