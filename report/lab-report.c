// SPDX-License-Identifier: GPL-2.0
/*
 * lab-report: the lab's reports from raw results folders.  One program
 * for make demo's report (metrics.csv, report.md), make demo-quick's
 * (report.md, summary.json, metrics/, sweep.csv, rate.csv, plots) and
 * make bench's (metrics.csv, bench.md, summary.json), reading the raw files once into typed records, with one
 * statistics module (stats.h: the percentile, the median and the
 * intervals, each defined once).
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"
#include "lab-opt.h"
#include "report.h"
#include "stats.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: lab-report [options] demo RESULTS_DIR\n"
		"       lab-report [options] bench RESULTS_DIR\n"
		"       lab-report [options] protocol RESULTS_DIR\n"
		"       lab-report selftest\n"
		"demo: make demo-quick's report from its raw results (p<MODE>/, backoff/,\n"
		"  kernel, machine): RESULTS_DIR/metrics/ (a 'key value' file per\n"
		"  measurement, the CSV series the plots draw), report.md,\n"
		"  summary.json, sweep.csv and rate.csv (two modes or more, rates),\n"
		"  and the plots (gnuplot): score.png, alloc-cdf.png, sweep.png,\n"
		"  rate.png.  The raw files are not changed.\n"
		"bench: make bench's report from its boots' readings\n"
		"  (<config>-<boot>/): metrics.csv (a row per boot), bench.md,\n"
		"  summary.json.\n"
		"protocol: make demo's report from its boots' folders\n"
		"  (SIZE/CELL/BOOT/): metrics.csv (a row per boot) and report.md,\n"
		"  cells with and without the excluded boots (Documentation/protocol.md).\n"
		"selftest: the statistics module's checks on known values.\n"
		"Statistics: percentiles by linear interpolation (type 7), the\n"
		"median their 50th; 95%% intervals: order statistics for a\n"
		"percentile, the log scale (Welch's t) for a ratio of per-boot\n"
		"measures, Welch's t for a difference (Documentation/tools.md).\n"
		"  -t, --trace-tool PATH  proactive-trace (default: $PROACTIVE_TRACE,\n"
		"                         else the one beside this program)\n"
		"  -n, --no-plots         write the CSVs, not the plots\n"
		"  -h, --help             this text\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "trace-tool", required_argument, NULL, 't' },
		{ "no-plots", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct options o = { .plots = 1 };
	char *self, *tool = NULL;
	int opt, ret;

	while ((opt = getopt_long(argc, argv, "+t:nh", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			o.trace_tool = optarg;
			break;
		case 'n':
			o.plots = 0;
			break;
		default:
			help_or_bad_opt(opt, usage);
		}
	}
	if (optind < argc && !strcmp(argv[optind], "selftest") && optind == argc - 1)
		return stats_selftest() ? 1 : 0;
	if (optind != argc - 2) {
		usage(stderr);
		return 2;
	}
	if (!o.trace_tool)
		o.trace_tool = getenv("PROACTIVE_TRACE");
	if (!o.trace_tool) {
		self = xasprintf("%s", argv[0]);
		tool = xasprintf("%s/proactive-trace", dirname(self));
		free(self);
		o.trace_tool = tool;
	}
	if (!strcmp(argv[optind], "demo")) {
		ret = demo_report(argv[optind + 1], &o);
	} else if (!strcmp(argv[optind], "bench")) {
		ret = bench_report(argv[optind + 1], &o);
	} else if (!strcmp(argv[optind], "protocol")) {
		ret = protocol_report(argv[optind + 1], &o);
	} else {
		usage(stderr);
		ret = 2;
	}
	free(tool);
	return ret;
}
