#!/usr/bin/env python3
"""itch5batch on 1 worker against N workers (issue 13, part 4): the speed-up of running days in parallel.

  bench/batch.py                              # 8 days of 2M messages, 1 vs 2 workers, 3 runs each
  bench/batch.py --days 8 --messages 5M --workers 1,2 --runs 3

The days are generated once with itch5synth (gzip, seeds 1..--days) and cached in bench/cache/batch/. Each
run writes into a fresh output directory (nothing is skipped); the configurations are interleaved (round
robin), so slow drifts of a shared machine hit all of them alike. Reported per worker count: the median and
minimum wall time of the whole command (local cluster start-up and the merge included), aggregate
messages/s at the median, and the speed-up over the first worker count. itch5batch itself is run by the
interpreter of its shebang (/usr/bin/python3 with python3-distributed).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def count(text):
    text = text.strip().upper()
    scale = {"K": 1_000, "M": 1_000_000, "G": 1_000_000_000}.get(text[-1:], 1)
    return int(float(text[:-1] if scale > 1 else text) * scale)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory (default: build/)")
    parser.add_argument("--days", type=int, default=8, help="days to generate (default: 8)")
    parser.add_argument("--messages", default="2M", help="messages per day (default: 2M)")
    parser.add_argument("--workers", default="1,2", help="worker counts to compare (default: 1,2)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each worker count (default: 3)")
    parser.add_argument("--cache-dir", default=os.path.join(ROOT, "bench", "cache", "shaped", "batch"))
    args = parser.parse_args()
    tools = os.path.join(args.build, "tools")
    batch = os.path.join(tools, "itch5batch")
    for program in ("itch5synth", "itch5inside", "itch5stats", "itch5batch"):
        if not os.access(os.path.join(tools, program), os.X_OK):
            sys.exit(f"batch.py: no {os.path.join(tools, program)}: build first (scripts/build)")
    messages = count(args.messages)
    os.makedirs(args.cache_dir, exist_ok=True)
    days = []
    for seed in range(1, args.days + 1):
        path = os.path.join(args.cache_dir, f"day{seed}-{messages}.itch.gz")
        if not os.path.exists(path):
            print(f"generating {path}", file=sys.stderr)
            subprocess.run([os.path.join(tools, "itch5synth"), "--messages", str(messages), "--seed", str(seed),
                            path], check=True, stderr=subprocess.DEVNULL)
        days.append(path)
    workers = [int(w) for w in args.workers.split(",")]
    times = {w: [] for w in workers}
    scratch = tempfile.mkdtemp(prefix="itch5batch_bench.")
    try:
        for run in range(args.runs):
            for w in workers:
                out = os.path.join(scratch, f"out-{w}-{run}")
                start = time.monotonic()
                proc = subprocess.run([batch, "--out", out, "--workers", str(w), "--no-progress", *days],
                                      capture_output=True, text=True)
                elapsed = time.monotonic() - start
                if proc.returncode != 0:
                    sys.exit(f"batch.py: itch5batch failed:\n{proc.stderr}")
                times[w].append(elapsed)
                print(f"run {run + 1}: {w} worker(s): {elapsed:.2f} s", file=sys.stderr)
                shutil.rmtree(out)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    total = messages * len(days)
    print(f"{len(days)} days of {messages:,} messages (gzip), {args.runs} runs each, {os.cpu_count()} cores")
    print(f"{'workers':>7}  {'median s':>9}  {'min s':>7}  {'M msg/s':>8}  {'speed-up':>8}")
    base = statistics.median(times[workers[0]])
    for w in workers:
        median = statistics.median(times[w])
        print(f"{w:>7}  {median:>9.2f}  {min(times[w]):>7.2f}  {total / median / 1e6:>8.2f}  {base / median:>8.2f}")


if __name__ == "__main__":
    main()
