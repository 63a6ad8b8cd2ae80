#!/usr/bin/env python3
"""End-to-end benchmark of itch5inside and the decoder on a generated day, next to baselines measured in
the same run.

  bench/e2e.py                          # 50 M messages, 3 runs of every configuration
  bench/e2e.py --messages 400M --runs 2 # a full-size day
  bench/e2e.py --suite decoder --messages 20M
  bench/e2e.py --suite inside --books array --messages 20M --seed 3 --threads 2   # + book threads
  bench/e2e.py --suite inside --books array --messages 20M --seed 3 --baseline-build ../old/build
                                        # against a build of another commit, same run
  bench/e2e.py --suite job --books array --messages 20M --seed 3 [--baseline-build ../old/build]
                                        # the whole job: outputs to files, statistics, depth, .gz/.zst output
  bench/e2e.py --suite lobster --day /work/days/d5M.itch --no-build
                                        # itch5lobster for 10 symbols against itch5inside (inside only)

The synthetic day is generated once with itch5synth (deterministic for --seed) and cached in bench/cache/shaped/
together with a gzip copy (gzip -6). Every run of every configuration is interleaved with the others
(round robin), so slow drifts of a shared machine hit all of them alike. Reported per configuration: the
median and minimum wall time, messages/s and ns/message at the median, peak RSS (from wait4), and the ratio
to its baseline: `cat FILE > /dev/null` for raw input, `zcat FILE.gz > /dev/null` (the decompression floor)
for gzip input. The job suite runs what users run (README's first example and its parts: an inside file,
--stats, --stats-events all, --depth, compressed outputs), each against `itch5inside` of the same input with
no output (> /dev/null), the engine alone; outputs go to a scratch folder in the cache (job-out*), emptied
after every run (--keep-outputs: each run overwrites the last, and the last stays), so that one row's
outputs (5 GB for --book-levels) neither fill a tmpfs cache nor are written back to a disk while the next
rows run. A separate run per book type with --stats (all book events sampled) gives the per-event
processing latency quantiles from the __aggregate__ row (what a message's time covers: docs/formats.md,
"Processing"; one time-stamp counter reading per message with a decode thread).
"""
import argparse
import csv
import datetime
import io
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Generated days, by message count and seed. A folder per generator shape: days of an earlier itch5synth
# (before its days spread over the session's shape and took real names) are not reused.
CACHE_DIR = os.path.join(ROOT, "bench", "cache", "shaped")


def parse_count(text):
    mult = {"k": 10**3, "K": 10**3, "M": 10**6, "G": 10**9}
    if text[-1] in mult:
        return int(float(text[:-1]) * mult[text[-1]])
    return int(text)


def run_timed(argv, stdin_path=None, stdout=subprocess.DEVNULL):
    """Runs argv; returns (seconds, peak RSS bytes, stdout text if captured)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    out = subprocess.PIPE if stdout is None else stdout
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdin=stdin, stdout=out, stderr=subprocess.PIPE)
    captured = p.stdout.read() if out == subprocess.PIPE else b""
    err = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    if stdin_path:
        stdin.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"e2e: {' '.join(argv)} failed with status {code}:\n{err.decode(errors='replace')}")
    return elapsed, usage.ru_maxrss * 1024, captured.decode(errors="replace")


def require_tools(tools, names, label):
    """Exits with one line naming the first program of `names` missing from the directory `tools`."""
    for name in names:
        if not os.access(os.path.join(tools, name), os.X_OK):
            sys.exit(f"{label}: error: {os.path.join(tools, name)} not found; build first (scripts/build)")


def synth_day(tools, path, messages, seed, extra, label):
    """Writes `itch5synth --messages M --seed S EXTRA` to `path` unless it exists: under a temporary name, renamed
    once complete, so an interrupted run never leaves a half day in the cache. Returns `path`."""
    if not os.path.exists(path):
        print(f"{label}: generating {path}", file=sys.stderr)
        subprocess.run([os.path.join(tools, "itch5synth"), "-q", "--messages", str(messages), "--seed", str(seed)] +
                       list(extra) + ["-o", path + ".tmp"], check=True)
        os.rename(path + ".tmp", path)
    return path


def interleaved_runs(commands, runs, label):
    """Runs every argv of `commands` (a dict: key -> argv) once per round, in its order, for `runs` rounds, so
    a slow drift of a shared machine hits all alike. Returns ({key: [seconds, ...]}, {key: peak RSS bytes})."""
    times = {key: [] for key in commands}
    rss = {}
    for run in range(runs):
        for key, argv in commands.items():
            secs, peak, _ = run_timed(argv)
            times[key].append(secs)
            rss[key] = max(rss.get(key, 0), peak)
        print(f"{label}: run {run + 1}/{runs} done", file=sys.stderr)
    return times, rss


def print_header(command, build):
    """The Markdown results' first lines: the command, then the machine (machine_info), then a blank line."""
    print(f"# {command}")
    for k, v in machine_info(build).items():
        print(f"# {k}: {v}")
    print()


