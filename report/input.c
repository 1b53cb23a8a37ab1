// SPDX-License-Identifier: GPL-2.0
/* The lab report's readers (input.h) */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "input.h"

static void __attribute__((noreturn)) no_memory(void)
{
	fprintf(stderr, "lab-report: out of memory\n");
	exit(1);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		no_memory();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		no_memory();
	return p;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		no_memory();
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (!fmt)	/* (never: it quiets GCC's -fsanitize=undefined builds) */
		fmt = "";
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xcalloc(n + 1, 1);
	va_start(ap, fmt);
	vsnprintf(s, n + 1, fmt, ap);
	va_end(ap);
	return s;
}

char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	size_t len = 0, cap = 4096, got;
	char *buf;

	if (!f)
		return NULL;
	buf = xcalloc(cap, 1);
	while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len - 1 == 0) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

int readable(const char *path)
{
	return access(path, R_OK) == 0;
}

int first_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	int ok = 0;

	if (!f)
		return 0;
	if (fgets(buf, size, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		ok = 1;
	}
	fclose(f);
	return ok;
}

void kv_add(struct kv *kv, const char *name, const char *value)
{
	if (kv->n == kv->cap) {
		kv->cap = kv->cap ? 2 * kv->cap : 16;
		kv->name = xrealloc(kv->name, kv->cap * sizeof(*kv->name));
		kv->value = xrealloc(kv->value, kv->cap * sizeof(*kv->value));
	}
	kv->name[kv->n] = xstrdup(name);
	kv->value[kv->n++] = xstrdup(value);
}

const char *kv_get(const struct kv *kv, const char *name)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		if (!strcmp(kv->name[i], name))
			return kv->value[i];
	return NULL;
}

double kv_num(const struct kv *kv, const char *name)
{
	const char *v = kv_get(kv, name);
	char *end;
	double d;

	if (!v)
		return NAN;
	d = strtod(v, &end);
	return end == v ? NAN : d;
}

void kv_free(struct kv *kv)
{
	size_t i;

	for (i = 0; i < kv->n; i++) {
		free(kv->name[i]);
		free(kv->value[i]);
	}
	free(kv->name);
	free(kv->value);
	memset(kv, 0, sizeof(*kv));
}

int kv_read_lines(struct kv *kv, const char *path)
{
	char *text = slurp(path), *line, *save = NULL;

	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[256], value[256];

		if (sscanf(line, "%255s %255s", name, value) == 2)
			kv_add(kv, name, value);
	}
	free(text);
	return 1;
}

int kv_read_pairs(struct kv *kv, const char *path)
{
	char *text = slurp(path), *w, *save = NULL, *name = NULL;
	int i = 0;

	if (!text)
		return 0;
	for (w = strtok_r(text, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save), i++) {
		if (!i)
			continue;
		if (i % 2)
			name = w;
		else
			kv_add(kv, name, w);
	}
	free(text);
	return 1;
}

/* ---- JSON, flattened into paths */
struct jp {
	const char *s;
	struct kv *kv;
};

static void ws(struct jp *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static int jvalue(struct jp *p, const char *path);

static int jstring(struct jp *p, char *out, size_t size)
{
	size_t n = 0;

	if (*p->s != '"')
		return 0;
	p->s++;
	while (*p->s && *p->s != '"') {
		char ch = *p->s++;

		if (ch == '\\') {
			ch = *p->s++;
			switch (ch) {
			case 'n': ch = '\n'; break;
			case 't': ch = '\t'; break;
			case 'u': ch = '?'; p->s += strlen(p->s) >= 4 ? 4 : 0; break;
			case '\0': return 0;
			}
		}
		if (n + 1 < size)
			out[n++] = ch;
	}
	if (*p->s != '"')
		return 0;
	p->s++;
	out[n] = '\0';
	return 1;
}

static char *child(const char *path, const char *key)
{
	return *path ? xasprintf("%s.%s", path, key) : xasprintf("%s", key);
}

static int jcontainer(struct jp *p, const char *path, int object)
{
	char key[256];
	int i = 0, ok;

	p->s++;
	ws(p);
	if (*p->s == (object ? '}' : ']')) {
		p->s++;
		return 1;
	}
	for (;; i++) {
		char *sub;

		ws(p);
		if (object) {
			if (!jstring(p, key, sizeof(key)))
				return 0;
			ws(p);
			if (*p->s++ != ':')
				return 0;
		} else {
			snprintf(key, sizeof(key), "%d", i);
		}
		sub = child(path, key);
		ok = jvalue(p, sub);
		free(sub);
		if (!ok)
			return 0;
		ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s++ != (object ? '}' : ']'))
			return 0;
		return 1;
	}
}

