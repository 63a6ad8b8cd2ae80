#!/usr/bin/env python3
"""Compare microbench verbose dumps: two runs, or the test cases of one run.

    python3 bench/compare.py A.csv B.csv     # each test case present in both: B against A
    python3 bench/compare.py A.csv           # each test case against the first (or --baseline)
    python3 bench/compare.py A.csv B.csv --plot cmp.png   # also box plots (needs matplotlib)

Input: the stdout of a benchmark run with --verbose: lines starting with '#' are skipped, then a CSV
header 'testcase,nanoseconds' and one 'testcase,nanoseconds' row per sample.

Table, per compared pair: N, p50 and p99 of each side (nearest rank, as the C++ summary: x[ceil(q*N)]),
the ratio of medians p50(B)/p50(A) with a bootstrap percentile confidence interval, and the two-sided
p-value of a Mann-Whitney U test (normal approximation with tie and continuity corrections). A ratio
below 1 means B is faster.

Bootstrap: each resample draws N values with replacement from each side and takes the ratio of their
medians; the interval is the (1-c)/2 and (1+c)/2 quantiles of --resamples ratios from a generator seeded
with --seed. The median of a resample is drawn exactly without drawing the N values: the m-th smallest
of N uniform draws is Beta(m, N-m+1)-distributed, so the resample median is sorted[floor(N * Beta)] with
m = ceil(N/2). This keeps 10^6-sample dumps fast in pure Python.

Exit status: 0 success, 1 unreadable input or nothing to compare, 2 usage error.
Only the standard library is needed for the table; --plot imports matplotlib (python3-matplotlib,
see scripts/setup-analysis).
"""

import argparse
import math
import random
import sys
from fractions import Fraction


def read_dump(path):
    """Samples per test case, in order of first appearance: {name: [ns, ...]}."""
    cases = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#") or line == "testcase,nanoseconds":
                continue
            name, sep, value = line.rpartition(",")
            if not sep or not name:
                raise ValueError(f"{path}:{number}: expected 'testcase,nanoseconds', got '{line}'")
            try:
                ns = float(value) if any(c in value for c in ".eE") else int(value)
            except ValueError:
                raise ValueError(f"{path}:{number}: '{value}' is not a number") from None
            cases.setdefault(name, []).append(ns)
    return cases


def nearest_rank(sorted_values, q):
    """The q-quantile (q a Fraction or int in [0, 1]) by nearest rank: x[ceil(q*N)], 1-based; q=0: min."""
    n = len(sorted_values)
    k = max(1, math.ceil(Fraction(q) * n))
    return sorted_values[min(k, n) - 1]


def median(sorted_values):
    return nearest_rank(sorted_values, Fraction(1, 2))


def resampled_median(sorted_values, rng):
    """The median of one bootstrap resample of `sorted_values` (N draws with replacement), drawn exactly
    through the Beta distribution of the m-th order statistic of N uniforms (module comment)."""
    n = len(sorted_values)
    m = max(1, math.ceil(n / 2))
    u = rng.betavariate(m, n - m + 1)
    return sorted_values[min(n - 1, int(n * u))]


def bootstrap_median_ratio(a_sorted, b_sorted, resamples, confidence, seed):
    """Percentile bootstrap interval of median(B)/median(A) at `confidence`."""
    rng = random.Random(seed)
    ratios = []
    for _ in range(resamples):
        a = resampled_median(a_sorted, rng)
        b = resampled_median(b_sorted, rng)
        ratios.append(b / a if a != 0 else math.inf)
    ratios.sort()
    c = Fraction(str(confidence))  # exact: 0.95 -> 19/20, so 1000 resamples give ranks 25 and 975
    return nearest_rank(ratios, (1 - c) / 2), nearest_rank(ratios, (1 + c) / 2)


