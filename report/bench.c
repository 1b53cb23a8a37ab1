// SPDX-License-Identifier: GPL-2.0
/*
 * make bench's report: the boots' readings (bench.sh's results folder,
 * <config>-<block>/: cpu-, csw- and vmstat-{start,rounds,idle}, idle-s,
 * events and bench.dat with events recorded) read once into a record per
 * boot; from the records: metrics.csv (a row per boot), bench.md and
 * summary.json.
 *
 * Per boot, from kcompactd's CPU time (all nodes) and the counters:
 *   rounds phase: CPU ns per 100k pages scanned (compact_migrate_scanned +
 *   compact_free_scanned: nothing but kcompactd compacts in this phase,
 *   and stock 6.1's proactive rounds do not count into the
 *   compact_daemon_* ones), pages, rounds (patched only: the series'
 *   compact_daemon_proactive_round);
 *   idle phase: CPU ns per check, the checks counted: kcompactd's
 *   voluntary context switches, one a wake-up (data without csw-*
 *   readings: nominal, two a second per node, and the report says so);
 *   with the series' events on, the trace's count of checks over both
 *   phases is given beside it as a cross-check;
 *   events recorded (on, calib): written to the ring buffer, overwritten
 *   ones included, over both phases.  Both configurations record an event
 *   emitted once a check (the series' check event; calib's
 *   mm_compaction_kcompactd_sleep), so the added CPU per idle check
 *   (on - off, calib - stock) is what one event costs a check.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "report.h"

static const char *const configs[] = { "stock", "off", "on", "calib" };
#define NR_CONFIGS 4

struct boot {
	int config;		/* index in configs */
	int boot;
	double round_cpu_ns, pages_scanned, rounds;	/* rounds: NAN on stock */
	double per_100k_pages, idle_cpu_ns, checks, per_check;
	double traced_checks;	/* NAN without a recording */
	double run_cpu_ns;
	double events;		/* NAN without a recording */
	int nominal;		/* checks not counted (no csw-* readings) */
};

/* The measures, by their metrics.csv names */
enum measure {
	ROUND_CPU, PAGES, ROUNDS, PER_100K, IDLE_CPU, CHECKS, PER_CHECK, TRACED, RUN_CPU, EVENTS,
	NR_MEASURES
};
static const char *const measure_names[NR_MEASURES] = {
	"round_cpu_ns", "pages_scanned", "rounds", "cpu_ns_per_100k_pages", "idle_cpu_ns",
	"checks", "cpu_ns_per_check", "traced_checks", "run_cpu_ns", "events",
};

static double value(const struct boot *b, enum measure m)
{
	const double v[NR_MEASURES] = {
		b->round_cpu_ns, b->pages_scanned, b->rounds, b->per_100k_pages, b->idle_cpu_ns,
		b->checks, b->per_check, b->traced_checks, b->run_cpu_ns, b->events,
	};

	return v[m];
}

struct bench {
	const char *dir;
	struct boot *boot;
	size_t nboot;
	char kernel_stock[512], kernel_patched[512], machine[512], calib_event[128];
	char calib_label[256];
	const struct options *o;
};

/* A per-kcompactd reading's delta, summed over the nodes ("nid value" lines:
 * CPU ns, context switches) */
static double ns(const char *from, const char *to)
{
	struct kv a = { 0 }, b = { 0 };
	double s = 0;
	size_t i;

	kv_read_lines(&a, from);
	kv_read_lines(&b, to);
	for (i = 0; i < b.n; i++) {
		double was = kv_num(&a, b.name[i]);

		s += atof(b.value[i]) - (isnan(was) ? 0 : was);
	}
	kv_free(&a);
	kv_free(&b);
	return s;
}

/* The counters' summed delta, NAN if none is in the later reading */
static double moved(const char *from, const char *to, const char *const *names)
{
	struct kv a = { 0 }, b = { 0 };
	double s = 0;
	int n = 0;

	kv_read_lines(&a, from);
	kv_read_lines(&b, to);
	for (; *names; names++) {
		double was = kv_num(&a, *names), now = kv_num(&b, *names);

		if (isnan(now))
			continue;
		s += now - (isnan(was) ? 0 : was);
		n++;
	}
	kv_free(&a);
	kv_free(&b);
	return n ? s : NAN;
}

