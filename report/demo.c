// SPDX-License-Identifier: GPL-2.0
/*
 * make demo-quick's report: the raw results a demo wrote (p<MODE>/, backoff/,
 * kernel, machine; tests/guest/jobs/demo.sh) are read once into the
 * records below; every output is rendered from the records: metrics/ (one
 * "key value" file per measurement, and the CSV series the plots draw),
 * report.md, summary.json, sweep.csv, rate.csv and the plots.  The raw
 * folders are left as they are.  Every explanatory sentence is chosen by
 * the figures it explains.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"
#include "report.h"

#define MAX_NODES 64
/* An allocation faster than this found a free huge page (direct
 * compaction takes longer here) */
#define FAST_US 1000
/* The original's figures */
#define ORIGINAL_P95_RATIO 78
#define ORIGINAL_ELAPSED_RATIO 8.3

static const double percentiles[] = { 5, 10, 25, 30, 40, 50, 60, 75, 80, 90, 95, 99 };
#define NR_PERCENTILES (sizeof(percentiles) / sizeof(percentiles[0]))

struct counter {
	char name[64];
	long long delta;
};

/* A proactive round of a measurement's recording, open ones included */
struct round {
	int nid;
	char begin_s[32];
	double duration_s, cpu_s, migrate_scanned, migrated;	/* NAN: unknown */
	char outcome[32];
};

struct node_cpu {
	int nid;
	double s;
};

/* One measurement: an experiment in a mode, in its own boot */
struct measurement {
	char name[64];		/* p20-alloc */
	int mode;
	char exp[32];
	long rate;		/* a paced run: huge pages a second; else 0 */
	char scores_fragmented[256], settle[256], scores_begin[256];
	int has_cpu;		/* kcompactd's CPU was read */
	double cpu_s;
	struct node_cpu cpu_node[MAX_NODES];
	int ncpu_node;
	long rounds_settle, rounds;
	struct counter *moved;
	size_t nmoved;
	/* an allocation experiment: latencies in us, in allocation order and sorted */
	int is_alloc;
	double *lat, *sorted;
	size_t n;
	double coverage_pct, lead_ms, alloc_s;
	long fast, lead, free_huge_begin;
	/* the pre-touch */
	int is_pretouch;
	double mib, elapsed_s, user_s, sys_s, thp_pct;
	/* the experiment's recording */
	int has_trace;
	double kcompactd_migrated, last_event_s;	/* NAN: unknown */
	struct round *round;
	size_t nround;
	double membw;		/* memcpy MiB per CPU s; NAN */
	double migrated_mib_per_cpu_s, share_of_memcpy_pct;
	int has_refill;
	double refill_blocks, refill_round_s, refill_per_round_s;
};

struct backoff {
	int present;
	char scores_before[256];
	struct measurement m;	/* what every measurement has */
	long defers;
	char defer_next_s[512];
	double *interval;	/* between a node's successive rounds, s */
	size_t ninterval;
	double interval_median_s;
};

struct demo {
	const char *dir;
	char met[4096];
	char kernel[1024], machine[1024];
	int modes[32], nmodes;
	long rates[64];
	int nrates;
	struct measurement *m;
	size_t nm;
	double refill_rate;	/* the median over the measurements; NAN */
	char score_source[64];
	int has_score;
	double score_low, score_high;
	int score_nodes[MAX_NODES], nscore_nodes;
	struct backoff backoff;
	const struct options *o;
};

/* ---- Reading */

static char *path(const struct demo *d, const char *fmt, const char *a, const char *b)
{
	return xasprintf(fmt, d->dir, a, b);
}

/* The nodes' scores of a fragscore output ("node N score S"), ", " joined;
 * the scores themselves into v */
static void scores(const char *file, char *out, size_t size, double *v, int *nv)
{
	char *text = slurp(file), *line, *save = NULL;
	size_t len = 0;
	int n = 0;

	out[0] = '\0';
	if (!text)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char w1[32], w3[32], s[32];
		int nid;

		if (sscanf(line, "%31s %d %31s %31s", w1, &nid, w3, s) != 4)
			continue;
		len += snprintf(out + len, len < size ? size - len : 0, "%s%s", n ? ", " : "", s);
		if (v && n < MAX_NODES)
			v[n] = atof(s);
		n++;
	}
	if (nv)
		*nv = n;
	free(text);
}

/* kcompactd's CPU seconds per node, between two readings ("nid s") */
static int kcompactd_cpu(struct measurement *m, const char *before, const char *after)
{
	struct kv b = { 0 }, a = { 0 };
	size_t i;

	if (!kv_read_lines(&a, after)) {
		kv_free(&a);
		return 0;
	}
	kv_read_lines(&b, before);
	m->has_cpu = 1;
	m->cpu_s = 0;
	for (i = 0; i < a.n && m->ncpu_node < MAX_NODES; i++) {
		/* unknown, not the CPU since boot, without the reading before */
		double s = atof(a.value[i]) - kv_num(&b, a.name[i]);

		m->cpu_node[m->ncpu_node].nid = atoi(a.name[i]);
		m->cpu_node[m->ncpu_node++].s = s;
		m->cpu_s += s;
	}
	kv_free(&a);
	kv_free(&b);
	return 1;
}

/* The compaction and THP counters that moved between two vmstat readings */
static void moved(struct measurement *m, const char *before, const char *after)
{
	struct kv b = { 0 }, a = { 0 };
	size_t i;

	if (!kv_read_lines(&a, after)) {
		kv_free(&a);
		return;
	}
	kv_read_lines(&b, before);
	for (i = 0; i < a.n; i++) {
		const char *was = kv_get(&b, a.name[i]);
		long long d = atoll(a.value[i]) - (was ? atoll(was) : 0);

		if (strncmp(a.name[i], "compact_", 8) && strncmp(a.name[i], "thp_", 4))
			continue;
		if (was && !strcmp(was, a.value[i]))
			continue;
		m->moved = xrealloc(m->moved, (m->nmoved + 1) * sizeof(*m->moved));
		snprintf(m->moved[m->nmoved].name, sizeof(m->moved->name), "%s", a.name[i]);
		m->moved[m->nmoved++].delta = d;
	}
	kv_free(&a);
	kv_free(&b);
}

/* Free blocks of the huge-page order or above, in huge pages (pagetypeinfo) */
static long free_huge(const char *file)
{
	char *text = slurp(file), *line, *save = NULL;
	int order = 9;
	double n = 0;

	if (!text)
		return 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *w[64], *s2 = NULL, *t;
		int nw = 0, i;

		if (sscanf(line, "Page block order: %d", &order) == 1)
			continue;
		for (t = strtok_r(line, " \t", &s2); t && nw < 64; t = strtok_r(NULL, " \t", &s2))
			w[nw++] = t;
		/* Node N, zone Z, type T c0 c1 ...: the counts from the 7th word */
		if (nw < 7 || strcmp(w[0], "Node") || strcmp(w[4], "type"))
			continue;
		for (i = 6 + order; i < nw; i++)
			n += atof(w[i]) * pow(2, i - 6 - order);
	}
	free(text);
	return (long)n;
}

/* proactive-trace on a recording: its JSON summary, and its rounds CSV
 * (rounds, may be NULL), defers CSV (may be NULL) */
static int trace(const struct demo *d, const char *dat, struct kv *sum, const char *rounds,
		 const char *defers)
{
	char *argv[10], *out = NULL;
	int a = 0, st;

	argv[a++] = (char *)d->o->trace_tool;
	argv[a++] = "--json";
	if (rounds) {
		argv[a++] = "-r";
		argv[a++] = (char *)rounds;
	}
	if (defers) {
		argv[a++] = "-d";
		argv[a++] = (char *)defers;
	}
	argv[a++] = (char *)dat;
	argv[a] = NULL;
	st = run_tool(argv, &out);
	if (st || !kv_read_json(sum, out)) {
		fprintf(stderr, "lab-report: %s could not read %s\n", d->o->trace_tool, dat);
		free(out);
		exit(1);
	}
	free(out);
	return 1;
}

/* A count that may be unknown (-1), as the reports print it */
static const char *fl(long n)
{
	return n < 0 ? "-" : fx((double)n, 0);
}

/* Proactive rounds in a recording, -1 (unknown) without one */
static long rounds_of(const struct demo *d, const char *dat)
{
	struct kv s = { 0 };
	long r;

	if (!readable(dat))
		return -1;
	trace(d, dat, &s, NULL, NULL);
	r = (long)kv_num(&s, "rounds");
	kv_free(&s);
	return r;
}

