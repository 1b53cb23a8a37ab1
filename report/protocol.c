// SPDX-License-Identifier: GPL-2.0
/*
 * lab-report protocol: the report of a run of make demo
 * (scripts/protocol.sh, Documentation/protocol.md), from its boots'
 * folders, SIZE/CELL/BOOT/, each holding what tests/guest/jobs/demo.sh
 * kept of one boot.  It writes metrics.csv (a row per boot, every
 * measure) and report.md: the knee sweep of each size, every cell with
 * n, means and 95% intervals over its boots (Student's t, the boot the
 * unit), with and without the excluded boots, and every comparison the
 * protocol lists (Welch on the primary measure's means, Welch on the
 * logs for the ratio of p95); the pooled percentiles of each cell's
 * allocations, as description; each boot's run and the failed boots;
 * the sizes' comparisons side by side.  A run not finished is reported
 * as far as it went: n says so.
 */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"
#include "report.h"

enum kind { COUNT, PRETOUCH, COLOC, OTHER };

/* One boot's measures; NAN where the boot has none */
struct boot {
	char size[16], cell[64], id[16], excluded[160];
	/* The identity the runner computed as the boot began ("lab=N"; "" if not recorded) */
	char ident[32];
	enum kind kind;
	int mode, defrag, rate;
	double no_direct_pct, p50, p95, p99, coverage_pct, failed, attempts;
	double stall, fallback, kcd_cpu_s, proactive_scan_pct;
	double elapsed_s, thp_pct, user_s, sys_s;
	/* The run: its length (first start to last end), what ended it, failures */
	double run_s, fail_p50_ms, fail_max_ms;
	char end[16];
	/* The successful allocations' (or faults') latencies in us, sorted */
	double *lat;
	size_t nlat;
	/* The long compactions (NAME-long): rounds over 1 s, direct over 100 ms */
	double rounds, rounds_long, round_max_ms, direct_long, direct_max_ms;
	/*
	 * Stalls and pacing, from the attempt log: attempts (successful or
	 * failed) over 1 s and over 10 s, the longest; the share of attempts
	 * that started more than one period behind their slot (catching up
	 * after a slow one), the primary measure over the others (on their
	 * slot), and the rate the run made (attempts over its length)
	 */
	double slow1, slow10, max_attempt_s, behind_pct, on_slot_no_direct_pct, rate_made;
};

struct run {
	struct boot *b;
	size_t n, cap;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sweep's cells, sweep-rN, by N */
static int cmp_rate(const void *a, const void *b)
{
	return atoi(*(char *const *)a + 7) - atoi(*(char *const *)b + 7);
}

/* The names in dir, sorted; *n of them */
static char **names(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = xasprintf("%s", e->d_name);
	}
	closedir(d);
	qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

static void free_names(char **v, size_t n)
{
	while (n)
		free(v[--n]);
	free(v);
}

/* Lines of numbers in path, in us (from ns), sorted; their count in *n */
static double *read_ns(const char *path, size_t *n, double *v)
{
	FILE *f = fopen(path, "r");
	double x;

	if (!f)
		return v;
	while (fscanf(f, "%lf", &x) == 1) {
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = x / 1000;
	}
	fclose(f);
	return v;
}

static void percentiles(struct boot *b, double *v, size_t n)
{
	stats_sort(v, n);
	b->p50 = stats_percentile(v, n, 50);
	b->p95 = stats_percentile(v, n, 95);
	b->p99 = stats_percentile(v, n, 99);
}

/* A counter's delta between two snap files, NAN if missing */
static double delta(const char *before, const char *after, const char *name)
{
	struct kv a = { 0 }, b = { 0 };
	double d;

	kv_read_lines(&a, before);
	kv_read_lines(&b, after);
	d = kv_num(&b, name) - kv_num(&a, name);
	kv_free(&a);
	kv_free(&b);
	return d;
}

/* The summed "nid seconds" lines of kcompactd's CPU time */
static double cpu_sum(const char *path)
{
	FILE *f = fopen(path, "r");
	double s = 0, x;
	int nid;

	if (!f)
		return NAN;
	while (fscanf(f, "%d %lf", &nid, &x) == 2)
		s += x;
	fclose(f);
	return s;
}

/* The counters and CPU time of the experiment NAME in dir p */
static void readings(struct boot *b, const char *p, const char *name)
{
	char *lp = xasprintf("%s/%s-long", p, name);
	struct kv lk = { 0 };

	char *vb = xasprintf("%s/%s-vmstat-before", p, name);
	char *va = xasprintf("%s/%s-vmstat-after", p, name);
	char *cb = xasprintf("%s/%s-kcompactd-cpu-before", p, name);
	char *ca = xasprintf("%s/%s-kcompactd-cpu-after", p, name);
	double pro, all;

	b->stall = delta(vb, va, "compact_stall");
	b->fallback = delta(vb, va, "thp_fault_fallback");
	b->kcd_cpu_s = cpu_sum(ca) - cpu_sum(cb);
	pro = delta(vb, va, "compact_daemon_proactive_migrate_scanned");
	all = delta(vb, va, "compact_daemon_migrate_scanned");
	b->proactive_scan_pct = all > 0 ? 100 * pro / all : NAN;
	if (kv_read_pairs(&lk, lp)) {
		b->rounds = kv_num(&lk, "rounds");
		b->rounds_long = kv_num(&lk, "rounds_over_1s");
		b->round_max_ms = kv_num(&lk, "round_max_ms");
		b->direct_long = kv_num(&lk, "direct_over_100ms");
		b->direct_max_ms = kv_num(&lk, "direct_max_ms");
	}
	kv_free(&lk);
	free(lp);
	free(vb);
	free(va);
	free(cb);
	free(ca);
}

static void read_count(struct boot *b, const char *p, const char *exp)
{
	char *path = xasprintf("%s/%s-attempts", p, exp), line[256];
	unsigned long long st, ns, first = 0, last = 0;
	size_t n = 0, ok = 0, fail = 0, direct = 0, slow1 = 0, slow10 = 0, behind = 0, on_direct = 0;
	double period = b->rate > 0 ? 1e9 / b->rate : NAN, longest = 0;
	FILE *f = fopen(path, "r");
	double *v = NULL, kb = NAN;
	char res[8];
	int hits;

	free(path);
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llu %llu %7s %d", &st, &ns, res, &hits) != 4)
			continue;
		if (!n++)
			first = st;
		last = st + ns;
		ok += !strcmp(res, "ok");
		direct += hits > 0;
		slow1 += ns > 1000000000ULL;
		slow10 += ns > 10000000000ULL;
		longest = ns / 1e9 > longest ? ns / 1e9 : longest;
		/* attempt n - 1's slot: first + (n - 1) periods */
		if (st - first > (n - 1) * period + period)
			behind++;
		else
			on_direct += hits > 0;
		if (strcmp(res, "fail"))
			continue;
		v = xrealloc(v, (fail + 1) * sizeof(*v));
		v[fail++] = ns / 1e6;
	}
	if (f)
		fclose(f);
	b->attempts = n;
	b->failed = fail;
	b->no_direct_pct = n ? 100.0 * (n - direct) / n : NAN;
	b->run_s = n ? (last - first) / 1e9 : NAN;
	b->slow1 = n ? slow1 : NAN;
	b->slow10 = n ? slow10 : NAN;
	b->max_attempt_s = n ? longest : NAN;
	if (n && !isnan(period)) {
		b->behind_pct = 100.0 * behind / n;
		b->on_slot_no_direct_pct = n > behind ? 100.0 * (n - behind - on_direct) / (n - behind) : NAN;
	}
	b->rate_made = n > 1 && last > first ? n / b->run_s : NAN;
	path = xasprintf("%s/%s-end", p, exp);
	first_line(path, b->end, sizeof(b->end));
	free(path);
	stats_sort(v, fail);
	b->fail_p50_ms = stats_percentile(v, fail, 50);
	b->fail_max_ms = fail ? v[fail - 1] : NAN;
	free(v);
	path = xasprintf("%s/%s-samples-ns", p, exp);
	n = 0;
	v = NULL;
	v = read_ns(path, &n, v);
	free(path);
	percentiles(b, v, n);
	b->lat = v;
	b->nlat = n;
	path = xasprintf("%s/%s-memfree-kb", p, exp);
	if (first_line(path, line, sizeof(line)))
		kb = atof(line);
	free(path);
	b->coverage_pct = kb > 0 ? 100.0 * ok * 2048 / kb : NAN;
	readings(b, p, exp);
}

