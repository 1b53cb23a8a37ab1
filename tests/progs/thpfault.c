// SPDX-License-Identifier: GPL-2.0
/*
 * thpfault: a task that faults huge pages while kcompactd may be compacting
 * on its CPU, for the co-located workload of Documentation/protocol.md.
 * Pinned to one CPU, it maps a share of one node's free memory with
 * MADV_HUGEPAGE and touches it 2 MiB at a time, timing the first touch of
 * each 2 MiB (the fault that gets a huge page, or falls back to a base
 * page) and then touching the chunk's other pages, untimed, so that the
 * memory is taken either way.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "lab-kb.h"
#include "lab-opt.h"

#define CHUNK	(2UL << 20)

static void usage(FILE *f)
{
	fprintf(f,
		"usage: thpfault --cpu C --node N [--percent P] [--ready FILE]\n"
		"Pinned to CPU C, map P%% (default 40) of node N's MemFree with\n"
		"MADV_HUGEPAGE and touch it 2 MiB at a time.  Prints each chunk's\n"
		"first-touch latency in ns, one a line, then, on stderr, one line:\n"
		"  thpfault cpu C node N mib M faults F thp_pct T elapsed_s E\n"
		"  -c, --cpu C      the CPU to run on\n"
		"  -n, --node N     the node whose free memory sizes the mapping\n"
		"  -p, --percent P  share of the node's MemFree to map (1..95)\n"
		"  -r, --ready FILE created once pinned and mapped, before the\n"
		"                   first touch\n"
		"  -h, --help       this text\n");
}

static unsigned long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "cpu", required_argument, NULL, 'c' },
		{ "node", required_argument, NULL, 'n' },
		{ "percent", required_argument, NULL, 'p' },
		{ "ready", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int cpu = -1, node = -1, percent = 40, c, fd;
	size_t page = sysconf(_SC_PAGESIZE), len, off, i, faults = 0;
	unsigned long long t0, t, start;
	const char *ready = NULL;
	char meminfo[64];
	cpu_set_t set;
	long free_kb;
	char *p;

	while ((c = getopt_long(argc, argv, "c:n:p:r:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			cpu = int_opt("thpfault", "cpu", optarg, 0, CPU_SETSIZE - 1);
			break;
		case 'n':
			node = int_opt("thpfault", "node", optarg, 0, 1023);
			break;
		case 'p':
			percent = int_opt("thpfault", "percent", optarg, 1, 95);
			break;
		case 'r':
			ready = optarg;
			break;
		default:
			help_or_bad_opt(c, usage);
		}
	}
	if (cpu < 0 || node < 0 || optind != argc) {
		usage(stderr);
		return 2;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("thpfault: sched_setaffinity");
		return 1;
	}
	snprintf(meminfo, sizeof(meminfo), "/sys/devices/system/node/node%d/meminfo", node);
	free_kb = kb_value(meminfo, "MemFree");
	if (free_kb < 0) {
		fprintf(stderr, "thpfault: no MemFree in %s\n", meminfo);
		return 1;
	}
	len = ((size_t)free_kb * 1024 / 100 * percent) & ~(CHUNK - 1);
	if (!len) {
		fprintf(stderr, "thpfault: %d%% of node %d's %ld kB free is under 2 MiB\n",
			percent, node, free_kb);
		return 1;
	}
	/* One extra chunk, to start the region on a 2 MiB boundary */
	p = mmap(NULL, len + CHUNK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("thpfault: mmap");
		return 1;
	}
	p = (char *)(((unsigned long)p + CHUNK - 1) & ~(CHUNK - 1));
	if (madvise(p, len, MADV_HUGEPAGE)) {
		perror("thpfault: madvise(MADV_HUGEPAGE)");
		return 1;
	}
	if (ready) {
		fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			perror("thpfault: the ready file");
			return 1;
		}
		close(fd);
	}
	start = now_ns();
	for (off = 0; off < len; off += CHUNK) {
		t0 = now_ns();
		p[off] = 1;
		t = now_ns();
		printf("%llu\n", t - t0);
		faults++;
		for (i = page; i < CHUNK; i += page)
			p[off + i] = 1;
	}
	t = now_ns();
	fprintf(stderr, "thpfault cpu %d node %d mib %zu faults %zu thp_pct %.1f elapsed_s %.3f\n",
		cpu, node, len >> 20, faults,
		100.0 * kb_value("/proc/self/smaps_rollup", "AnonHugePages") * 1024 / len,
		(t - start) / 1e9);
	return fflush(stdout) ? 1 : 0;
}