/* What every measurement has, from the files at PREFIX (p20/alloc) */
static void common(const struct demo *d, struct measurement *m, const char *prefix)
{
	char *b = xasprintf("%s-kcompactd-cpu-before", prefix);
	char *a = xasprintf("%s-kcompactd-cpu-after", prefix);
	char *s = xasprintf("%s-settle.dat", prefix), *x = xasprintf("%s.dat", prefix);
	char *vb = xasprintf("%s-vmstat-before", prefix), *va = xasprintf("%s-vmstat-after", prefix);

	if (kcompactd_cpu(m, b, a)) {
		m->rounds_settle = rounds_of(d, s);
		m->rounds = rounds_of(d, x);
		moved(m, vb, va);
	}
	free(b);
	free(a);
	free(s);
	free(x);
	free(vb);
	free(va);
}

static void alloc_metrics(struct measurement *m, const char *dir, const char *e)
{
	char *s = xasprintf("%s/%s-samples-ns", dir, e), *kb = xasprintf("%s/%s-memfree-kb", dir, e);
	char *pt = xasprintf("%s/%s-pagetypeinfo-before", dir, e);
	char *text = slurp(s), *line, *save = NULL, buf[64];
	double t = 0, memfree = 0;
	size_t cap = 0;
	int slow = 0;

	m->is_alloc = 1;
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		double ns = atof(line);

		if (!*line)
			continue;
		if (m->n == cap) {
			cap = cap ? 2 * cap : 1024;
			m->lat = xrealloc(m->lat, cap * sizeof(*m->lat));
		}
		m->lat[m->n++] = ns / 1000;
		t += ns;
		if (ns < FAST_US * 1000.0) {
			m->fast++;
			if (!slow) {
				m->lead++;
				m->lead_ms = t / 1e6;
			}
		} else {
			slow = 1;
		}
	}
	free(text);
	m->alloc_s = t / 1e9;
	m->sorted = xcalloc(m->n, sizeof(double));
	if (m->n)
		memcpy(m->sorted, m->lat, m->n * sizeof(double));
	stats_sort(m->sorted, m->n);
	if (first_line(kb, buf, sizeof(buf)))
		memfree = atof(buf);
	m->coverage_pct = memfree > 0 ? m->n * 2048 * 100.0 / memfree : NAN;
	m->free_huge_begin = free_huge(pt);
	free(s);
	free(kb);
	free(pt);
}

static void pretouch_metrics(struct measurement *m, const char *dir)
{
	char *p = xasprintf("%s/pretouch.txt", dir);
	struct kv kv = { 0 };

	m->is_pretouch = kv_read_pairs(&kv, p);
	m->mib = kv_num(&kv, "mib");
	m->elapsed_s = kv_num(&kv, "elapsed_s");
	m->user_s = kv_num(&kv, "user_s");
	m->sys_s = kv_num(&kv, "sys_s");
	m->thp_pct = kv_num(&kv, "thp_pct");
	kv_free(&kv);
	free(p);
}

static const char *or_null(const char *v)
{
	return v ? v : "null";
}

/* The measurement's recording: kcompactd's work and its rounds */
static void recording(const struct demo *d, struct measurement *m, const char *prefix)
{
	char *dat = xasprintf("%s.dat", prefix), *csv = xasprintf("%s/.rounds.csv", d->met);
	struct kv s = { 0 };
	struct csv c;
	size_t i;
	int k;

	m->kcompactd_migrated = m->last_event_s = NAN;
	if (!readable(dat))
		goto out;
	m->has_trace = 1;
	trace(d, dat, &s, csv, NULL);
	m->kcompactd_migrated = strcmp(or_null(kv_get(&s, "kcompactd_migrated")), "null") ?
		kv_num(&s, "kcompactd_migrated") : NAN;
	m->last_event_s = kv_num(&s, "last_event_s");
	if (csv_read(&c, csv)) {
		int nid = csv_col(&c, "nid"), b = csv_col(&c, "begin_s"), dur = csv_col(&c, "duration_ms");
		int cpu = csv_col(&c, "cpu_ms"), ms = csv_col(&c, "migrate_scanned");
		int mg = csv_col(&c, "migrated"), oc = csv_col(&c, "outcome");

		for (i = 0; i < c.nrows; i++) {
			struct round *r;

			if (!*csv_get(&c, i, b))	/* began before the recording */
				continue;
			m->round = xrealloc(m->round, (m->nround + 1) * sizeof(*m->round));
			r = &m->round[m->nround++];
			r->nid = atoi(csv_get(&c, i, nid));
			snprintf(r->begin_s, sizeof(r->begin_s), "%s", csv_get(&c, i, b));
			r->duration_s = atof(csv_get(&c, i, dur)) / 1000;
			r->cpu_s = *csv_get(&c, i, cpu) ? atof(csv_get(&c, i, cpu)) / 1000 : NAN;
			r->migrate_scanned = atof(csv_get(&c, i, ms));
			r->migrated = *csv_get(&c, i, mg) ? atof(csv_get(&c, i, mg)) : NAN;
			snprintf(r->outcome, sizeof(r->outcome), "%s", csv_get(&c, i, oc));
		}
		csv_free(&c);
	}
	remove(csv);
	/* the rounds still open when the recording ends */
	for (k = 0;; k++) {
		char key[64];
		const char *nid, *begin, *mg;
		struct round *r;

		snprintf(key, sizeof(key), "open_rounds.%d.nid", k);
		if (!(nid = kv_get(&s, key)))
			break;
		snprintf(key, sizeof(key), "open_rounds.%d.begin_s", k);
		begin = kv_get(&s, key);
		if (!begin)
			begin = "";
		snprintf(key, sizeof(key), "open_rounds.%d.migrated", k);
		mg = or_null(kv_get(&s, key));
		m->round = xrealloc(m->round, (m->nround + 1) * sizeof(*m->round));
		r = &m->round[m->nround++];
		r->nid = atoi(nid);
		snprintf(r->begin_s, sizeof(r->begin_s), "%s", begin);
		r->duration_s = m->last_event_s - atof(begin);
		r->cpu_s = r->migrate_scanned = NAN;
		r->migrated = strcmp(mg, "null") ? atof(mg) : NAN;
		snprintf(r->outcome, sizeof(r->outcome), "open at end");
	}
out:
	kv_free(&s);
	free(dat);
	free(csv);
}

/*
 * The huge-page blocks kcompactd made free while settling, from each
 * node's score after fragmenting and when the experiment began (score:
 * the share of free memory outside free huge-page blocks; free memory
 * split evenly between the nodes), per second of the settle's rounds
 */
static void refill(const struct demo *d, struct measurement *m, const char *dir, const char *e)
{
	char *dat = xasprintf("%s/%s-settle.dat", dir, e), *csv = xasprintf("%s/.settle-rounds.csv", d->met);
	char *fb = xasprintf("%s/%s-fragscore-before", dir, e);
	char *fa = xasprintf("%s/%s-fragscore-after-settle", dir, e);
	char *kb = xasprintf("%s/%s-memfree-kb", dir, e), buf[64], tmp[256];
	double before[MAX_NODES], after[MAX_NODES], drop = 0, memfree = 0;
	int nb = 0, na = 0, i;
	struct kv s = { 0 };
	struct csv c;
	size_t r;

	if (!readable(dat))
		goto out;
	trace(d, dat, &s, csv, NULL);
	m->has_refill = 1;
	m->refill_round_s = 0;
	if (csv_read(&c, csv)) {
		for (r = 0; r < c.nrows; r++)
			m->refill_round_s += atof(csv_get(&c, r, csv_col(&c, "duration_ms"))) / 1000;
		csv_free(&c);
	}
	remove(csv);
	scores(fb, tmp, sizeof(tmp), before, &nb);
	scores(fa, tmp, sizeof(tmp), after, &na);
	for (i = 0; i < nb && i < na; i++)
		drop += before[i] - after[i];
	if (first_line(kb, buf, sizeof(buf)))
		memfree = atof(buf);
	m->refill_blocks = nb ? drop / 100 * memfree / nb / 2048 : NAN;
	m->refill_per_round_s = m->refill_round_s > 0 ? m->refill_blocks / m->refill_round_s : NAN;
out:
	kv_free(&s);
	free(dat);
	free(csv);
	free(fb);
	free(fa);
	free(kb);
}