static int jvalue(struct jp *p, const char *path)
{
	char buf[1024];
	size_t n;

	ws(p);
	if (*p->s == '{' || *p->s == '[')
		return jcontainer(p, path, *p->s == '{');
	if (*p->s == '"') {
		if (!jstring(p, buf, sizeof(buf)))
			return 0;
		kv_add(p->kv, path, buf);
		return 1;
	}
	n = strcspn(p->s, ",}] \t\n");
	if (!n || n >= sizeof(buf))
		return 0;
	memcpy(buf, p->s, n);
	buf[n] = '\0';
	p->s += n;
	kv_add(p->kv, path, buf);
	return 1;
}

int kv_read_json(struct kv *kv, const char *text)
{
	struct jp p = { text, kv };

	if (!jvalue(&p, ""))
		return 0;
	ws(&p);
	return *p.s == '\0';
}

/* ---- CSV */
static char **split(char *line, size_t *n)
{
	char **f = NULL, *p = line;
	size_t k = 0;

	for (;;) {
		char *e = strchr(p, ',');

		f = xrealloc(f, (k + 1) * sizeof(*f));
		if (e)
			*e = '\0';
		f[k++] = xstrdup(p);
		if (!e)
			break;
		p = e + 1;
	}
	*n = k;
	return f;
}

int csv_read(struct csv *c, const char *path)
{
	char *text = slurp(path), *line, *next;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (!text)
		return 0;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!c->head) {
			c->head = split(line, &c->ncols);
			continue;
		}
		c->rows = xrealloc(c->rows, (c->nrows + 1) * sizeof(*c->rows));
		c->rows[c->nrows] = split(line, &n);
		/* short rows are padded with empty fields */
		c->rows[c->nrows] = xrealloc(c->rows[c->nrows],
					     (n > c->ncols ? n : c->ncols) * sizeof(char *));
		while (n < c->ncols)
			c->rows[c->nrows][n++] = xstrdup("");
		c->nrows++;
	}
	free(text);
	return c->head != NULL;
}

int csv_col(const struct csv *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->ncols; i++)
		if (!strcmp(c->head[i], name))
			return i;
	return -1;
}

const char *csv_get(const struct csv *c, size_t row, int col)
{
	if (col < 0 || row >= c->nrows || (size_t)col >= c->ncols)
		return "";
	return c->rows[row][col];
}

void csv_free(struct csv *c)
{
	size_t i, j;

	for (i = 0; i < c->nrows; i++) {
		for (j = 0; j < c->ncols; j++)
			free(c->rows[i][j]);
		free(c->rows[i]);
	}
	for (j = 0; j < c->ncols; j++)
		free(c->head[j]);
	free(c->rows);
	free(c->head);
	memset(c, 0, sizeof(*c));
}

int run_tool(char *const argv[], char **out)
{
	int fd[2], status;
	size_t len = 0, cap = 4096;
	ssize_t got;
	char *buf;
	pid_t pid;

	if (pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	buf = xcalloc(cap, 1);
	while ((got = read(fd[0], buf + len, cap - len - 1)) > 0) {
		len += got;
		if (cap - len - 1 == 0) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	buf[len] = '\0';
	close(fd[0]);
	if (waitpid(pid, &status, 0) < 0)
		status = -1;
	if (out)
		*out = buf;
	else
		free(buf);
	return status < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
