// SPDX-License-Identifier: GPL-2.0
/*
 * knobwrite: write(2) to a sysctl file the way a careless tool would, and
 * say exactly what the kernel answered.
 *
 *   knobwrite FILE STRING        one write(2) of STRING (no newline added)
 *   knobwrite --hammer FILE      PROCS processes, each WRITES writes of
 *                                random strings, valid and invalid
 *
 * A single write prints "ok N" (bytes accepted) or "error ENAME" and exits
 * 0 or 1.  The hammer checks that every write of a value in 0..100 was
 * accepted and every other write refused with EINVAL, and that the value
 * left in FILE is one that some process wrote and saw accepted; it exits 0
 * only then.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab-opt.h"

#define MAX_VALUE	100

static void usage(FILE *f)
{
	fprintf(f,
		"usage: knobwrite FILE STRING\n"
		"       knobwrite --hammer [--procs P] [--writes W] FILE\n"
		"One raw write(2) of STRING to FILE: prints \"ok BYTES\" or\n"
		"\"error ENAME\" (exit 1).  With --hammer, P processes (default 8)\n"
		"each write W (default 10000) random strings, valid (0..%d) and\n"
		"invalid; every answer must match the string's validity and the\n"
		"value left must be one that was written and accepted.\n"
		"  -H, --hammer     the concurrent random writer\n"
		"  -p, --procs P    writer processes\n"
		"  -w, --writes W   writes per process\n"
		"  -h, --help       this text\n", MAX_VALUE);
}

static const char *ename(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EACCES: return "EACCES";
	case EPERM: return "EPERM";
	case ERANGE: return "ERANGE";
	case EFAULT: return "EFAULT";
	default: return strerror(e);
	}
}

/* One open + write(2) + close; returns bytes written or -errno. */
static long write_once(const char *path, const char *s, size_t len)
{
	int fd = open(path, O_WRONLY);
	long ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, s, len);
	if (ret < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static const char *const invalid[] = {
	"-1", "101", "1000", "4294967296", "18446744073709551616", "abc",
	"\n", "20abc", "-5", "9999999999999999999999", "1e3", "0x",
};

/*
 * A random string and whether the kernel must accept it: half are valid
 * values (sometimes with a newline, as echo writes them), a quarter are
 * out of range, a quarter are garbage.
 */
static int random_string(char *buf, size_t size, unsigned int *seed)
{
	int r = rand_r(seed), v;

	switch (r % 4) {
	case 0:
	case 1:
		v = rand_r(seed) % (MAX_VALUE + 1);
		snprintf(buf, size, r & 4 ? "%d\n" : "%d", v);
		return v;
	case 2:
		v = rand_r(seed) % 1000000;
		snprintf(buf, size, "%d", v <= MAX_VALUE ? -1 - v : v);
		return -1;
	default:
		snprintf(buf, size, "%s", invalid[rand_r(seed) % (sizeof(invalid) / sizeof(invalid[0]))]);
		return -1;
	}
}

/* One writer: returns the number of wrong answers; marks accepted values. */
static int writer(const char *path, int writes, unsigned int seed, unsigned char *accepted)
{
	char buf[64];
	int i, wrong = 0;

	for (i = 0; i < writes; i++) {
		int v = random_string(buf, sizeof(buf), &seed);
		long ret = write_once(path, buf, strlen(buf));

		if (v >= 0 && ret == (long)strlen(buf)) {
			accepted[v] = 1;
		} else if (v >= 0 || ret != -EINVAL) {
			if (wrong++ < 5)
				fprintf(stderr, "knobwrite: write of \"%s\" gave %s, want %s\n", buf,
					ret < 0 ? ename(-ret) : "success", v >= 0 ? "success" : "EINVAL");
		}
	}
	return wrong;
}

static int read_value(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f || fscanf(f, "%d", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

static int hammer(const char *path, int procs, int writes)
{
	unsigned char *accepted = mmap(NULL, (size_t)procs * (MAX_VALUE + 1), PROT_READ | PROT_WRITE,
				       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int i, status, bad = 0, v, p;

	if (accepted == MAP_FAILED) {
		perror("knobwrite: mmap");
		return 1;
	}
	for (i = 0; i < procs; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("knobwrite: fork");
			return 1;
		}
		if (!pid)
			_exit(writer(path, writes, 0x9e3779b9u * (i + 1), accepted + i * (MAX_VALUE + 1)) ? 1 : 0);
	}
	while (wait(&status) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	v = read_value(path);
	for (p = 0; v >= 0 && p < procs; p++)
		if (accepted[p * (MAX_VALUE + 1) + v])
			break;
	printf("knobwrite: %d processes x %d writes, %d with wrong answers, final value %d%s\n",
	       procs, writes, bad, v, v >= 0 && p < procs ? ", written by one of them" : ", written by none");
	return bad || v < 0 || p == procs;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "hammer", no_argument, NULL, 'H' },
		{ "procs", required_argument, NULL, 'p' },
		{ "writes", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, do_hammer = 0, procs = 8, writes = 10000;
	long ret;

	while ((c = getopt_long(argc, argv, "+Hp:w:h", opts, NULL)) != -1) {
		switch (c) {
		case 'H': do_hammer = 1; break;
		case 'p': procs = int_opt("knobwrite", "procs", optarg, 1, 4096); break;
		case 'w': writes = int_opt("knobwrite", "writes", optarg, 1, 100000000); break;
		default: help_or_bad_opt(c, usage);
		}
	}
	if (do_hammer) {
		if (optind + 1 != argc) {
			usage(stderr);
			return 2;
		}
		return hammer(argv[optind], procs, writes);
	}
	if (optind + 2 != argc) {
		usage(stderr);
		return 2;
	}
	ret = write_once(argv[optind], argv[optind + 1], strlen(argv[optind + 1]));
	if (ret < 0) {
		printf("error %s\n", ename(-ret));
		return 1;
	}
	printf("ok %ld\n", ret);
	return 0;
}