def mann_whitney(a, b):
    """Two-sided Mann-Whitney U test. Returns (U of a, z, p), normal approximation with tie correction
    and continuity correction."""
    n1, n2 = len(a), len(b)
    pooled = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    n = n1 + n2
    rank_sum_a = 0.0
    tie_term = 0  # sum of t^3 - t over groups of tied values
    i = 0
    while i < n:
        j = i
        while j + 1 < n and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        t = j - i + 1
        average_rank = (i + j) / 2 + 1
        rank_sum_a += average_rank * sum(1 for k in range(i, j + 1) if pooled[k][1] == 0)
        tie_term += t * t * t - t
        i = j + 1
    u = rank_sum_a - n1 * (n1 + 1) / 2
    mean = n1 * n2 / 2
    variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))) if n > 1 else 0.0
    if variance <= 0:
        return u, 0.0, 1.0
    z = (abs(u - mean) - 0.5) / math.sqrt(variance)
    z = max(z, 0.0)
    p = math.erfc(z / math.sqrt(2))
    return u, math.copysign(z, u - mean), min(1.0, p)


def compare(label, a, b, args):
    a_sorted, b_sorted = sorted(a), sorted(b)
    ratio = median(b_sorted) / median(a_sorted) if median(a_sorted) != 0 else math.inf
    lo, hi = bootstrap_median_ratio(a_sorted, b_sorted, args.resamples, args.confidence, args.seed)
    _, _, p = mann_whitney(a, b)
    return {
        "label": label,
        "n_a": len(a), "p50_a": median(a_sorted), "p99_a": nearest_rank(a_sorted, Fraction(99, 100)),
        "n_b": len(b), "p50_b": median(b_sorted), "p99_b": nearest_rank(b_sorted, Fraction(99, 100)),
        "ratio": ratio, "lo": lo, "hi": hi, "p": p,
    }


def format_number(x):
    return str(x) if isinstance(x, int) else f"{x:.6g}"


def format_p(p):
    return "<1e-300" if p < 1e-300 else f"{p:.2g}"


def print_table(rows, header_a, header_b, args, out=sys.stdout):
    pct = f"{args.confidence * 100:g}%"
    columns = ["testcase", f"N {header_a}", f"p50 {header_a}", f"p99 {header_a}", f"N {header_b}",
               f"p50 {header_b}", f"p99 {header_b}", f"p50 ratio {header_b}/{header_a}", f"{pct} CI", "p-value"]
    table = [columns]
    for r in rows:
        table.append([r["label"], str(r["n_a"]), format_number(r["p50_a"]), format_number(r["p99_a"]),
                      str(r["n_b"]), format_number(r["p50_b"]), format_number(r["p99_b"]),
                      f"{r['ratio']:.4f}", f"[{r['lo']:.4f}, {r['hi']:.4f}]", format_p(r["p"])])
    widths = [max(len(row[c]) for row in table) for c in range(len(columns))]
    for row in table:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(w) for cell, w in zip(row[1:], widths[1:])]
        print("  ".join(cells).rstrip(), file=out)
    print(f"\nratio = p50({header_b}) / p50({header_a}), below 1: {header_b} faster. CI: bootstrap percentile "
          f"interval, {args.resamples} resamples, seed {args.seed}. p: two-sided Mann-Whitney U, normal "
          f"approximation with tie and continuity corrections. Times in ns.", file=out)


