#!/usr/bin/python3
"""itch5plot on outputs of the shipped sample: every subcommand draws a non-trivial image of
the size asked for, different inputs give different images, SVG and PDF by the -o extension, and every
wrong input gets one line on stderr and the documented exit status, never a traceback.

Run by CTest (tests/tools/CMakeLists.txt) with /usr/bin/python3, whose python3-matplotlib also decodes
the PNGs here. Environment:
  ITCH5_TOOLS_DIR  directory of the built itch5inside, itch5synth and itch5tde (required)
  ITCH5_DATA_DIR   the repository's data/ (default: ../../data from this file)
  ITCH5PLOT        the itch5plot to test (default: ITCH5_TOOLS_DIR/itch5plot when it exists, else the
                   repository's tools/itch5plot)
Directly: ITCH5_TOOLS_DIR=build/tools /usr/bin/python3 tests/tools/itch5plot_test.py [-v]
"""

import gzip
import os
import random
import shutil
import stat
import subprocess
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor

import matplotlib

matplotlib.use("Agg")
import matplotlib.image  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOLS = os.environ.get("ITCH5_TOOLS_DIR", "")
DATA = os.environ.get("ITCH5_DATA_DIR", os.path.join(ROOT, "data"))
PLOT = os.environ.get("ITCH5PLOT") or (
    os.path.join(TOOLS, "itch5plot") if os.path.exists(os.path.join(TOOLS, "itch5plot"))
    else os.path.join(ROOT, "tools", "itch5plot"))
SAMPLE = os.path.join(DATA, "synthetic-200k.itch.gz")
SMALL = os.path.join(DATA, "artificial-3stocks.itch")
SIZE = (900, 560)  # small images: rendering is most of the run time
SIZE_ARGS = ["--size", f"{SIZE[0]}x{SIZE[1]}"]


def tool(name, *args, **kw):
    return subprocess.run([os.path.join(TOOLS, name), *args], check=True, capture_output=True, **kw)


def plot(*args):
    return subprocess.run([PLOT, *args], capture_output=True, timeout=300)


def bench_dump(path, cases, seed, scale):
    """A microbenchmark --verbose dump in the format of bench/microbench (suite.cpp): '# key: value'
    lines, 'testcase,nanoseconds', one row per sample; log-normal samples with a heavy tail."""
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write("# program: bm_fake\n# mode: per-iteration\n# option.iterations: 2000\ntestcase,nanoseconds\n")
        for k, case in enumerate(cases):
            for _ in range(2000):
                v = rng.lognormvariate(np.log(1000 * (k + 1) * scale), 0.25)
                if rng.random() < 0.01:
                    v *= rng.uniform(5, 50)
                f.write(f"{case},{int(v)}\n")


