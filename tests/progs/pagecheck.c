// SPDX-License-Identifier: GPL-2.0
/*
 * pagecheck: prove that compaction moves pages without changing them.
 *
 * Map a share of free memory (private anonymous, or shared: shmem), base
 * pages only, and write every page with a pattern that is a function of
 * the address of each word, a seed and the page's generation.  Then, each
 * cycle: free three of every four pages of each 2 MiB chunk (a different
 * quarter kept each cycle: the survivors are the pages the last cycle
 * refilled, wherever the allocator put them), run COMMAND (what makes compaction migrate: proactive rounds, writes of
 * compact_memory) while verifying every live page over and over, verify
 * once more, and refill the freed pages with a new generation.
 *
 * COMMAND finds the mapping's address in $PAGECHECK_BASE.  Output: one
 * line per cycle and a total, "pages_verified N mismatches M"; exit 0 only
 * with no mismatch.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab-opt.h"

#define CHUNK	(2UL << 20)

static size_t page_size;
static size_t nr_pages;
static unsigned char *base;
static uint8_t *gen;		/* per page: 0 = not present, else generation */
static uint64_t seed = 0x5eed;
static int shared;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pagecheck [--percent P] [--cycles C] [--shared] [--seed S]\n"
		"                 [--node N] -- COMMAND...\n"
		"Fill P%% (default 50) of MemFree with checksummed base pages, then\n"
		"C times (default 3): free 3 of every 4 pages per 2 MiB, run COMMAND\n"
		"while verifying the live pages, verify again, refill.  COMMAND\n"
		"gets the mapping's address in $PAGECHECK_BASE.\n"
		"  -p, --percent P  share of MemFree to map (1..90)\n"
		"  -c, --cycles C   fragment/compact/verify cycles\n"
		"  -s, --shared     MAP_SHARED|MAP_ANONYMOUS (shmem) instead of private\n"
		"  -S, --seed S     pattern seed\n"
		"  -n, --node N     bind the pages to node N (mbind), P%% of its MemFree\n"
		"  -h, --help       this text\n");
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t pattern(const uint64_t *word, uint8_t g)
{
	return mix((uintptr_t)word ^ seed ^ ((uint64_t)g << 56));
}

static void fill_page(size_t i, uint8_t g)
{
	uint64_t *w = (uint64_t *)(base + i * page_size);
	size_t j;

	for (j = 0; j < page_size / sizeof(*w); j++)
		w[j] = pattern(&w[j], g);
	gen[i] = g;
}

/* Mismatching words in page i (0 if it is not present). */
static size_t check_page(size_t i)
{
	const uint64_t *w = (const uint64_t *)(base + i * page_size);
	size_t j, bad = 0;

	if (!gen[i])
		return 0;
	for (j = 0; j < page_size / sizeof(*w); j++)
		if (w[j] != pattern(&w[j], gen[i]))
			bad++;
	if (bad)
		fprintf(stderr, "pagecheck: page %zu (%p, generation %u): %zu words differ\n",
			i, (void *)w, gen[i], bad);
	return bad;
}

/* Verify every live page; returns pages verified, adds to *bad_pages. */
static size_t verify(size_t *bad_pages)
{
	size_t i, n = 0;

	for (i = 0; i < nr_pages; i++) {
		if (!gen[i])
			continue;
		n++;
		if (check_page(i))
			(*bad_pages)++;
	}
	return n;
}

static int drop_page(size_t i)
{
	void *p = base + i * page_size;

	if (madvise(p, page_size, shared ? MADV_REMOVE : MADV_DONTNEED)) {
		perror("pagecheck: madvise");
		return -1;
	}
	gen[i] = 0;
	return 0;
}

