// SPDX-License-Identifier: GPL-2.0
/*
 * proactive-trace: read a trace.dat recorded with the compaction events
 * (trace-cmd record -e compaction) and extract, per node, the score
 * timeline, the proactive rounds and the deferrals.  Reads the file with
 * libtracecmd; the decision and outcome names come from the events' own
 * print formats, so they are the kernel's, not a copy of its enums.
 *
 * The series has two events: mm_compaction_proactive_check (every check;
 * decision=start begins a round) and mm_compaction_proactive_end.  A round
 * with score_after >= score_before deferred the node's next check.
 *
 * Numbers are read by field name through the recording's own formats
 * (tep_find_field()), and symbols by "key=" in the printed line: nothing
 * depends on a field's offset or on the order the fields are printed in
 * (v3 of the series moved _end's outcome before the scanned counts).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <trace-cmd.h>

#include "lab-opt.h"

#define MAX_NODES 64

static const char * const decision_names[] = { "below", "kswapd", "start" };
static const char * const outcome_names[] = { "success", "partial", "kswapd", "aborted" };
#define NR_DECISIONS 3
#define NR_OUTCOMES 4

struct node_stats {
	unsigned long checks[NR_DECISIONS];
	unsigned long ends[NR_OUTCOMES];
	unsigned long unknown;		/* decisions or outcomes not named above */
	unsigned long defers;
	unsigned long long migrate_scanned, free_scanned;
	unsigned long sysctl_wakeups;	/* mm_compaction_wakeup_kcompactd order=-1 */
	unsigned long ends_unmatched;	/* end without its start in the recording */
	unsigned long zone_begins, zone_ends;	/* mm_compaction_begin/end */
	/* the round in progress */
	int open;
	unsigned long long begin_ts;
	int triggered;
	/* pages its kcompactd (pid, from its checks) migrated in the round */
	int pid;
	unsigned long long round_migrated;
	/* its CPU time in the round, from sched_switch: since when it runs */
	unsigned long long round_cpu, running_since;
	/* a sysctl write woke the node since its last check */
	int woken_by_sysctl;
	/* the last deferral, until the node's next check */
	int defer_pending;
	unsigned long long defer_ts;
	long long defer_score;
};

#define MAX_MARKERS 64

struct marker {
	unsigned long long ts;
	char text[64];
};

struct ctx {
	struct tep_handle *tep;
	struct trace_seq seq;
	struct marker markers[MAX_MARKERS];
	int nr_markers;
	unsigned long sleeps;		/* mm_compaction_kcompactd_sleep */
	unsigned long long first_ts, last_ts;
	int have_first;
	/* the recording has mm_compaction_migratepages: rounds know migrated */
	int have_migrated;
	/* pages migrated by any kcompactd, in rounds or not */
	unsigned long long kcompactd_migrated;
	/* the recording has sched_switch: rounds know their CPU time */
	int have_sched;
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
		"compaction events (mm_compaction_proactive_check and _end).\n"
		"  -s, --scores FILE  per-check score timeline as CSV\n"
		"                     (time_s,nid,score,low,high,decision)\n"
		"  -r, --rounds FILE  proactive rounds as CSV (nid,begin_s,end_s,\n"
		"                     duration_ms,score_before,score_after,\n"
		"                     migrate_scanned,free_scanned,outcome,triggered,\n"
		"                     deferred,migrated,cpu_ms); triggered: a write\n"
		"                     of the sysctl woke the node for the round's\n"
		"                     check; migrated: pages its kcompactd migrated\n"
		"                     in it (mm_compaction_migratepages); cpu_ms:\n"
		"                     its kcompactd's CPU time in it (sched_switch);\n"
		"                     each empty without its events\n"
		"  -d, --defers FILE  deferrals (rounds with score_after >=\n"
		"                     score_before) as CSV (time_s,nid,score,\n"
		"                     next_check_s: seconds to the node's next check,\n"
		"                     empty if the recording ends first)\n"
		"  -w, --wakes FILE   kcompactd wake-ups that end a deferral early,\n"
		"                     as CSV (time_s,nid,order,by): by=kswapd, its\n"
		"                     request run (mm_compaction_kcompactd_wake),\n"
		"                     by=sysctl, a write of the proactiveness\n"
		"                     (mm_compaction_wakeup_kcompactd order=-1)\n"
		"  -j, --json         the summary as one JSON object (the same\n"
		"                     names; markers, open_rounds and nodes as\n"
		"                     arrays of objects)\n"
		"  -q, --quiet        no summary on stdout\n"
		"  -h, --help         this text\n"
		"FILE - is standard output.  The summary has one 'name value' line\n"
		"per total, a 'node N ...' line per node, an 'open_round NID\n"
		"BEGIN_S MIGRATED' line per round still open when the recording\n"
		"ends (last_event_s), kcompactd_migrated (pages any kcompactd\n"
		"migrated, if the recording has the batches), and a 'marker TIME TEXT' line per\n"
		"trace_marker write (spaces in TEXT become '_').\n"
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

/*
 * The index in @names of the symbol that the event prints for "key=", as
 * its TP_printk() decodes it; -1 if it prints one not in @names.
 */
static int symbol(struct ctx *c, struct tep_record *rec, const char *key,
		  const char * const *names, int n)
{
	const char *p, *v;
	size_t len;
	int i;

	trace_seq_reset(&c->seq);
	tep_print_event(c->tep, &c->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&c->seq);
	p = strstr(c->seq.buffer, key);
	if (!p)
		return -1;
	v = p + strlen(key);
	len = strcspn(v, " \n");
	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(v, names[i], len))
			return i;
	return -1;
}