static int exp_order(const char *a, const char *b)
{
	static const char *const first[] = { "alloc", "pretouch" };
	int ra = 2, rb = 2, i;

	for (i = 0; i < 2; i++) {
		if (!strcmp(a, first[i]))
			ra = i;
		if (!strcmp(b, first[i]))
			rb = i;
	}
	if (ra != rb)
		return ra - rb;
	if (!strncmp(a, "rate", 4) && !strncmp(b, "rate", 4))
		return atol(a + 4) - atol(b + 4) < 0 ? -1 : atol(a + 4) != atol(b + 4);
	return strcmp(a, b);
}

static int cmp_exp(const void *a, const void *b)
{
	return exp_order(*(char *const *)a, *(char *const *)b);
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return x < y ? -1 : x > y;
}

static void measure(struct demo *d, int mode, const char *e)
{
	char *dir = xasprintf("%s/p%d", d->dir, mode), *prefix = xasprintf("%s/%s", dir, e);
	char *f;
	struct measurement *m;
	struct kv bw = { 0 };
	int i;

	d->m = xrealloc(d->m, (d->nm + 1) * sizeof(*d->m));
	m = &d->m[d->nm++];
	memset(m, 0, sizeof(*m));
	m->membw = m->migrated_mib_per_cpu_s = m->share_of_memcpy_pct = NAN;
	m->coverage_pct = m->elapsed_s = m->sys_s = m->user_s = m->mib = m->thp_pct = NAN;
	m->refill_blocks = m->refill_round_s = m->refill_per_round_s = NAN;
	m->mode = mode;
	snprintf(m->exp, sizeof(m->exp), "%s", e);
	snprintf(m->name, sizeof(m->name), "p%d-%s", mode, e);
	f = xasprintf("%s-fragscore-before", prefix);
	scores(f, m->scores_fragmented, sizeof(m->scores_fragmented), NULL, NULL);
	free(f);
	f = xasprintf("%s-settle", prefix);
	if (!first_line(f, m->settle, sizeof(m->settle)))
		m->settle[0] = '\0';
	free(f);
	f = xasprintf("%s-fragscore-after-settle", prefix);
	scores(f, m->scores_begin, sizeof(m->scores_begin), NULL, NULL);
	free(f);
	common(d, m, prefix);
	if (!strcmp(e, "alloc")) {
		alloc_metrics(m, dir, e);
	} else if (!strncmp(e, "rate", 4)) {
		m->rate = atol(e + 4);
		alloc_metrics(m, dir, e);
		for (i = 0; i < d->nrates && d->rates[i] != m->rate; i++)
			;
		if (i == d->nrates && d->nrates < 64)
			d->rates[d->nrates++] = m->rate;
	} else if (!strcmp(e, "pretouch")) {
		pretouch_metrics(m, dir);
	}
	recording(d, m, prefix);
	f = xasprintf("%s-membw.txt", prefix);
	if (kv_read_pairs(&bw, f))
		m->membw = kv_num(&bw, "mib_per_cpu_s");
	kv_free(&bw);
	free(f);
	if (mode)
		refill(d, m, dir, e);
	if (!isnan(m->kcompactd_migrated) && m->has_cpu && m->cpu_s >= 0.05) {
		m->migrated_mib_per_cpu_s = m->kcompactd_migrated * 4096 / 1048576 / m->cpu_s;
		if (m->membw > 0)
			m->share_of_memcpy_pct = m->migrated_mib_per_cpu_s * 100 / m->membw;
	}
	free(dir);
	free(prefix);
}

static void read_backoff(struct demo *d)
{
	struct backoff *b = &d->backoff;
	char *dat = path(d, "%s/backoff/backoff%s%s", ".dat", "");
	char *rounds = xasprintf("%s/backoff-rounds.csv", d->met);
	char *defers = xasprintf("%s/backoff-defers.csv", d->met), *f;
	double last[MAX_NODES];
	int seen[MAX_NODES] = { 0 };
	struct kv s = { 0 };
	struct csv c;
	size_t i, len = 0;

	if (!readable(dat))
		goto out;
	b->present = 1;
	trace(d, dat, &s, rounds, defers);
	f = path(d, "%s/backoff/fragscore-before%s%s", "", "");
	scores(f, b->scores_before, sizeof(b->scores_before), NULL, NULL);
	free(f);
	f = path(d, "%s/backoff/backoff%s%s", "", "");
	common(d, &b->m, f);
	free(f);
	if (csv_read(&c, defers)) {
		int col = csv_col(&c, "next_check_s");

		b->defers = c.nrows;
		for (i = 0; i < c.nrows; i++)
			if (*csv_get(&c, i, col))
				len += snprintf(b->defer_next_s + len, len < sizeof(b->defer_next_s) ?
						sizeof(b->defer_next_s) - len : 0, "%s%s",
						len ? " " : "", csv_get(&c, i, col));
		csv_free(&c);
	}
	/* the intervals between a node's successive rounds */
	if (csv_read(&c, rounds)) {
		int nc = csv_col(&c, "nid"), bc = csv_col(&c, "begin_s");

		b->interval = xcalloc(c.nrows, sizeof(double));
		for (i = 0; i < c.nrows; i++) {
			int nid = atoi(csv_get(&c, i, nc));
			double t = atof(csv_get(&c, i, bc));

			if (nid < 0 || nid >= MAX_NODES)
				continue;
			if (seen[nid])
				b->interval[b->ninterval++] = t - last[nid];
			seen[nid] = 1;
			last[nid] = t;
		}
		csv_free(&c);
	}
	{
		double *sorted = xcalloc(b->ninterval, sizeof(double));

		if (b->ninterval)
			memcpy(sorted, b->interval, b->ninterval * sizeof(double));
		stats_sort(sorted, b->ninterval);
		b->interval_median_s = stats_median(sorted, b->ninterval);
		free(sorted);
	}
out:
	kv_free(&s);
	free(dat);
	free(rounds);
	free(defers);
}

/* The score timeline of the most proactive mode's pre-touch (or its
 * allocation experiment), one series per node */
static void read_score(struct demo *d)
{
	int last = d->modes[d->nmodes - 1];
	char *src = xasprintf("%s/p%d/pretouch.dat", d->dir, last), *csv = xasprintf("%s/score.csv", d->met);
	char *argv[6] = { (char *)d->o->trace_tool, "-q", "-s", csv, src, NULL };
	const char *exp = "pretouch";
	struct csv c;
	size_t i;
	int j;

	if (!readable(src)) {
		free(src);
		src = xasprintf("%s/p%d/alloc.dat", d->dir, last);
		argv[4] = src;
		exp = "alloc";
	}
	if (!readable(src))
		goto out;
	if (run_tool(argv, NULL)) {
		fprintf(stderr, "lab-report: %s could not read %s\n", d->o->trace_tool, src);
		exit(1);
	}
	snprintf(d->score_source, sizeof(d->score_source), "p%d %s", last, exp);
	if (!csv_read(&c, csv))
		goto out;
	d->has_score = 1;
	d->score_low = c.nrows ? atof(csv_get(&c, 0, csv_col(&c, "low"))) : 0;
	d->score_high = c.nrows ? atof(csv_get(&c, 0, csv_col(&c, "high"))) : 0;
	for (i = 0; i < c.nrows; i++) {
		int nid = atoi(csv_get(&c, i, csv_col(&c, "nid")));

		for (j = 0; j < d->nscore_nodes && d->score_nodes[j] != nid; j++)
			;
		if (j == d->nscore_nodes && j < MAX_NODES)
			d->score_nodes[d->nscore_nodes++] = nid;
	}
	qsort(d->score_nodes, d->nscore_nodes, sizeof(int), cmp_int);
	for (j = 0; j < d->nscore_nodes; j++) {
		char name[64];
		FILE *f;

		snprintf(name, sizeof(name), "score-node%d.csv", d->score_nodes[j]);
		f = create(d->met, name);
		fprintf(f, "%s", c.head[0]);
		for (i = 1; i < c.ncols; i++)
			fprintf(f, ",%s", c.head[i]);
		fprintf(f, "\n");
		for (i = 0; i < c.nrows; i++) {
			size_t k;

			if (atoi(csv_get(&c, i, csv_col(&c, "nid"))) != d->score_nodes[j])
				continue;
			for (k = 0; k < c.ncols; k++)
				fprintf(f, "%s%s", k ? "," : "", c.rows[i][k]);
			fprintf(f, "\n");
		}
		fclose(f);
	}
	csv_free(&c);
out:
	free(src);
	free(csv);
}

