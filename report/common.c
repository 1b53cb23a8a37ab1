// SPDX-License-Identifier: GPL-2.0
/* What the two reports share: number formats, output files, gnuplot */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define NBUF 16
static char bufs[NBUF][64];
static int next_buf;

static char *buf(void)
{
	next_buf = (next_buf + 1) % NBUF;
	return bufs[next_buf];
}

const char *fx(double v, int d)
{
	char *b = buf();

	if (isnan(v))
		return "-";
	snprintf(b, 64, "%.*f", d, v);
	if (!strcmp(b, "-0"))
		strcpy(b, "0");
	return b;
}

const char *fj(double v, int d)
{
	char *b = buf(), *p;

	if (isnan(v))
		return "null";
	snprintf(b, 64, "%.*f", d, v);
	if (strchr(b, '.')) {
		for (p = b + strlen(b) - 1; *p == '0'; p--)
			*p = '\0';
		if (*p == '.')
			*p = '\0';
	}
	if (!strcmp(b, "-0"))
		strcpy(b, "0");
	return b;
}

const char *fci(const struct interval *ci, int d)
{
	char *b = buf();

	if (!ci->ok)
		return "-";
	snprintf(b, 64, "[%s, %s]", isnan(ci->lo) ? "?" : fx(ci->lo, d),
		 isnan(ci->hi) ? "?" : fx(ci->hi, d));
	return b;
}

FILE *create(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *path = malloc(n);
	FILE *f;

	if (!path)
		exit(1);
	snprintf(path, n, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	free(path);
	return f;
}

int gnuplot(const char *script)
{
	FILE *p = popen("gnuplot", "w");

	if (!p) {
		fprintf(stderr, "lab-report: cannot run gnuplot\n");
		return 1;
	}
	fputs(script, p);
	if (pclose(p)) {
		fprintf(stderr, "lab-report: gnuplot failed\n");
		return 1;
	}
	return 0;
}