def machine_info(build):
    info = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info["cores"] = str(os.cpu_count())
    info["kernel"] = platform.release()
    info["date"] = datetime.datetime.now().isoformat(timespec="seconds")
    try:
        info["commit"] = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                                        text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        if dirty:
            info["commit"] += " (uncommitted changes)"
    except (OSError, subprocess.CalledProcessError):
        info["commit"] = "?"
    cache = os.path.join(build, "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache) as f:
            for line in f:
                for key in ("CMAKE_CXX_COMPILER:", "CMAKE_BUILD_TYPE:", "ITCH5_NATIVE:", "ITCH5_WITH_ISAL:"):
                    if line.startswith(key):
                        info[key.rstrip(":").lower()] = line.split("=", 1)[1].strip()
    # ITCH5_WITH_ISAL=AUTO resolves at configure time: the programs know what the build has.
    tool = os.path.join(build, "tools", "itch5inside")
    if os.access(tool, os.X_OK):
        version = subprocess.run([tool, "--version"], capture_output=True, text=True).stdout
        for part in version.replace(";", ",").replace("\n", ",").split(","):
            if part.strip().startswith("build options: ITCH5_WITH_ISAL=") or part.strip().startswith("ITCH5_WITH_ISAL="):
                info["itch5_with_isal"] = part.split("ITCH5_WITH_ISAL=", 1)[1].split()[0]
    return info


def ensure_data(args, tools):
    os.makedirs(args.cache_dir, exist_ok=True)
    base = os.path.join(args.cache_dir, f"synth-{args.messages}-seed{args.seed}.itch")
    if not os.path.exists(base):
        print(f"e2e: generating {base} ({args.messages} messages, seed {args.seed})", file=sys.stderr)
        subprocess.run([os.path.join(tools, "itch5synth"), "--messages", str(args.messages), "--seed", str(args.seed),
                        "-o", base + ".tmp"], check=True)
        os.rename(base + ".tmp", base)
    gz = base + ".gz"
    if not args.no_gzip and not os.path.exists(gz):
        print(f"e2e: compressing {gz} (gzip -6)", file=sys.stderr)
        with open(base, "rb") as src, open(gz + ".tmp", "wb") as dst:
            subprocess.run(["gzip", "-6", "-c"], stdin=src, stdout=dst, check=True)
        os.rename(gz + ".tmp", gz)
    counts = base + ".count"
    if not os.path.exists(counts):
        _, _, out = run_timed([os.path.join(tools, "itch5cat"), "--counts", "-q", base], stdout=None)
        total = [line.split()[1] for line in out.splitlines() if line.startswith("total ")][0]
        with open(counts, "w") as f:
            f.write(total + "\n")
    with open(counts) as f:
        return base, gz, int(f.read())


def latency(tools, book, raw):
    _, _, out = run_timed([os.path.join(tools, "itch5inside"), "-q", "--book", book, "--stats", "-",
                           "--stats-events", "all", "-o", "/dev/null", raw], stdout=None)
    rows = list(csv.DictReader(io.StringIO(out)))
    agg = [r for r in rows if r["Name"] == "__aggregate__"][0]
    return {k: int(agg[k]) for k in ("p50Processing", "p99Processing", "p999Processing", "maxProcessing")}


# The whole job's rows (issue: "every output at the engine's speed"): (label, itch5inside flags, input kind).
JOB_ROWS = [
    ("> /dev/null", [], "raw"),
    ("-o inside.txt", ["-o", "{d}/inside.txt"], "raw"),
    ("--stats", ["--stats", "{d}/s.csv"], "raw"),
    ("--stats --stats-events all", ["--stats", "{d}/s.csv", "--stats-events", "all"], "raw"),
    ("--depth", ["--depth", "{d}/d.csv"], "raw"),
    # --trades (issue 32): the trades table, and with its statistics, beside the inside-only run
    ("--trades", ["--trades", "{d}/trades.csv"], "raw"),
    ("--trades --trade-stats", ["--trades", "{d}/trades.csv", "--trade-stats", "{d}/trade-stats.csv"], "raw"),
    ("--book-levels --levels 10", ["--book-levels", "{d}/levels.csv", "--levels", "10"], "raw"),
    # the same table formatted but not kept: the 5 GB file's row also times how fast the kernel gives the
    # tmpfs its pages (5.4 s to 10.5 s for the same build), this one only the program
    ("--book-levels /dev/null --levels 10", ["--book-levels", "/dev/null", "--levels", "10"], "raw"),
    ("-o inside.txt.gz", ["-o", "{d}/inside.txt.gz"], "raw"),
    ("-o inside.txt.gz --gzip-level 6", ["-o", "{d}/inside.txt.gz", "--gzip-level", "6"], "raw"),
    ("-o inside.txt.zst", ["-o", "{d}/inside.txt.zst"], "raw"),
    ("> /dev/null", [], "gz"),
    ("-o inside.txt.gz --stats --depth", ["-o", "{d}/inside.txt.gz", "--stats", "{d}/s.csv", "--depth", "{d}/d.csv"],
     "gz"),
    ("-o inside.txt.gz --stats --stats-events all --depth",
     ["-o", "{d}/inside.txt.gz", "--stats", "{d}/s.csv", "--stats-events", "all", "--depth", "{d}/d.csv"], "gz"),
]


# itch5lobster's rows: the LOBSTER files of 10 symbols, 10 levels, against itch5inside of the same day, inside
# lines only, > /dev/null. itch5synth's directory names its symbols busiest first: the 10 busiest (on a
# generated day about half of all messages: the worst case) and the 10 ranked 101-110 (a few % of them).
LOBSTER_SYMBOLS = {"10 busiest symbols": "SPY,QQQ,AAPL,MSFT,AMD,AMZN,IWM,FB,NVDA,TSLA",
                   "symbols ranked 101-110": "IEFA,EA,BLK,AGG,JD,TGT,BND,BIDU,LOW,EWZ"}


def lobster_configs(tools, book, raw, cache_dir):
    scratch = os.path.join(cache_dir, "lobster-out")
    os.makedirs(scratch, exist_ok=True)
    SCRATCH_DIRS.add(scratch)
    base = "itch5inside raw > /dev/null (inside only)"
    return [(base, [os.path.join(tools, "itch5inside"), "-q", "--book", book, raw], None)] + \
        [(f"itch5lobster raw, {label}, --levels 10",
          [os.path.join(tools, "itch5lobster"), "-q", "--book", book, "--symbols", symbols, "--levels", "10",
           "--date", "2019-01-30", "--out", scratch, raw], base) for label, symbols in LOBSTER_SYMBOLS.items()]


# The folders that job and lobster rows write their outputs to (emptied after every run unless --keep-outputs).
SCRATCH_DIRS = set()


def empty_scratch():
    """Removes what the runs wrote into the scratch folders (the folders stay)."""
    for d in SCRATCH_DIRS:
        for entry in os.scandir(d):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)


