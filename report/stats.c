// SPDX-License-Identifier: GPL-2.0
/*
 * The lab report's statistics (definitions: stats.h, and
 * Documentation/tools.md, "The report's statistics").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void stats_sort(double *v, size_t n)
{
	if (n)
		qsort(v, n, sizeof(*v), cmp_double);
}

double stats_percentile(const double *x, size_t n, double p)
{
	double h, f;
	size_t i;

	if (!n)
		return NAN;
	h = (n - 1) * p / 100;
	i = (size_t)floor(h);
	if (i >= n - 1)
		return x[n - 1];
	f = h - i;
	return x[i] + f * (x[i + 1] - x[i]);
}

double stats_median(const double *x, size_t n)
{
	return stats_percentile(x, n, 50);
}

double stats_mean(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

double stats_var(const double *v, size_t n)
{
	double m = stats_mean(v, n), s = 0;
	size_t i;

	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++)
		s += (v[i] - m) * (v[i] - m);
	return s / (n - 1);
}

/* The continued fraction of the incomplete beta function (Lentz) */
static double betacf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2 * m, aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2)), del;

		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + aa / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b) */
static double betai(double a, double b, double x)
{
	double bt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x));
	if (x < (a + 1) / (a + b + 2))
		return bt * betacf(a, b, x) / a;
	return 1 - bt * betacf(b, a, 1 - x) / b;
}

double stats_t_cdf(double t, double df)
{
	double tail = 0.5 * betai(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;
	int i;

	if (p <= 0 || p >= 1 || !(df > 0))
		return NAN;
	for (i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;

		if (stats_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_binom_cdf(long k, long n, double p)
{
	double s = 0;
	long i;

	if (k < 0)
		return 0;
	if (k >= n)
		return 1;
	for (i = 0; i <= k; i++)
		s += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) +
			 (i ? i * log(p) : 0) + (n - i ? (n - i) * log1p(-p) : 0));
	return s > 1 ? 1 : s;
}

/*
 * P(B <= k) for k = 0..n-1, each summed in stats_binom_cdf's order (so
 * equal to it bit for bit), in one pass: a pooled sample of thousands
 * would take a pass per k.  NULL if out of memory.
 */
static double *binom_cdfs(long n, double p)
{
	double *c = malloc(n * sizeof(*c)), s = 0;
	long i;

	if (!c)
		return NULL;
	for (i = 0; i < n; i++) {
		s += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) +
			 (i ? i * log(p) : 0) + (n - i ? (n - i) * log1p(-p) : 0));
		c[i] = s > 1 ? 1 : s;
	}
	return c;
}

/* P(B <= k) from the table, as stats_binom_cdf gives it */
static double cdf_at(const double *c, long k, long n, double p)
{
	if (!c)
		return stats_binom_cdf(k, n, p);
	return k < 0 ? 0 : k >= n ? 1 : c[k];
}

struct interval stats_percentile_ci(const double *x, size_t n, double p, double level)
{
	struct interval ci = { .est = NAN, .lo = NAN, .hi = NAN, .n1 = n, .df = NAN };
	double a2 = (1 - level) / 2, q = p / 100, *c;
	long l, u;

	if (!n)
		return ci;
	ci.ok = 1;
	ci.est = stats_percentile(x, n, p);
	c = binom_cdfs(n, q);
	/* the lower bound: the largest l with P(B <= l - 1) <= a/2 */
	for (l = 0; l < (long)n && cdf_at(c, l, n, q) <= a2; l++)
		;
	if (l >= 1)
		ci.lo = x[l - 1];
	/* the upper: the smallest u with P(B >= u) = 1 - P(B <= u - 1) <= a/2 */
	for (u = n; u >= 1 && 1 - cdf_at(c, u - 1, n, q) <= a2; u--)
		;
	u++;
	if (u <= (long)n)
		ci.hi = x[u - 1];
	free(c);
	return ci;
}

struct interval stats_percentile_ratio_ci(const double *a, size_t na, const double *b,
					  size_t nb, double p, double level)
{
	double each = 1 - (1 - level) / 2;
	struct interval ca = stats_percentile_ci(a, na, p, each);
	struct interval cb = stats_percentile_ci(b, nb, p, each);
	struct interval ci = { .est = NAN, .lo = NAN, .hi = NAN, .n1 = na, .n2 = nb, .df = NAN };

	if (!ca.ok || !cb.ok || !(cb.est > 0))
		return ci;
	ci.ok = 1;
	ci.est = ca.est / cb.est;
	if (!isnan(ca.lo) && !isnan(cb.hi) && cb.hi > 0)
		ci.lo = ca.lo / cb.hi;
	if (!isnan(ca.hi) && !isnan(cb.lo) && cb.lo > 0)
		ci.hi = ca.hi / cb.lo;
	return ci;
}

/* Welch's interval for mean(a) - mean(b) */
static struct interval welch(const double *a, size_t na, const double *b, size_t nb,
			     double level)
{
	struct interval ci = { .est = NAN, .lo = NAN, .hi = NAN, .n1 = na, .n2 = nb, .df = NAN };
	double va, vb, se2, t;

	if (na < 2 || nb < 2)
		return ci;
	ci.ok = 1;
	ci.est = stats_mean(a, na) - stats_mean(b, nb);
	va = stats_var(a, na) / na;
	vb = stats_var(b, nb) / nb;
	se2 = va + vb;
	if (se2 <= 0) {		/* no spread at all: the interval is the point */
		ci.lo = ci.hi = ci.est;
		ci.df = na + nb - 2;
		return ci;
	}
	ci.df = se2 * se2 / (va * va / (na - 1) + vb * vb / (nb - 1));
	t = stats_t_quantile(1 - (1 - level) / 2, ci.df);
	ci.lo = ci.est - t * sqrt(se2);
	ci.hi = ci.est + t * sqrt(se2);
	return ci;
}

