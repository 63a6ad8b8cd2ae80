#!/usr/bin/python3
"""itch5batch: a 2-worker local Dask cluster over 4 generated days gives the
outputs of sequential itch5inside runs plus itch5stats merge, byte for byte (the statistics CSVs except
their wall-clock Processing columns; the merged CSVs also against itch5stats merge of the batch's own
per-day histograms, byte for byte); a worker killed mid-task is retried and its day completes once; a
second run skips every day without touching a file; a truncated day fails alone, is named on the last
line and left out of the merge, and so does a day cut at a message boundary (no End of Messages event)
unless --allow-partial; usage errors are one line with status 2; a day made with other itch5inside
options is refused (or redone with --redo), never merged with days made otherwise; the same day given twice
runs once; --version, --config and --print-config.

Run by CTest (tests/tools/CMakeLists.txt) with /usr/bin/python3, the interpreter with Debian's
python3-distributed. Environment:
  ITCH5_TOOLS_DIR  directory of the built itch5inside, itch5stats and itch5synth (required)
  ITCH5BATCH       the itch5batch to test (default: ITCH5_TOOLS_DIR/itch5batch when it exists, else the
                   repository's tools/itch5batch)
Directly: ITCH5_TOOLS_DIR=build/tools /usr/bin/python3 tests/tools/itch5batch_test.py [-v]
"""

import csv
import gzip
import io
import json
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.environ.get("ITCH5_TOOLS_DIR", "")
BATCH = os.environ.get("ITCH5BATCH") or (os.path.join(TOOLS, "itch5batch")
                                         if os.path.exists(os.path.join(TOOLS, "itch5batch"))
                                         else os.path.join(HERE, "..", "..", "tools", "itch5batch"))
DAYS = ["d1.itch.gz", "d2.itch.gz", "d3.itch", "d4.itch.gz"]  # one raw day: names without .gz either way


def tool(name):
    return os.path.join(TOOLS, name)


def batch(*args, env=None):
    full_env = dict(os.environ, **(env or {}))
    if os.path.dirname(os.path.realpath(BATCH)) != os.path.realpath(TOOLS):
        full_env["ITCH5_TOOLS_DIR"] = TOOLS  # the repository's copy: point it at the built programs
    else:
        full_env.pop("ITCH5_TOOLS_DIR", None)  # the built copy finds its siblings itself
    return subprocess.run([BATCH, *args], capture_output=True, text=True, env=full_env, timeout=300)