static void read_pretouch(struct boot *b, const char *p)
{
	char *path = xasprintf("%s/pretouch.txt", p);
	struct kv kv = { 0 };

	kv_read_pairs(&kv, path);
	free(path);
	b->elapsed_s = kv_num(&kv, "elapsed_s");
	b->user_s = kv_num(&kv, "user_s");
	b->sys_s = kv_num(&kv, "sys_s");
	b->thp_pct = kv_num(&kv, "thp_pct");
	kv_free(&kv);
	readings(b, p, "pretouch");
}

static void read_coloc(struct boot *b, const char *p)
{
	size_t k, nn, n = 0, nodes = 0;
	char **v = names(p, &nn);
	double *lat = NULL, thp = 0;

	for (k = 0; k < nn; k++) {
		char *path = xasprintf("%s/%s", p, v[k]);
		struct kv kv = { 0 };

		if (!strncmp(v[k], "coloc-faults-node", 17)) {
			lat = read_ns(path, &n, lat);
		} else if (!strncmp(v[k], "coloc-node", 10) && kv_read_pairs(&kv, path)) {
			thp += kv_num(&kv, "thp_pct");
			nodes++;
		}
		kv_free(&kv);
		free(path);
	}
	free_names(v, nn);
	percentiles(b, lat, n);
	b->lat = lat;
	b->nlat = n;
	b->attempts = n;
	b->thp_pct = nodes ? thp / nodes : NAN;
	readings(b, p, "coloc");
}

/* One boot folder: SIZE/CELL/ID */
static void read_boot(struct run *r, const char *dir, const char *size, const char *cell,
		      const char *id)
{
	char *bdir = xasprintf("%s/%s/%s/%s", dir, size, cell, id), *path, line[256], exp[32];
	struct boot *b;
	int mode;

	path = xasprintf("%s/done", bdir);
	if (!readable(path)) {
		free(path);
		free(bdir);
		return;
	}
	free(path);
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 64;
		r->b = xrealloc(r->b, r->cap * sizeof(*r->b));
	}
	b = &r->b[r->n++];
	memset(b, 0, sizeof(*b));
	b->no_direct_pct = b->p50 = b->p95 = b->p99 = b->coverage_pct = b->failed = NAN;
	b->attempts = b->stall = b->fallback = b->kcd_cpu_s = b->proactive_scan_pct = NAN;
	b->elapsed_s = b->thp_pct = b->user_s = b->sys_s = NAN;
	b->run_s = b->fail_p50_ms = b->fail_max_ms = NAN;
	b->rounds = b->rounds_long = b->round_max_ms = b->direct_long = b->direct_max_ms = NAN;
	b->slow1 = b->slow10 = b->max_attempt_s = b->behind_pct = NAN;
	b->on_slot_no_direct_pct = b->rate_made = NAN;
	snprintf(b->size, sizeof(b->size), "%s", size);
	snprintf(b->cell, sizeof(b->cell), "%s", cell);
	snprintf(b->id, sizeof(b->id), "%s", id);
	path = xasprintf("%s/excluded", bdir);
	first_line(path, b->excluded, sizeof(b->excluded));
	free(path);
	path = xasprintf("%s/ident", bdir);
	first_line(path, b->ident, sizeof(b->ident));
	free(path);
	path = xasprintf("%s/cell", bdir);
	b->kind = OTHER;
	b->defrag = 0;
	if (first_line(path, line, sizeof(line)) &&
	    sscanf(line, "DEMO_RUN=%d:%31s DEMO_DEFRAG=%d", &mode, exp, &b->defrag) >= 2) {
		char *pdir = xasprintf("%s/p%d", bdir, mode);

		b->mode = mode;
		if (!strncmp(exp, "count", 5)) {
			b->kind = COUNT;
			b->rate = atoi(exp + 5);
			if (!b->excluded[0] || b->excluded[0] != 'a')
				read_count(b, pdir, exp);
		} else if (!strcmp(exp, "pretouch")) {
			b->kind = PRETOUCH;
			if (b->excluded[0] != 'a')
				read_pretouch(b, pdir);
		} else if (!strcmp(exp, "coloc")) {
			b->kind = COLOC;
			if (b->excluded[0] != 'a')
				read_coloc(b, pdir);
		}
		free(pdir);
	}
	free(path);
	free(bdir);
}

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void read_run(struct run *r, const char *dir)
{
	size_t ns, nc, nb, i, j, k;
	char **sizes = names(dir, &ns);

	for (i = 0; i < ns; i++) {
		char *sdir = xasprintf("%s/%s", dir, sizes[i]);
		char **cells;

		if (strspn(sizes[i], "0123456789") != strlen(sizes[i]) || !is_dir(sdir)) {
			free(sdir);
			continue;
		}
		cells = names(sdir, &nc);
		for (j = 0; j < nc; j++) {
			char *cdir = xasprintf("%s/%s", sdir, cells[j]);
			char **boots = names(cdir, &nb);

			for (k = 0; k < nb && strcmp(cells[j], "failed"); k++)
				read_boot(r, dir, sizes[i], cells[j], boots[k]);
			free_names(boots, nb);
			free(cdir);
		}
		free_names(cells, nc);
		free(sdir);
	}
	free_names(sizes, ns);
}

