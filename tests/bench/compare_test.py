#!/usr/bin/env python3
"""Tests for bench/compare.py: its statistics on hand-worked values, and the table it prints for two
generated dumps whose true median ratio is known.

    python3 compare_test.py PATH/TO/compare.py [PATH/TO/bm_decoder]

With bm_decoder, also checks that compare.py reads a real --verbose dump.
"""

import importlib.util
import math
import os
import random
import re
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction

COMPARE = None
BM_DECODER = None
cmp = None  # the compare.py module


def run_compare(*args):
    return subprocess.run([sys.executable, COMPARE, *args], capture_output=True, text=True, timeout=300)


def write_dump(path, cases, header=True):
    with open(path, "w", encoding="utf-8") as f:
        if header:
            f.write("# compiler: test\n# option.iterations: many\ntestcase,nanoseconds\n")
        for name, samples in cases.items():
            for s in samples:
                f.write(f"{name},{s}\n")
            f.write(f"# summary: {name}: N {len(samples)}\n")


def lognormal_samples(seed, median, n, sigma=0.1):
    rng = random.Random(seed)
    return [round(median * math.exp(rng.gauss(0, sigma))) for _ in range(n)]


def table_rows(stdout):
    """{label: [cells]} from the printed table (cells split on runs of two or more spaces)."""
    rows = {}
    for line in stdout.splitlines()[1:]:
        if not line.strip():
            break
        cells = re.split(r"\s{2,}", line.strip())
        rows[cells[0]] = cells
    return rows


class Statistics(unittest.TestCase):
    def test_nearest_rank(self):
        xs = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
        self.assertEqual(cmp.nearest_rank(xs, Fraction(1, 4)), 30)  # ceil(2.5) = 3
        self.assertEqual(cmp.nearest_rank(xs, Fraction(1, 2)), 50)
        self.assertEqual(cmp.nearest_rank(xs, Fraction(99, 100)), 100)
        self.assertEqual(cmp.nearest_rank(xs, 0), 10)
        self.assertEqual(cmp.nearest_rank(list(range(1, 1001)), Fraction(999, 1000)), 999)

    def test_mann_whitney_without_ties(self):
        # a = 1 2 3, b = 4 5 6: U = 0, mean 4.5, variance 9 * 7 / 12 = 5.25,
        # z = (4.5 - 0.5) / sqrt(5.25) = 1.745743, p = erfc(z / sqrt 2) = 0.080856.
        u, z, p = cmp.mann_whitney([1, 2, 3], [4, 5, 6])
        self.assertEqual(u, 0)
        self.assertAlmostEqual(abs(z), 1.745743, places=5)
        self.assertAlmostEqual(p, 0.080856, places=5)

    def test_mann_whitney_with_ties(self):
        # Pooled ranks: 1 -> 1, the three 2s -> 3, the two 3s -> 5.5, the two 4s -> 7.5.
        # Rank sum of a = 1 + 3 + 3 + 5.5 = 12.5, U = 12.5 - 10 = 2.5, mean 8.
        # Ties: (27 - 3) + (8 - 2) + (8 - 2) = 36; variance = 16/12 * (9 - 36/56) = 11.142857.
        # z = (5.5 - 0.5) / sqrt(11.142857) = 1.497862, p = erfc(z / sqrt 2) = 0.134169 (both p-values
        # agree with scipy.stats.mannwhitneyu(method="asymptotic", use_continuity=True)).
        u, z, p = cmp.mann_whitney([1, 2, 2, 3], [2, 3, 4, 4])
        self.assertEqual(u, 2.5)
        self.assertAlmostEqual(abs(z), 1.497862, places=5)
        self.assertAlmostEqual(p, 0.134169, places=5)

    def test_mann_whitney_identical_samples(self):
        _, _, p = cmp.mann_whitney([5, 5, 5], [5, 5, 5])
        self.assertEqual(p, 1.0)

    def test_fast_bootstrap_matches_naive_resampling(self):
        # The Beta shortcut must give the same distribution of resampled medians as drawing N values with
        # replacement: compare the two empirical CDFs over the sample values (Kolmogorov-Smirnov distance;
        # with 4000 draws each, 0.04 is beyond the 99.9% critical value 0.0436 only by chance < 0.2%,
        # and the seeds are fixed).
        rng = random.Random(7)
        xs = sorted(rng.randrange(1000) for _ in range(51))
        draws = 4000
        naive = sorted(cmp.median(sorted(rng.choice(xs) for _ in xs)) for _ in range(draws))
        fast_rng = random.Random(8)
        fast = sorted(cmp.resampled_median(xs, fast_rng) for _ in range(draws))
        distance = max(abs(sum(1 for v in naive if v <= x) - sum(1 for v in fast if v <= x)) / draws for x in xs)
        self.assertLess(distance, 0.0436)
        # Against a constant 1 the ratio is the resampled median itself: the interval must be the 2.5% and
        # 97.5% quantiles of the naive bootstrap, to within a neighbouring sample value.
        lo, hi = cmp.bootstrap_median_ratio([1] * 51, xs, draws, 0.95, 3)
        lo_naive, hi_naive = naive[int(0.025 * draws) - 1], naive[int(0.975 * draws) - 1]
        self.assertLessEqual(abs(xs.index(lo) - xs.index(lo_naive)), 1)
        self.assertLessEqual(abs(xs.index(hi) - xs.index(hi_naive)), 1)

    def test_read_dump(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "a.csv")
            write_dump(path, {"x": [3, 1, 2], "y,z": [7]})  # a comma in a name: the number is the last field
            self.assertEqual(cmp.read_dump(path), {"x": [3, 1, 2], "y,z": [7]})
            with open(path, "a", encoding="utf-8") as f:
                f.write("x,fast\n")
            with self.assertRaises(ValueError):
                cmp.read_dump(path)


