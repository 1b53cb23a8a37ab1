// SPDX-License-Identifier: GPL-2.0
/*
 * proactive-trace: read a trace.dat recorded with the mm_compaction_proactive_*
 * events (trace-cmd record -e compaction) and extract, per node, the score
 * timeline, the proactive rounds and the defers.  Reads the file with
 * libtracecmd; no parsing of `trace-cmd report` text.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

#define MAX_NODES 64

enum { CHECK_START, CHECK_BELOW, CHECK_KSWAPD, NR_DECISIONS };
enum { END_SUCCESS, END_PARTIAL, END_CONTENDED, END_KSWAPD, NR_OUTCOMES };

static const char * const decision_names[] = { "start", "below_threshold", "kswapd" };
static const char * const outcome_names[] = { "success", "partial", "contended", "kswapd" };

struct node_stats {
	unsigned long checks[NR_DECISIONS];
	unsigned long begins, triggered_begins;
	unsigned long ends[NR_OUTCOMES];
	unsigned long defers;
	unsigned long zone_begins, zone_ends;	/* mm_compaction_begin/end */
	/* the round in progress */
	int open;
	unsigned long long begin_ts;
	long long begin_score, triggered;
};

#define MAX_MARKERS 64

struct marker {
	unsigned long long ts;
	char text[64];
};

struct ctx {
	struct tep_handle *tep;
	struct marker markers[MAX_MARKERS];
	int nr_markers;
	unsigned long sleeps;		/* mm_compaction_kcompactd_sleep */
	unsigned long long first_ts;
	int have_first;
	FILE *scores, *rounds, *defers, *wakes;
	struct node_stats node[MAX_NODES];
	int max_nid;
	unsigned long unknown_nid;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: proactive-trace [options] TRACE.DAT\n"
		"Summarise proactive compaction from a trace-cmd recording of the\n"
		"compaction events (mm_compaction_proactive_*).\n"
		"  -s, --scores FILE  per-check score timeline as CSV\n"
		"                     (time_s,nid,score,low,high,decision)\n"
		"  -r, --rounds FILE  proactive rounds as CSV (nid,begin_s,end_s,\n"
		"                     duration_ms,score_before,score_after,\n"
		"                     migrate_scanned,free_scanned,outcome,triggered)\n"
		"  -d, --defers FILE  defers as CSV (time_s,nid,score,defer_ms)\n"
		"  -w, --wakes FILE   kcompactd wake-ups for kswapd, which end a\n"
		"                     defer early, as CSV (time_s,nid,order)\n"
		"  -q, --quiet        no summary on stdout\n"
		"  -h, --help         this text\n"
		"FILE - is standard output.  The summary has one 'name value' line\n"
		"per total, a 'node N ...' line per node and a 'marker TIME TEXT'\n"
		"line per trace_marker write (spaces in TEXT become '_').\n"
		"Times are seconds from the first event of the recording.\n");
}

/* A numeric field, sign-extended by the field's size when it is signed. */
static long long field(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long v;

	if (!f || tep_read_number_field(f, rec->data, &v))
		return -1;
	if (f->flags & TEP_FIELD_IS_SIGNED) {
		switch (f->size) {
		case 1: return (signed char)v;
		case 2: return (short)v;
		case 4: return (int)v;
		}
	}
	return (long long)v;
}

static double secs(struct ctx *c, unsigned long long ts)
{
	return (ts - c->first_ts) / 1e9;
}

static const char *name_of(const char * const *names, int n, long long v)
{
	return v >= 0 && v < n ? names[v] : "unknown";
}

static struct node_stats *node_of(struct ctx *c, long long nid)
{
	if (nid < 0 || nid >= MAX_NODES) {
		c->unknown_nid++;
		return NULL;
	}
	if (nid > c->max_nid)
		c->max_nid = nid;
	return &c->node[nid];
}