static int lines(const char *path)
{
	char *t = slurp(path), *p;
	int n = 0, in = 0;

	if (!t)
		return 0;
	for (p = t; *p; p++) {
		if (*p == '\n') {
			n += in;
			in = 0;
		} else {
			in = 1;
		}
	}
	n += in;
	free(t);
	return n;
}

static int cmp_boot(const void *x, const void *y)
{
	const struct boot *a = x, *b = y;

	return a->config != b->config ? a->config - b->config : a->boot - b->boot;
}

static int read_boot(struct bench *bn, const char *name)
{
	static const char *const scanned[] = { "compact_migrate_scanned", "compact_free_scanned", NULL };
	static const char *const round[] = { "compact_daemon_proactive_round", NULL };
	const char *dash = strrchr(name, '-');
	char *d, *f[11], buf[64], *end;
	struct boot b = { 0 };
	double idle_s;
	int i, nodes;
	long n;

	if (!dash || dash == name)
		return 0;
	n = strtol(dash + 1, &end, 10);
	if (*end || end == dash + 1)
		return 0;
	for (i = 0; i < NR_CONFIGS; i++)
		if (strlen(configs[i]) == (size_t)(dash - name) && !strncmp(name, configs[i], dash - name))
			break;
	if (i == NR_CONFIGS)
		return 0;
	b.config = i;
	b.boot = (int)n;
	d = xasprintf("%s/%s", bn->dir, name);
	f[0] = xasprintf("%s/cpu-start", d);
	f[1] = xasprintf("%s/cpu-rounds", d);
	f[2] = xasprintf("%s/cpu-idle", d);
	f[3] = xasprintf("%s/vmstat-start", d);
	f[4] = xasprintf("%s/vmstat-rounds", d);
	f[5] = xasprintf("%s/idle-s", d);
	f[6] = xasprintf("%s/bench.dat", d);
	f[7] = xasprintf("%s/kernel", d);
	f[8] = xasprintf("%s/csw-rounds", d);
	f[9] = xasprintf("%s/csw-idle", d);
	f[10] = xasprintf("%s/events", d);
	if (!readable(f[2]))
		goto out;
	nodes = lines(f[2]);
	if (first_line(f[5], buf, sizeof(buf)))
		idle_s = atof(buf);
	else if (getenv("BENCH_IDLE_S"))
		idle_s = atof(getenv("BENCH_IDLE_S"));
	else {
		fprintf(stderr, "lab-report: %s: no idle-s, and BENCH_IDLE_S is not set\n", d);
		exit(1);
	}
	b.round_cpu_ns = ns(f[0], f[1]);
	b.pages_scanned = moved(f[3], f[4], scanned);
	b.rounds = moved(f[3], f[4], round);
	b.per_100k_pages = b.pages_scanned > 0 ? b.round_cpu_ns / b.pages_scanned * 100000 : 0;
	b.idle_cpu_ns = ns(f[1], f[2]);
	b.nominal = !readable(f[9]);
	b.checks = b.nominal ? nodes * idle_s * 2 : ns(f[8], f[9]);
	b.events = first_line(f[10], buf, sizeof(buf)) ? atof(buf) : NAN;
	b.per_check = b.checks > 0 ? b.idle_cpu_ns / b.checks : NAN;
	b.run_cpu_ns = b.round_cpu_ns + b.idle_cpu_ns;
	b.traced_checks = NAN;
	if (readable(f[6])) {
		char *argv[] = { (char *)bn->o->trace_tool, "--json", f[6], NULL }, *out = NULL;
		struct kv s = { 0 };

		if (run_tool(argv, &out) || !kv_read_json(&s, out)) {
			fprintf(stderr, "lab-report: %s could not read %s\n", bn->o->trace_tool, f[6]);
			exit(1);
		}
		b.traced_checks = kv_num(&s, "checks");
		kv_free(&s);
		free(out);
	}
	if (b.boot == 1 && b.config == 0)
		first_line(f[7], bn->kernel_stock, sizeof(bn->kernel_stock));
	if (b.boot == 1 && b.config == 1)
		first_line(f[7], bn->kernel_patched, sizeof(bn->kernel_patched));
	if (b.config == 3 && !*bn->calib_event) {
		char *ev = xasprintf("%s/event", d);

		first_line(ev, bn->calib_event, sizeof(bn->calib_event));
		free(ev);
	}
	bn->boot = xrealloc(bn->boot, (bn->nboot + 1) * sizeof(*bn->boot));
	bn->boot[bn->nboot++] = b;
out:
	for (i = 0; i < 11; i++)
		free(f[i]);
	free(d);
	return 1;
}

