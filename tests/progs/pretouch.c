// SPDX-License-Identifier: GPL-2.0
/*
 * pretouch: the paper's Java heap pre-touch, in C.  Map a share of free
 * memory with MADV_HUGEPAGE, touch every base page (as -XX:+AlwaysPreTouch
 * does), and report the elapsed, user and system time and the share of the
 * region backed by huge pages.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lab-kb.h"
#include "lab-opt.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pretouch [--percent P]\n"
		"Map P%% (default 80) of MemFree with MADV_HUGEPAGE, touch every\n"
		"page and print one line:\n"
		"  pretouch mib M elapsed_s E user_s U sys_s S thp_pct T\n"
		"  -p, --percent P  share of MemFree to map (1..95)\n"
		"  -h, --help       this text\n");
}

static double tv(struct timeval t)
{
	return t.tv_sec + t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "percent", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	size_t page = sysconf(_SC_PAGESIZE), len, i;
	struct timespec t0, t1;
	struct rusage ru;
	int percent = 80, c;
	long thp_kb;
	char *p;

	while ((c = getopt_long(argc, argv, "p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			percent = int_opt("pretouch", "percent", optarg, 1, 95);
			break;
		default:
			help_or_bad_opt(c, usage);
		}
	}
	len = (size_t)kb_value("/proc/meminfo", "MemFree") * 1024 / 100 * percent;
	len &= ~((2UL << 20) - 1);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	if (madvise(p, len, MADV_HUGEPAGE))
		perror("madvise(MADV_HUGEPAGE)");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < len; i += page)
		p[i] = 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru);
	thp_kb = kb_value("/proc/self/smaps_rollup", "AnonHugePages");
	printf("pretouch mib %zu elapsed_s %.3f user_s %.3f sys_s %.3f thp_pct %.1f\n",
	       len >> 20, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
	       tv(ru.ru_utime), tv(ru.ru_stime), 100.0 * thp_kb * 1024 / len);
	return 0;
}