/* A line written to trace_marker, e.g. by a test just before a sysctl write */
static void add_marker(struct ctx *c, struct tep_event *ev, struct tep_record *rec)
{
	struct tep_format_field *f = tep_find_field(ev, "buf");
	struct marker *m;
	const char *buf;
	int len, i;

	/* buf is a char buf[] at the end of the event: it runs to the end */
	if (c->nr_markers == MAX_MARKERS || !f || f->offset >= rec->size)
		return;
	buf = (const char *)rec->data + f->offset;
	len = rec->size - f->offset;
	m = &c->markers[c->nr_markers++];
	m->ts = rec->ts;
	for (i = 0; i < len && i < (int)sizeof(m->text) - 1 && buf[i] && buf[i] != '\n'; i++)
		m->text[i] = buf[i] == ' ' ? '_' : buf[i];
	m->text[i] = '\0';
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct ctx *c = data;
	struct tep_event *ev = tep_find_event_by_record(c->tep, rec);
	struct node_stats *n;
	long long nid;
	const char *name;

	(void)h;
	(void)cpu;
	if (!ev)
		return 0;
	if (!c->have_first) {
		c->first_ts = rec->ts;
		c->have_first = 1;
	}
	if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "print")) {
		add_marker(c, ev, rec);
		return 0;
	}
	if (strcmp(ev->system, "compaction"))
		return 0;
	name = ev->name;
	if (strncmp(name, "mm_compaction_", 14))
		return 0;
	name += 14;
	nid = field(ev, rec, "nid");

	if (!strcmp(name, "kcompactd_sleep")) {
		c->sleeps++;
		return 0;
	}
	if (!strcmp(name, "kcompactd_wake")) {
		/* compaction requested by kswapd: ends a proactive defer */
		if (c->wakes)
			fprintf(c->wakes, "%.6f,%lld,%lld\n", secs(c, rec->ts), nid,
				field(ev, rec, "order"));
		return 0;
	}
	if (!strcmp(name, "begin") || !strcmp(name, "end")) {
		/* per-zone compaction: no nid field; count on node 0 totals */
		n = &c->node[0];
		if (name[0] == 'b')
			n->zone_begins++;
		else
			n->zone_ends++;
		return 0;
	}
	if (strncmp(name, "proactive_", 10))
		return 0;
	name += 10;
	n = node_of(c, nid);
	if (!n)
		return 0;

	if (!strcmp(name, "check")) {
		long long d = field(ev, rec, "decision");

		if (d >= 0 && d < NR_DECISIONS)
			n->checks[d]++;
		if (c->scores)
			fprintf(c->scores, "%.6f,%lld,%lld,%lld,%lld,%s\n", secs(c, rec->ts),
				nid, field(ev, rec, "score"), field(ev, rec, "low"),
				field(ev, rec, "high"), name_of(decision_names, NR_DECISIONS, d));
	} else if (!strcmp(name, "begin")) {
		n->begins++;
		n->open = 1;
		n->begin_ts = rec->ts;
		n->begin_score = field(ev, rec, "score");
		n->triggered = field(ev, rec, "triggered");
		if (n->triggered > 0)
			n->triggered_begins++;
	} else if (!strcmp(name, "end")) {
		long long o = field(ev, rec, "outcome");

		if (o >= 0 && o < NR_OUTCOMES)
			n->ends[o]++;
		if (c->rounds) {
			if (n->open)
				fprintf(c->rounds, "%lld,%.6f,%.6f,%.3f,", nid,
					secs(c, n->begin_ts), secs(c, rec->ts),
					(rec->ts - n->begin_ts) / 1e6);
			else	/* the round began before the recording */
				fprintf(c->rounds, "%lld,,%.6f,,", nid, secs(c, rec->ts));
			fprintf(c->rounds, "%lld,%lld,%lld,%lld,%s,%lld\n",
				field(ev, rec, "score_before"), field(ev, rec, "score_after"),
				field(ev, rec, "migrate_scanned"), field(ev, rec, "free_scanned"),
				name_of(outcome_names, NR_OUTCOMES, o),
				n->open ? n->triggered : -1);
		}
		n->open = 0;
	} else if (!strcmp(name, "defer")) {
		n->defers++;
		if (c->defers)
			fprintf(c->defers, "%.6f,%lld,%lld,%lld\n", secs(c, rec->ts), nid,
				field(ev, rec, "score"), field(ev, rec, "defer_ms"));
	}
	return 0;
}