/* A configuration's values of a measure (known ones), sorted if asked */
static size_t values(const struct bench *bn, int config, enum measure m, double *v, int sorted)
{
	size_t i, n = 0;

	for (i = 0; i < bn->nboot; i++)
		if (bn->boot[i].config == config && !isnan(value(&bn->boot[i], m)))
			v[n++] = value(&bn->boot[i], m);
	if (sorted)
		stats_sort(v, n);
	return n;
}

static size_t boots(const struct bench *bn, int config)
{
	size_t i, n = 0;

	for (i = 0; i < bn->nboot; i++)
		n += bn->boot[i].config == config;
	return n;
}

/* Two configurations' per-boot values of a measure, compared by one of the
 * statistics module's two-sample intervals */
typedef struct interval (*two_sample_ci)(const double *, size_t, const double *, size_t, double);

static struct interval compare(const struct bench *bn, int a, int b, enum measure m,
			       two_sample_ci method)
{
	double *va = xcalloc(bn->nboot, sizeof(double)), *vb = xcalloc(bn->nboot, sizeof(double));
	size_t na = values(bn, a, m, va, 0), nb = values(bn, b, m, vb, 0);
	struct interval ci = method(va, na, vb, nb, LEVEL);

	free(va);
	free(vb);
	return ci;
}

/* a / b: the ratio of the geometric means, on the log scale */
static struct interval ratio(const struct bench *bn, int a, int b, enum measure m)
{
	return compare(bn, a, b, m, stats_log_ratio_ci);
}

static const char *ratio_cell(const struct interval *ci)
{
	static char b[4][128];
	static int k;

	k = (k + 1) % 4;
	if (!ci->ok)
		snprintf(b[k], sizeof(b[k]), "- (n %zu/%zu)", ci->n1, ci->n2);
	else
		snprintf(b[k], sizeof(b[k]), "%s %s (n %zu/%zu)", fx(ci->est, 3), fci(ci, 3), ci->n1, ci->n2);
	return b[k];
}

/* min / median / max of a configuration's boots */
static const char *spread(const struct bench *bn, int config, enum measure m, const char *sep)
{
	static char b[4][160];
	static int k;
	double *v = xcalloc(bn->nboot, sizeof(double));
	size_t n = values(bn, config, m, v, 1);

	k = (k + 1) % 4;
	if (!n)
		snprintf(b[k], sizeof(b[k]), "-%s-%s-", sep, sep);
	else
		snprintf(b[k], sizeof(b[k]), "%s%s%s%s%s", fj(v[0], 0), sep, fj(stats_median(v, n), 0), sep,
			 fj(v[n - 1], 0));
	free(v);
	return b[k];
}

static const enum measure ratio_measures[] = { PER_100K, PER_CHECK, RUN_CPU, PAGES };
#define NR_RATIO_MEASURES 4
#define NR_CONTRASTS 4
static const int contrasts[NR_CONTRASTS][2] = { { 1, 0 }, { 2, 0 }, { 2, 1 }, { 3, 0 } };

static void write_metrics(const struct bench *bn)
{
	FILE *f = create(bn->dir, "metrics.csv");
	size_t i;
	int m;

	fprintf(f, "config,boot");
	for (m = 0; m < NR_MEASURES; m++) {
		/* (the order of today's columns) */
		static const enum measure order[NR_MEASURES] = {
			ROUND_CPU, PAGES, ROUNDS, PER_100K, IDLE_CPU, CHECKS, PER_CHECK, TRACED, RUN_CPU,
			EVENTS,
		};
		fprintf(f, ",%s", measure_names[order[m]]);
	}
	fprintf(f, "\n");
	for (i = 0; i < bn->nboot; i++) {
		const struct boot *b = &bn->boot[i];

		fprintf(f, "%s,%d", configs[b->config], b->boot);
		for (m = 0; m < NR_MEASURES; m++) {
			double v = value(b, m);

			fprintf(f, ",%s", isnan(v) ? "-" : fx(v, 0));
		}
		fprintf(f, "\n");
	}
	fclose(f);
}

/* The added CPU per check of configuration a against b: the difference of
 * the means of the per-boot CPU per check (Welch) */
static struct interval added_per_check(const struct bench *bn, int a, int b)
{
	return compare(bn, a, b, PER_CHECK, stats_welch_diff_ci);
}