static int read_demo(struct demo *d)
{
	DIR *dh = opendir(d->dir);
	struct dirent *de;
	double *refills;
	size_t i, nr = 0;
	int k;

	if (!dh) {
		fprintf(stderr, "lab-report: cannot read %s\n", d->dir);
		return 1;
	}
	while ((de = readdir(dh))) {
		char *end;
		long m;

		if (de->d_name[0] != 'p' || de->d_name[1] < '0' || de->d_name[1] > '9')
			continue;
		m = strtol(de->d_name + 1, &end, 10);
		if (*end || d->nmodes == 32)
			continue;
		d->modes[d->nmodes++] = (int)m;
	}
	closedir(dh);
	if (!d->nmodes) {
		fprintf(stderr, "lab-report: no mode results (p<MODE>/) in %s\n", d->dir);
		return 1;
	}
	qsort(d->modes, d->nmodes, sizeof(int), cmp_int);
	snprintf(d->met, sizeof(d->met), "%s/metrics", d->dir);
	{
		char *cmd[] = { "/bin/rm", "-rf", d->met, NULL };

		run_tool(cmd, NULL);
	}
	if (mkdir(d->met, 0777)) {
		perror(d->met);
		return 1;
	}
	{
		char *f = path(d, "%s/kernel%s%s", "", "");

		if (!first_line(f, d->kernel, sizeof(d->kernel)))
			strcpy(d->kernel, "unknown");
		free(f);
		f = path(d, "%s/machine%s%s", "", "");
		if (!first_line(f, d->machine, sizeof(d->machine)))
			strcpy(d->machine, "unknown");
		free(f);
	}
	for (k = 0; k < d->nmodes; k++) {
		char *dir = xasprintf("%s/p%d", d->dir, d->modes[k]);
		char **exps = NULL;
		size_t ne = 0;

		dh = opendir(dir);
		while (dh && (de = readdir(dh))) {
			size_t n = strlen(de->d_name);

			/* <experiment>-settle, the experiment's name [a-z0-9]+ */
			if (n <= 7 || strcmp(de->d_name + n - 7, "-settle") ||
			    strspn(de->d_name, "abcdefghijklmnopqrstuvwxyz0123456789") != n - 7)
				continue;
			exps = xrealloc(exps, (ne + 1) * sizeof(*exps));
			exps[ne] = xasprintf("%.*s", (int)(n - 7), de->d_name);
			ne++;
		}
		if (dh)
			closedir(dh);
		qsort(exps, ne, sizeof(*exps), cmp_exp);
		for (i = 0; i < ne; i++) {
			measure(d, d->modes[k], exps[i]);
			free(exps[i]);
		}
		free(exps);
		free(dir);
	}
	qsort(d->rates, d->nrates, sizeof(long), cmp_long);
	refills = xcalloc(d->nm, sizeof(double));
	for (i = 0; i < d->nm; i++)
		if (!isnan(d->m[i].refill_per_round_s))
			refills[nr++] = d->m[i].refill_per_round_s;
	stats_sort(refills, nr);
	d->refill_rate = stats_median(refills, nr);
	free(refills);
	read_score(d);
	read_backoff(d);
	return 0;
}

/* ---- Rendering */

static struct measurement *find(struct demo *d, int mode, const char *e)
{
	size_t i;

	for (i = 0; i < d->nm; i++)
		if (d->m[i].mode == mode && !strcmp(d->m[i].exp, e))
			return &d->m[i];
	return NULL;
}

static struct measurement *find_rate(struct demo *d, int mode, long rate)
{
	char e[32];

	snprintf(e, sizeof(e), "rate%ld", rate);
	return find(d, mode, e);
}

static double pct(const struct measurement *m, double p)
{
	return m && m->is_alloc ? stats_percentile(m->sorted, m->n, p) : NAN;
}

static struct interval pct_ci(const struct measurement *m, double p)
{
	struct interval none = { .est = NAN, .lo = NAN, .hi = NAN, .df = NAN };

	return m && m->is_alloc ? stats_percentile_ci(m->sorted, m->n, p, LEVEL) : none;
}

static struct interval p_ratio(const struct measurement *a, const struct measurement *b, double p)
{
	struct interval none = { .est = NAN, .lo = NAN, .hi = NAN, .df = NAN };

	if (!a || !b || !a->is_alloc || !b->is_alloc)
		return none;
	return stats_percentile_ratio_ci(a->sorted, a->n, b->sorted, b->n, p, LEVEL);
}

/* A ratio interval, "N.NNx [lo, hi]": two decimals, so that an interval
 * that ends just short of 1 is not printed as reaching it */
static const char *ratio_cell(const struct interval *ci)
{
	static char b[4][96];
	static int k;

	k = (k + 1) % 4;
	if (!ci->ok)
		return "-";
	snprintf(b[k], sizeof(b[k]), "%sx %s", fx(ci->est, 2), fci(ci, 2));
	return b[k];
}

/* What every measurement's metrics file has: kcompactd and the counters */
static void metrics_common(FILE *f, const struct measurement *m)
{
	size_t j;
	int k;

	if (!m->has_cpu)
		return;
	fprintf(f, "kcompactd_cpu_s %s\nkcompactd_cpu_nodes", fx(m->cpu_s, 2));
	for (k = 0; k < m->ncpu_node; k++)
		fprintf(f, "%s node %d %s s", k ? "," : "", m->cpu_node[k].nid, fx(m->cpu_node[k].s, 2));
	fprintf(f, "\nrounds_settle %s\nrounds %s\n", fl(m->rounds_settle), fl(m->rounds));
	for (j = 0; j < m->nmoved; j++)
		fprintf(f, "moved:%s %lld\n", m->moved[j].name, m->moved[j].delta);
}

/* The metrics renderer: one "key value" file per measurement, the CSV
 * series beside them */
static void write_metrics(struct demo *d)
{
	FILE *f = create(d->met, "run");
	size_t i, j, r;
	int k;

	fprintf(f, "kernel %s\nmachine %s\nmodes", d->kernel, d->machine);
	for (k = 0; k < d->nmodes; k++)
		fprintf(f, " %d", d->modes[k]);
	fprintf(f, "\n");
	if (d->has_score)
		fprintf(f, "score_source %s\n", d->score_source);
	fclose(f);
	for (i = 0; i < d->nm; i++) {
		struct measurement *m = &d->m[i];
		char name[96];

		if (m->is_alloc) {
			snprintf(name, sizeof(name), "%s-cdf.csv", m->name);
			f = create(d->met, name);
			fprintf(f, "us,fraction\n");
			for (j = 0; j < m->n; j++)
				fprintf(f, "%.3f,%.4f\n", m->sorted[j], (j + 1.0) / m->n);
			fclose(f);
		}
		f = create(d->met, m->name);
		fprintf(f, "mode %d\nexperiment %s\nscores_fragmented %s\nsettle %s\nscores_begin %s\n",
			m->mode, m->exp, m->scores_fragmented, m->settle, m->scores_begin);
		metrics_common(f, m);
		if (m->rate)
			fprintf(f, "rate %ld\n", m->rate);
		if (m->is_alloc) {
			fprintf(f, "count %zu\ncoverage_pct %s\n", m->n, fx(m->coverage_pct, 1));
			for (j = 0; j < NR_PERCENTILES; j++) {
				struct interval ci = pct_ci(m, percentiles[j]);

				fprintf(f, "p%g_us %s\n", percentiles[j], fx(ci.est, 0));
				fprintf(f, "p%g_us_ci95 %s %s\n", percentiles[j], fx(ci.lo, 0), fx(ci.hi, 0));
			}
			fprintf(f, "fast_us %d\nfast %ld\nlead %ld\nlead_ms %s\nalloc_s %s\nfree_huge_begin %ld\n",
				FAST_US, m->fast, m->lead, fx(m->lead_ms, 1), fx(m->alloc_s, 1), m->free_huge_begin);
		}
		if (m->is_pretouch)
			fprintf(f, "mib %s\nelapsed_s %s\nuser_s %s\nsys_s %s\nthp_pct %s\n",
				fj(m->mib, 3), fj(m->elapsed_s, 3), fj(m->user_s, 3), fj(m->sys_s, 3),
				fj(m->thp_pct, 1));
		if (!isnan(m->kcompactd_migrated))
			fprintf(f, "kcompactd_migrated %.0f\n", m->kcompactd_migrated);
		if (m->has_trace)
			fprintf(f, "last_event_s %.6f\n", m->last_event_s);
		if (!isnan(m->membw))
			fprintf(f, "mib_per_cpu_s %s\n", fj(m->membw, 3));
		if (m->has_refill) {
			fprintf(f, "refill_blocks %s\nrefill_round_s %s\n", fx(m->refill_blocks, 0),
				fx(m->refill_round_s, 3));
			if (!isnan(m->refill_per_round_s))
				fprintf(f, "refill_blocks_per_round_s %s\n", fx(m->refill_per_round_s, 0));
		}
		if (!isnan(m->migrated_mib_per_cpu_s))
			fprintf(f, "migrated_mib_per_cpu_s %s\n", fx(m->migrated_mib_per_cpu_s, 0));
		if (!isnan(m->share_of_memcpy_pct))
			fprintf(f, "migrated_share_of_memcpy_pct %s\n", fx(m->share_of_memcpy_pct, 1));
		fclose(f);
		if (!m->has_trace)
			continue;
		snprintf(name, sizeof(name), "%s-rounds.csv", m->name);
		f = create(d->met, name);
		fprintf(f, "nid,begin_s,duration_s,cpu_s,migrate_scanned,migrated,scanned_per_s,migrated_per_s,outcome\n");
		for (r = 0; r < m->nround; r++) {
			struct round *x = &m->round[r];
			double dur = x->duration_s;

			fprintf(f, "%d,%s,%.3f,%s,%s,%s,%s,%s,%s\n", x->nid, x->begin_s, dur,
				isnan(x->cpu_s) ? "" : fx(x->cpu_s, 3),
				isnan(x->migrate_scanned) ? "" : fx(x->migrate_scanned, 0),
				isnan(x->migrated) ? "" : fx(x->migrated, 0),
				isnan(x->migrate_scanned) ? "" : fx(dur > 0 ? x->migrate_scanned / dur : 0, 0),
				isnan(x->migrated) ? "" : fx(dur > 0 ? x->migrated / dur : 0, 0), x->outcome);
		}
		fclose(f);
	}
	if (d->backoff.present) {
		struct backoff *b = &d->backoff;

		f = create(d->met, "backoff");
		fprintf(f, "scores_before %s\n", b->scores_before);
		metrics_common(f, &b->m);
		fprintf(f, "defers %ld\ndefer_next_s %s\nround_intervals_s", b->defers, b->defer_next_s);
		for (j = 0; j < b->ninterval; j++)
			fprintf(f, " %s", fx(b->interval[j], 1));
		fprintf(f, "\nround_interval_median_s %s\n", fx(b->interval_median_s, 1));
		fclose(f);
	}
}

