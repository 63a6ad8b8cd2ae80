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
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest
from concurrent.futures import ThreadPoolExecutor

import matplotlib

matplotlib.use("Agg")
import matplotlib.image  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

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
WARNING = "itch5plot: warning: "

# The figures themselves, for what pixels cannot tell (overlapping labels, a legend over a curve).
sys.path.insert(0, os.path.join(ROOT, "tools"))
from itch5plot_lib import inputs as plot_inputs  # noqa: E402
from itch5plot_lib import plots  # noqa: E402


def tool(name, *args, **kw):
    return subprocess.run([os.path.join(TOOLS, name), *args], check=True, capture_output=True, **kw)


def plot(*args, stdin=None):
    return subprocess.run([PLOT, *args], capture_output=True, timeout=300, stdin=stdin)


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
        # A capture of a generated day: its statistics CSV has the Latency columns.
        tool("itch5synth", "--messages", "30k", "--seed", "4", "-o", d("cap.itch"), "--pcap", d("cap.pcap"))
        tool("itch5inside", d("cap.pcap"), "-o", "/dev/null", "--stats", d("stats-cap.csv"))
        # The inside file with tabs and runs of blanks between the fields, as itch5tde reads them.
        with open(d("inside.txt"), "rb") as f, open(d("inside.tsv"), "wb") as g:
            for k, line in enumerate(f):
                g.write(line.replace(b" ", b"\t" if k % 2 else b" \t  "))
        bench_dump(d("before.csv"), ["array/buy", "map/buy"], 1, 1.0)
        bench_dump(d("after.csv"), ["array/buy", "map/buy"], 2, 0.7)
        with open(d("itch.csv"), "wb") as f, gzip.open(SAMPLE, "rb") as g:  # an ITCH file named .csv
            f.write(g.read(1 << 16))
        # Draw everything once, two at a time (the machine may be shared).
        jobs = {
            "stats": ["stats", d("stats.csv"), "-o", d("stats.png"), *SIZE_ARGS],
            "stats3": ["stats", d("stats3.csv"), "-o", d("stats3.png"), *SIZE_ARGS],
            "stats-cap": ["stats", d("stats-cap.csv"), "-o", d("stats-cap.png"), *SIZE_ARGS],
            "depth": ["depth", d("depth.csv"), "-o", d("depth.png"), *SIZE_ARGS],
            "depth3": ["depth", d("depth3.csv"), "-o", d("depth3.png"), *SIZE_ARGS],
            "tde": ["tde", d("tde.csv"), "-o", d("tde.png"), *SIZE_ARGS],
            "tde-self": ["tde", d("tde-self.csv"), "-o", d("tde-self.png"), *SIZE_ARGS],
            "inside": ["inside", d("inside.txt"), "--symbol", cls.busiest[0], "-o", d("inside.png"),
                       *SIZE_ARGS],  # the regular session, by default
            "inside2": ["inside", d("inside.txt"), "--symbol", cls.busiest[1].lower(), "--from", "10:00",
                        "--to", "10:05", "-o", d("inside2.png"), *SIZE_ARGS],
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
        summary = [line for line in err.splitlines() if not line.startswith(WARNING)]
        self.assertEqual(len(summary), 1, f"{job}: one summary line (and warnings) expected: {err}")
        return summary[0]

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

    def test_the_statistics_of_a_capture_draw_its_feed_latency(self):
        with open(self.path("stats-cap.csv")) as f:
            self.assertIn(",minLatency,", f.readline())  # the capture's columns
        err = self.drawn("stats-cap")
        self.assertIn("with the feed latency of a capture", err)
        self.assert_picture("stats-cap.png")
        self.assert_different("stats.png", "stats-cap.png")

    def test_standard_input(self):
        d = self.path
        for sub, name, extra in (("stats", "stats.csv", []), ("depth", "depth3.csv", []),
                                 ("inside", "inside.txt", ["--symbol", self.busiest[0]])):  # as "inside"
            with self.subTest(sub=sub), open(d(name), "rb") as f:
                r = plot(sub, "-", *extra, "-o", d(f"stdin-{sub}.png"), *SIZE_ARGS, stdin=f)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assert_picture(f"stdin-{sub}.png")
        with open(d("inside.png"), "rb") as f, open(d("stdin-inside.png"), "rb") as g:
            self.assertEqual(f.read(), g.read())  # the same picture as from the file
        with open(SAMPLE, "rb") as f:  # gzip on standard input, and its kind still checked
            r = plot("stats", "-", "-o", d("refused.png"), stdin=f)
        self.assertEqual(r.returncode, 1)
        self.assertIn(b"ITCH 5.0 binary data", r.stderr)
        self.assert_refused(["latency", "-", "-"], 2, "standard input (-) is given twice")

    def test_tab_separated_inside_files(self):
        self.drawn("inside")
        r = plot("inside", self.path("inside.tsv"), "--symbol", self.busiest[0], "-o", self.path("inside-tsv.png"),
                 *SIZE_ARGS)  # as the job "inside" draws inside.txt
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr.decode().split(" -> ")[0], self.drawn("inside").split(" -> ")[0])
        with open(self.path("inside.png"), "rb") as f, open(self.path("inside-tsv.png"), "rb") as g:
            self.assertEqual(f.read(), g.read())
        self.assert_refused(["inside", self.path("inside.tsv"), "--symbol", "NOPE"], 1, "313 symbols",
                            self.busiest[0])

    def test_config_and_print_config(self):
        d = self.path
        with open(d("plot.yaml"), "w") as f:
            f.write(f"input: {d('stats.csv')}\nsymbols: [{self.busiest[0]}, {self.busiest[1]}]\n"
                    "size: 1000x600\ntitle: 'from: yaml'\nquiet: true\n")
        r = plot("stats", "--config", d("plot.yaml"), "--size", "900x560", "--print-config")
        self.assertEqual(r.returncode, 0, r.stderr)
        text = r.stdout.decode()
        self.assertIn(f"symbols: [{self.busiest[0]}, {self.busiest[1]}]\n", text)
        self.assertIn("size: 900x560\n", text)  # the flag overrides the file
        self.assertIn(f"input: {d('stats.csv')}\n", text)
        self.assertIn("quiet: true\n", text)
        with open(d("printed.yaml"), "w") as f:
            f.write(text)
        self.assertEqual(plot("stats", "--config", d("printed.yaml"), "--print-config").stdout.decode(), text)
        r = plot("stats", "--config", d("printed.yaml"), "-o", d("from-config.png"))
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, b"")  # quiet: true
        self.assert_picture("from-config.png")
        for text, fragment in (("bogus: 1\n", "key 'bogus': unknown option"),
                               ("top: 0\n", "key 'top'"),
                               ("dpi: 1\ndpi: 2\n", "key 'dpi' is repeated"),
                               ("format: gif\n", "key 'format': expected one of")):
            with open(d("bad.yaml"), "w") as f:
                f.write(text)
            self.assert_refused(["stats", d("stats.csv"), "--config", d("bad.yaml")], 2, fragment)

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
    # Legibility: what the figures hold, not their pixels

    def test_the_latency_axis_names_what_the_dumps_time(self):
        # bench/live_latency.py --dump writes '# mode: per-packet' (a packet's wire-to-inside latency).
        d = self.path
        with open(d("packets.csv"), "w") as f:
            f.write("# program: itch5replay -> itch5inside --listen (bench/live_latency.py)\n"
                    "# mode: per-packet\ntestcase,nanoseconds\n")
            f.writelines(f"560000 msg/s,{5000 + 37 * k}\n" for k in range(500))
        packets = plot_inputs.read_bench_dump(d("packets.csv"))
        iterations = plot_inputs.read_bench_dump(d("before.csv"))
        for dumps, unit in (([packets], "packet"), ([iterations], "iteration"), ([iterations, packets], "sample")):
            cases = [c for dump in dumps for c in dump.cases]
            fig, _ = plots.draw_latency(dumps, [dump.path for dump in dumps], cases, "auto", SIZE, 100)
            self.assertEqual(fig.axes[0].get_ylabel(), f"time per {unit}")
            self.assertIn(f"time per {unit} by percentile", fig.axes[0].get_title(loc="left").replace("\n", " "))

    def test_row_labels_that_do_not_fit_are_left_out_with_a_warning(self):
        # 313 rows in a 560 px picture: 1,565 labels overprinted in 1000 px was issue 31's finding.
        for kind, draw in (("stats", plots.draw_stats), ("depth", plots.draw_depth)):
            table = plot_inputs.read_symbol_table(self.path(kind + ".csv"), kind)
            fig, _ = draw(table, 313, None, SIZE, 100)
            canvas = FigureCanvasAgg(fig)
            canvas.draw()
            strips = [ax for ax in fig.axes if any(t.get_text() for t in ax.get_yticklabels())
                      and plots.AGG_LABEL in [t.get_text() for t in ax.get_yticklabels()]]
            self.assertTrue(strips, draw.__name__)
            renderer = canvas.get_renderer()
            for ax in strips:
                shown = [t for t in ax.get_yticklabels() if t.get_text()]
                self.assertEqual(shown[0].get_text(), plots.AGG_LABEL)
                self.assertGreater(len(shown), 3, draw.__name__)
                self.assertLess(len(shown), 314, draw.__name__)
                # each label shown is its own row's: every k-th row, all symbols first
                names = [plots.AGG_LABEL] + [table.names[i] for i in table.busiest(313)]
                k = names.index(shown[1].get_text())
                self.assertEqual([t.get_text() for t in shown], names[::k], draw.__name__)
                boxes = sorted((t.get_window_extent(renderer) for t in shown), key=lambda b: -b.y0)
                for upper, lower in zip(boxes, boxes[1:]):
                    self.assertLessEqual(lower.y1, upper.y0 + 0.5, f"{draw.__name__}: labels overlap")
            self.assertEqual(len(fig.itch5_warnings), 1, draw.__name__)
            self.assertIn("314 rows", fig.itch5_warnings[0])  # 313 symbols and all of them together
        # Rows that fit are all labelled, without a warning.
        table = plot_inputs.read_symbol_table(self.path("stats.csv"), "stats")
        fig, _ = plots.draw_stats(table, 5, None, (1600, 1000), 100)
        self.assertEqual(fig.itch5_warnings, [])
        # The tool says so on stderr, beside its summary line.
        r = plot("stats", self.path("stats.csv"), "--top", "313", "-o", self.path("stats313.png"), *SIZE_ARGS)
        err = r.stderr.decode()
        self.assertEqual(r.returncode, 0, err)
        warnings = [line for line in err.splitlines() if line.startswith(WARNING)]
        self.assertEqual(len(warnings), 1, err)
        self.assertRegex(warnings[0], r"every [0-9]+(st|nd|rd|th) row is labelled")

    def test_depth_legends_cover_no_curve(self):
        for name in ("depth.csv", "depth3.csv"):
            table = plot_inputs.read_symbol_table(self.path(name), "depth")
            fig, _ = plots.draw_depth(table, 20, None, (1500, 1000), 100)
            canvas = FigureCanvasAgg(fig)
            canvas.draw()
            renderer = canvas.get_renderer()
            for ax in fig.axes:
                legend = ax.get_legend()
                if legend is None or legend.get_bbox_to_anchor() is not None and \
                        not ax.bbox.contains(*legend.get_window_extent(renderer).p0):
                    continue  # a key below the axes (the strips')
                box = legend.get_window_extent(renderer)
                for line in ax.get_lines():
                    xy = ax.transData.transform(line.get_xydata())
                    inside = [(x, y) for x, y in xy if box.contains(x, y)]
                    self.assertEqual(inside, [], f"{name}: {ax.get_title()}: the legend covers a curve")

    def test_tde_titles_keep_numbers_with_their_units_and_count_rows(self):
        tde = plot_inputs.read_tde(self.path("tde.csv"), [self.busiest[0]], None)
        fig, what = plots.draw_tde(tde, 1, (700, 400), 100)  # narrow: the subtitles wrap
        self.assertRegex(what, r"^1 row of ")
        self.assertIn("1 row drawn", fig._suptitle.get_text().replace("\n", " "))
        titles = [ax.get_title(loc="left") for ax in fig.axes if ax.get_title(loc="left")]
        self.assertTrue(titles)
        for title in titles:
            self.assertRegex(title.replace("\n", " "), r"delay -?[0-9.]+ µs \(IQR [0-9.]+ µs\)")
            for line in title.split("\n"):
                self.assertEqual(line.count("("), line.count(")"), f"a bracket split across lines: {title!r}")
                self.assertFalse(re.search(r"[0-9]$", line) and "\n" in title and line != title.split("\n")[-1],
                                 f"a number parted from its unit: {title!r}")

    def test_inside_draws_the_regular_session_by_default(self):
        d = self.path
        hm = lambda h, m, s=0: ((h * 60 + m) * 60 + s) * 10**9  # noqa: E731
        day = [hm(4, 0, 1), hm(5, 0), hm(9, 0), hm(9, 30, 1), hm(10, 0), hm(15, 59), hm(17, 0), hm(19, 59)]
        with open(d("day-inside.txt"), "w") as f:
            for k, t in enumerate(day):
                f.write(f"{t} 1 ZZZ {100000 + k} 100 {101000 + k} 200\n")
        with open(d("morning-inside.txt"), "w") as f:  # does not reach 16:00: drawn whole
            for k, t in enumerate(day[:5]):
                f.write(f"{t} 1 ZZZ {100000 + k} 100 {101000 + k} 200\n")
        cases = [
            (["day-inside.txt"], "3 changes of ZZZ"),  # 09:30:01, 10:00, 15:59
            (["day-inside.txt", "--whole-day"], "8 changes of ZZZ"),
            (["day-inside.txt", "--from", "05:00"], "7 changes of ZZZ"),
            (["morning-inside.txt"], "5 changes of ZZZ"),
        ]
        for args, expected in cases:
            with self.subTest(args=args):
                r = plot("inside", d(args[0]), *args[1:], "--symbol", "ZZZ", "-o", d("zzz.png"), *SIZE_ARGS)
                err = r.stderr.decode()
                self.assertEqual(r.returncode, 0, err)
                self.assertIn(expected, err)
        r = plot("inside", "--help")
        self.assertIn("--whole-day", r.stdout.decode())

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
                for flag in ("-o FILE", "--format", "--size", "--dpi", "--title", "--quiet", "--config",
                             "--print-config"):
                    self.assertIn(flag, text)
                self.assertNotIn("==SUPPRESS==", text)
        r = plot("--help")
        self.assertEqual(r.returncode, 0)
        for sub in ("stats", "depth", "tde", "inside", "latency", "Exit status"):
            self.assertIn(sub, r.stdout.decode())


if __name__ == "__main__":
    unittest.main()