/* Boots per configuration for a 95% interval of a ratio to have a
 * half-width of 1%, at the two configurations' coefficient of variation
 * (normal approximation: n = 2 (1.96 cv / 0.01)^2) */
static double boots_for_1pct(const struct bench *bn, int a, int b, enum measure m)
{
	double *v = xcalloc(bn->nboot + 1, sizeof(double)), cv[2];
	int k, c[2] = { a, b };

	for (k = 0; k < 2; k++) {
		size_t n = values(bn, c[k], m, v, 0);

		cv[k] = n < 2 ? NAN : sqrt(stats_var(v, n)) / stats_mean(v, n);
	}
	free(v);
	return ceil(2 * pow(1.96 * sqrt((cv[0] * cv[0] + cv[1] * cv[1]) / 2) / 0.01, 2));
}

static int any_nominal(const struct bench *bn)
{
	size_t i;

	for (i = 0; i < bn->nboot; i++)
		if (bn->boot[i].nominal)
			return 1;
	return 0;
}

/*
 * The rule fixed before the runs (Documentation/bench.md): the series is
 * "within 1% of stock" on a measure when the 95% interval of off / stock
 * lies inside [0.99, 1.01].  1: it does; 0: it does not; -1: no interval.
 */
static int within_1pct(const struct interval *ci)
{
	if (!ci->ok || isnan(ci->lo) || isnan(ci->hi))
		return -1;
	return ci->lo >= 0.99 && ci->hi <= 1.01;
}

static void write_added(FILE *f, const struct bench *bn, int a, int b, const char *what)
{
	struct interval ci = added_per_check(bn, a, b);

	fprintf(f, "- %s, %s against %s (the difference of the mean cpu_ns_per_check, Welch's t): ",
		what, configs[a], configs[b]);
	if (!ci.ok)
		fprintf(f, "- (n %zu/%zu).\n", ci.n1, ci.n2);
	else
		fprintf(f, "%s ns %s (n %zu/%zu).\n", fx(ci.est, 1), fci(&ci, 1), ci.n1, ci.n2);
}

/* A configuration's coefficient of variation of a measure, in %: "-"
 * under 2 values */
static const char *cv_cell(const struct bench *bn, int config, enum measure m)
{
	static char b[4][32];
	static int k;
	double *v = xcalloc(bn->nboot + 1, sizeof(double));
	size_t n = values(bn, config, m, v, 0);
	double mean = stats_mean(v, n), var = stats_var(v, n);

	k = (k + 1) % 4;
	if (n < 2 || isnan(var) || mean == 0)
		snprintf(b[k], sizeof(b[k]), "-");
	else
		snprintf(b[k], sizeof(b[k]), "%s", fx(100 * sqrt(var) / mean, 2));
	free(v);
	return b[k];
}

static const enum measure cv_rows[] = { RUN_CPU, PAGES, ROUNDS, PER_100K, PER_CHECK, CHECKS };