static void print_summary(struct ctx *c)
{
	struct node_stats t = { 0 };
	int nid, i;

	for (nid = 0; nid <= c->max_nid; nid++) {
		struct node_stats *n = &c->node[nid];

		for (i = 0; i < NR_DECISIONS; i++)
			t.checks[i] += n->checks[i];
		for (i = 0; i < NR_OUTCOMES; i++)
			t.ends[i] += n->ends[i];
		t.begins += n->begins;
		t.triggered_begins += n->triggered_begins;
		t.defers += n->defers;
		t.zone_begins += n->zone_begins;
		t.zone_ends += n->zone_ends;
	}
	printf("checks %lu\n", t.checks[0] + t.checks[1] + t.checks[2]);
	for (i = 0; i < NR_DECISIONS; i++)
		printf("checks_%s %lu\n", decision_names[i], t.checks[i]);
	printf("begins %lu\nbegins_triggered %lu\n", t.begins, t.triggered_begins);
	printf("ends %lu\n", t.ends[0] + t.ends[1] + t.ends[2] + t.ends[3]);
	for (i = 0; i < NR_OUTCOMES; i++)
		printf("ends_%s %lu\n", outcome_names[i], t.ends[i]);
	printf("defers %lu\n", t.defers);
	printf("zone_compactions_begun %lu\nzone_compactions_ended %lu\n",
	       t.zone_begins, t.zone_ends);
	printf("kcompactd_sleeps %lu\n", c->sleeps);
	for (i = 0; i < c->nr_markers; i++)
		printf("marker %.6f %s\n", secs(c, c->markers[i].ts), c->markers[i].text);
	for (nid = 0; nid <= c->max_nid; nid++) {
		struct node_stats *n = &c->node[nid];

		printf("node %d checks %lu begins %lu ends %lu success %lu defers %lu\n",
		       nid, n->checks[0] + n->checks[1] + n->checks[2], n->begins,
		       n->ends[0] + n->ends[1] + n->ends[2] + n->ends[3],
		       n->ends[END_SUCCESS], n->defers);
	}
}

static FILE *open_out(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scores", required_argument, NULL, 's' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "defers", required_argument, NULL, 'd' },
		{ "wakes", required_argument, NULL, 'w' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ctx *c = calloc(1, sizeof(*c));
	struct tracecmd_input *h;
	int opt, quiet = 0;

	if (!c)
		return 1;
	while ((opt = getopt_long(argc, argv, "s:r:d:w:qh", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			c->scores = open_out(optarg);
			fprintf(c->scores, "time_s,nid,score,low,high,decision\n");
			break;
		case 'r':
			c->rounds = open_out(optarg);
			fprintf(c->rounds, "nid,begin_s,end_s,duration_ms,score_before,"
				"score_after,migrate_scanned,free_scanned,outcome,triggered\n");
			break;
		case 'd':
			c->defers = open_out(optarg);
			fprintf(c->defers, "time_s,nid,score,defer_ms\n");
			break;
		case 'w':
			c->wakes = open_out(optarg);
			fprintf(c->wakes, "time_s,nid,order\n");
			break;
		case 'q':
			quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(argv[optind], 0);
	if (!h) {
		fprintf(stderr, "proactive-trace: cannot read %s as a trace.dat\n", argv[optind]);
		return 1;
	}
	c->tep = tracecmd_get_tep(h);
	if (tracecmd_iterate_events(h, NULL, 0, on_record, c) < 0) {
		fprintf(stderr, "proactive-trace: error reading events of %s\n", argv[optind]);
		return 1;
	}
	if (!quiet)
		print_summary(c);
	if (c->unknown_nid)
		fprintf(stderr, "proactive-trace: %lu events with a bad nid\n", c->unknown_nid);
	tracecmd_close(h);
	return 0;
}