class Table(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        cls.a = os.path.join(cls.dir.name, "a.csv")
        cls.b = os.path.join(cls.dir.name, "b.csv")
        # 'shifted': true medians 1000 and 2000 ns (ratio 2). 'same': both runs from one distribution.
        write_dump(cls.a, {"shifted": lognormal_samples(1, 1000, 2000), "same": lognormal_samples(2, 500, 2000),
                           "only_a": [1, 2, 3]})
        write_dump(cls.b, {"shifted": lognormal_samples(3, 2000, 2000), "same": lognormal_samples(4, 500, 2000)})

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_two_runs(self):
        r = run_compare(self.a, self.b)
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = table_rows(r.stdout)
        self.assertEqual(set(rows), {"shifted", "same"})
        shifted = rows["shifted"]
        self.assertEqual(shifted[1], "2000")  # N A
        self.assertEqual(shifted[4], "2000")  # N B
        ratio = float(shifted[7])
        self.assertAlmostEqual(ratio, 2.0, delta=0.03)
        lo, hi = map(float, re.match(r"\[(.*), (.*)\]", shifted[8]).groups())
        self.assertLess(lo, 2.0)
        self.assertGreater(hi, 2.0)
        self.assertLess(hi - lo, 0.05)
        p = shifted[9]
        self.assertTrue(p == "<1e-300" or float(p) < 1e-100, p)
        same = rows["same"]
        self.assertAlmostEqual(float(same[7]), 1.0, delta=0.02)
        self.assertGreater(float(same[9]), 1e-3)
        self.assertIn("only_a is only in", r.stderr)

    def test_one_run_against_its_baseline(self):
        r = run_compare(self.b, "--baseline", "same")
        self.assertEqual(r.returncode, 0, r.stderr)
        rows = table_rows(r.stdout.split("\n", 1)[1])  # after "baseline: same"
        self.assertEqual(list(rows), ["shifted vs same"])
        self.assertAlmostEqual(float(rows["shifted vs same"][7]), 4.0, delta=0.1)  # 2000 against 500

    def test_errors(self):
        self.assertEqual(run_compare(os.path.join(self.dir.name, "missing.csv")).returncode, 1)
        single = os.path.join(self.dir.name, "single.csv")
        write_dump(single, {"only": [1, 2]})
        r = run_compare(single)
        self.assertEqual(r.returncode, 1)
        self.assertIn("nothing to compare", r.stderr)
        self.assertEqual(run_compare(self.a, "--baseline", "nope").returncode, 1)

    def test_plot(self):
        out = os.path.join(self.dir.name, "plot.png")
        r = run_compare(self.a, self.b, "--plot", out)
        if cmp.load_pyplot() is None:
            self.assertEqual(r.returncode, 1)
            self.assertIn("--plot needs matplotlib", r.stderr)
            self.assertFalse(os.path.exists(out))
        else:
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(out, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


class RealDump(unittest.TestCase):
    def test_bm_decoder_dump(self):
        if BM_DECODER is None:
            self.skipTest("no bm_decoder given")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "run.csv")
            with open(path, "w", encoding="utf-8") as f:
                r = subprocess.run([BM_DECODER, "--verbose", "--iterations", "20", "--warmup", "2", "--size", "200"],
                                   stdout=f, stderr=subprocess.PIPE, text=True, timeout=300)
            self.assertEqual(r.returncode, 0, r.stderr)
            c = run_compare(path)
            self.assertEqual(c.returncode, 0, c.stderr)
            rows = table_rows(c.stdout.split("\n", 1)[1])
            self.assertEqual(list(rows), ["add_order vs mixed", "order_delete vs mixed", "order_replace vs mixed",
                                          "order_executed vs mixed"])
            for cells in rows.values():
                self.assertEqual(cells[1], "20")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    COMPARE = sys.argv[1]
    BM_DECODER = sys.argv[2] if len(sys.argv) > 2 else None
    spec = importlib.util.spec_from_file_location("compare", COMPARE)
    cmp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cmp)
    unittest.main(argv=[sys.argv[0], "-v"])