/* MemFree of the system, or of node @nid (>= 0), in kB; -1 if unknown */
static long mem_free_kb(int nid)
{
	char line[256], path[64];
	long v = -1;
	int n;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", nid);
	f = fopen(nid < 0 ? "/proc/meminfo" : path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (nid < 0 ? sscanf(line, "MemFree: %ld kB", &v) == 1 :
		    sscanf(line, "Node %d MemFree: %ld kB", &n, &v) == 2)
			break;
	if (f)
		fclose(f);
	return v;
}

/* Run argv while verifying; returns the command's exit status or -1. */
static int run_verifying(char **argv, size_t *verified, size_t *bad_pages)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (!pid) {
		char addr[32];

		snprintf(addr, sizeof(addr), "%p", (void *)base);
		setenv("PAGECHECK_BASE", addr, 1);
		execvp(argv[0], argv);
		perror("pagecheck: exec");
		_exit(127);
	}
	while (waitpid(pid, &status, WNOHANG) == 0)
		*verified += verify(bad_pages);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "percent", required_argument, NULL, 'p' },
		{ "cycles", required_argument, NULL, 'c' },
		{ "shared", no_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "node", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	size_t verified = 0, bad_pages = 0, per_chunk, i;
	int c, percent = 50, cycles = 3, cycle, status, nid = -1;
	size_t len;

	while ((c = getopt_long(argc, argv, "+p:c:sS:n:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p': percent = int_opt("pagecheck", "percent", optarg, 1, 90); break;
		case 'c': cycles = int_opt("pagecheck", "cycles", optarg, 1, 255); break;
		case 's': shared = 1; break;
		case 'S': seed = strtoull(optarg, NULL, 0); break;
		case 'n': nid = int_opt("pagecheck", "node", optarg, 0, 63); break;
		default: help_or_bad_opt(c, usage);
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	page_size = sysconf(_SC_PAGESIZE);
	per_chunk = CHUNK / page_size;
	len = (size_t)mem_free_kb(nid) * 1024 / 100 * percent / CHUNK * CHUNK;
	nr_pages = len / page_size;
	gen = calloc(nr_pages, 1);
	base = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
	if (!len || !gen || base == MAP_FAILED) {
		fprintf(stderr, "pagecheck: cannot map %zu bytes: %s\n", len, strerror(errno));
		return 1;
	}
	if (nid >= 0) {
		unsigned long mask = 1UL << nid;

		if (syscall(SYS_mbind, base, len, 2 /* MPOL_BIND */, &mask, 64 + 1, 0)) {
			fprintf(stderr, "pagecheck: mbind to node %d: %s\n", nid, strerror(errno));
			return 1;
		}
	}
	/* Base pages only: compaction migrates them one by one. */
	if (madvise(base, len, MADV_NOHUGEPAGE))
		perror("pagecheck: MADV_NOHUGEPAGE");
	for (i = 0; i < nr_pages; i++)
		fill_page(i, 1);
	printf("pagecheck: %s, %zu MiB, %zu pages\n", shared ? "shared (shmem)" : "private anonymous",
	       len >> 20, nr_pages);

	for (cycle = 1; cycle <= cycles; cycle++) {
		size_t v0 = verified, b0 = bad_pages, live = 0;

		for (i = 0; i < nr_pages; i++) {
			if ((i % per_chunk) % 4 == (size_t)cycle % 4)
				live++;
			else if (gen[i] && drop_page(i))
				return 1;
		}
		status = run_verifying(argv + optind, &verified, &bad_pages);
		verified += verify(&bad_pages);
		printf("pagecheck: cycle %d: %zu live pages, command exited %d, pages_verified %zu mismatches %zu\n",
		       cycle, live, status, verified - v0, bad_pages - b0);
		if (status) {
			fprintf(stderr, "pagecheck: the command failed\n");
			return 1;
		}
		for (i = 0; i < nr_pages; i++)
			if (!gen[i])
				fill_page(i, cycle + 1);
	}
	verified += verify(&bad_pages);
	printf("pagecheck: total pages_verified %zu mismatches %zu\n", verified, bad_pages);
	return bad_pages ? 1 : 0;
}
