"""Benchmark: DP synthetic counts (Quick's Poisson-gamma mechanism) at the scale of the paper's Pennsylvania data.

A synthetic stand-in for the 1980 Pennsylvania cancer deaths (Quick 2021, Section 3): 67 counties x 13 age groups
x 9 causes x 3 races x 2 sexes = 47,034 groups, about 26,000 deaths, populations and rates shaped like the real
ones (county sizes spread over three orders of magnitude, age-specific cancer death rates rising from a few to
~1,600 per 100,000, cause shares, sex and race differences, a county effect that the prior does not know).
The prior rates are the "national" rates (no county effect) rescaled to the public total, as in the paper.

For epsilon in {0.5, 1, 2, 4}, both mechanisms (truncated with alpha = 1/I and c = 1, and untruncated) and both
calibration rules (ours, proven for any number of groups, and the paper's eqs. 7/14), it prints the time of
calibration plus L = 1,000 synthetic sets (the same L for both rules, so their utility figures are comparable),
the median and maximum a_i, and two utility figures: the correlation of true and synthetic (mean over sets)
county rates, and the share of county-level variation kept (slope of synthetic on true county rates).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python tests/benchmarks/bench_dpcounts.py [--sets 1000] [--repeats 3] [--smoke]

``--smoke``: a run of a few seconds through the same code (8 counties, 5 synthetic sets, epsilon 1, one run);
its figures mean nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from spatial_privacy.core import counts, counts_calibration

AGE_SHARE = np.array([0.015, 0.055, 0.072, 0.078, 0.094, 0.093, 0.165, 0.114, 0.100, 0.095, 0.069, 0.038, 0.012])
AGE_RATE = np.array([3, 4.5, 4, 4, 6, 8, 14, 45, 170, 440, 820, 1230, 1590]) / 1e5  # all cancers, per person
CAUSE_SHARE = np.array([0.02, 0.25, 0.26, 0.08, 0.09, 0.05, 0.11, 0.04, 0.10])
CAUSE_SEX = np.array(
    [[1.4, 0.6], [1.1, 0.9], [1.5, 0.5], [0.02, 1.98], [1.0, 1.0], [1.4, 0.6], [1, 1], [1.1, 0.9], [1, 1]]
)
RACE_SHARE = np.array([0.89, 0.09, 0.02])
RACE_RATE = np.array([[1.0, 1.0], [1.45, 1.15], [0.6, 0.6]])  # by sex
SEX_SHARE = np.array([0.48, 0.52])
COUNTIES = 67


def pennsylvania_stand_in(seed: int = 1980, counties: int = COUNTIES):
    """Counts, populations and prior expected counts of the 47,034 groups (702 per county), and each group's
    county; with fewer ``counties``, the first draws of the same stand-in, scaled down."""
    rng = np.random.default_rng(seed)
    county_pop = np.sort(rng.lognormal(11.3, 1.1, counties))
    county_pop = np.round(county_pop / county_pop.sum() * 11.86e6 * (counties / COUNTIES))
    black = np.clip(0.09 * rng.lognormal(0, 0.9, counties), 0.001, 0.4)
    race = np.stack([1 - black - 0.02, black, np.full(counties, 0.02)], axis=1)
    shape = (counties, 13, 9, 3, 2)
    pop = (
        county_pop[:, None, None, None, None]
        * AGE_SHARE[None, :, None, None, None]
        * race[:, None, None, :, None]
        * SEX_SHARE[None, None, None, None, :]
        * np.ones(shape)
    )
    pop = np.maximum(np.round(pop), 1.0)
    national = (
        AGE_RATE[None, :, None, None, None]
        * CAUSE_SHARE[None, None, :, None, None]
        * CAUSE_SEX[None, None, :, None, :]
        * RACE_RATE[None, None, None, :, :]
        * np.ones(shape)
    )
    county_effect = rng.lognormal(0, 0.15, counties)[:, None, None, None, None]
    mean = pop * national * county_effect
    mean *= 26_000 * (counties / COUNTIES) / mean.sum()
    y = rng.poisson(mean).ravel()
    expected = (pop * national).ravel()
    expected *= y.sum() / expected.sum()  # the paper rescales national rates to the public total
    county = np.repeat(np.arange(counties), 13 * 9 * 3 * 2)
    return y, pop.ravel(), expected, county


def county_rates(values: np.ndarray, pop: np.ndarray, county: np.ndarray) -> np.ndarray:
    return np.bincount(county, weights=values) / np.bincount(county, weights=pop)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--epsilons", type=float, nargs="+", default=[0.5, 1.0, 2.0, 4.0])
    parser.add_argument("--smoke", action="store_true", help="a few seconds on tiny sizes (checks that it runs)")
    args = parser.parse_args()
    if args.smoke:
        args.sets, args.repeats, args.epsilons = 5, 1, [1.0]
    y, pop, expected, county = pennsylvania_stand_in(counties=8 if args.smoke else COUNTIES)
    groups = y.size
    true_rates = county_rates(y, pop, county)
    print(f"groups {groups}, total {y.sum()}, max count {y.max()}, populations {pop.min():.0f}-{pop.max():.0f}")
    print(f"synthetic sets per release: {args.sets}; times are medians of {args.repeats} runs")
    header = (
        f"{'epsilon':>7} {'mechanism':>11} {'rule':>8} {'seconds':>8} {'median a':>10} {'max a':>10} "
        f"{'outside':>7} {'rate corr':>9} {'slope':>6}"
    )
    print(header)
    print("-" * len(header))
    rng = np.random.default_rng(2021)
    for eps in args.epsilons:
        for truncate in (True, False):
            for rule in ("pairwise", "paper"):
                times = []
                for _ in range(args.repeats):
                    start = time.perf_counter()
                    cal = counts_calibration.calibrate(
                        pop, expected, int(y.sum()), eps, truncate=truncate, alpha=1 / groups, rule=rule
                    )
                    release = counts.synthesize(y, pop, cal, args.sets, rng)
                    times.append(time.perf_counter() - start)
                syn = release.synthetic.mean(axis=0)
                syn_rates = county_rates(syn, pop, county)
                corr = np.corrcoef(true_rates, syn_rates)[0, 1]
                slope = np.polyfit(true_rates, syn_rates, 1)[0]
                seconds = f"{statistics.median(times):8.2f}"
                print(
                    f"{eps:7.1f} {'truncated' if truncate else 'untruncated':>11} {rule:>8} {seconds} "
                    f"{np.median(cal.a):10.3f} {cal.a.max():10.1f} {release.outside:7d} {corr:9.3f} {slope:6.2f}"
                )


if __name__ == "__main__":
    main()