class Itch5PlotTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not TOOLS or not os.path.exists(os.path.join(TOOLS, "itch5inside")):
            raise unittest.SkipTest("set ITCH5_TOOLS_DIR to the directory of the built itch5inside")
        cls.dir = tempfile.mkdtemp(prefix="itch5plot_test.")
        d = cls.path
        # The shipped sample, and a second, different input (three made-up stocks).
        tool("itch5inside", SAMPLE, "-o", d("inside.txt"), "--stats", d("stats.csv"), "--depth", d("depth.csv"))
        tool("itch5inside", SMALL, "-o", d("inside3.txt"), "--stats", d("stats3.csv"), "--depth", d("depth3.csv"))
        # The sample's delayed copy: itch5synth writes the sample again with the same seed (data/README.md).
        tool("itch5synth", "--messages", "200k", "--seed", "1", "-o", d("again.itch"), "--delayed",
             d("delayed.itch"), "--delay", "250us", "--jitter", "2us")
        tool("itch5inside", d("delayed.itch"), "-o", d("delayed.txt"))
        counts = {}
        with open(d("inside.txt"), "rb") as f:
            for line in f:
                s = line.split(b" ", 3)[2].decode()
                counts[s] = counts.get(s, 0) + 1
        cls.busiest = sorted(counts, key=lambda s: -counts[s])[:3]
        symbols = ",".join(cls.busiest)
        tool("itch5tde", d("inside.txt"), d("delayed.txt"), "-o", d("tde.csv"), "--symbols", symbols,
             "--smooth", "2us")
        tool("itch5tde", d("inside.txt"), d("inside.txt"), "-o", d("tde-self.csv"), "--symbols", symbols,
             "--signal", "events,mid")
        bench_dump(d("before.csv"), ["array/buy", "map/buy"], 1, 1.0)
        bench_dump(d("after.csv"), ["array/buy", "map/buy"], 2, 0.7)
        with open(d("itch.csv"), "wb") as f, gzip.open(SAMPLE, "rb") as g:  # an ITCH file named .csv
            f.write(g.read(1 << 16))
        # Draw everything once, two at a time (the machine may be shared).
        jobs = {
            "stats": ["stats", d("stats.csv"), "-o", d("stats.png"), *SIZE_ARGS],
            "stats3": ["stats", d("stats3.csv"), "-o", d("stats3.png"), *SIZE_ARGS],
            "depth": ["depth", d("depth.csv"), "-o", d("depth.png"), *SIZE_ARGS],
            "depth3": ["depth", d("depth3.csv"), "-o", d("depth3.png"), *SIZE_ARGS],
            "tde": ["tde", d("tde.csv"), "-o", d("tde.png"), *SIZE_ARGS],
            "tde-self": ["tde", d("tde-self.csv"), "-o", d("tde-self.png"), *SIZE_ARGS],
            "inside": ["inside", d("inside.txt"), "--symbol", cls.busiest[0], "--from", "09:30",
                       "--to", "09:30:05", "-o", d("inside.png"), *SIZE_ARGS],
            "inside2": ["inside", d("inside.txt"), "--symbol", cls.busiest[1].lower(), "--from", "09:30:10",
                        "--to", "09:30:12.5", "-o", d("inside2.png"), *SIZE_ARGS],
            "latency": ["latency", d("before.csv"), "-o", d("latency.png"), *SIZE_ARGS],
            "latency2": ["latency", d("before.csv"), d("after.csv"), "-o", d("latency2.png"), *SIZE_ARGS],
            "svg": ["depth", d("depth3.csv"), "-o", d("depth3.svg"), *SIZE_ARGS],
            "pdf": ["latency", d("before.csv"), d("after.csv"), "-o", d("latency2.pdf"), *SIZE_ARGS],
        }
        with ThreadPoolExecutor(max_workers=2) as pool:
            cls.runs = dict(zip(jobs, pool.map(lambda a: plot(*a), jobs.values())))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    @classmethod
    def path(cls, name):
        return os.path.join(cls.dir, name)

    def drawn(self, job):
        r = self.runs[job]
        err = r.stderr.decode(errors="replace")
        self.assertEqual(r.returncode, 0, f"{job}: {err}")
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.splitlines()), 1, f"{job}: one summary line expected: {err}")
        return err

    def image(self, name):
        with open(self.path(name), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)
        return matplotlib.image.imread(self.path(name))

    def assert_picture(self, name):
        img = self.image(name)
        self.assertEqual((img.shape[1], img.shape[0]), SIZE, name)
        rgb = (img[..., :3] * 255).round().astype(np.uint8).reshape(-1, 3)
        colours = len(np.unique(rgb, axis=0))
        self.assertGreater(colours, 40, f"{name}: only {colours} distinct colours")
        inked = np.mean(rgb.min(axis=1) < 200)  # not white or light grey
        self.assertGreater(inked, 0.02, f"{name}: only {inked:.1%} of the pixels drawn")
        self.assertLess(inked, 0.9, f"{name}: {inked:.1%} of the pixels dark")
        return img

    def assert_different(self, a, b):
        ia, ib = self.image(a), self.image(b)
        self.assertEqual(ia.shape, ib.shape)
        differing = np.mean(np.abs(ia - ib).max(axis=2) > 0.1)
        self.assertGreater(differing, 0.01, f"{a} and {b}: only {differing:.2%} of the pixels differ")

    # ---------------------------------------------------------------------------------------------
    # Pictures

    def test_each_subcommand_draws_a_picture_of_the_size_asked(self):
        for job in ("stats", "stats3", "depth", "depth3", "tde", "tde-self", "inside", "inside2", "latency",
                    "latency2"):
            with self.subTest(job=job):
                err = self.drawn(job)
                self.assertIn(f"{SIZE[0]}x{SIZE[1]} png", err)
                self.assert_picture(job + ".png")

    def test_different_inputs_give_different_pictures(self):
        for a, b in (("stats", "stats3"), ("depth", "depth3"), ("tde", "tde-self"), ("inside", "inside2"),
                     ("latency", "latency2")):
            with self.subTest(a=a, b=b):
                self.drawn(a)
                self.drawn(b)
                self.assert_different(a + ".png", b + ".png")

    def test_summary_line_says_what_was_drawn(self):
        self.assertIn("20 of 313 symbols", self.drawn("stats"))
        self.assertIn("3 of 3 symbols", self.drawn("stats3"))
        self.assertIn(f"changes of {self.busiest[0]}", self.drawn("inside"))
        self.assertIn(f"changes of {self.busiest[1]}", self.drawn("inside2"))  # --symbol upper-cased
        self.assertIn("4 curves", self.drawn("latency2"))

    def test_svg_and_pdf_by_extension(self):
        self.drawn("svg")
        with open(self.path("depth3.svg"), "rb") as f:
            head = f.read(4096)
        self.assertTrue(head.startswith(b"<?xml"), head[:40])
        self.assertIn(b"<svg", head)
        self.drawn("pdf")
        with open(self.path("latency2.pdf"), "rb") as f:
            self.assertEqual(f.read(5), b"%PDF-")
        self.assertGreater(os.path.getsize(self.path("latency2.pdf")), 5000)

    def test_replaced_output_keeps_its_mode_and_a_link_stays_a_link(self):
        d = self.path
        args = ["latency", d("before.csv"), *SIZE_ARGS, "-o"]
        # A licensed 0600 file stays 0600 (umask 022 would give a new file 0644).
        with open(d("private.png"), "wb") as f:
            f.write(b"earlier")
        os.chmod(d("private.png"), 0o600)
        r = subprocess.run([PLOT, *args, d("private.png")], capture_output=True, timeout=300, umask=0o022)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace"))
        self.assertEqual(stat.S_IMODE(os.stat(d("private.png")).st_mode), 0o600)
        self.assert_picture("private.png")
        # A symbolic link (relative, to another directory) stays a link; the file it points to is replaced.
        os.makedirs(d("store"), exist_ok=True)
        with open(d("store/target.png"), "wb") as f:
            f.write(b"stale")
        os.symlink("store/target.png", d("link.png"))
        r = subprocess.run([PLOT, *args, d("link.png")], capture_output=True, timeout=300, umask=0o022)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace"))
        self.assertTrue(os.path.islink(d("link.png")))
        self.assertEqual(os.readlink(d("link.png")), "store/target.png")
        self.assert_picture("store/target.png")
        self.assertEqual([n for n in os.listdir(d("store")) if n != "target.png"], [], "no temporary file left")
        # A new file: 0666 less the umask.
        r = subprocess.run([PLOT, *args, d("new.png")], capture_output=True, timeout=300, umask=0o027)
        self.assertEqual(r.returncode, 0, r.stderr.decode(errors="replace"))
        self.assertEqual(stat.S_IMODE(os.stat(d("new.png")).st_mode), 0o640)

    def test_format_overrides_extension_and_stdout(self):
        r = plot("latency", self.path("before.csv"), "--format", "svg", "-q", *SIZE_ARGS)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, b"")  # -q
        self.assertIn(b"<svg", r.stdout[:4096])

    # ---------------------------------------------------------------------------------------------
    # Wrong input: one line, the documented status, no traceback, no output left behind

    def assert_refused(self, args, status, *fragments):
        out = self.path("refused.png")
        with_output = args and args[0] in ("stats", "depth", "tde", "inside", "latency") and "-o" not in args
        r = plot(*args, *(["-o", out] if with_output else []))
        err = r.stderr.decode(errors="replace")
        self.assertEqual(r.returncode, status, f"{args}: {err}")
        self.assertNotIn("Traceback", err)
        self.assertEqual(len(err.splitlines()), 1, f"{args}: one line expected: {err!r}")
        self.assertTrue(err.startswith("itch5plot: error: "), err)
        for fragment in fragments:
            self.assertIn(fragment, err)
        self.assertFalse(os.path.exists(out), f"{args}: an output was written")
        self.assertEqual([n for n in os.listdir(self.dir) if n.endswith(".tmp")], [])
        return err

    def test_itch_files_are_recognised(self):
        for path in (SAMPLE, SMALL, os.path.join(DATA, "real-2019-first1000.itch"), self.path("itch.csv")):
            for sub in ("stats", "depth", "tde", "latency"):
                with self.subTest(path=path, sub=sub):
                    self.assert_refused([sub, path], 1, path, "ITCH 5.0 binary data")
            with self.subTest(path=path, sub="inside"):
                self.assert_refused(["inside", path, "--symbol", "AAPL"], 1, "ITCH 5.0 binary data")

    def test_tde_columns_are_found_by_name(self):
        # itch5tde's CSV starts with its column line; a column added to it, or the two '#' lines of older
        # versions, change nothing in what is drawn.
        d = self.path
        with open(d("tde.csv")) as f:
            lines = f.read().splitlines()
        self.assertTrue(lines[0].startswith("window_start_ns,symbol,signal,"), lines[0])
        flags = lines[0].split(",").index("flags")
        with open(d("tde-more.csv"), "w") as f:
            for i, line in enumerate(lines):
                fields = line.split(",")
                fields.insert(flags, "p_value" if i == 0 else "0.5")
                f.write(",".join(fields) + "\n")
        with open(d("tde-old.csv"), "w") as f:
            f.write("# itch5tde: delay > 0 means B lags A\n# sampling_period_ns=1000\n")
            f.write("\n".join(lines) + "\n")
        original = self.drawn("tde").split(" -> ")[0]
        for name in ("tde-more", "tde-old"):
            r = plot("tde", d(name + ".csv"), "-o", d(name + ".png"), *SIZE_ARGS)
            err = r.stderr.decode(errors="replace")
            self.assertEqual(r.returncode, 0, err)
            self.assertEqual(err.split(" -> ")[0], original.replace("tde.csv", name + ".csv"), err)

    def test_csv_of_the_wrong_kind_names_file_and_kind(self):
        cases = [
            ("stats", "depth.csv", "expected an itch5inside --stats CSV", "itch5plot depth"),
            ("depth", "stats.csv", "expected an itch5inside --depth CSV", "itch5plot stats"),
            ("tde", "inside.txt", "expected an itch5tde CSV", "itch5plot inside"),
            ("latency", "tde.csv", "expected a microbenchmark --verbose dump", "itch5plot tde"),
            ("stats", "before.csv", "expected an itch5inside --stats CSV", "itch5plot latency"),
        ]
        for sub, name, expected, hint in cases:
            with self.subTest(sub=sub, name=name):
                self.assert_refused([sub, self.path(name)], 1, self.path(name), expected, hint)
        self.assert_refused(["inside", self.path("stats.csv"), "--symbol", "XIEX"], 1,
                            "expected an itch5inside inside-change file")

    def test_unknown_symbol_lists_the_symbols_there_are(self):
        self.assert_refused(["inside", self.path("inside.txt"), "--symbol", "NOPE"], 1,
                            "no line of symbol NOPE", "313 symbols", self.busiest[0])
        self.assert_refused(["inside", self.path("inside3.txt"), "--symbol", "AAPL"], 1,
                            "3 symbols", "ALC", "BOB", "CHAR")
        self.assert_refused(["stats", self.path("stats.csv"), "--symbols", f"{self.busiest[0]},NOPE"], 1,
                            "no row for symbol NOPE", self.busiest[0])
        self.assert_refused(["depth", self.path("depth3.csv"), "--symbols", "NOPE"], 1, "ALC")
        self.assert_refused(["tde", self.path("tde.csv"), "--symbols", "NOPE"], 1, "no row for symbol NOPE",
                            self.busiest[0])
        self.assert_refused(["latency", self.path("before.csv"), "--testcase", "nope"], 1, "array/buy")

    def test_malformed_and_missing_inputs(self):
        d = self.path
        with open(d("stats.csv")) as f:
            lines = f.readlines()
        with open(d("trunc.csv"), "w") as f:
            f.writelines(lines[:5])
            f.write(lines[5][:40])
        with open(d("bad.csv"), "w") as f:
            f.writelines(lines[:3])
            fields = lines[3].split(",")
            fields[2] = "one"
            f.write(",".join(fields))
        with open(d("empty.csv"), "w"):
            pass
        with open(d("bin.csv"), "wb") as f:
            f.write(bytes(range(256)) * 4)
        with open(d("stats.csv"), "rb") as f, open(d("trunc.csv.gz"), "wb") as g:
            g.write(gzip.compress(f.read())[:3000])
        with open(d("nan.csv"), "w") as f:
            f.write("testcase,nanoseconds\nx,12\nx,nan\n")
        self.assert_refused(["stats", d("trunc.csv")], 1, "trunc.csv:6", "fields")
        self.assert_refused(["stats", d("bad.csv")], 1, "bad.csv:4", "minRatePerSec 'one'")
        self.assert_refused(["stats", d("empty.csv")], 1, "empty file")
        self.assert_refused(["stats", d("bin.csv")], 1, "binary data")
        self.assert_refused(["stats", d("trunc.csv.gz")], 1, "gzip")
        self.assert_refused(["latency", d("nan.csv")], 1, "nan.csv:3")
        self.assert_refused(["stats", d("missing.csv")], 1, "missing.csv")
        self.assert_refused(["depth", self.dir], 1, "directory")
        self.assert_refused(["latency", d("before.csv"), d("missing.csv")], 1, "missing.csv")

    def test_usage_errors(self):
        d = self.path
        self.assert_refused([], 2, "subcommand")
        self.assert_refused(["bogus"], 2, "bogus")
        self.assert_refused(["stats"], 2, "STATS.csv")
        self.assert_refused(["stats", d("stats.csv"), "--top", "0"], 2, "--top")
        self.assert_refused(["stats", d("stats.csv"), "--size", "10x10"], 2, "--size")
        self.assert_refused(["stats", d("stats.csv"), "-o", d("out.gif")], 2, ".gif")
        self.assert_refused(["inside", d("inside.txt")], 2, "--symbol")
        self.assert_refused(["inside", d("inside.txt"), "--symbol", "XIEX", "--from", "9:31", "--to", "9:30"],
                            2, "--from")
        self.assert_refused(["inside", d("inside.txt"), "--symbol", "XIEX", "--from", "25:00"], 2, "24:00")
        self.assert_refused(["latency", d("before.csv"), d("after.csv"), "--label", "one"], 2, "--label")
        # The output may not be an input, under any name.
        os.link(d("depth3.csv"), d("depth3-link.csv"))
        self.assert_refused(["depth", d("depth3.csv"), "--format", "png", "-o", d("depth3-link.csv")], 2,
                            "overwritten")
        with open(d("depth3.csv")) as f:
            self.assertTrue(f.readline().startswith("Name,NSamples,minEventDepth"))
        self.assert_refused(["stats", d("stats.csv"), "-o", os.path.join(self.dir, "no", "such", "x.png")], 1,
                            "does not exist")

    def test_help_explains_every_flag(self):
        for sub in ("stats", "depth", "tde", "inside", "latency"):
            with self.subTest(sub=sub):
                r = plot(sub, "--help")
                self.assertEqual(r.returncode, 0)
                text = r.stdout.decode()
                for flag in ("-o FILE", "--format", "--size", "--dpi", "--title", "--quiet"):
                    self.assertIn(flag, text)
                self.assertNotIn("==SUPPRESS==", text)
        r = plot("--help")
        self.assertEqual(r.returncode, 0)
        for sub in ("stats", "depth", "tde", "inside", "latency", "Exit status"):
            self.assertIn(sub, r.stdout.decode())


if __name__ == "__main__":
    unittest.main()
