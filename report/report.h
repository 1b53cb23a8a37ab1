/* SPDX-License-Identifier: GPL-2.0 */
/* The lab report's two reports, and what they share */
#ifndef LAB_REPORT_REPORT_H
#define LAB_REPORT_REPORT_H

#include <stdio.h>

#include "stats.h"

/* The level of every interval the reports give */
#define LEVEL 0.95

struct options {
	const char *trace_tool;	/* proactive-trace */
	int plots;		/* run gnuplot */
};

int demo_report(const char *dir, const struct options *o);
int bench_report(const char *dir, const struct options *o);
int protocol_report(const char *dir, const struct options *o);

/* v with d decimals, "-" if NAN (a rotating static buffer) */
const char *fx(double v, int d);
/* the same without trailing zeros (JSON and CSV numbers), "null" if NAN */
const char *fj(double v, int d);
/* an interval's bounds, "[lo, hi]", "?" on an open side */
const char *fci(const struct interval *ci, int d);
FILE *create(const char *dir, const char *name);
/* Feed a gnuplot script to gnuplot; 0 if it ran */
int gnuplot(const char *script);

#endif
