/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab report's statistics: one percentile definition, and one
 * interval method for each kind of statistic the reports give.
 *
 * Percentile: linear interpolation between order statistics, Hyndman and
 * Fan's type 7 (R's and NumPy's default): for the sorted x[0..n-1] and
 * p in 0..100, h = (n - 1) p / 100, and the percentile is
 * x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h]).  The median
 * is that percentile at 50 (for odd n the middle value, for even n the
 * mean of the two middle ones).
 *
 * Intervals (all two-sided, at the level given, the reports use 95%):
 *  - a percentile of one sample (allocation latencies): distribution-free,
 *    from order statistics, [x(l), x(u)] (1-based) with B ~ Binomial(n, p):
 *    l the largest with P(B <= l - 1) <= a/2, u the smallest with
 *    P(B >= u) <= a/2.  A side is open (unbounded) when the sample is too
 *    small for it (e.g. the upper side of a p99 under 300 samples);
 *  - the ratio of one percentile of two independent samples (the demo's
 *    p95 ratio of two modes): the quotient of the two percentile
 *    intervals, each at 1 - a/2 (Bonferroni: at least the level);
 *  - the ratio of two configurations' per-boot measures (bench: patched /
 *    stock): on the log scale, exp of the difference of the mean logs,
 *    Welch's t with the Welch-Satterthwaite degrees of freedom; the point
 *    estimate is the ratio of the geometric means;
 *  - a difference of means in the measure's own unit: Welch's t.
 * The t quantiles are computed (the regularized incomplete beta function),
 * not read from a table.
 */
#ifndef LAB_REPORT_STATS_H
#define LAB_REPORT_STATS_H

#include <stddef.h>

struct interval {
	double est;		/* the point estimate */
	double lo, hi;		/* bounds: NAN on an open side */
	size_t n1, n2;		/* the samples' sizes (n2: 0 for one sample) */
	double df;		/* t intervals: degrees of freedom */
	int ok;			/* 0: no estimate (too few values) */
};

void stats_sort(double *v, size_t n);
/* Of sorted values: the type-7 percentile, p in 0..100; NAN if n == 0 */
double stats_percentile(const double *sorted, size_t n, double p);
double stats_median(const double *sorted, size_t n);
double stats_mean(const double *v, size_t n);
/* The sample variance (n - 1); NAN if n < 2 */
double stats_var(const double *v, size_t n);
/* Student's t: the CDF, and the quantile (0 < p < 1) */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);
/* P(B <= k) for B ~ Binomial(n, p) */
double stats_binom_cdf(long k, long n, double p);

/* The percentile's order-statistic interval, of sorted values */
struct interval stats_percentile_ci(const double *sorted, size_t n, double p, double level);
/* The ratio of percentile p of sorted a over that of sorted b */
struct interval stats_percentile_ratio_ci(const double *a, size_t na, const double *b,
					  size_t nb, double p, double level);
/* mean(a) / mean(b) on the log scale (values > 0), Welch */
struct interval stats_log_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
				   double level);
/* mean(a) - mean(b), Welch */
struct interval stats_welch_diff_ci(const double *a, size_t na, const double *b, size_t nb,
				    double level);

/* Checks of the module on known values: prints "ok: ..." lines; failures */
int stats_selftest(void);

#endif
