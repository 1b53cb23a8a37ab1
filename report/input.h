/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab report's readers: whole files, "name value" lines, CSV with a
 * header (columns by name), the flat paths of a JSON document, and the
 * output of a program run without a shell.
 */
#ifndef LAB_REPORT_INPUT_H
#define LAB_REPORT_INPUT_H

#include <stddef.h>

/* The file's contents, NUL-terminated; NULL if it cannot be read */
char *slurp(const char *path);
/* The first line, without its newline, in buf; 0 if none */
int first_line(const char *path, char *buf, size_t size);
int readable(const char *path);
/* printf into a fresh string (exits on no memory) */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);

/* Name-value pairs, in the order read */
struct kv {
	size_t n, cap;
	char **name, **value;
};
void kv_add(struct kv *kv, const char *name, const char *value);
/* The value of name, or NULL */
const char *kv_get(const struct kv *kv, const char *name);
/* The value of name as a number, or NAN */
double kv_num(const struct kv *kv, const char *name);
void kv_free(struct kv *kv);
/* Lines "NAME VALUE..." (the value: the second word); 0 if unreadable */
int kv_read_lines(struct kv *kv, const char *path);
/* One line of "NAME VALUE" pairs after a first word: "tool a 1 b 2" */
int kv_read_pairs(struct kv *kv, const char *path);
/* A JSON document, flattened: "a.b.0.c" -> the scalar's text ("null"
 * for null, a string without its quotes); 0 if it does not parse */
int kv_read_json(struct kv *kv, const char *text);

/* A CSV file with a header line; fields are not quoted */
struct csv {
	size_t ncols, nrows;
	char **head;
	char ***rows;
};
int csv_read(struct csv *c, const char *path);
/* The column's index, -1 if there is none */
int csv_col(const struct csv *c, const char *name);
/* The field, "" if the row is short or col < 0 */
const char *csv_get(const struct csv *c, size_t row, int col);
void csv_free(struct csv *c);

/* Run argv[0] (a path) with argv, its stdout into *out (may be NULL);
 * its exit status, or -1 if it could not run */
int run_tool(char *const argv[], char **out);

#endif
