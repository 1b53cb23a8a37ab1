/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Option parsing shared by the lab's C tools (tests/progs/ and
 * trace/proactive-trace.c): an integer option parsed whole, with the
 * tool, the option and the range in its error, and the end of every
 * tool's option switch.
 */
#ifndef LAB_OPT_H
#define LAB_OPT_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * int_opt - ARG as a decimal integer in LO..HI, or exit 2 naming the
 * option: atoi() would take "50x" as 50 and "x" as 0.
 */
static inline int int_opt(const char *prog, const char *name, const char *arg,
			  long lo, long hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < lo || v > hi) {
		fprintf(stderr, "%s: --%s must be an integer in %ld..%ld, not '%s'\n",
			prog, name, lo, hi, arg);
		exit(2);
	}
	return (int)v;
}

/*
 * help_or_bad_opt - the default case of an option switch: for -h/--help
 * the usage on stdout and exit 0; for anything else getopt returned (an
 * unknown option, a missing argument) the usage on stderr and exit 2.
 */
static inline void __attribute__((noreturn))
help_or_bad_opt(int c, void (*usage)(FILE *))
{
	usage(c == 'h' ? stdout : stderr);
	exit(c == 'h' ? 0 : 2);
}

#endif