/* Why: what the proactive mode's allocations and trace say about its latencies */
static void why_alloc(FILE *f, const struct measurement *m)
{
	long all = m->n;

	if (!all) {
		fprintf(f, "Why: at p%d no allocation succeeded.\n", m->mode);
		return;
	}
	fprintf(f, "Why: at p%d, %ld of the %ld allocations (%.0f%%) found a free huge page and took under %d us; the other %ld took longer (the run's direct compactions are its compact_stall, among the counters below).  ",
		m->mode, m->fast, all, m->fast * 100.0 / all, FAST_US, all - m->fast);
	if (!m->lead) {
		fprintf(f, "Not even the first allocation found a free huge page, although %ld were free when the run began.\n",
			m->free_huge_begin);
		return;
	}
	fprintf(f, "%ld huge pages were free when the run began; the first %ld allocations in a row were fast, in %.1f ms of allocation time",
		m->free_huge_begin, m->lead, m->lead_ms);
	fprintf(f, m->lead_ms < 500 ? ", less than kcompactd's 500 ms period.  " :
		", longer than kcompactd's 500 ms period.  ");
	if (m->fast > m->lead)
		fprintf(f, "The other %ld fast ones found blocks freed during the run (%.1f s of allocation time), by kcompactd (%s proactive rounds, %.2f s CPU) or by an earlier direct compaction.  ",
			m->fast - m->lead, m->alloc_s, fl(m->rounds), m->cpu_s);
	if (m->lead <= m->free_huge_begin && m->lead < all / 2.0)
		fprintf(f, "The driver used up the huge pages prepared before the run within the first half of its allocations; this run does not show how that share changes with the machine's size.\n");
	else if (m->lead > m->free_huge_begin)
		fprintf(f, "More allocations were fast in a row than huge pages were free at the start: blocks were freed during that run of fast allocations.\n");
	else
		fprintf(f, "The huge pages prepared before the run served at least half of the allocations.\n");
}

static long long moved_of(const struct measurement *m, const char *name)
{
	size_t i;

	for (i = 0; i < m->nmoved; i++)
		if (!strcmp(m->moved[i].name, name))
			return m->moved[i].delta;
	return 0;
}

/* Why: where the pre-touch's system time went, the proactive mode's
 * huge-page faults against the other mode's direct compactions */
static void why_pretouch(FILE *f, const struct measurement *m0, const struct measurement *m1)
{
	long long f1 = moved_of(m1, "thp_fault_alloc");
	long long c0 = moved_of(m0, "compact_stall"), c1 = moved_of(m1, "compact_stall");
	double s0 = m0->sys_s, s1 = m1->sys_s;

	fprintf(f, "Why: at p%d the %lld huge-page faults cost %.1f ms of system time each, with %lld direct compactions in all.  ",
		m1->mode, f1, f1 ? s1 * 1000 / f1 : 0, c1);
	if (s0 - s1 >= 0.05) {
		fprintf(f, "At p%d, %lld direct compactions came with %.1f s more system time for the same work.  ",
			m0->mode, c0, s0 - s1);
		if (s0 - s1 < s1)
			fprintf(f, "That difference is less than p%d's whole system time for the faults, its own direct compactions included.\n",
				m1->mode);
		else
			fprintf(f, "That difference is more than p%d's whole system time for the faults, its own direct compactions included.\n",
				m1->mode);
	} else if (s1 - s0 >= 0.05) {
		fprintf(f, "At p%d, %lld direct compactions came with %.1f s less system time: in this run proactive compaction did not make the faults cheaper.\n",
			m0->mode, c0, s1 - s0);
	} else {
		fprintf(f, "At p%d, %lld direct compactions came with the same system time (within 0.05 s): in this run direct compaction did not cost measurable time.\n",
			m0->mode, c0);
	}
}

/* The sentence comparing a ratio's interval with the original's 78x */
static const char *against_original(const struct interval *ci)
{
	if (!isnan(ci->lo) && ci->lo >= ORIGINAL_P95_RATIO)
		return "its interval lies above the original's 78x";
	if (!isnan(ci->hi) && ci->hi < ORIGINAL_P95_RATIO)
		return "short of the original's 78x (its interval lies below)";
	return "its interval includes the original's 78x: this run does not tell them apart";
}

/*
 * The rate sweep's sentences: each rate's p95 ratio, below or above the
 * refill rate; the rates at which one mode made fewer than half the
 * other's allocations (a rule chosen after the data was seen, applied to
 * both modes); the highest ratio over every rate, and without the flagged
 * ones.
 */
