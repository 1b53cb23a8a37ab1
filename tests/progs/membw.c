// SPDX-License-Identifier: GPL-2.0
/*
 * membw: the guest's memcpy bandwidth, the physical limit of compaction's
 * migration (a migrated page is one 4 KiB copy, plus its bookkeeping).
 * Copies a buffer of --mib MiB into another, --rounds times, after one
 * untimed copy that faults both in, and prints the CPU time taken.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab-opt.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: membw [--mib M] [--rounds N]\n"
		"Copy an M MiB buffer (default 64) N times (default 16) with\n"
		"memcpy and print one line:\n"
		"  membw mib M rounds N cpu_s S mib_per_cpu_s B\n"
		"  -m, --mib M     buffer size in MiB (1..1024)\n"
		"  -r, --rounds N  timed copies (1..1000)\n"
		"  -h, --help      this text\n");
}

static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "mib", required_argument, NULL, 'm' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int mib = 64, rounds = 16, c, i;
	double t0, t;
	size_t len;
	char *src, *dst;

	while ((c = getopt_long(argc, argv, "m:r:h", opts, NULL)) != -1) {
		switch (c) {
		case 'm':
			mib = int_opt("membw", "mib", optarg, 1, 1024);
			break;
		case 'r':
			rounds = int_opt("membw", "rounds", optarg, 1, 1000);
			break;
		default:
			help_or_bad_opt(c, usage);
		}
	}
	len = (size_t)mib << 20;
	src = malloc(len);
	dst = malloc(len);
	if (!src || !dst) {
		fprintf(stderr, "membw: cannot allocate 2 x %d MiB\n", mib);
		return 1;
	}
	memset(src, 0x5a, len);
	memcpy(dst, src, len);
	t0 = cpu_now();
	for (i = 0; i < rounds; i++) {
		src[i] = (char)i;	/* each copy differs: not optimised away */
		memcpy(dst, src, len);
	}
	t = cpu_now() - t0;
	if (dst[rounds - 1] != (char)(rounds - 1)) {
		fprintf(stderr, "membw: the copy is wrong\n");
		return 1;
	}
	printf("membw mib %d rounds %d cpu_s %.3f mib_per_cpu_s %.0f\n",
	       mib, rounds, t, t > 0 ? (double)mib * rounds / t : 0);
	return 0;
}