struct interval stats_welch_diff_ci(const double *a, size_t na, const double *b, size_t nb,
				    double level)
{
	return welch(a, na, b, nb, level);
}

struct interval stats_log_ratio_ci(const double *a, size_t na, const double *b, size_t nb,
				   double level)
{
	struct interval ci = { .est = NAN, .lo = NAN, .hi = NAN, .n1 = na, .n2 = nb, .df = NAN };
	double *la = calloc(na + 1, sizeof(*la)), *lb = calloc(nb + 1, sizeof(*lb));
	size_t i;

	if (!la || !lb)
		goto out;
	for (i = 0; i < na; i++)
		if (!(a[i] > 0))
			goto out;
		else
			la[i] = log(a[i]);
	for (i = 0; i < nb; i++)
		if (!(b[i] > 0))
			goto out;
		else
			lb[i] = log(b[i]);
	ci = welch(la, na, lb, nb, level);
	ci.est = exp(ci.est);
	ci.lo = exp(ci.lo);
	ci.hi = exp(ci.hi);
out:
	free(la);
	free(lb);
	return ci;
}

/* ---- Self-test: known values (R: quantile(type = 7), qt(), binom) */
static int failures;

static void near(const char *what, double got, double want, double tol)
{
	if ((isnan(want) && isnan(got)) || fabs(got - want) <= tol) {
		printf("ok: %s = %g\n", what, got);
		return;
	}
	printf("FAIL: %s = %.9g, want %.9g\n", what, got, want);
	failures++;
}

int stats_selftest(void)
{
	double ten[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	double five[5] = { 15, 20, 35, 40, 50 };
	double hundred[100], twenty[20], twenty8[28];
	double a[3] = { 2, 4, 8 }, b[3] = { 1, 2, 4 };
	double c[3] = { 1, 2, 3 }, d[3] = { 2, 3, 4 };
	struct interval ci;
	int i;

	failures = 0;
	near("percentile 95 of 1..10 (type 7)", stats_percentile(ten, 10, 95), 9.55, 1e-12);
	near("median of 1..10", stats_median(ten, 10), 5.5, 1e-12);
	near("percentile 40 of 15,20,35,40,50", stats_percentile(five, 5, 40), 29, 1e-12);
	near("percentile 0 of 1..10", stats_percentile(ten, 10, 0), 1, 0);
	near("percentile 100 of 1..10", stats_percentile(ten, 10, 100), 10, 0);
	near("median of one value", stats_median(five + 2, 1), 35, 0);
	near("percentile of no value", stats_percentile(ten, 0, 50), NAN, 0);
	near("t quantile 0.975, df 1", stats_t_quantile(0.975, 1), 12.7062047, 1e-6);
	near("t quantile 0.975, df 4", stats_t_quantile(0.975, 4), 2.7764451, 1e-6);
	near("t quantile 0.975, df 30", stats_t_quantile(0.975, 30), 2.0422725, 1e-6);
	near("t quantile 0.95, df 10", stats_t_quantile(0.95, 10), 1.8124611, 1e-6);
	near("binomial P(B <= 39), n 100, p 0.5", stats_binom_cdf(39, 100, 0.5), 0.0176001, 1e-6);
	for (i = 0; i < 100; i++)
		hundred[i] = i + 1;
	for (i = 0; i < 20; i++)
		twenty[i] = i + 1;
	for (i = 0; i < 28; i++)
		twenty8[i] = i + 1;
	ci = stats_percentile_ci(hundred, 100, 50, 0.95);
	near("median interval of 100: lower order statistic", ci.lo, 40, 0);
	near("median interval of 100: upper order statistic", ci.hi, 61, 0);
	ci = stats_percentile_ci(twenty, 20, 50, 0.95);
	near("median interval of 20: lower order statistic", ci.lo, 6, 0);
	near("median interval of 20: upper order statistic", ci.hi, 15, 0);
	ci = stats_percentile_ci(twenty8, 28, 95, 0.95);
	near("p95 interval of 28: upper side open", ci.hi, NAN, 0);
	near("p95 interval of 28: lower order statistic", ci.lo, 24, 0);
	ci = stats_log_ratio_ci(a, 3, b, 3, 0.95);
	near("log-scale ratio (2,4,8)/(1,2,4)", ci.est, 2, 1e-12);
	near("its df (Welch, equal variances)", ci.df, 4, 1e-9);
	near("its lower bound", ci.lo, 0.415535, 1e-6);
	near("its upper bound", ci.hi, 9.626144, 1e-5);
	ci = stats_welch_diff_ci(c, 3, d, 3, 0.95);
	near("Welch difference (1,2,3)-(2,3,4)", ci.est, -1, 1e-12);
	near("its lower bound", ci.lo, -1 - 2.266958, 1e-6);
	near("its upper bound", ci.hi, -1 + 2.266958, 1e-6);
	ci = stats_percentile_ratio_ci(hundred, 100, twenty, 20, 50, 0.95);
	near("ratio of medians 50.5/10.5", ci.est, 50.5 / 10.5, 1e-12);
	return failures;
}
