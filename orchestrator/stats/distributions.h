#pragma once
// The distribution functions the statistics need: Student's t and the standard normal. They come from
// Boost.Math (its students_t and normal distributions, evaluated in double: promoting to long double,
// Boost's default, made a Welch p-value 23 times slower than the hand-written code it replaced, and a
// 10,000-point comparison computes 200,000 of them); the scipy cross-checks in
// tests/unit/stats/scipy_reference_test.cpp guard them to 1e-9. Pure. Arguments outside a function's
// domain give NaN, never an exception.
namespace sweep::stats {

/// P(T <= t) for Student's t with `df` > 0 degrees of freedom (df may be fractional, as Welch's).
double t_cdf(double t, double df);
/// P(|T| >= |t|): the two-sided p-value of a t statistic.
double t_two_sided_p(double t, double df);
/// The p-quantile of Student's t, p in (0, 1). The last p asked per integer df of 1..1000 is cached
/// (a report asks the same 97.5% quantile for every point).
double t_quantile(double p, double df);

/// P(Z <= z) for the standard normal.
double normal_cdf(double z);
/// P(Z >= z), accurate far into the tail.
double normal_sf(double z);
/// The p-quantile of the standard normal, p in (0, 1).
double normal_quantile(double p);

}  // namespace sweep::stats
