// SPDX-License-Identifier: GPL-2.0
/*
 * taskcpu: the CPU time of other tasks in nanoseconds, from their process
 * CPU clocks (clock_getcpuclockid(), the scheduler's sum_exec_runtime):
 * /proc/PID/stat counts in clock ticks, too coarse for the few
 * microseconds of one kcompactd check, and /proc/PID/schedstat needs
 * CONFIG_SCHED_INFO.  A kernel thread leads its own thread group, so its
 * clock can be read.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab-opt.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: taskcpu PID...\n"
		"Print one line per PID: PID NANOSECONDS, its CPU time so far.\n"
		"  -h, --help  this text\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, i, ret = 0;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1)
		help_or_bad_opt(c, usage);
	if (optind == argc) {
		usage(stderr);
		return 2;
	}
	for (i = optind; i < argc; i++) {
		int pid = int_opt("taskcpu", "PID", argv[i], 1, 1 << 22);
		struct timespec ts;
		clockid_t clk;
		int err = clock_getcpuclockid(pid, &clk);

		if (!err && clock_gettime(clk, &ts))
			err = errno;
		if (err) {
			fprintf(stderr, "taskcpu: %d: %s\n", pid, strerror(err));
			ret = 1;
			continue;
		}
		printf("%d %lld\n", pid, (long long)ts.tv_sec * 1000000000 + ts.tv_nsec);
	}
	return ret;
}