static void why_rates(FILE *f, struct demo *d, int a, int b)
{
	int i, n = 0, best = -1, best_kept = -1;
	struct interval ci[64];
	int flagged[64] = { 0 };

	for (i = 0; i < d->nrates; i++) {
		struct measurement *ma = find_rate(d, a, d->rates[i]), *mb = find_rate(d, b, d->rates[i]);

		ci[i] = p_ratio(ma, mb, 95);
		if (!ci[i].ok)
			continue;
		if (!n++)
			fprintf(f, "At each rate, the p95 ratio p%d/p%d:", a, b);
		else
			fprintf(f, ",");
		fprintf(f, " %.1fx at %ld/s", ci[i].est, d->rates[i]);
		if (!isnan(d->refill_rate))
			fprintf(f, d->rates[i] <= d->refill_rate ? " (below the refill rate)" :
				" (above the refill rate)");
	}
	if (!n)
		return;
	fprintf(f, ".\n");
	for (i = 0; i < d->nrates; i++) {
		struct measurement *ma = find_rate(d, a, d->rates[i]), *mb = find_rate(d, b, d->rates[i]);
		struct measurement *few, *many;
		double p99;

		if (!ci[i].ok)
			continue;
		few = ma->n * 2 < mb->n ? ma : mb->n * 2 < ma->n ? mb : NULL;
		if (few) {
			many = few == ma ? mb : ma;
			flagged[i] = 1;
			p99 = pct(few, 99);
			fprintf(f, "At %ld/s, p%d made only %zu allocations against p%d's %zu: ", d->rates[i],
				few->mode, few->n, many->mode, many->n);
			if (p99 >= 1e6)
				fprintf(f, "single allocations took seconds (p99 %.1f s), so its ratio compares a stalled run with a running one.\n",
					p99 / 1e6);
			else
				fprintf(f, "its p99 was %.0f us, so its ratio compares runs of unlike length.\n", p99);
		}
		if (best < 0 || ci[i].est > ci[best].est)
			best = i;
		if (!flagged[i] && (best_kept < 0 || ci[i].est > ci[best_kept].est))
			best_kept = i;
	}
	fprintf(f, "Over every rate, the highest p95 ratio is %s at %ld/s: %s.\n",
		ratio_cell(&ci[best]), d->rates[best], against_original(&ci[best]));
	if (best_kept < 0)
		fprintf(f, "Without the rates named above (one mode made fewer than half the other's allocations: a rule chosen after the data was seen), no rate is left.\n");
	else if (best_kept != best)
		fprintf(f, "Without the rates named above (one mode made fewer than half the other's allocations: a rule chosen after the data was seen), the highest is %s at %ld/s: %s.\n",
			ratio_cell(&ci[best_kept]), d->rates[best_kept], against_original(&ci[best_kept]));
	else if (best_kept == best)
		fprintf(f, "No rate was left out: in every rate both modes made comparable numbers of allocations.\n");
}