def load_pyplot():
    """matplotlib.pyplot with a file-only backend, or None when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def plot(plt, pairs, path, kind, header_a, header_b, linear):
    fig, axes = plt.subplots(1, len(pairs), figsize=(3.2 * len(pairs) + 1, 4.5), squeeze=False)
    for ax, (label, a, b) in zip(axes[0], pairs):
        data = [a, b]
        if kind == "violin" and not linear:
            # The density is estimated on log10(ns), where these distributions are far less skewed; the
            # axis is labelled in ns.
            ax.violinplot([[math.log10(max(v, 1)) for v in d] for d in data], showmedians=True)
            ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda y, _: f"{10 ** y:.3g}"))
        elif kind == "violin":
            ax.violinplot(data, showmedians=True)
        else:
            ax.boxplot(data, whis=(1, 99), showfliers=False)  # whiskers at p1 and p99
        ax.set_xticks([1, 2], [header_a, header_b])
        ax.set_title(label, fontsize=9)
        ax.set_ylabel("ns per iteration")
        if not linear and kind == "box":
            ax.set_yscale("log")  # a few preempted iterations would flatten the boxes on a linear axis
        ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Compare microbench --verbose dumps: two runs (A.csv B.csv, B against A per test case) or "
                    "the test cases of one run (each against the baseline).")
    parser.add_argument("a", metavar="A.csv")
    parser.add_argument("b", metavar="B.csv", nargs="?")
    parser.add_argument("--baseline", help="one-file mode: the test case the others are compared with "
                                           "(default: the first)")
    parser.add_argument("--cases", help="compare only these test cases (comma-separated)")
    parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    parser.add_argument("--confidence", type=float, default=0.95, help="confidence level (default 0.95)")
    parser.add_argument("--seed", type=int, default=1, help="bootstrap seed (default 1)")
    parser.add_argument("--plot", metavar="OUT.png", help="also draw box plots into this file (matplotlib)")
    parser.add_argument("--kind", choices=["box", "violin"], default="box",
                        help="plot kind (default box: box p25-p75, line p50, whiskers p1 and p99)")
    parser.add_argument("--linear", action="store_true", help="linear time axis (default logarithmic)")
    args = parser.parse_args(argv)
    if args.resamples < 1:
        parser.error("--resamples must be at least 1")
    if not 0 < args.confidence < 1:
        parser.error("--confidence must be between 0 and 1")

    plt = None
    if args.plot:
        plt = load_pyplot()
        if plt is None:
            print("compare.py: error: --plot needs matplotlib: run scripts/setup-analysis (or apt-get install "
                  "python3-matplotlib)", file=sys.stderr)
            return 1

    try:
        run_a = read_dump(args.a)
        run_b = read_dump(args.b) if args.b else None
    except (OSError, ValueError) as e:
        print(f"compare.py: error: {e}", file=sys.stderr)
        return 1
    wanted = [c for c in args.cases.split(",") if c] if args.cases else None

    pairs = []  # (label, samples A, samples B)
    if run_b is not None:
        header_a, header_b = "A", "B"
        for name in run_a:
            if wanted is not None and name not in wanted:
                continue
            if name in run_b:
                pairs.append((name, run_a[name], run_b[name]))
            else:
                print(f"compare.py: note: test case {name} is only in {args.a}", file=sys.stderr)
        for name in run_b:
            if name not in run_a and (wanted is None or name in wanted):
                print(f"compare.py: note: test case {name} is only in {args.b}", file=sys.stderr)
    else:
        names = [n for n in run_a if wanted is None or n in wanted]
        baseline = args.baseline or (names[0] if names else None)
        if baseline is not None and baseline not in run_a:
            print(f"compare.py: error: --baseline {baseline}: no such test case in {args.a}", file=sys.stderr)
            return 1
        header_a, header_b = "base", "case"
        for name in names:
            if name != baseline:
                pairs.append((f"{name} vs {baseline}", run_a[baseline], run_a[name]))
    if not pairs:
        print("compare.py: error: nothing to compare (two files need a test case in common; one file needs "
              "two test cases)", file=sys.stderr)
        return 1

    rows = [compare(label, a, b, args) for label, a, b in pairs]
    if run_b is None:
        print(f"baseline: {baseline}")
    print_table(rows, header_a, header_b, args)
    if args.plot:
        plot(plt, pairs, args.plot, args.kind, header_a, header_b, args.linear)
    return 0


if __name__ == "__main__":
    sys.exit(main())