static void write_md(const struct bench *bn)
{
	static const struct {
		const char *title;
		enum measure m;
	} rows[] = {
		{ "kcompactd CPU per 100k pages scanned (ns)", PER_100K },
		{ "kcompactd CPU per idle check (ns)", PER_CHECK },
		{ "checks in the idle phase", CHECKS },
		{ "events recorded (both phases)", EVENTS },
		{ "pages scanned in the rounds phase", PAGES },
		{ "kcompactd CPU, rounds phase (ns)", ROUND_CPU },
		{ "kcompactd CPU, idle phase (ns)", IDLE_CPU },
		{ "kcompactd CPU, whole run (ns)", RUN_CPU },
		{ "proactive rounds (the series' counter)", ROUNDS },
	};
	FILE *f = create(bn->dir, "bench.md");
	struct interval ci;
	size_t r, given = 0, excl = 0;
	int c;

	fprintf(f, "# make bench: what the series costs kcompactd\n\n");
	fprintf(f, "Kernels: stock %s; patched %s.\n", *bn->kernel_stock ? bn->kernel_stock : "-",
		*bn->kernel_patched ? bn->kernel_patched : "-");
	fprintf(f, "Guest: %s.  Boots per configuration: stock %zu, off %zu, on %zu, calib %zu; each block's order drawn at random (the run's plan).\n\n",
		*bn->machine ? bn->machine : "-", boots(bn, 0), boots(bn, 1), boots(bn, 2), boots(bn, 3));
	fprintf(f, "Each cell: min / median / max over the boots (the median: the 50th percentile, type 7; Documentation/tools.md).\n\n");
	fprintf(f, "| measure | stock (n %zu) | patched, tracing off (n %zu) | patched, events on (n %zu) | stock, one event on (calib, n %zu) |\n",
		boots(bn, 0), boots(bn, 1), boots(bn, 2), boots(bn, 3));
	fprintf(f, "|---|---|---|---|---|\n");
	for (r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		fprintf(f, "| %s |", rows[r].title);
		for (c = 0; c < NR_CONFIGS; c++)
			fprintf(f, " %s |", spread(bn, c, rows[r].m, " / "));
		fprintf(f, "\n");
	}
	fprintf(f, "\nHow the boots of one configuration repeat: the coefficient of variation (sample sd / mean, in %%):\n\n");
	fprintf(f, "| measure | stock | off | on | calib |\n|---|---:|---:|---:|---:|\n");
	for (r = 0; r < sizeof(cv_rows) / sizeof(cv_rows[0]); r++) {
		fprintf(f, "| %s |", measure_names[cv_rows[r]]);
		for (c = 0; c < NR_CONFIGS; c++)
			fprintf(f, " %s |", cv_cell(bn, c, cv_rows[r]));
		fprintf(f, "\n");
	}
	fprintf(f, "\nRatios of the geometric means over the boots, with 95%% intervals on the log scale (Welch's t on the logs of the per-boot values), n = boots of each configuration:\n\n");
	fprintf(f, "| measure | off / stock | on / stock | on / off | calib / stock |\n|---|---:|---:|---:|---:|\n");
	for (r = 0; r < NR_RATIO_MEASURES; r++) {
		fprintf(f, "| %s |", measure_names[ratio_measures[r]]);
		for (c = 0; c < NR_CONTRASTS; c++) {
			ci = ratio(bn, contrasts[c][0], contrasts[c][1], ratio_measures[r]);
			fprintf(f, " %s |", ratio_cell(&ci));
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
	for (r = 0; r < NR_RATIO_MEASURES; r++) {
		for (c = 0; c < NR_CONTRASTS; c++) {
			ci = ratio(bn, contrasts[c][0], contrasts[c][1], ratio_measures[r]);
			if (!ci.ok)
				continue;
			given++;
			if (ci.lo <= 1 && ci.hi >= 1)
				continue;
			fprintf(f, "%s %s %s / %s: %s%s", excl++ ? "," : "Intervals that exclude 1:",
				measure_names[ratio_measures[r]], configs[contrasts[c][0]],
				configs[contrasts[c][1]], fx(ci.est, 3), ci.lo > 1 ? " (higher)" : " (lower)");
		}
	}
	if (excl)
		fprintf(f, ", %zu of the %zu intervals (each at 95%%, not corrected for their number).\n", excl, given);
	else if (given)
		fprintf(f, "No interval excludes 1 (%zu intervals): no difference is resolved at this precision.\n", given);
	else
		fprintf(f, "No interval: fewer than 2 boots in a configuration.\n");
	fprintf(f, "\nThe rule fixed before the runs: the series is within 1%% of stock on a measure when the 95%% interval of off / stock lies inside [0.99, 1.01].  Beside each verdict: the boots per configuration that an interval of half-width 1%% would need at this run's spread (2 (1.96 cv / 0.01)^2, cv the two configurations' root mean square coefficient of variation).\n\n");
	for (r = 0; r < 2; r++) {
		int w;

		ci = ratio(bn, 1, 0, ratio_measures[r]);
		w = within_1pct(&ci);
		fprintf(f, "- %s: %s; boots for a 1%% half-width: %s\n", measure_names[ratio_measures[r]],
			w < 0 ? "no interval" :
			w ? "the interval lies inside [0.99, 1.01]" :
			"the interval does not lie inside [0.99, 1.01]",
			fj(boots_for_1pct(bn, 1, 0, ratio_measures[r]), 0));
	}
	fprintf(f, "\nAdded CPU, in ns, with 95%% intervals:\n\n");
	write_added(f, bn, 1, 0, "per check, the series with tracing off");
	write_added(f, bn, 2, 1, "per check, the series' events on (one check event a check)");
	write_added(f, bn, 3, 0, bn->calib_label);
	if (any_nominal(bn))
		fprintf(f, "\nChecks: nominal, two a second per node, in boots without context-switch readings.\n");
	else
		fprintf(f, "\nChecks: counted, kcompactd's voluntary context switches in the idle phase (one a wake-up).\n");
	fprintf(f, "Checks recorded with the series' events on, over both phases: %s (min/median/max).\n",
		spread(bn, 2, TRACED, "/"));
	fprintf(f, "Pages scanned: compact_migrate_scanned + compact_free_scanned over the rounds phase, in which nothing but kcompactd compacts.\n\nPer boot: metrics.csv.\n");
	fclose(f);
}

static void write_summary(const struct bench *bn)
{
	FILE *f = create(bn->dir, "summary.json");
	struct interval ci;
	double *v = xcalloc(bn->nboot + 1, sizeof(double));
	size_t r, n;
	int c, m;

	fprintf(f, "{\n  \"statistics\": \"median: type 7; ratios: geometric means, 95%% log-scale Welch interval\",\n");
	for (c = 0; c < NR_CONFIGS; c++) {
		fprintf(f, "  \"%s\": {\n    \"boots\": %zu", configs[c], boots(bn, c));
		for (m = 0; m < NR_MEASURES; m++) {
			n = values(bn, c, m, v, 1);
			fprintf(f, ",\n    \"%s_median\": %s", measure_names[m], fj(stats_median(v, n), 0));
		}
		fprintf(f, "\n  },\n");
	}
	fprintf(f, "  \"ratios\": {");
	for (r = 0; r < NR_RATIO_MEASURES; r++)
		for (c = 0; c < NR_CONTRASTS; c++) {
			ci = ratio(bn, contrasts[c][0], contrasts[c][1], ratio_measures[r]);
			fprintf(f, "%s\n    \"%s_%s_%s\": { \"ratio\": %s, \"ci95\": [%s, %s], \"n\": [%zu, %zu] }",
				r || c ? "," : "", measure_names[ratio_measures[r]], configs[contrasts[c][0]],
				configs[contrasts[c][1]], fj(ci.est, 4), fj(ci.lo, 4), fj(ci.hi, 4), ci.n1, ci.n2);
		}
	fprintf(f, "\n  },\n  \"added_ns\": {");
	for (r = 0; r < 3; r++) {
		static const struct {
			const char *name;
			int a, b;
		} add[] = {
			{ "per_check_off_stock", 1, 0 },
			{ "per_check_on_off", 2, 1 },
			{ "per_check_calib_stock", 3, 0 },
		};
		ci = added_per_check(bn, add[r].a, add[r].b);
		fprintf(f, "%s\n    \"%s\": { \"diff\": %s, \"ci95\": [%s, %s], \"n\": [%zu, %zu] }",
			r ? "," : "", add[r].name, fj(ci.ok ? ci.est : NAN, 1), fj(ci.lo, 1), fj(ci.hi, 1),
			ci.n1, ci.n2);
	}
	{
		struct interval pages = ratio(bn, 1, 0, PER_100K), check = ratio(bn, 1, 0, PER_CHECK);

		fprintf(f, "\n  },\n  \"checks_counted\": %s,\n  \"within_1pct\": { \"cpu_ns_per_100k_pages\": %d, \"cpu_ns_per_check\": %d }\n}\n",
			any_nominal(bn) ? "false" : "true", within_1pct(&pages), within_1pct(&check));
	}
	free(v);
	fclose(f);
}

int bench_report(const char *dir, const struct options *o)
{
	struct bench bn = { .dir = dir, .o = o };
	struct dirent *de;
	DIR *dh = opendir(dir);
	char *f;

	if (!dh) {
		fprintf(stderr, "lab-report: cannot read %s\n", dir);
		return 1;
	}
	while ((de = readdir(dh)))
		read_boot(&bn, de->d_name);
	closedir(dh);
	if (!bn.nboot) {
		fprintf(stderr, "lab-report: no boot results (<config>-<boot>/cpu-idle) in %s\n", dir);
		return 1;
	}
	qsort(bn.boot, bn.nboot, sizeof(*bn.boot), cmp_boot);
	if (*bn.calib_event)
		snprintf(bn.calib_label, sizeof(bn.calib_label),
			 "per check, the yardstick: stock recording %s", bn.calib_event);
	else
		snprintf(bn.calib_label, sizeof(bn.calib_label),
			 "per check, stock recording the calib event (which one: not in this run's data)");
	f = xasprintf("%s/machine", dir);
	first_line(f, bn.machine, sizeof(bn.machine));
	free(f);
	write_metrics(&bn);
	write_md(&bn);
	write_summary(&bn);
	free(bn.boot);
	return 0;
}