/* ---- Selection and statistics */

/* The measure at offset off of the boots of size/cell; kept only (or all) */
static size_t pick(const struct run *r, const char *size, const char *cell, size_t off,
		   int all, double *v)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++) {
		const struct boot *b = &r->b[i];
		double x = *(const double *)((const char *)b + off);

		if (strcmp(b->size, size) || strcmp(b->cell, cell) || isnan(x))
			continue;
		if (!all && b->excluded[0])
			continue;
		v[n++] = x;
	}
	return n;
}

static size_t count_boots(const struct run *r, const char *size, const char *cell, int excluded)
{
	size_t i, n = 0;

	for (i = 0; i < r->n; i++)
		n += !strcmp(r->b[i].size, size) && !strcmp(r->b[i].cell, cell) &&
		     !!r->b[i].excluded[0] == excluded;
	return n;
}

/* "mean [lo, hi]" over the values, Student's t; "-" for none */
static const char *mean_ci(const double *v, size_t n, int d)
{
	static char buf[4][96];
	static int k;
	char *s = buf[k++ % 4];
	double m, h;

	if (!n)
		return "-";
	m = stats_mean(v, n);
	if (n < 2) {
		snprintf(s, 96, "%s (n 1)", fx(m, d));
		return s;
	}
	h = stats_t_quantile(1 - (1 - LEVEL) / 2, n - 1) * sqrt(stats_var(v, n) / n);
	snprintf(s, 96, "%s [%s, %s]", fx(m, d), fx(m - h, d), fx(m + h, d));
	return s;
}

#define M(f) offsetof(struct boot, f)

struct col {
	const char *head;
	size_t off;
	int d;
};

static const struct col count_cols[] = {
	{ "no direct compaction, % of attempts", M(no_direct_pct), 1 },
	{ "p50 us", M(p50), 0 },
	{ "p95 us", M(p95), 0 },
	{ "p99 us", M(p99), 0 },
	{ "coverage %", M(coverage_pct), 1 },
	{ "run s", M(run_s), 1 },
	{ "failed attempts", M(failed), 0 },
	{ "failed attempts' max ms", M(fail_max_ms), 1 },
	{ "compact_stall", M(stall), 0 },
};

static const struct col kcompactd_cols[] = {
	{ "kcompactd CPU s", M(kcd_cpu_s), 2 },
	{ "proactive share of kcompactd's scanning %", M(proactive_scan_pct), 1 },
	{ "proactive rounds", M(rounds), 1 },
	{ "proactive rounds over 1 s", M(rounds_long), 1 },
	{ "direct compactions over 100 ms", M(direct_long), 1 },
};

/* Stalls and pacing: the means; counts of boots are given beside them */
static const struct col pacing_cols[] = {
	{ "attempts behind their slot %", M(behind_pct), 1 },
	{ "rate made /s", M(rate_made), 1 },
	{ "no direct compaction, % of the attempts on their slot", M(on_slot_no_direct_pct), 1 },
};

static const struct col long_cols[] = {
	{ "proactive rounds over 1 s", M(rounds_long), 2 },
	{ "longest round ms", M(round_max_ms), 0 },
	{ "direct compactions over 100 ms", M(direct_long), 2 },
	{ "longest direct compaction ms", M(direct_max_ms), 0 },
	{ "no direct compaction, % of attempts", M(no_direct_pct), 1 },
	{ "p95 us", M(p95), 0 },
};

static const struct col pretouch_cols[] = {
	{ "elapsed s", M(elapsed_s), 2 },
	{ "user s", M(user_s), 2 },
	{ "system s", M(sys_s), 2 },
	{ "huge-page share %", M(thp_pct), 1 },
	{ "compact_stall", M(stall), 0 },
	{ "thp_fault_fallback", M(fallback), 0 },
};

static const struct col coloc_cols[] = {
	{ "fault p50 us", M(p50), 0 },
	{ "fault p95 us", M(p95), 0 },
	{ "fault p99 us", M(p99), 0 },
	{ "huge-page share %", M(thp_pct), 1 },
	{ "thp_fault_fallback", M(fallback), 0 },
	{ "kcompactd CPU s", M(kcd_cpu_s), 2 },
	{ "compact_stall", M(stall), 0 },
};

/*
 * The cells of a size and kind, in sorted order (the sweep's by rate):
 * sweep 1 takes the sweep's cells, 2 the long compactions', 0 the others
 */
static char **cells_of(const struct run *r, const char *size, enum kind kind, int sweep, size_t *n)
{
	char **v = NULL;
	size_t i, j;

	*n = 0;
	for (i = 0; i < r->n; i++) {
		const struct boot *b = &r->b[i];

		int which = !strncmp(b->cell, "sweep-", 6) ? 1 : !strncmp(b->cell, "long-", 5) ? 2 : 0;

		if (strcmp(b->size, size) || b->kind != kind || which != sweep)
			continue;
		for (j = 0; j < *n && strcmp(v[j], b->cell); j++)
			;
		if (j < *n)
			continue;
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = xasprintf("%s", b->cell);
	}
	if (*n)
		qsort(v, *n, sizeof(*v), sweep == 1 ? cmp_rate : cmp_str);
	return v;
}

static int rate_of(const struct run *r, const char *size, const char *cell)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->b[i].size, size) && !strcmp(r->b[i].cell, cell))
			return r->b[i].rate;
	return 0;
}