static void rate_sweep(FILE *f, struct demo *d)
{
	int first = d->modes[0], last = d->modes[d->nmodes - 1], i, k;

	fprintf(f, "## Allocation rate sweep (lab_hpalloc paced, us)\n\n");
	fprintf(f, "Each rate ran for its own seconds in its own boot (DEMO_PACE_S); coverage is the share of free memory the allocated huge pages cover.  Each cell is one boot; in brackets the 95%% interval of the percentile (order statistics; ? where the boot made too few allocations to bound that side), n = pages.\n");
	fprintf(f, "kcompactd's refill rate, measured while settling (huge-page blocks made free per second of proactive rounds, median over the boots): %s.\n\n",
		fx(d->refill_rate, 0));
	fprintf(f, "| rate/s |");
	for (k = 0; k < d->nmodes; k++)
		fprintf(f, " p%d p50 | p%d p95 | p%d p99 | p%d pages | p%d cov %% |", d->modes[k],
			d->modes[k], d->modes[k], d->modes[k], d->modes[k]);
	if (first != last)
		fprintf(f, " p95 p%d/p%d |", first, last);
	fprintf(f, "\n|---:|");
	for (k = 0; k < d->nmodes; k++)
		fprintf(f, "---:|---:|---:|---:|---:|");
	fprintf(f, "%s\n", first != last ? "---:|" : "");
	for (i = 0; i < d->nrates; i++) {
		fprintf(f, "| %ld |", d->rates[i]);
		for (k = 0; k < d->nmodes; k++) {
			struct measurement *m = find_rate(d, d->modes[k], d->rates[i]);
			struct interval c50 = pct_ci(m, 50), c95 = pct_ci(m, 95), c99 = pct_ci(m, 99);

			fprintf(f, " %s %s | %s %s | %s %s | %s | %s |", fx(c50.est, 0), fci(&c50, 0),
				fx(c95.est, 0), fci(&c95, 0), fx(c99.est, 0), fci(&c99, 0),
				m && m->is_alloc ? fx(m->n, 0) : "-", m ? fx(m->coverage_pct, 1) : "-");
		}
		if (first != last) {
			struct interval r = p_ratio(find_rate(d, first, d->rates[i]),
						    find_rate(d, last, d->rates[i]), 95);

			fprintf(f, " %s |", ratio_cell(&r));
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
	if (first != last)
		why_rates(f, d, first, last);
	fprintf(f, "\n");
}

/* Every proactive round of every measurement, open ones too; a round over
 * 1 s and over 5 times the median is flagged */
static void round_table(FILE *f, struct demo *d)
{
	double *dur = NULL, med;
	size_t i, r, n = 0, outliers = 0;
	int any = 0;

	for (i = 0; i < d->nm; i++) {
		any |= d->m[i].has_trace;
		for (r = 0; r < d->m[i].nround; r++) {
			dur = xrealloc(dur, (n + 1) * sizeof(*dur));
			dur[n++] = d->m[i].round[r].duration_s;
		}
	}
	if (!any) {
		free(dur);
		return;
	}
	stats_sort(dur, n);
	med = n ? stats_median(dur, n) : 0;
	fprintf(f, "## Proactive rounds during the experiments\n\n");
	fprintf(f, "Median round: %.3f s (n = %zu rounds).  Rates are pages per second of the round's wall time; migrated counts kcompactd's mm_compaction_migratepages batches.\n\n",
		med, n);
	fprintf(f, "| measurement | node | begin s | duration s | kcompactd CPU s | migrate-scanned/s | migrated | migrated/s | outcome | |\n");
	fprintf(f, "|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
	for (i = 0; i < d->nm; i++) {
		for (r = 0; r < d->m[i].nround; r++) {
			struct round *x = &d->m[i].round[r];
			double t = x->duration_s;
			int out = t > 1 && t > 5 * med;

			outliers += out;
			fprintf(f, "| %s | %d | %s | %.3f | %s | %s | %s | %s | %s | %s |\n", d->m[i].name,
				x->nid, x->begin_s, t, isnan(x->cpu_s) ? "" : fx(x->cpu_s, 3),
				isnan(x->migrate_scanned) ? "" : fx(t > 0 ? x->migrate_scanned / t : 0, 0),
				isnan(x->migrated) ? "" : fx(x->migrated, 0),
				isnan(x->migrated) ? "" : fx(t > 0 ? x->migrated / t : 0, 0), x->outcome,
				out ? "**outlier**" : "");
		}
	}
	fprintf(f, "\n");
	if (outliers)
		fprintf(f, "%zu outlier round(s): see Documentation/demo.md, \"The long compactions\".\n", outliers);
	else
		fprintf(f, "No outlier round in this run.\n");
	fprintf(f, "\n");
	free(dur);
}

static const char *numv(double v, int d)
{
	return isnan(v) ? "-" : fj(v, d);
}

static void throughput(FILE *f, struct demo *d)
{
	size_t i;
	int head = 0;

	for (i = 0; i < d->nm; i++) {
		struct measurement *m = &d->m[i];

		if (isnan(m->migrated_mib_per_cpu_s))
			continue;
		if (!head++) {
			fprintf(f, "## kcompactd's migration throughput against memcpy (same boot)\n\n");
			fprintf(f, "| measurement | pages migrated by kcompactd | kcompactd CPU s | MiB migrated per CPU s | memcpy MiB per CPU s | %% of memcpy |\n");
			fprintf(f, "|---|---:|---:|---:|---:|---:|\n");
		}
		fprintf(f, "| %s | %.0f | %s | %s | %s | %s |\n", m->name, m->kcompactd_migrated,
			fx(m->cpu_s, 2), fx(m->migrated_mib_per_cpu_s, 0), numv(m->membw, 3),
			fx(m->share_of_memcpy_pct, 1));
	}
	if (head)
		fprintf(f, "\n");
}

static void write_report(struct demo *d)
{
	FILE *f = create(d->dir, "report.md");
	int first = d->modes[0], last = d->modes[d->nmodes - 1], k;
	struct measurement *a0 = find(d, first, "alloc"), *a1 = find(d, last, "alloc");
	struct measurement *t0 = find(d, first, "pretouch"), *t1 = find(d, last, "pretouch");
	size_t i, j;

	fprintf(f, "# Proactive compaction: the original evaluation in the lab guest\n\n");
	fprintf(f, "Kernel: %s.\n", d->kernel);
	fprintf(f, "Guest: %s.  Modes: proactiveness", d->machine);
	for (k = 0; k < d->nmodes; k++)
		fprintf(f, " %d", d->modes[k]);
	fprintf(f, ".\nEvery measurement ran in its own freshly booted guest.  Raw data beside this file: trace.dat, vmstat snapshots, console log and dmesg per measurement, latency samples; the figures below are in metrics/.\n");
	fprintf(f, "Statistics (Documentation/tools.md, \"The report's statistics\"): percentiles interpolate linearly between order statistics (type 7), the median is the 50th; intervals are 95%%, with n beside them.\n\n");
	fprintf(f, "## Fragmentation and settle\n\n");
	fprintf(f, "| mode | experiment | scores after fragmenting | settle | scores when the experiment began |\n|---|---|---|---|---|\n");
	for (i = 0; i < d->nm; i++)
		fprintf(f, "| p%d | %s | %s | %s | %s |\n", d->m[i].mode, d->m[i].exp, d->m[i].scores_fragmented,
			d->m[i].settle, d->m[i].scores_begin);
	fprintf(f, "\n## Huge-page allocation latency (lab_hpalloc, us)\n\n");
	fprintf(f, "One boot per mode.  In brackets: the percentile's 95%% interval from order statistics (distribution-free; ? where there are too few allocations to bound that side), over the n huge pages allocated (the row below).\n\n");
	fprintf(f, "| percentile |");
	for (k = 0; k < d->nmodes; k++)
		fprintf(f, " p%d |", d->modes[k]);
	fprintf(f, "\n|---|");
	for (k = 0; k < d->nmodes; k++)
		fprintf(f, "---:|");
	fprintf(f, "\n");
	for (j = 0; j < NR_PERCENTILES; j++) {
		fprintf(f, "| %g |", percentiles[j]);
		for (k = 0; k < d->nmodes; k++) {
			struct interval ci = pct_ci(find(d, d->modes[k], "alloc"), percentiles[j]);

			fprintf(f, " %s %s |", fx(ci.est, 0), ci.ok ? fci(&ci, 0) : "");
		}
		fprintf(f, "\n");
	}
	fprintf(f, "| huge pages allocated |");
	for (k = 0; k < d->nmodes; k++) {
		struct measurement *m = find(d, d->modes[k], "alloc");

		fprintf(f, " %s |", m ? fx(m->n, 0) : "-");
	}
	fprintf(f, "\n| %% of free memory |");
	for (k = 0; k < d->nmodes; k++) {
		struct measurement *m = find(d, d->modes[k], "alloc");

		fprintf(f, " %s |", m ? fx(m->coverage_pct, 1) : "-");
	}
	fprintf(f, "\n");
	if (first != last && a0 && a1) {
		struct interval r = p_ratio(a0, a1, 95);

		fprintf(f, "\np95 ratio p%d / p%d: %s (n = %zu / %zu; the quotient of the two p95 intervals, each at 97.5%%; original: 78x)\n",
			first, last, ratio_cell(&r), a0->n, a1->n);
	}
	if (last && a1) {
		fprintf(f, "\n");
		why_alloc(f, a1);
	}
	fprintf(f, "\n");
	if (d->nrates)
		rate_sweep(f, d);
	fprintf(f, "## Pre-touch (MADV_HUGEPAGE region, every page touched)\n\n");
	fprintf(f, "| mode | MiB | elapsed s | user s | sys s | huge-page share %% |\n|---|---:|---:|---:|---:|---:|\n");
	for (k = 0; k < d->nmodes; k++) {
		struct measurement *m = find(d, d->modes[k], "pretouch");

		if (!m)
			continue;
		fprintf(f, "| p%d | %s | %s | %s | %s | %s |\n", m->mode, numv(m->mib, 3), numv(m->elapsed_s, 3),
			numv(m->user_s, 3), numv(m->sys_s, 3), numv(m->thp_pct, 1));
	}
	if (first != last && t0 && t1) {
		fprintf(f, "\nElapsed ratio p%d / p%d: %s%s (one boot each, no interval; original: 8.3x)\n\n", first, last,
			t1->elapsed_s > 0 ? fx(t0->elapsed_s / t1->elapsed_s, 1) : "-", t1->elapsed_s > 0 ? "x" : "");
		why_pretouch(f, t0, t1);
	}
	fprintf(f, "\n## Counters that moved, and kcompactd\n\n");
	for (i = 0; i < d->nm; i++) {
		struct measurement *m = &d->m[i];

		fprintf(f, "p%d, %s: kcompactd CPU", m->mode, m->exp);
		for (k = 0; k < m->ncpu_node; k++)
			fprintf(f, "%s node %d %s s", k ? "," : "", m->cpu_node[k].nid, fx(m->cpu_node[k].s, 2));
		if (!m->has_cpu)
			fprintf(f, " -");
		fprintf(f, "; proactive rounds: %s while settling, %s during the experiment\n\n",
			fl(m->rounds_settle), fl(m->rounds));
		for (j = 0; j < m->nmoved; j++)
			fprintf(f, "    %-42s %+lld\n", m->moved[j].name, m->moved[j].delta);
		fprintf(f, "\n");
	}
	if (d->backoff.present) {
		struct backoff *b = &d->backoff;

		fprintf(f, "## Back-off: unmovable pages in every huge-page block, proactiveness 40\n\n");
		fprintf(f, "Scores before: %s.\n", b->scores_before);
		fprintf(f, "Deferring rounds: %ld; seconds from each to the node's next check: %s.\n", b->defers,
			b->defer_next_s);
		fprintf(f, "Intervals between a node's rounds (s):");
		for (j = 0; j < b->ninterval; j++)
			fprintf(f, " %s", fx(b->interval[j], 1));
		fprintf(f, "%s (median %s, n = %zu).\n", b->ninterval ? "" : " -", fx(b->interval_median_s, 1),
			b->ninterval);
		fprintf(f, "kcompactd CPU during the window:");
		for (k = 0; k < b->m.ncpu_node; k++)
			fprintf(f, "%s node %d %s s", k ? "," : "", b->m.cpu_node[k].nid, fx(b->m.cpu_node[k].s, 2));
		fprintf(f, "%s.\n\n", b->m.has_cpu ? "" : " -");
	}
	round_table(f, d);
	throughput(f, d);
	fprintf(f, "## Plots\n\n![per-node score during the pre-touch](score.png)\n\n![allocation latency CDF](alloc-cdf.png)\n");
	if (first != last)
		fprintf(f, "\n![p50/p95 latency, coverage and kcompactd CPU against proactiveness](sweep.png)\n");
	if (d->nrates)
		fprintf(f, "\n![p95 allocation latency against the allocation rate](rate.png)\n");
	fclose(f);
}

/* A mode's kcompactd CPU and proactive rounds over its allocation and
 * pre-touch runs, and its rounds while they settled (the CPU is read
 * around the runs only); a count is -1 if a recording is missing */
static void mode_cpu(struct demo *d, int mode, double *cpu, long *rounds, long *settle)
{
	const char *e[2] = { "alloc", "pretouch" };
	int i;

	*cpu = 0;
	*rounds = *settle = 0;
	for (i = 0; i < 2; i++) {
		struct measurement *m = find(d, mode, e[i]);

		if (!m || !m->has_cpu)
			continue;
		*cpu = isnan(m->cpu_s) ? NAN : *cpu + atof(fx(m->cpu_s, 2));
		*rounds = *rounds < 0 || m->rounds < 0 ? -1 : *rounds + m->rounds;
		*settle = *settle < 0 || m->rounds_settle < 0 ? -1 : *settle + m->rounds_settle;
	}
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* A percentile with its interval: NAME, NAME_ci95 [lo, hi] (null: open) */
static void json_pct(FILE *f, const char *name, const struct measurement *m, double p)
{
	struct interval ci = pct_ci(m, p);

	fprintf(f, "    \"%s\": %s,\n    \"%s_ci95\": [%s, %s],\n", name, fj(ci.est, 0), name,
		fj(isnan(ci.lo) ? NAN : atof(fx(ci.lo, 0)), 0), fj(isnan(ci.hi) ? NAN : atof(fx(ci.hi, 0)), 0));
}

static void write_summary(struct demo *d)
{
	FILE *f = create(d->dir, "summary.json");
	int k, i;

	fprintf(f, "{\n  \"kernel\": ");
	json_str(f, d->kernel);
	fprintf(f, ",\n  \"statistics\": \"percentiles: type 7; _ci95: 95%% order-statistic interval, null: open\"");
	for (k = 0; k < d->nmodes; k++) {
		struct measurement *a = find(d, d->modes[k], "alloc"), *p = find(d, d->modes[k], "pretouch");
		double cpu;
		long rounds, settle;

		mode_cpu(d, d->modes[k], &cpu, &rounds, &settle);
		fprintf(f, ",\n  \"p%d\": {\n", d->modes[k]);
		json_pct(f, "alloc_p50_us", a, 50);
		json_pct(f, "alloc_p95_us", a, 95);
		json_pct(f, "alloc_p99_us", a, 99);
		fprintf(f, "    \"alloc_count\": %s,\n    \"alloc_coverage_pct\": %s,\n",
			a && a->is_alloc ? fj(a->n, 0) : "null", a ? fj(a->coverage_pct, 1) : "null");
		fprintf(f, "    \"pretouch_elapsed_s\": %s,\n    \"pretouch_sys_s\": %s,\n    \"pretouch_thp_pct\": %s,\n",
			p ? fj(p->elapsed_s, 3) : "null", p ? fj(p->sys_s, 3) : "null", p ? fj(p->thp_pct, 1) : "null");
		fprintf(f, "    \"kcompactd_cpu_s\": %s,\n    \"proactive_rounds\": %s,\n", fj(cpu, 2),
			rounds < 0 ? "null" : fj((double)rounds, 0));
		fprintf(f, "    \"proactive_rounds_settle\": %s\n  }", settle < 0 ? "null" : fj((double)settle, 0));
	}
	for (i = 0; i < d->nrates; i++) {
		for (k = 0; k < d->nmodes; k++) {
			struct measurement *m = find_rate(d, d->modes[k], d->rates[i]);

			fprintf(f, ",\n  \"p%d-rate%ld\": {\n    \"rate\": %ld,\n", d->modes[k], d->rates[i], d->rates[i]);
			json_pct(f, "alloc_p50_us", m, 50);
			json_pct(f, "alloc_p95_us", m, 95);
			json_pct(f, "alloc_p99_us", m, 99);
			fprintf(f, "    \"alloc_count\": %s,\n    \"alloc_coverage_pct\": %s\n  }",
				m && m->is_alloc ? fj(m->n, 0) : "null", m ? fj(m->coverage_pct, 1) : "null");
		}
	}
	fprintf(f, ",\n  \"refill_blocks_per_round_s\": %s", fj(d->refill_rate, 0));
	if (d->backoff.present)
		fprintf(f, ",\n  \"backoff\": {\n    \"defer_events\": %ld,\n    \"retry_interval_s\": %s,\n    \"retry_intervals\": %zu\n  }\n}\n",
			d->backoff.defers, fj(d->backoff.interval_median_s, 1), d->backoff.ninterval);
	else
		fprintf(f, ",\n  \"backoff\": null\n}\n");
	fclose(f);
}

/* The CSVs the plots draw, and the plots */
static int write_plots(struct demo *d)
{
	int first = d->modes[0], last = d->modes[d->nmodes - 1], k, i, bad = 0;
	char *gp = NULL, *plots = NULL, *t;
	FILE *f;

#define ADD(s, ...) do { t = xasprintf("%s" __VA_ARGS__); free(s); s = t; } while (0)
	if (first != last) {
		f = create(d->dir, "sweep.csv");
		fprintf(f, "proactiveness,alloc_p50_us,alloc_p95_us,alloc_coverage_pct,kcompactd_cpu_s\n");
		for (k = 0; k < d->nmodes; k++) {
			struct measurement *a = find(d, d->modes[k], "alloc");
			double cpu;
			long rounds, settle;

			mode_cpu(d, d->modes[k], &cpu, &rounds, &settle);
			fprintf(f, "%d,%s,%s,%s,%s\n", d->modes[k], a ? fj(pct(a, 50), 0) : "null",
				a ? fj(pct(a, 95), 0) : "null", a ? fj(a->coverage_pct, 1) : "null", fj(cpu, 2));
		}
		fclose(f);
	}
	if (d->nrates) {
		f = create(d->dir, "rate.csv");
		fprintf(f, "rate");
		for (k = 0; k < d->nmodes; k++)
			fprintf(f, ",p%d_p95_us", d->modes[k]);
		fprintf(f, "\n");
		for (i = 0; i < d->nrates; i++) {
			fprintf(f, "%ld", d->rates[i]);
			for (k = 0; k < d->nmodes; k++) {
				double v = pct(find_rate(d, d->modes[k], d->rates[i]), 95);

				fprintf(f, ",%s", isnan(v) ? "" : fx(v, 0));
			}
			fprintf(f, "\n");
		}
		fclose(f);
	}
	if (!d->o->plots)
		return 0;
	gp = xasprintf("set terminal png size 800,400\nset datafile separator \",\"\n");
	if (d->has_score) {
		plots = xasprintf("%s", "");
		for (k = 0; k < d->nscore_nodes; k++)
			ADD(plots, "\"%s/score-node%d.csv\" using 1:3 every ::1 with linespoints title \"node %d\", ",
			    plots, d->met, d->score_nodes[k], d->score_nodes[k]);
		ADD(gp, "set output \"%s/score.png\"\nset title \"Per-node fragmentation score, proactiveness %s\"\n"
		    "set xlabel \"seconds\"; set ylabel \"score\"; set yrange [0:105]; set key bottom right\n"
		    "plot %s%g with lines dashtype 2 title \"Tl\", %g with lines dashtype 3 title \"Th\"\nreset\n"
		    "set terminal png size 800,400\nset datafile separator \",\"\n",
		    gp, d->dir, d->score_source, plots, d->score_low, d->score_high);
		free(plots);
	}
	plots = xasprintf("%s", "");
	for (k = 0; k < d->nmodes; k++) {
		struct measurement *a = find(d, d->modes[k], "alloc");

		if (!a || !a->n)
			continue;
		ADD(plots, "%s\"%s/p%d-alloc-cdf.csv\" using 1:2 every ::1 with lines title \"proactiveness %d\"",
		    plots, *plots ? ", " : "", d->met, d->modes[k], d->modes[k]);
	}
	if (*plots)
		ADD(gp, "set output \"%s/alloc-cdf.png\"\nset title \"Huge-page allocation latency\"\n"
		    "set xlabel \"us (log)\"; set ylabel \"fraction of allocations\"; set logscale x; set key bottom right\n"
		    "plot %s\nreset\nset terminal png size 800,400\nset datafile separator \",\"\n", gp, d->dir, plots);
	free(plots);
	if (d->nrates) {
		plots = xasprintf("%s", "");
		for (k = 0; k < d->nmodes; k++)
			ADD(plots, "%s\"%s/rate.csv\" every ::1 using 1:%d with linespoints title \"p95, proactiveness %d\"",
			    plots, *plots ? ", " : "", d->dir, k + 2, d->modes[k]);
		ADD(gp, "set output \"%s/rate.png\"\nset title \"p95 huge-page allocation latency against the allocation rate\"\n"
		    "set xlabel \"huge pages per second (log)\"; set ylabel \"us (log)\"; set logscale xy; set key top left\n",
		    gp, d->dir);
		if (!isnan(d->refill_rate))
			ADD(gp, "set arrow from %.0f, graph 0 to %.0f, graph 1 nohead dashtype 2; set label \"kcompactd refill %.0f/s\" at %.0f, graph 0.95 offset 1,0\n",
			    gp, d->refill_rate, d->refill_rate, d->refill_rate, d->refill_rate);
		ADD(gp, "plot %s\nreset\nset terminal png size 800,400\nset datafile separator \",\"\n", gp, plots);
		free(plots);
	}
	if (first != last)
		ADD(gp, "set output \"%s/sweep.png\"\nset title \"Against proactiveness: allocation latency, coverage, kcompactd CPU\"\n"
		    "set xlabel \"proactiveness\"; set ylabel \"us (log)\"; set logscale y\n"
		    "set y2label \"%% of free memory / kcompactd s\"; set y2tics; set ytics nomirror; set key outside right\n"
		    "plot \"%s/sweep.csv\" every ::1 using 1:2 with linespoints title \"p50 us\", "
		    "\"\" every ::1 using 1:3 with linespoints title \"p95 us\", "
		    "\"\" every ::1 using 1:4 axes x1y2 with linespoints title \"coverage %%\", "
		    "\"\" every ::1 using 1:5 axes x1y2 with linespoints title \"kcompactd s\"\n", gp, d->dir, d->dir);
#undef ADD
	f = create(d->met, "plots.gp");
	fputs(gp, f);
	fclose(f);
	bad = gnuplot(gp);
	free(gp);
	return bad;
}

int demo_report(const char *dir, const struct options *o)
{
	struct demo d = { .dir = dir, .o = o };

	if (access(o->trace_tool, X_OK)) {
		fprintf(stderr, "lab-report: no %s: build it with make\n", o->trace_tool);
		return 1;
	}
	if (read_demo(&d))
		return 1;
	write_metrics(&d);
	write_report(&d);
	write_summary(&d);
	return write_plots(&d);
}
