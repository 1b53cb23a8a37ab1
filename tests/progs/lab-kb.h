/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A "Key: N kB" value of a /proc or /sys meminfo-style file, shared by the
 * lab's C tools: /proc/meminfo and /proc/self/smaps_rollup write the key
 * first, a node's meminfo ("Node 0 MemFree:") puts the node before it.
 */
#ifndef LAB_KB_H
#define LAB_KB_H

#include <stdio.h>
#include <string.h>

/* kb_value - KEY's value in PATH, in kB; -1 if the file or the key is missing */
static inline long kb_value(const char *path, const char *key)
{
	char line[256], *k;
	long v, ret = -1;
	size_t n = strlen(key);
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		k = strstr(line, key);
		if (k && (k == line || k[-1] == ' ') && k[n] == ':' &&
		    sscanf(k + n + 1, "%ld", &v) == 1)
			ret = v;
	}
	fclose(f);
	return ret;
}

#endif