/* A table of cells by columns, kept boots (all = 0) or all (1) */
static void cell_table(FILE *f, const struct run *r, const char *size, char **cells, size_t nc,
		       const struct col *cols, size_t ncols, int all)
{
	double *v = xcalloc(r->n + 1, sizeof(*v));
	size_t i, j;

	fprintf(f, "| cell | rate /s | n | excluded |");
	for (j = 0; j < ncols; j++)
		fprintf(f, " %s |", cols[j].head);
	fprintf(f, "\n|---|---:|---:|---:|");
	for (j = 0; j < ncols; j++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (i = 0; i < nc; i++) {
		size_t kept = count_boots(r, size, cells[i], 0), excl = count_boots(r, size, cells[i], 1);
		int rate = rate_of(r, size, cells[i]);

		fprintf(f, "| %s | %s | %zu | %zu |", cells[i], rate ? fx(rate, 0) : "-",
			all ? kept + excl : kept, excl);
		for (j = 0; j < ncols; j++)
			fprintf(f, " %s |", mean_ci(v, pick(r, size, cells[i], cols[j].off, all, v),
						    cols[j].d));
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
	free(v);
}

/* Boots of size/cell (kept, or all) whose measure at off is over x */
static size_t boots_over(const struct run *r, const char *size, const char *cell, size_t off,
			 double x, int all, size_t *of)
{
	double *v = xcalloc(r->n + 1, sizeof(*v));
	size_t i, n = pick(r, size, cell, off, all, v), k = 0;

	for (i = 0; i < n; i++)
		k += v[i] > x;
	*of = n;
	free(v);
	return k;
}

/* The longest value of the measure at off over the boots, or NAN */
static double boots_max(const struct run *r, const char *size, const char *cell, size_t off, int all)
{
	double *v = xcalloc(r->n + 1, sizeof(*v)), m = NAN;
	size_t i, n = pick(r, size, cell, off, all, v);

	for (i = 0; i < n; i++)
		m = isnan(m) || v[i] > m ? v[i] : m;
	free(v);
	return m;
}

/*
 * The runs' ends, stalls and pacing of the cells: description, which no
 * comparison of the protocol reads.  A paced attempt starts at its slot
 * or, behind it, at once: after a slow attempt, the run catches up.
 */
static void stalls_table(FILE *f, const struct run *r, const char *size, char **cells, size_t nc,
			 int all, double knee)
{
	double *v = xcalloc(r->n + 1, sizeof(*v));
	size_t i, j, n, k;

	fprintf(f, "The runs' ends, stalls and pacing, over the same runs (description: no "
		   "comparison of the protocol reads them).  An attempt starts at its slot (k/R s "
		   "into the run) or, if the run is behind, at once: after a slow attempt the "
		   "run catches up, faster than its rate.  Counts are of boots (met the knee's "
		   "criterion: at most %s%% of its attempts needed direct compaction); the longest "
		   "attempt is over all of them; the last three columns are means with 95%% "
		   "intervals.\n\n"
		   "| cell | rate /s | boots | met the knee's criterion | ended by failures | "
		   "with an attempt over 1 s | over 10 s | longest attempt s |", fx(knee, 0));
	for (j = 0; j < sizeof(pacing_cols) / sizeof(*pacing_cols); j++)
		fprintf(f, " %s |", pacing_cols[j].head);
	fprintf(f, "\n|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n");
	for (i = 0; i < nc; i++) {
		int rate = rate_of(r, size, cells[i]);
		size_t ended = 0, met = 0;

		for (k = 0; k < r->n; k++) {
			const struct boot *b = &r->b[k];

			if (!strcmp(b->size, size) && !strcmp(b->cell, cells[i]) &&
			    (all || !b->excluded[0]) && !isnan(b->attempts)) {
				ended += !strcmp(b->end, "failures");
				met += 100 - b->no_direct_pct <= knee;
			}
		}
		k = boots_over(r, size, cells[i], M(slow1), 0, all, &n);
		fprintf(f, "| %s | %s | %zu | %zu | %zu | %zu |", cells[i], rate ? fx(rate, 0) : "-", n, met,
			ended, k);
		k = boots_over(r, size, cells[i], M(slow10), 0, all, &n);
		fprintf(f, " %zu | %s |", k, fx(boots_max(r, size, cells[i], M(max_attempt_s), all), 1));
		for (j = 0; j < sizeof(pacing_cols) / sizeof(*pacing_cols); j++)
			fprintf(f, " %s |", mean_ci(v, pick(r, size, cells[i], pacing_cols[j].off, all, v),
						    pacing_cols[j].d));
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
	free(v);
}

/*
 * kcompactd's CPU in the kept count boots of a size (the sweep's and the
 * long compactions' included) with an attempt over 10 s, against the
 * others: medians, as description
 */
static void cpu_by_stall(FILE *f, const struct run *r, const char *size)
{
	double *s = xcalloc(r->n + 1, sizeof(*s)), *o = xcalloc(r->n + 1, sizeof(*o));
	size_t i, ns = 0, no = 0;

	for (i = 0; i < r->n; i++) {
		const struct boot *b = &r->b[i];

		if (strcmp(b->size, size) || b->kind != COUNT || b->excluded[0] || isnan(b->slow10) ||
		    isnan(b->kcd_cpu_s) || !strcmp(b->cell, "long-icount"))
			continue;
		if (b->slow10 > 0)
			s[ns++] = b->kcd_cpu_s;
		else
			o[no++] = b->kcd_cpu_s;
	}
	stats_sort(s, ns);
	stats_sort(o, no);
	fprintf(f, "kcompactd's CPU over the run, in the kept boots under TCG (every count cell, the "
		   "sweep's and the long compactions' included): median %s s (from %s to %s) in the %zu "
		   "with an attempt over 10 s, median %s s (from %s to %s) in the other %zu.  "
		   "Description: which causes which, if either, is not shown.\n\n",
		fx(stats_percentile(s, ns, 50), 2), fx(ns ? s[0] : NAN, 2), fx(ns ? s[ns - 1] : NAN, 2), ns,
		fx(stats_percentile(o, no, 50), 2), fx(no ? o[0] : NAN, 2), fx(no ? o[no - 1] : NAN, 2), no);
	free(s);
	free(o);
}

struct tally {
	int shown, excl;
};

/* Cell a against cell b: the primary measure's difference, p95's ratio */
static void contrast(const struct run *r, const char *size, const char *a, const char *b, int all,
		     struct interval *d, struct interval *q)
{
	double *va = xcalloc(r->n + 1, sizeof(*va)), *vb = xcalloc(r->n + 1, sizeof(*vb));
	size_t na = pick(r, size, a, M(no_direct_pct), all, va);
	size_t nb = pick(r, size, b, M(no_direct_pct), all, vb);

	*d = stats_welch_diff_ci(va, na, vb, nb, LEVEL);
	d->n1 = na;
	d->n2 = nb;
	na = pick(r, size, a, M(p95), all, va);
	nb = pick(r, size, b, M(p95), all, vb);
	*q = stats_log_ratio_ci(va, na, vb, nb, LEVEL);
	free(va);
	free(vb);
}

/* "estimate [lo, hi]", or "-" */
static const char *est_ci(const struct interval *i, int d)
{
	static char buf[4][96];
	static int k;
	char *s = buf[k++ % 4];

	if (!i->ok)
		return "-";
	snprintf(s, 96, "%s %s", fx(i->est, d), fci(i, d));
	return s;
}

/* One comparison row: cell a against cell b */
static void compare(FILE *f, const struct run *r, const char *size, const char *a,
		    const char *b, int all, struct tally *t)
{
	struct interval d, q;

	contrast(r, size, a, b, all, &d, &q);
	fprintf(f, "| %s | %s | %zu, %zu | %s | %s |\n", a, b, d.n1, d.n2, est_ci(&d, 1),
		est_ci(&q, 3));
	/* An interval of no width (no spread in either cell) is no test */
	if (d.ok && d.hi > d.lo) {
		t->shown++;
		t->excl += d.lo > 0 || d.hi < 0;
	}
	if (q.ok && q.hi > q.lo) {
		t->shown++;
		t->excl += q.lo > 1 || q.hi < 1;
	}
}

/*
 * One measure of cell a against cell b: the ratio of geometric means
 * (Welch on the logs) when ratio, else the difference of means (Welch)
 */
static void versus(FILE *f, const struct run *r, const char *size, const char *a, const char *b,
		   const struct col *c, int ratio, int all)
{
	double *va = xcalloc(r->n + 1, sizeof(*va)), *vb = xcalloc(r->n + 1, sizeof(*vb));
	size_t na = pick(r, size, a, c->off, all, va), nb = pick(r, size, b, c->off, all, vb);
	struct interval q = ratio ? stats_log_ratio_ci(va, na, vb, nb, LEVEL) :
				    stats_welch_diff_ci(va, na, vb, nb, LEVEL);

	fprintf(f, "| %s | %s against %s | %zu, %zu | %s | %s %s |\n", c->head, a, b, na, nb,
		ratio ? "ratio" : "difference", q.ok ? fx(q.est, 2) : "-", q.ok ? fci(&q, 2) : "");
	free(va);
	free(vb);
}

static void versus_head(FILE *f)
{
	fprintf(f, "| measure | cells | n | | estimate [95%% interval] |\n|---|---|---|---|---|\n");
}

/* The protocol's comparisons: pair k (0..11) as cell a against cell b */
#define NPAIRS 12
static void pair(int k, char *a, char *b, size_t len)
{
	static const char *const xs[] = { "0.25", "0.5", "1" };

	if (k < 6) {
		/* proactiveness 20 against 0, at each defrag_mode and rate */
		snprintf(a, len, "p20-d%d-x%s", k / 3, xs[k % 3]);
		snprintf(b, len, "p0-d%d-x%s", k / 3, xs[k % 3]);
	} else {
		/* defrag_mode 1 against 0, at each proactiveness and rate */
		snprintf(a, len, "p%d-d1-x%s", (k - 6) / 3 * 20, xs[k % 3]);
		snprintf(b, len, "p%d-d0-x%s", (k - 6) / 3 * 20, xs[k % 3]);
	}
}

static void comparisons(FILE *f, const struct run *r, const char *size, int all)
{
	struct tally t = { 0, 0 };
	char a[64], b[64];
	int k;

	fprintf(f, "| this | against | n | no direct compaction, difference of means (points) | p95 ratio (geometric means) |\n"
		   "|---|---|---|---|---|\n");
	for (k = 0; k < NPAIRS; k++) {
		pair(k, a, b, sizeof(a));
		compare(f, r, size, a, b, all, &t);
	}
	fprintf(f, "\n%d of the %d intervals above exclude no effect (0 for a difference, 1 for a ratio); "
		   "an interval of no width is not counted.  Each is a 95%% interval on its own, not "
		   "adjusted for the number of comparisons: were there no effect anywhere, about one "
		   "in twenty would exclude no effect by chance.\n\n"
		   "The original's p95, at 98%% coverage on its machine, was 429 us with proactiveness "
		   "20 and 33799 us without proactive compaction, from one run with no interval.  Its "
		   "p90 with proactiveness 20 was 5 us, so its p95 there was a slow allocation; "
		   "where a cell here has over 95%% of its attempts without direct compaction, its "
		   "p95 is a fast one.  The ratios are not comparable.\n\n",
		t.excl, t.shown);
}

/* The comparisons of every size in columns, the excluded boots left out */
static void sizes_side_by_side(FILE *f, const struct run *r, char **sizes, size_t ns)
{
	struct interval d, q;
	char a[64], b[64];
	size_t i;
	int k;

	fprintf(f, "## The sizes side by side\n\nThe comparisons above, the excluded boots left out, "
		   "each size's estimate beside the other's; not tested against each other.\n\n"
		   "| this | against |");
	for (i = 0; i < ns; i++)
		fprintf(f, " %s MiB: n | no direct, points | p95 ratio |", sizes[i]);
	fprintf(f, "\n|---|---|");
	for (i = 0; i < ns; i++)
		fprintf(f, "---|---|---|");
	fprintf(f, "\n");
	for (k = 0; k < NPAIRS; k++) {
		pair(k, a, b, sizeof(a));
		fprintf(f, "| %s | %s |", a, b);
		for (i = 0; i < ns; i++) {
			contrast(r, sizes[i], a, b, 0, &d, &q);
			fprintf(f, " %zu, %zu | %s | %s |", d.n1, d.n2, est_ci(&d, 1), est_ci(&q, 3));
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

/* Pooled percentiles over each cell's kept boots' allocations: description */
static void pooled_table(FILE *f, const struct run *r, const char *size, char **cells, size_t nc)
{
	static const double ps[] = { 50, 95, 99 };
	size_t i, j, k, n;
	double *v;

	fprintf(f, "Pooled over the kept boots' successful allocations, as description only (the "
		   "boot is the unit of the tables above): percentiles (us) with their "
		   "order-statistic 95%% intervals.\n\n| cell | allocations | p50 | p95 | p99 |\n"
		   "|---|---:|---|---|---|\n");
	for (i = 0; i < nc; i++) {
		v = NULL;
		n = 0;
		for (j = 0; j < r->n; j++) {
			const struct boot *b = &r->b[j];

			if (strcmp(b->size, size) || strcmp(b->cell, cells[i]) || b->excluded[0])
				continue;
			if (!b->nlat)
				continue;
			v = xrealloc(v, (n + b->nlat) * sizeof(*v));
			memcpy(v + n, b->lat, b->nlat * sizeof(*v));
			n += b->nlat;
		}
		stats_sort(v, n);
		fprintf(f, "| %s | %zu |", cells[i], n);
		for (k = 0; k < 3; k++) {
			struct interval c = stats_percentile_ci(v, n, ps[k], LEVEL);

			c.est = stats_percentile(v, n, ps[k]);
			c.ok = n > 0;
			fprintf(f, " %s |", est_ci(&c, 0));
		}
		fprintf(f, "\n");
		free(v);
	}
	fprintf(f, "\n");
}

/* Every boot of a size's cells: its run, what ended it, its failures */
static void boots_table(FILE *f, const struct run *r, const char *size)
{
	size_t i;

	fprintf(f, "### %s MiB: each boot's run\n\nThe allocation runs, each boot: its length (first attempt's "
		   "start to last one's end), what ended it (`count`: the count was reached; "
		   "`failures`: failures in a row; `log`: the attempt log was full), its failed "
		   "attempts with the p50 and max of their latencies (each one is in the boot's "
		   "NAME-attempts), its proactive rounds, and its long compactions: kcompactd "
		   "rounds over 1 s and direct compactions over 100 ms.\n\n"
		   "| cell | boot | excluded | attempts | run s | ended | failed | failed p50 ms | "
		   "failed max ms | proactive rounds | rounds over 1 s | direct over 100 ms |\n"
		   "|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|\n",
		size);
	for (i = 0; i < r->n; i++) {
		const struct boot *b = &r->b[i];

		if (strcmp(b->size, size) || b->kind != COUNT)
			continue;
		fprintf(f, "| %s | %s | %c | %s | %s |", b->cell, b->id,
			b->excluded[0] ? b->excluded[0] : ' ', fx(b->attempts, 0), fx(b->run_s, 1));
		fprintf(f, " %s | %s | %s |", b->end[0] ? b->end : "-", fx(b->failed, 0),
			fx(b->fail_p50_ms, 1));
		fprintf(f, " %s | %s |", fx(b->fail_max_ms, 1), fx(b->rounds, 0));
		fprintf(f, " %s | %s |\n", fx(b->rounds_long, 0), fx(b->direct_long, 0));
	}
	fprintf(f, "\n");
}

/* The failed boots the runner listed (failed-SIZE: cell, boot, try, verdict) */
static void failed_list(FILE *f, const char *dir, const char *size)
{
	char *path = xasprintf("%s/failed-%s", dir, size), line[512];
	FILE *in = fopen(path, "r");

	fprintf(f, "### %s MiB: failed boots\n\n", size);
	if (!in)
		fprintf(f, "None.\n\n");
	while (in && fgets(line, sizeof(line), in))
		fprintf(f, "- `%.*s`\n", (int)strcspn(line, "\n"), line);
	if (in) {
		fprintf(f, "\nTheir consoles are in the run's recordings, under %s/failed/; "
			   "a failed boot has no measures, and is run again (or the run stopped "
			   "there).\n\n", size);
		fclose(in);
	}
	free(path);
}

/* The settings' knee_pct: at most that share of p20's attempts needed direct compaction */
static double knee_pct(const char *dir)
{
	char *path = xasprintf("%s/settings", dir), *text = slurp(path), *p;
	double pct = NAN;

	p = text ? strstr(text, "knee_pct=") : NULL;
	if (p)
		pct = atof(p + strlen("knee_pct="));
	free(text);
	free(path);
	return pct;
}

/*
 * The knee's rate again: the kept boots that ran the sweep's cell at the
 * knee's rate under TCG (the cell p20-d0-x1 and the long compactions'
 * TCG arm), and how many of them met the knee's criterion
 */
static void knee_again(FILE *f, const struct run *r, const char *dir, const char *size, int rate)
{
	static const char *const cells[] = { "p20-d0-x1", "long-tcg" };
	double pct = knee_pct(dir), lo = NAN, hi = NAN;
	size_t i, n = 0, met = 0;

	for (i = 0; i < r->n; i++) {
		const struct boot *b = &r->b[i];

		if (strcmp(b->size, size) || b->excluded[0] || isnan(b->no_direct_pct) || b->rate != rate ||
		    (strcmp(b->cell, cells[0]) && strcmp(b->cell, cells[1])))
			continue;
		n++;
		met += 100 - b->no_direct_pct <= pct;
		lo = isnan(lo) || b->no_direct_pct < lo ? b->no_direct_pct : lo;
		hi = isnan(hi) || b->no_direct_pct > hi ? b->no_direct_pct : hi;
	}
	if (!n)
		return;
	fprintf(f, "The knee's rate again, in the kept boots of %s and %s (proactiveness 20, "
		   "defrag_mode 0, %d/s, TCG): %zu of %zu met the knee's criterion (at most %s%% of "
		   "the attempts needed direct compaction); their share without direct compaction "
		   "ran from %s%% to %s%%.\n\n", cells[0], cells[1], rate, met, n, fx(pct, 0),
		fx(lo, 1), fx(hi, 1));
}

static void sweep_table(FILE *f, const struct run *r, const char *dir, const char *size)
{
	char *path = xasprintf("%s/knee-%s", dir, size), line[128];
	size_t nc, i, j;
	char **cells = cells_of(r, size, COUNT, 1, &nc);

	fprintf(f, "### %s MiB: the knee sweep\n\nProactiveness 20, defrag_mode 0, one boot a rate (and its reruns).\n\n"
		   "| rate /s | boot | attempts | no direct compaction %% | longest attempt s | "
		   "attempts behind their slot %% | excluded |\n|---:|---|---:|---:|---:|---:|---|\n",
		size);
	for (i = 0; i < nc; i++)
		for (j = 0; j < r->n; j++) {
			const struct boot *b = &r->b[j];

			if (strcmp(b->size, size) || strcmp(b->cell, cells[i]))
				continue;
			fprintf(f, "| %d | %s | %s | %s | %s | %s | %s |\n", b->rate, b->id,
				fx(b->attempts, 0), fx(b->no_direct_pct, 1), fx(b->max_attempt_s, 1),
				fx(b->behind_pct, 1), b->excluded[0] ? b->excluded : "");
		}
	if (first_line(path, line, sizeof(line))) {
		fprintf(f, "\nThe knee: `%s` (the runner's knee-%s: the rate, and whether it is a knee, "
			   "none (no rate qualified) or all (every rate did)).\n\n", line, size);
		knee_again(f, r, dir, size, atoi(line));
	} else
		fprintf(f, "\nNo knee yet: the sweep is not finished.\n\n");
	free_names(cells, nc);
	free(path);
}

static void write_metrics(const struct run *r, const char *dir)
{
	FILE *f = create(dir, "metrics.csv");
	size_t i;

	if (!f)
		return;
	fprintf(f, "size,cell,boot,excluded,mode,defrag,rate,attempts,no_direct_pct,p50_us,p95_us,p99_us,"
		   "coverage_pct,failed,compact_stall,thp_fault_fallback,kcompactd_cpu_s,proactive_scan_pct,"
		   "elapsed_s,thp_pct,rounds,rounds_over_1s,round_max_ms,direct_over_100ms,direct_max_ms,"
		   "run_s,end,failed_p50_ms,failed_max_ms,user_s,sys_s,attempts_over_1s,attempts_over_10s,"
		   "longest_attempt_s,behind_pct,on_slot_no_direct_pct,rate_made\n");
	for (i = 0; i < r->n; i++) {
		const struct boot *b = &r->b[i];

		fprintf(f, "%s,%s,%s,%c,%d,%d,%d,", b->size, b->cell, b->id,
			b->excluded[0] ? b->excluded[0] : '-', b->mode, b->defrag, b->rate);
		fprintf(f, "%s,", fj(b->attempts, 0));
		fprintf(f, "%s,", fj(b->no_direct_pct, 3));
		fprintf(f, "%s,", fj(b->p50, 1));
		fprintf(f, "%s,", fj(b->p95, 1));
		fprintf(f, "%s,", fj(b->p99, 1));
		fprintf(f, "%s,", fj(b->coverage_pct, 2));
		fprintf(f, "%s,", fj(b->failed, 0));
		fprintf(f, "%s,", fj(b->stall, 0));
		fprintf(f, "%s,", fj(b->fallback, 0));
		fprintf(f, "%s,", fj(b->kcd_cpu_s, 3));
		fprintf(f, "%s,", fj(b->proactive_scan_pct, 2));
		fprintf(f, "%s,", fj(b->elapsed_s, 3));
		fprintf(f, "%s,", fj(b->thp_pct, 1));
		fprintf(f, "%s,", fj(b->rounds, 0));
		fprintf(f, "%s,", fj(b->rounds_long, 0));
		fprintf(f, "%s,", fj(b->round_max_ms, 1));
		fprintf(f, "%s,", fj(b->direct_long, 0));
		fprintf(f, "%s,", fj(b->direct_max_ms, 1));
		fprintf(f, "%s,%s,", fj(b->run_s, 3), b->end[0] ? b->end : "null");
		fprintf(f, "%s,", fj(b->fail_p50_ms, 1));
		fprintf(f, "%s,", fj(b->fail_max_ms, 1));
		fprintf(f, "%s,", fj(b->user_s, 3));
		fprintf(f, "%s,", fj(b->sys_s, 3));
		fprintf(f, "%s,%s,", fj(b->slow1, 0), fj(b->slow10, 0));
		fprintf(f, "%s,%s,", fj(b->max_attempt_s, 3), fj(b->behind_pct, 2));
		fprintf(f, "%s,%s\n", fj(b->on_slot_no_direct_pct, 2), fj(b->rate_made, 2));
	}
	fclose(f);
}

static void size_section(FILE *f, const struct run *r, const char *dir, const char *size)
{
	size_t nc, all, j;
	char **cells;
	int k;

	fprintf(f, "## %s MiB per node\n\n", size);
	sweep_table(f, r, dir, size);
	for (k = 0; k <= 1; k++) {
		all = k;
		cells = cells_of(r, size, COUNT, 0, &nc);
		if (!nc)
			break;
		fprintf(f, "### %s MiB: the cells, %s\n\nMeans over the boots with 95%% intervals (Student's t); n boots.  "
			   "With few boots and a wide spread, an interval can pass a measure's bounds "
			   "(under 0, over 100%%): read it as reaching the bound.  An attempt needed direct "
			   "compaction when the allocating task entered try_to_compact_pages() (its "
			   "mm_compaction_try_to_compact_pages event), a compaction it then deferred "
			   "included; failed attempts count.  The allocations:\n\n",
			size, all ? "every boot, the excluded included" : "the excluded boots left out");
		cell_table(f, r, size, cells, nc, count_cols, sizeof(count_cols) / sizeof(*count_cols), all);
		if (!all)
			pooled_table(f, r, size, cells, nc);
		fprintf(f, "kcompactd, over the same runs:\n\n");
		cell_table(f, r, size, cells, nc, kcompactd_cols, sizeof(kcompactd_cols) / sizeof(*kcompactd_cols), all);
		fprintf(f, "Proactive rounds over 1 s: kcompactd's proactive rounds, from the check that "
			   "starts one to the node's end event.  Direct compactions over 100 ms: "
			   "mm_compaction_begin/end pairs (one zone's compaction) of any task but "
			   "kcompactd.  kcompactd's CPU counts its compaction on demand too.\n\n");
		stalls_table(f, r, size, cells, nc, all, knee_pct(dir));
		if (!all)
			cpu_by_stall(f, r, size);
		fprintf(f, "### %s MiB: the comparisons, %s\n\n", size, all ? "every boot" : "the excluded boots left out");
		comparisons(f, r, size, all);
		free_names(cells, nc);
		cells = cells_of(r, size, PRETOUCH, 0, &nc);
		if (nc) {
			fprintf(f, "### %s MiB: pre-touch, %s\n\n", size, all ? "every boot" : "the excluded boots left out");
			cell_table(f, r, size, cells, nc, pretouch_cols,
				   sizeof(pretouch_cols) / sizeof(*pretouch_cols), all);
			versus_head(f);
			versus(f, r, size, "pretouch-p0", "pretouch-p20", &pretouch_cols[0], 1, all);
			fprintf(f, "\nThe original pre-touched a 700 GB Java heap: 27:37 elapsed without "
				   "proactive compaction against 3:19 with it, a ratio of 8.3, from one run "
				   "each.\n\n");
		}
		free_names(cells, nc);
		cells = cells_of(r, size, COLOC, 0, &nc);
		if (nc) {
			fprintf(f, "### %s MiB: the co-located workload, %s\n\n", size, all ? "every boot" : "the excluded boots left out");
			cell_table(f, r, size, cells, nc, coloc_cols, sizeof(coloc_cols) / sizeof(*coloc_cols), all);
			versus_head(f);
			for (j = 0; j < 3; j++)
				versus(f, r, size, "coloc-p20", "coloc-p0", &coloc_cols[j], 1, all);
			versus(f, r, size, "coloc-p20", "coloc-p0", &coloc_cols[3], 0, all);
			versus(f, r, size, "coloc-p20", "coloc-p0", &coloc_cols[4], 0, all);
			fprintf(f, "\n");
		}
		free_names(cells, nc);
		cells = cells_of(r, size, COUNT, 2, &nc);
		if (nc) {
			fprintf(f, "### %s MiB: the long compactions, %s\n\nThe cell p20-d0-x1 under ACCEL=tcg "
				   "(long-tcg) and ACCEL=icount (long-icount); per boot, counted from its "
				   "recording.  That multi-threaded TCG makes the page copies slow is a "
				   "hypothesis.\n\n", size, all ? "every boot" : "the excluded boots left out");
			cell_table(f, r, size, cells, nc, long_cols, sizeof(long_cols) / sizeof(*long_cols), all);
			stalls_table(f, r, size, cells, nc, all, knee_pct(dir));
			versus_head(f);
			versus(f, r, size, "long-icount", "long-tcg", &long_cols[0], 0, all);
			versus(f, r, size, "long-icount", "long-tcg", &long_cols[2], 0, all);
			fprintf(f, "\n");
		}
		free_names(cells, nc);
	}
	boots_table(f, r, size);
	failed_list(f, dir, size);
}

/* The run's name: the last part of its folder's path, trailing slashes left out */
static const char *run_name(const char *dir)
{
	static char buf[256];
	size_t end = strlen(dir), start;

	while (end > 1 && dir[end - 1] == '/')
		end--;
	for (start = end; start && dir[start - 1] != '/'; start--)
		;
	snprintf(buf, sizeof(buf), "%.*s", (int)(end - start), dir + start);
	return buf;
}

/*
 * The boots' identities against the run's (lab= in its settings): the
 * runner records each boot's as it begins (ident), boots made before it
 * did have none
 */
static void identities(FILE *f, const struct run *r, const char *settings)
{
	const char *lab = strstr(settings, " lab=");
	size_t i, n = 0, other = 0, len = lab ? strcspn(lab + 1, " \n") : 0;

	for (i = 0; i < r->n; i++) {
		if (!r->b[i].ident[0])
			continue;
		n++;
		if (!lab || strlen(r->b[i].ident) != len || strncmp(r->b[i].ident, lab + 1, len)) {
			fprintf(f, "  Boot %s/%s/%s recorded the identity %s, not the run's.", r->b[i].size,
				r->b[i].cell, r->b[i].id, r->b[i].ident);
			other++;
		}
	}
	fprintf(f, "  %zu of the %zu boots recorded their identity as they began%s.\n\n", n, r->n,
		n && !other ? ", each the run's" : "");
}

int protocol_report(const char *dir, const struct options *o)
{
	struct run r = { 0 };
	size_t ns, i, nsz, excl = 0;
	char **sizes = names(dir, &ns), *settings, *path, **sized;
	FILE *f;

	(void)o;
	path = xasprintf("%s/settings", dir);
	settings = slurp(path);
	free(path);
	if (!settings) {
		fprintf(stderr, "lab-report: %s: no settings: not a make demo (protocol) run\n", dir);
		free_names(sizes, ns);
		return 1;
	}
	read_run(&r, dir);
	sized = xcalloc(ns + 1, sizeof(*sized));
	for (i = 0; i < r.n; i++)
		excl += !!r.b[i].excluded[0];
	write_metrics(&r, dir);
	f = create(dir, "report.md");
	if (!f)
		return 1;
	fprintf(f, "# The evaluation under Documentation/protocol.md\n\n");
	fprintf(f, "Run: %s, settings `%.*s`; %zu boots done, %zu of them excluded.  "
		   "Every boot's measures are in metrics.csv.",
		run_name(dir), (int)strcspn(settings, "\n"), settings, r.n, excl);
	identities(f, &r, settings);
	for (i = 0, nsz = 0; i < ns; i++) {
		char *sdir = xasprintf("%s/%s", dir, sizes[i]);

		if (strspn(sizes[i], "0123456789") == strlen(sizes[i]) && is_dir(sdir)) {
			size_section(f, &r, dir, sizes[i]);
			sized[nsz++] = sizes[i];
		}
		free(sdir);
	}
	if (nsz > 1)
		sizes_side_by_side(f, &r, sized, nsz);
	fprintf(f, "## Not in this report\n\n"
		   "- The proactive share of kcompactd's scanning per node: the boots recorded the "
		   "per-node counters after the settle only, not around the run; it is given over "
		   "all nodes.\n"
		   "- A test of the sizes against each other%s.\n"
		   "- The pooled percentiles and the sizes side by side with the excluded boots: "
		   "both are given without them only.\n"
		   "- Why any long compaction took its time: that multi-threaded TCG makes the page "
		   "copies slow is a hypothesis, which the long compactions' arms test only as far "
		   "as their counts go.  Under ACCEL=icount guest time counts instructions, so a "
		   "copy that is slow on the host cannot lengthen a compaction there; the arms also "
		   "differ in their vCPUs (one under icount, a node each under TCG).\n"
		   "- The primary measure without the runs' catching up: its share over the attempts "
		   "on their slot is given as description, and no comparison reads it.\n\n"
		   "In the tables of every boot, n counts each excluded boot and its reruns, and a "
		   "boot excluded by rule a has no measures: n there is the boots, not the values "
		   "averaged.  A cell with fewer boots than the plan's blocks is not finished.\n",
		nsz > 1 ? ": they are shown side by side" : "");
	fclose(f);
	free(settings);
	for (i = 0; i < r.n; i++)
		free(r.b[i].lat);
	free(r.b);
	free(sized);
	free_names(sizes, ns);
	return 0;
}