static double secs(struct ctx *c, unsigned long long ts)
{
	return (ts - c->first_ts) / 1e9;
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

/*
 * A batch of pages migrated (mm_compaction_migratepages, in the task that
 * compacts, without a nid): counted into the round its kcompactd has open
 */
static void on_migrated(struct ctx *c, struct tep_event *ev, struct tep_record *rec)
{
	int pid = tep_data_pid(c->tep, rec), nid;
	const char *comm = tep_data_comm_from_pid(c->tep, pid);

	c->have_migrated = 1;
	if (comm && !strncmp(comm, "kcompactd", 9))
		c->kcompactd_migrated += field(ev, rec, "nr_migrated");
	for (nid = 0; nid <= c->max_nid; nid++)
		if (c->node[nid].open && c->node[nid].pid == pid)
			c->node[nid].round_migrated += field(ev, rec, "nr_migrated");
}

/*
 * A context switch: the CPU time of a kcompactd in its round is the time
 * between its switches in and out (the round's check and end events are
 * its own, so it runs at both)
 */
static void on_switch(struct ctx *c, struct tep_event *ev, struct tep_record *rec)
{
	long long prev = field(ev, rec, "prev_pid"), next = field(ev, rec, "next_pid");
	int nid;

	c->have_sched = 1;
	for (nid = 0; nid <= c->max_nid; nid++) {
		struct node_stats *n = &c->node[nid];

		if (!n->open || !n->pid)
			continue;
		if (prev == n->pid && n->running_since) {
			n->round_cpu += rec->ts - n->running_since;
			n->running_since = 0;
		} else if (next == n->pid) {
			n->running_since = rec->ts;
		}
	}
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

/* The node's deferral, once its next check (or the recording's end) is known */
static void flush_defer(struct ctx *c, struct node_stats *n, int nid,
			const unsigned long long *next_ts)
{
	if (!n->defer_pending)
		return;
	n->defer_pending = 0;
	if (!c->defers)
		return;
	fprintf(c->defers, "%.6f,%d,%lld,", secs(c, n->defer_ts), nid, n->defer_score);
	if (next_ts)
		fprintf(c->defers, "%.3f", (*next_ts - n->defer_ts) / 1e9);
	fprintf(c->defers, "\n");
}

static void on_check(struct ctx *c, struct node_stats *n, long long nid,
		     struct tep_event *ev, struct tep_record *rec)
{
	int d = symbol(c, rec, "decision=", decision_names, NR_DECISIONS);

	flush_defer(c, n, nid, &rec->ts);
	if (d < 0) {
		n->unknown++;
		return;
	}
	n->checks[d]++;
	n->pid = tep_data_pid(c->tep, rec);
	if (c->scores)
		fprintf(c->scores, "%.6f,%lld,%lld,%lld,%lld,%s\n", secs(c, rec->ts),
			nid, field(ev, rec, "score"), field(ev, rec, "low"),
			field(ev, rec, "high"), decision_names[d]);
	if (!strcmp(decision_names[d], "start")) {
		n->open = 1;
		n->begin_ts = rec->ts;
		n->triggered = n->woken_by_sysctl;
		n->round_migrated = 0;
		/* the check event is kcompactd's own: it runs */
		n->round_cpu = 0;
		n->running_since = rec->ts;
	}
	n->woken_by_sysctl = 0;
}

static void on_end(struct ctx *c, struct node_stats *n, long long nid,
		   struct tep_event *ev, struct tep_record *rec)
{
	int o = symbol(c, rec, "outcome=", outcome_names, NR_OUTCOMES);
	long long before = field(ev, rec, "score_before");
	long long after = field(ev, rec, "score_after");
	long long ms = field(ev, rec, "migrate_scanned");
	long long fs = field(ev, rec, "free_scanned");
	int deferred = after >= before;

	if (o < 0)
		n->unknown++;
	else
		n->ends[o]++;
	if (!n->open)
		n->ends_unmatched++;
	n->migrate_scanned += ms;
	n->free_scanned += fs;
	if (deferred) {
		n->defers++;
		n->defer_pending = 1;
		n->defer_ts = rec->ts;
		n->defer_score = after;
	}
	if (n->open && n->running_since)
		n->round_cpu += rec->ts - n->running_since;
	if (c->rounds) {
		if (n->open)
			fprintf(c->rounds, "%lld,%.6f,%.6f,%.3f,", nid,
				secs(c, n->begin_ts), secs(c, rec->ts),
				(rec->ts - n->begin_ts) / 1e6);
		else	/* the round began before the recording */
			fprintf(c->rounds, "%lld,,%.6f,,", nid, secs(c, rec->ts));
		fprintf(c->rounds, "%lld,%lld,%lld,%lld,%s,%d,%d,", before, after,
			ms, fs, o < 0 ? "unknown" : outcome_names[o],
			n->open ? n->triggered : -1, deferred);
		if (c->have_migrated && n->open)
			fprintf(c->rounds, "%llu", n->round_migrated);
		fprintf(c->rounds, ",");
		if (c->have_sched && n->open)
			fprintf(c->rounds, "%.3f", n->round_cpu / 1e6);
		fprintf(c->rounds, "\n");
	}
	n->open = 0;
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
	c->last_ts = rec->ts;
	if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "print")) {
		add_marker(c, ev, rec);
		return 0;
	}
	if (!strcmp(ev->system, "sched") && !strcmp(ev->name, "sched_switch")) {
		on_switch(c, ev, rec);
		return 0;
	}
	if (strcmp(ev->system, "compaction"))
		return 0;
	name = ev->name;
	if (strncmp(name, "mm_compaction_", 14))
		return 0;
	name += 14;

	if (!strcmp(name, "kcompactd_sleep")) {
		c->sleeps++;
		return 0;
	}
	if (!strcmp(name, "migratepages")) {
		on_migrated(c, ev, rec);
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
	nid = field(ev, rec, "nid");
	if (!strcmp(name, "kcompactd_wake")) {
		/* compaction requested by kswapd: ends a proactive deferral */
		if (c->wakes)
			fprintf(c->wakes, "%.6f,%lld,%lld,kswapd\n", secs(c, rec->ts), nid,
				field(ev, rec, "order"));
		return 0;
	}
	if (!strcmp(name, "wakeup_kcompactd")) {
		/*
		 * order -1: a write of vm.compaction_proactiveness, which
		 * makes kcompactd check at once, ending a deferral too
		 */
		n = field(ev, rec, "order") == -1 ? node_of(c, nid) : NULL;
		if (n) {
			n->sysctl_wakeups++;
			n->woken_by_sysctl = 1;
			if (c->wakes)
				fprintf(c->wakes, "%.6f,%lld,-1,sysctl\n", secs(c, rec->ts), nid);
		}
		return 0;
	}
	if (!strcmp(name, "proactive_check") && (n = node_of(c, nid)))
		on_check(c, n, nid, ev, rec);
	else if (!strcmp(name, "proactive_end") && (n = node_of(c, nid)))
		on_end(c, n, nid, ev, rec);
	return 0;
}

static unsigned long sum(const unsigned long *v, int n)
{
	unsigned long s = 0;

	while (n--)
		s += v[n];
	return s;
}

/* The totals over all nodes */
static void totals(struct ctx *c, struct node_stats *t, unsigned long *open)
{
	int nid, i;

	memset(t, 0, sizeof(*t));
	*open = 0;
	for (nid = 0; nid <= c->max_nid; nid++) {
		struct node_stats *n = &c->node[nid];

		for (i = 0; i < NR_DECISIONS; i++)
			t->checks[i] += n->checks[i];
		for (i = 0; i < NR_OUTCOMES; i++)
			t->ends[i] += n->ends[i];
		t->unknown += n->unknown;
		t->defers += n->defers;
		t->migrate_scanned += n->migrate_scanned;
		t->free_scanned += n->free_scanned;
		t->sysctl_wakeups += n->sysctl_wakeups;
		t->ends_unmatched += n->ends_unmatched;
		t->zone_begins += n->zone_begins;
		t->zone_ends += n->zone_ends;
		*open += n->open;
	}
}

static void print_summary(struct ctx *c)
{
	struct node_stats t;
	unsigned long open;
	int nid, i;

	totals(c, &t, &open);
	printf("checks %lu\n", sum(t.checks, NR_DECISIONS));
	for (i = 0; i < NR_DECISIONS; i++)
		printf("checks_%s %lu\n", decision_names[i], t.checks[i]);
	printf("rounds %lu\n", t.checks[2]);
	printf("ends %lu\n", sum(t.ends, NR_OUTCOMES));
	for (i = 0; i < NR_OUTCOMES; i++)
		printf("ends_%s %lu\n", outcome_names[i], t.ends[i]);
	printf("defers %lu\n", t.defers);
	printf("migrate_scanned %llu\nfree_scanned %llu\n", t.migrate_scanned,
	       t.free_scanned);
	printf("rounds_open_at_end %lu\nends_without_start %lu\n", open,
	       t.ends_unmatched);
	printf("unknown_symbols %lu\n", t.unknown);
	printf("sysctl_wakeups %lu\n", t.sysctl_wakeups);
	printf("zone_compactions_begun %lu\nzone_compactions_ended %lu\n",
	       t.zone_begins, t.zone_ends);
	printf("kcompactd_sleeps %lu\n", c->sleeps);
	for (i = 0; i < c->nr_markers; i++)
		printf("marker %.6f %s\n", secs(c, c->markers[i].ts), c->markers[i].text);
	if (c->have_migrated)
		printf("kcompactd_migrated %llu\n", c->kcompactd_migrated);
	printf("last_event_s %.6f\n", c->have_first ? secs(c, c->last_ts) : 0);
	for (nid = 0; nid <= c->max_nid; nid++) {
		struct node_stats *n = &c->node[nid];

		if (n->open && c->have_migrated)
			printf("open_round %d %.6f %llu\n", nid, secs(c, n->begin_ts),
			       n->round_migrated);
		else if (n->open)
			printf("open_round %d %.6f -\n", nid, secs(c, n->begin_ts));
		printf("node %d checks %lu rounds %lu ends %lu success %lu defers %lu\n",
		       nid, sum(n->checks, NR_DECISIONS), n->checks[2],
		       sum(n->ends, NR_OUTCOMES), n->ends[0], n->defers);
	}
}

/* A marker's text as a JSON string (add_marker kept it printable but for quotes) */
static void json_text(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

/*
 * The same summary as one JSON object (--json): the totals by the names
 * of the text form; "markers", "open_rounds" and "nodes" as arrays of
 * objects; kcompactd_migrated and an open round's migrated null without
 * the migratepages events.
 */
static void print_json(struct ctx *c)
{
	struct node_stats t;
	unsigned long open;
	int nid, i;
	const char *sep = "";

	totals(c, &t, &open);
	printf("{\n  \"checks\": %lu,\n", sum(t.checks, NR_DECISIONS));
	for (i = 0; i < NR_DECISIONS; i++)
		printf("  \"checks_%s\": %lu,\n", decision_names[i], t.checks[i]);
	printf("  \"rounds\": %lu,\n  \"ends\": %lu,\n", t.checks[2], sum(t.ends, NR_OUTCOMES));
	for (i = 0; i < NR_OUTCOMES; i++)
		printf("  \"ends_%s\": %lu,\n", outcome_names[i], t.ends[i]);
	printf("  \"defers\": %lu,\n  \"migrate_scanned\": %llu,\n  \"free_scanned\": %llu,\n",
	       t.defers, t.migrate_scanned, t.free_scanned);
	printf("  \"rounds_open_at_end\": %lu,\n  \"ends_without_start\": %lu,\n",
	       open, t.ends_unmatched);
	printf("  \"unknown_symbols\": %lu,\n  \"sysctl_wakeups\": %lu,\n",
	       t.unknown, t.sysctl_wakeups);
	printf("  \"zone_compactions_begun\": %lu,\n  \"zone_compactions_ended\": %lu,\n",
	       t.zone_begins, t.zone_ends);
	printf("  \"kcompactd_sleeps\": %lu,\n", c->sleeps);
	if (c->have_migrated)
		printf("  \"kcompactd_migrated\": %llu,\n", c->kcompactd_migrated);
	else
		printf("  \"kcompactd_migrated\": null,\n");
	printf("  \"last_event_s\": %.6f,\n", c->have_first ? secs(c, c->last_ts) : 0);
	printf("  \"markers\": [");
	for (i = 0; i < c->nr_markers; i++) {
		printf("%s\n    { \"time_s\": %.6f, \"text\": ", sep, secs(c, c->markers[i].ts));
		json_text(c->markers[i].text);
		printf(" }");
		sep = ",";
	}
	printf("%s],\n  \"open_rounds\": [", *sep ? "\n  " : "");
	sep = "";
	for (nid = 0; nid <= c->max_nid; nid++) {
		struct node_stats *n = &c->node[nid];

		if (!n->open)
			continue;
		printf("%s\n    { \"nid\": %d, \"begin_s\": %.6f, \"migrated\": ", sep, nid,
		       secs(c, n->begin_ts));
		if (c->have_migrated)
			printf("%llu }", n->round_migrated);
		else
			printf("null }");
		sep = ",";
	}
	printf("%s],\n  \"nodes\": [", *sep ? "\n  " : "");
	sep = "";
	for (nid = 0; nid <= c->max_nid; nid++) {
		struct node_stats *n = &c->node[nid];

		printf("%s\n    { \"nid\": %d, \"checks\": %lu, \"rounds\": %lu, \"ends\": %lu, "
		       "\"success\": %lu, \"defers\": %lu }", sep, nid,
		       sum(n->checks, NR_DECISIONS), n->checks[2],
		       sum(n->ends, NR_OUTCOMES), n->ends[0], n->defers);
		sep = ",";
	}
	printf("%s]\n}\n", *sep ? "\n  " : "");
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
		{ "json", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ctx *c = calloc(1, sizeof(*c));
	struct tracecmd_input *h;
	int opt, quiet = 0, json = 0, nid;

	if (!c)
		return 1;
	while ((opt = getopt_long(argc, argv, "s:r:d:w:jqh", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			c->scores = open_out(optarg);
			fprintf(c->scores, "time_s,nid,score,low,high,decision\n");
			break;
		case 'r':
			c->rounds = open_out(optarg);
			fprintf(c->rounds, "nid,begin_s,end_s,duration_ms,score_before,"
				"score_after,migrate_scanned,free_scanned,outcome,triggered,"
				"deferred,migrated,cpu_ms\n");
			break;
		case 'd':
			c->defers = open_out(optarg);
			fprintf(c->defers, "time_s,nid,score,next_check_s\n");
			break;
		case 'w':
			c->wakes = open_out(optarg);
			fprintf(c->wakes, "time_s,nid,order,by\n");
			break;
		case 'j':
			json = 1;
			break;
		case 'q':
			quiet = 1;
			break;
		default:
			help_or_bad_opt(opt, usage);
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
	trace_seq_init(&c->seq);
	if (tracecmd_iterate_events(h, NULL, 0, on_record, c) < 0) {
		fprintf(stderr, "proactive-trace: error reading events of %s\n", argv[optind]);
		return 1;
	}
	for (nid = 0; nid <= c->max_nid; nid++)
		flush_defer(c, &c->node[nid], nid, NULL);
	if (!quiet && json)
		print_json(c);
	else if (!quiet)
		print_summary(c);
	if (c->unknown_nid)
		fprintf(stderr, "proactive-trace: %lu events with a bad nid\n", c->unknown_nid);
	trace_seq_destroy(&c->seq);
	tracecmd_close(h);
	return 0;
}