def job_configs(tools, book, extra, raw, gz, cache_dir, suffix):
    """The job suite's configurations for the programs in `tools`: each row against the same build's
    `itch5inside` of the same input with no output. A baseline build's rows (suffix) compare with its own
    first rows, so both builds' ratios come from the same run."""
    scratch = os.path.join(cache_dir, "job-out" + suffix.replace(" ", "_").replace("(", "").replace(")", ""))
    os.makedirs(scratch, exist_ok=True)
    SCRATCH_DIRS.add(scratch)
    out = []
    for label, flags, kind in JOB_ROWS:
        if "--gzip-level" in flags and suffix:
            continue  # older builds had one gzip engine: their -o .gz row is already zlib at level 6
        if ".zst" in label and suffix:
            continue
        name = f"itch5inside {kind} {label}{suffix}"
        base = f"itch5inside {kind} > /dev/null{suffix}"
        argv = [os.path.join(tools, "itch5inside"), "-q", "--book", book] + extra + \
            [f.format(d=scratch) for f in flags] + [raw if kind == "raw" else gz]
        out.append((name, argv, None if name == base else base))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--messages", type=parse_count, default=parse_count("50M"), help="messages in the day (50M)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3, help="runs of every configuration (3)")
    ap.add_argument("--books", default="array,map", help="book types to measure (array,map)")
    ap.add_argument("--suite", choices=["inside", "decoder", "job", "lobster", "all"], default="all")
    ap.add_argument("--day", help="an existing raw day to measure instead of a generated one; the gzip rows "
                    "read DAY.gz if it is there (else none)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cache-dir", default=CACHE_DIR)
    ap.add_argument("--no-build", action="store_true", help="use the existing build")
    ap.add_argument("--threads", default="",
                    help="also itch5inside --threads N for these N (e.g. 2,3), the ratio to the same run with "
                         "--threads 1 (the default runs)")
    ap.add_argument("--extra", default="", help="extra itch5inside flags for every itch5inside run")
    ap.add_argument("--save", help="also write the report to this file")
    ap.add_argument("--keep-outputs", action="store_true",
                    help="keep the job and lobster rows' outputs in the cache's scratch folders (each run "
                         "overwrites the last) instead of removing them after every run")
    ap.add_argument("--no-gzip", action="store_true", help="raw input only (no gzip copy, no gzip runs): "
                                                              "for memory measurements on very large days")
    ap.add_argument("--baseline-build", help="another build (e.g. of an older commit) whose itch5inside runs next to "
                                             "this one's, interleaved, with the ratio of the two")
    ap.add_argument("--isal-build", help="a build configured with -DITCH5_WITH_ISAL=ON: adds its gzip runs with "
                                         "--inflate isal and --inflate zlib, next to the same baselines")
    args = ap.parse_args()

    if not args.no_build:
        subprocess.run([os.path.join(ROOT, "scripts", "build")], check=True,
                       env=dict(os.environ, ITCH5_BUILD_DIR=args.build_dir), stdout=subprocess.DEVNULL)
    tools = os.path.join(args.build_dir, "tools")
    if args.day:
        raw, gz = args.day, args.day + ".gz"
        if not os.path.exists(gz):
            args.no_gzip = True  # the gzip rows need the day's gzip copy beside it
        _, _, counted = run_timed([os.path.join(tools, "itch5cat"), "--counts", "-q", raw], stdout=None)
        messages = int([line.split()[1] for line in counted.splitlines() if line.startswith("total ")][0])
    else:
        raw, gz, messages = ensure_data(args, tools)
    books = [b for b in args.books.split(",") if b]
    extra = args.extra.split()

    configs = [("cat raw (baseline)", ["cat", raw], None), ("zcat gz (baseline)", ["zcat", gz], None)]
    if args.suite in ("decoder", "all"):
        configs += [("itch5cat --decode raw", [os.path.join(tools, "itch5cat"), "--decode", "-q", raw], "cat raw (baseline)"),
                    ("itch5cat --decode gz", [os.path.join(tools, "itch5cat"), "--decode", "-q", gz], "zcat gz (baseline)")]
    if args.suite in ("inside", "all"):
        for b in books:
            configs.append((f"itch5inside --book {b} raw", [os.path.join(tools, "itch5inside"), "-q", "--book", b] + extra + [raw],
                            "cat raw (baseline)"))
            configs.append((f"itch5inside --book {b} gz", [os.path.join(tools, "itch5inside"), "-q", "--book", b] + extra + [gz],
                            "zcat gz (baseline)"))
            for n in [t for t in args.threads.split(",") if t]:
                for kind, path in (("raw", raw), ("gz", gz)):
                    configs.append((f"itch5inside --book {b} --threads {n} {kind}",
                                    [os.path.join(tools, "itch5inside"), "-q", "--book", b, "--threads", n] + extra +
                                    [path], f"itch5inside --book {b} {kind}"))

    if args.suite == "job":
        configs += job_configs(tools, books[0], extra, raw, gz, args.cache_dir, "")
        if args.baseline_build:
            configs += job_configs(os.path.join(args.baseline_build, "tools"), books[0], extra, raw, gz,
                                   args.cache_dir, " (baseline build)")

    if args.suite == "lobster":
        configs = [c for c in configs if c[0] == "cat raw (baseline)"] + \
            lobster_configs(tools, books[0], raw, args.cache_dir)

    if args.baseline_build and args.suite in ("inside", "all"):
        btools = os.path.join(args.baseline_build, "tools")
        for b in books:
            for kind, path in (("raw", raw), ("gz", gz)):
                configs.append((f"itch5inside --book {b} {kind} (baseline build)",
                                [os.path.join(btools, "itch5inside"), "-q", "--book", b] + extra + [path],
                                f"itch5inside --book {b} {kind}"))

    if args.isal_build:
        itools = os.path.join(args.isal_build, "tools")
        for lib in ("zlib", "isal"):
            if args.suite in ("decoder", "all"):
                configs.append((f"itch5cat --decode gz --inflate {lib} (ISA-L build)",
                                [os.path.join(itools, "itch5cat"), "--decode", "-q", "--inflate", lib, gz],
                                "zcat gz (baseline)"))
            if args.suite in ("inside", "all"):
                configs.append((f"itch5inside --book {books[0]} gz --inflate {lib} (ISA-L build)",
                                [os.path.join(itools, "itch5inside"), "-q", "--book", books[0], "--inflate", lib] +
                                extra + [gz], "zcat gz (baseline)"))

    if args.no_gzip:
        configs = [c for c in configs if " gz" not in c[0]]

    run_timed(["cat", raw])  # warm the page cache
    times = {name: [] for name, _, _ in configs}
    rss = {name: 0 for name, _, _ in configs}
    for r in range(args.runs):
        for name, argv, _ in configs:
            t, m, _ = run_timed(argv)
            if not args.keep_outputs:
                empty_scratch()
            times[name].append(t)
            rss[name] = max(rss[name], m)
            print(f"e2e: run {r + 1}/{args.runs} {name}: {t:.2f} s", file=sys.stderr)

    info = machine_info(args.build_dir)
    out = io.StringIO()
    out.write(f"# itch5 end-to-end benchmark\n\n")
    for k, v in info.items():
        out.write(f"- {k}: {v}\n")
    gz_size = f"{os.path.getsize(gz) / 1e9:.2f} GB gzip" if os.path.exists(gz) else "no gzip copy"
    out.write(f"- input: {os.path.basename(raw)} ({messages:,} messages, {os.path.getsize(raw) / 1e9:.2f} GB raw, "
              f"{gz_size})\n")
    out.write(f"- runs per configuration: {args.runs} (interleaved); times are wall clock\n\n")
    out.write("| configuration | median s | min s | M msg/s | ns/msg | peak RSS MB | ratio to baseline |\n")
    out.write("|---|---:|---:|---:|---:|---:|---:|\n")
    med = {name: statistics.median(v) for name, v in times.items()}
    for name, _, baseline in configs:
        ratio = f"{med[name] / med[baseline]:.2f}x {baseline.split()[0]}" if baseline else ""
        if baseline and "> /dev/null" in baseline:  # job and lobster suites: the cost of the outputs over the engine
            ratio = f"{med[name] / med[baseline]:.2f}x `{baseline}`"
        elif baseline and baseline.startswith("itch5inside"):  # book threads: the speed-up over one thread
            ratio = f"{med[baseline] / med[name]:.2f}x as fast as --threads 1"
        job_row = "> /dev/null" in name or (baseline is not None and "> /dev/null" in baseline)
        if name.endswith("(baseline build)") and not job_row:  # this build against the other one
            ratio = f"this build {med[name] / med[baseline]:.2f}x as fast"
        out.write(f"| {name} | {med[name]:.2f} | {min(times[name]):.2f} | {messages / med[name] / 1e6:.1f} | "
                  f"{med[name] * 1e9 / messages:.1f} | {rss[name] / 1e6:.0f} | {ratio} |\n")
    if args.suite in ("inside", "all"):
        out.write("\nPer-event processing latency, all book events, raw input (`--stats - --stats-events all`; includes "
                  "one clock reading per message; docs/formats.md, Processing):\n\n| book | p50 ns | p99 ns | p99.9 ns | max ns |\n|---|---:|---:|---:|---:|\n")
        for b in books:
            lat = latency(tools, b, raw)
            out.write(f"| {b} | {lat['p50Processing']} | {lat['p99Processing']} | {lat['p999Processing']} | "
                      f"{lat['maxProcessing']} |\n")
    report = out.getvalue()
    print(report)
    if args.save:
        with open(args.save, "w") as f:
            f.write(report)


if __name__ == "__main__":
    main()