def without_processing(path):
    """A statistics CSV without its wall-clock Processing columns."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    keep = [i for i, name in enumerate(rows[0]) if "Processing" not in name]
    assert len(keep) < len(rows[0])
    return [[row[i] for i in keep] for row in rows]


def read(path):
    with open(path, "rb") as f:
        return f.read()


class Itch5BatchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="itch5batch_test.")
        cls.days = []
        for seed, name in enumerate(DAYS, start=11):
            path = os.path.join(cls.tmp, name)
            subprocess.run([tool("itch5synth"), "--messages", "40k", "--seed", str(seed), path],
                           check=True, capture_output=True)
            cls.days.append(path)
        # The reference: one sequential itch5inside run per day, then itch5stats merge.
        cls.ref = os.path.join(cls.tmp, "ref")
        os.mkdir(cls.ref)
        for day in cls.days:
            d = os.path.join(cls.ref, os.path.basename(day).removesuffix(".gz"))
            os.mkdir(d)
            subprocess.run([tool("itch5inside"), "-q", "-o", f"{d}/inside.txt.gz", "--stats", f"{d}/stats.csv",
                            "--depth", f"{d}/depth.csv", "--histograms", f"{d}/histograms.bin.gz", day],
                           check=True)
        subprocess.run([tool("itch5stats"), "merge",
                        *[os.path.join(cls.ref, os.path.basename(d).removesuffix(".gz"), "histograms.bin.gz")
                          for d in cls.days],
                        "--stats", f"{cls.ref}/all-stats.csv", "--depth", f"{cls.ref}/all-depth.csv"], check=True)
        # The batch run, with the first attempt of d3.itch killing its worker after itch5inside ran.
        cls.out = os.path.join(cls.tmp, "out")
        cls.marker = os.path.join(cls.tmp, "killed")
        cls.first = batch("--out", cls.out, "--workers", "2", *cls.days,
                          env={"ITCH5BATCH_TEST_KILL": f"d3.itch:{cls.marker}"})

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def names(self):
        return [os.path.basename(d).removesuffix(".gz") for d in self.days]

    def test_1_run_matches_sequential(self):
        r = self.first
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertNotIn("Traceback", r.stderr)
        self.assertEqual(sorted(os.listdir(self.out)), sorted(self.names() + ["all"]))  # no temporaries left
        for name in self.names():
            got, ref = os.path.join(self.out, name), os.path.join(self.ref, name)
            self.assertEqual(gzip.decompress(read(f"{got}/inside.txt.gz")),
                             gzip.decompress(read(f"{ref}/inside.txt.gz")), name)
            self.assertEqual(read(f"{got}/depth.csv"), read(f"{ref}/depth.csv"), name)
            self.assertEqual(without_processing(f"{got}/stats.csv"), without_processing(f"{ref}/stats.csv"), name)
            summary = json.loads(read(f"{got}/summary.json"))
            self.assertEqual(summary["messages"], 40000)
            self.assertEqual(summary["anomalies"], 0)
            lines = len(gzip.decompress(read(f"{ref}/inside.txt.gz")).splitlines())
            self.assertEqual(summary["lines"], lines)
            self.assertGreater(summary["peak_memory_mb"], 0)
        self.assertEqual(read(f"{self.out}/all/depth.csv"), read(f"{self.ref}/all-depth.csv"))
        self.assertEqual(without_processing(f"{self.out}/all/stats.csv"),
                         without_processing(f"{self.ref}/all-stats.csv"))
        self.assertEqual(read(f"{self.out}/all/days.txt").decode().split(), self.names())
        # The merged CSVs are itch5stats merge of the batch's own per-day histograms, byte for byte.
        again = os.path.join(self.tmp, "again")
        os.mkdir(again)
        subprocess.run([tool("itch5stats"), "merge",
                        *[os.path.join(self.out, n, "histograms.bin.gz") for n in self.names()],
                        "--stats", f"{again}/stats.csv", "--depth", f"{again}/depth.csv"], check=True)
        self.assertEqual(read(f"{again}/stats.csv"), read(f"{self.out}/all/stats.csv"))
        self.assertEqual(read(f"{again}/depth.csv"), read(f"{self.out}/all/depth.csv"))
        # The table: every day ok, the messages of each counted once.
        self.assertIn("4 days: 4 ok, 0 failed, 0 skipped", r.stderr)
        self.assertIn("160,000 messages in", r.stderr)
        self.assertNotIn("failed days", r.stderr)

    def test_2_killed_worker_retried_once(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr)
        self.assertTrue(os.path.exists(self.marker), "the hook did not kill a worker")
        with open(self.marker) as f:
            killed_pid = int(f.read())
        summary = json.loads(read(f"{self.out}/d3.itch/summary.json"))
        self.assertEqual(summary["messages"], 40000)
        table = [line for line in self.first.stderr.splitlines() if line.startswith("d3.itch ")]
        self.assertEqual(len(table), 1)
        self.assertIn(" ok ", table[0])
        self.assertNotEqual(killed_pid, os.getpid())

    def test_3_second_run_skips_everything(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr)

        def stamps():
            out = {}
            for root, _dirs, files in os.walk(self.out):
                for f in files:
                    st = os.stat(os.path.join(root, f))
                    out[os.path.join(root, f)] = (st.st_mtime_ns, st.st_ino, st.st_size)
            return out

        before = stamps()
        r = batch("--out", self.out, "--workers", "2", *self.days)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertIn("4 days: 0 ok, 0 failed, 4 skipped", r.stderr)
        self.assertIn("unchanged", r.stderr)
        self.assertEqual(stamps(), before)

    def test_4_truncated_day(self):
        bad = os.path.join(self.tmp, "bad.itch.gz")
        with open(bad, "wb") as f:
            f.write(read(self.days[0])[:60000])
        out = os.path.join(self.tmp, "out-bad")
        r = batch("--out", out, "--workers", "2", self.days[1], bad, self.days[3])
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertNotIn("Traceback", r.stderr)
        lines = r.stderr.splitlines()
        self.assertEqual(lines[-1], "itch5batch: failed days: bad.itch")
        self.assertTrue(any(line.startswith("itch5batch: bad.itch: itch5inside: error: ") and "truncated" in line
                            for line in lines), r.stderr)
        self.assertIn("3 days: 2 ok, 1 failed, 0 skipped", r.stderr)
        self.assertEqual(sorted(os.listdir(out)), ["all", "d2.itch", "d4.itch"])
        self.assertEqual(read(f"{out}/all/days.txt").decode().split(), ["d2.itch", "d4.itch"])
        for name in ("d2.itch", "d4.itch"):
            self.assertEqual(read(f"{out}/{name}/depth.csv"), read(f"{self.ref}/{name}/depth.csv"))

    def test_5_usage_errors(self):
        day = self.days[0]
        out = os.path.join(self.tmp, "out-usage")
        os.makedirs(os.path.join(self.tmp, "copy"), exist_ok=True)
        shutil.copy(day, os.path.join(self.tmp, "copy", os.path.basename(day)))
        with open(os.path.join(self.tmp, "a-file"), "w") as f:
            f.write("not a directory\n")
        for args, fragment in (([day], "--out"),
                               (["--out", out], "no DAY"),
                               (["--out", out, "--workers", "0", day], "--workers"),
                               (["--out", out, "--workers", "2", "--scheduler", "tcp://x:1", day], "--scheduler"),
                               (["--out", out, os.path.join(self.tmp, "missing.itch")], "missing.itch"),
                               (["--out", out, day, os.path.join(self.tmp, "copy", os.path.basename(day))],
                                "would both write"),
                               (["--out", os.path.join(self.tmp, "a-file"), day], "not a directory"),
                               (["--out", out, "--", "--stats", "x.csv", day], "--stats"),
                               (["--out", out, "--", "--no-such-option", day], "--no-such-option"),
                               (["--out", out, "--", "--book"], "--book"),
                               (["--no-such-flag"], "--no-such-flag")):
            r = batch(*args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertEqual(r.stdout, "")
            self.assertEqual(len(r.stderr.splitlines()), 1, (args, r.stderr))
            self.assertTrue(r.stderr.startswith("itch5batch: error: "), r.stderr)
            self.assertIn(fragment, r.stderr)
        self.assertFalse(os.path.exists(out))
        r = batch("--help")
        self.assertEqual(r.returncode, 0)
        for flag in ("--out", "--workers", "--scheduler", "--tools", "--retries", "--no-progress", "--redo",
                     "--config", "--print-config", "--version"):
            self.assertIn(flag, r.stdout)

    def test_6_inside_options_pass_through(self):
        with gzip.open(f"{self.ref}/d2.itch/inside.txt.gz", "rt") as f:
            ref = [line for line in f]
        chosen = sorted({line.split()[2] for line in ref})[:2]
        out = os.path.join(self.tmp, "out-opts")
        r = batch("--out", out, "--workers", "1", "--", "--book", "map", "--symbols", ",".join(chosen),
                  self.days[1])
        self.assertEqual(r.returncode, 0, r.stderr)
        with gzip.open(f"{out}/d2.itch/inside.txt.gz", "rt") as f:
            got = [line for line in f]
        self.assertEqual(got, [line for line in ref if line.split()[2] in chosen])
        self.assertGreater(len(got), 0)

    def test_7_changed_options_are_refused_or_redone_never_merged(self):
        out = os.path.join(self.tmp, "out-changed")
        first = batch("--out", out, "--workers", "1", "--", "--session", "regular", *self.days[:2])
        self.assertEqual(first.returncode, 0, first.stderr)
        summary = json.loads(read(f"{out}/d1.itch/summary.json"))
        self.assertEqual(summary["itch5inside_options"], ["--session", "regular"])
        version = subprocess.run([tool("itch5inside"), "--version"], capture_output=True, text=True,
                                 check=True).stdout.splitlines()[0]
        self.assertEqual(summary["itch5inside_version"], version)
        self.assertEqual(json.loads(read(f"{out}/all/record.json"))["itch5inside_options"],
                         ["--session", "regular"])
        merged = read(f"{out}/all/stats.csv")

        def files():
            return {os.path.join(r, f): read(os.path.join(r, f)) for r, _d, fs in os.walk(out) for f in fs}

        before = files()
        # Other options: refused before anything runs, naming the day and both records; nothing changes.
        for args in (["--", "--symbols", "AACQ", "--book", "map", *self.days[:2]],
                     self.days[:3]):  # a new day without options, beside the regular-session ones
            r = batch("--out", out, "--workers", "1", *args)
            self.assertEqual(r.returncode, 2, r.stderr)
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertIn("itch5batch: error: ", r.stderr)
            self.assertIn(os.path.join(out, "d1.itch"), r.stderr)
            self.assertIn("'--session regular'", r.stderr)
            self.assertIn("--redo", r.stderr)
            self.assertEqual(files(), before)
        # --redo runs them again with the new options and merges only days made so.
        r = batch("--out", out, "--workers", "1", "--redo", *self.days[:3])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("3 days: 3 ok, 0 failed, 0 skipped", r.stderr)
        for name in self.names()[:3]:
            self.assertEqual(json.loads(read(f"{out}/{name}/summary.json"))["itch5inside_options"], [])
            self.assertEqual(read(f"{out}/{name}/depth.csv"), read(f"{self.ref}/{name}/depth.csv"))
        self.assertNotEqual(read(f"{out}/all/stats.csv"), merged)
        self.assertEqual(json.loads(read(f"{out}/all/record.json"))["itch5inside_options"], [])
        self.assertEqual(sorted(os.listdir(out)), ["all", "d1.itch", "d2.itch", "d3.itch"])  # no leftovers

    def test_8_same_day_twice_runs_once(self):
        out = os.path.join(self.tmp, "out-twice")
        link = os.path.join(self.tmp, "link-to-d2.itch.gz")
        os.symlink(self.days[1], link)
        r = batch("--out", out, "--workers", "1", self.days[1], self.days[1], link)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("1 days: 1 ok, 0 failed, 0 skipped", r.stderr)
        self.assertEqual(sorted(os.listdir(out)), ["all", "d2.itch"])
        self.assertEqual(read(f"{out}/all/days.txt").decode().split(), ["d2.itch"])
        self.assertEqual(read(f"{out}/all/depth.csv"), read(f"{self.ref}/d2.itch/depth.csv"))

    def test_9_version_config_and_print_config(self):
        r = batch("--version")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout.splitlines()[0], r"^itch5batch \d+\.\d+\.\d+ \(commit \w+\)$")
        self.assertIn("dask distributed", r.stdout)
        out = os.path.join(self.tmp, "out-config")
        cfg = os.path.join(self.tmp, "batch.yaml")
        with open(cfg, "w") as f:
            f.write(f"out: {out}\nworkers: 2\nno-progress: true\ninside-options: [--book, map]\n"
                    f"days: [{self.days[0]}, {self.days[1]}]\n")
        r = batch("--config", cfg, "--workers", "1", "--print-config")
        self.assertEqual(r.returncode, 0, r.stderr)
        import yaml
        printed = yaml.safe_load(r.stdout)
        self.assertEqual(printed["out"], out)
        self.assertEqual(printed["workers"], 1)  # the flag overrides the file
        self.assertIs(printed["no-progress"], True)
        self.assertEqual(printed["inside-options"], ["--book", "map"])
        self.assertEqual(printed["days"], self.days[:2])
        self.assertFalse(os.path.exists(out))
        # What it printed is a config file with the same effect.
        again = os.path.join(self.tmp, "printed.yaml")
        with open(again, "w") as f:
            f.write(r.stdout)
        self.assertEqual(batch("--config", again, "--print-config").stdout, r.stdout)
        # Days and itch5inside options on the command line replace the file's.
        r = batch("--config", cfg, "--print-config", "--", "--symbols", "AAA", self.days[2])
        printed = yaml.safe_load(r.stdout)
        self.assertEqual(printed["inside-options"], ["--symbols", "AAA"])
        self.assertEqual(printed["days"], [self.days[2]])
        for text, fragment in (("bogus: 1\n", "key 'bogus': unknown option"),
                               ("workers: 0\n", "key 'workers'"),
                               ("out: a\nout: b\n", "key 'out' is repeated"),
                               ("inside-options: --book\n", "key 'inside-options'")):
            with open(cfg, "w") as f:
                f.write(text)
            r = batch("--config", cfg, self.days[0])
            self.assertEqual(r.returncode, 2, (text, r.stderr))
            self.assertEqual(len(r.stderr.splitlines()), 1, r.stderr)
            self.assertIn(fragment, r.stderr)

    def test_10_day_without_end_of_messages(self):
        # d3 (raw) cut exactly at a message boundary half way: it frames cleanly, but lacks its End of Messages
        # system event (S 'C'). It fails (named with itch5inside's warning) unless --allow-partial.
        data = read(self.days[2])
        at = 0
        while at < len(data) // 2:
            at += 2 + int.from_bytes(data[at:at + 2], "big")
        cut = os.path.join(self.tmp, "cut.itch")
        with open(cut, "wb") as f:
            f.write(data[:at])
        out = os.path.join(self.tmp, "out-cut")
        r = batch("--out", out, "--workers", "1", self.days[1], cut)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        lines = r.stderr.splitlines()
        self.assertEqual(lines[-1], "itch5batch: failed days: cut.itch")
        self.assertIn(f"itch5batch: cut.itch: itch5inside: warning: {cut}: no End of Messages system event (S 'C'): "
                      "the day is incomplete (cut short?); --allow-partial takes such days", lines)
        self.assertIn("2 days: 1 ok, 1 failed, 0 skipped", r.stderr)
        self.assertEqual(sorted(os.listdir(out)), ["all", "d2.itch"])
        with open(f"{out}/d2.itch/summary.json") as f:
            complete = json.load(f)
        self.assertEqual((complete["start_of_messages"], complete["end_of_messages"]), (True, True))

        r = batch("--out", out, "--workers", "1", "--allow-partial", self.days[1], cut)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("2 days: 1 ok, 0 failed, 1 skipped", r.stderr)
        with open(f"{out}/cut.itch/summary.json") as f:
            partial = json.load(f)
        self.assertEqual((partial["start_of_messages"], partial["end_of_messages"]), (True, False))
        self.assertEqual(read(f"{out}/all/days.txt").decode().split(), ["d2.itch", "cut.itch"])


if __name__ == "__main__":
    unittest.main()
