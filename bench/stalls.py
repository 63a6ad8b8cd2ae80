#!/usr/bin/env python3
"""The slowest messages of itch5inside on a generated day, in several runs: which stalls are the program's (issue 11 item 5).

  python3 bench/stalls.py                                 # the 400 M day (seed 1), 2 runs, 40 slowest each
  python3 bench/stalls.py --messages 20M --seed 3 --runs 3 --slowest 20

Runs `itch5inside -q --slowest N -o /dev/null FILE` (every message timed, from before decoding to after the
book update and output formatting) `--runs` times on the same itch5synth day (cached in bench/cache/). A stall
that comes back at the same message number in every run is the program's (a table growing, memory touched
for the first time); one that does not is the machine's (preemption, another process, the hypervisor).
Reported: each run's wall time, peak RSS and slowest messages, then the messages slow in every run with their
times, and the verdict on item 5's "max per-message processing < 1 ms outside preemption" (the slowest of the
recurring messages against --limit-us) and "peak memory < 500 MB".
"""
import argparse
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402  (print_header, parse_count, synth_day, require_tools, ROOT)


def run(argv):
    """Runs argv; returns (seconds, peak RSS bytes, stderr text)."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"stalls: error: {' '.join(argv)} failed:\n{err}")
    return elapsed, usage.ru_maxrss * 1024, err


def parse_slowest(err):
    """{message number: (type, microseconds)} from itch5inside --slowest's stderr."""
    out = {}
    lines = err.splitlines()
    start = next((i for i, l in enumerate(lines) if "slowest messages" in l), None)
    if start is None:
        sys.exit("stalls: error: itch5inside printed no --slowest list:\n" + err)
    for line in lines[start + 1:]:
        fields = line.split()
        if len(fields) != 3:
            break
        out[int(fields[0])] = (fields[1], float(fields[2]))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--messages", default="400M", help="messages of the generated day (default 400M)")
    p.add_argument("--seed", type=int, default=1, help="generator seed (default 1)")
    p.add_argument("--runs", type=int, default=2, help="runs (default 2; a stall must recur in all)")
    p.add_argument("--slowest", type=int, default=40, help="slowest messages kept per run (default 40)")
    p.add_argument("--limit-us", type=float, default=1000.0, help="item 5's limit in microseconds (default 1000)")
    p.add_argument("--book", default="array", help="itch5inside --book (default array)")
    p.add_argument("--build", default=os.path.join(e2e.ROOT, "build"), help="build directory (default build/)")
    p.add_argument("--cache-dir", default=e2e.CACHE_DIR,
                   help="where the generated days are kept (default bench/cache/)")
    args = p.parse_args()
    if args.runs < 2:
        sys.exit("stalls: error: --runs must be at least 2 (a stall is the program's when it recurs)")
    messages = e2e.parse_count(args.messages)
    tools = os.path.join(args.build, "tools")
    e2e.require_tools(tools, ("itch5synth", "itch5inside"), "stalls")
    os.makedirs(args.cache_dir, exist_ok=True)
    day = e2e.synth_day(tools, os.path.join(args.cache_dir, f"synth-{messages}-seed{args.seed}.itch"), messages,
                        args.seed, [], "stalls")
    argv = [os.path.join(tools, "itch5inside"), "-q", "--book", args.book, "--slowest", str(args.slowest),
            "-o", "/dev/null", day]

    runs = []
    for i in range(args.runs):
        secs, rss, err = run(argv)
        runs.append((secs, rss, parse_slowest(err)))
        print(f"stalls: run {i + 1}/{args.runs} done ({secs:.1f} s)", file=sys.stderr)

    e2e.print_header("python3 bench/stalls.py " + " ".join(sys.argv[1:]), args.build)
    print(f"- input: {os.path.basename(day)} ({messages:,} messages), book {args.book}")
    print(f"- command: `itch5inside -q --book {args.book} --slowest {args.slowest} -o /dev/null FILE`, "
          f"{args.runs} runs\n")
    print("| run | wall s | peak RSS MB | slowest messages (number type us) |")
    print("|---:|---:|---:|---|")
    for i, (secs, rss, slow) in enumerate(runs):
        top = sorted(slow.items(), key=lambda kv: -kv[1][1])[:8]
        listed = ", ".join(f"{n} {t} {us:,.0f}" for n, (t, us) in top)
        print(f"| {i + 1} | {secs:.1f} | {rss / 2**20:.0f} | {listed} |")

    recurring = set(runs[0][2])
    for _, _, slow in runs[1:]:
        recurring &= set(slow)
    print(f"\nMessages among the {args.slowest} slowest of every run (the program's stalls):\n")
    if recurring:
        print("| message | type | " + " | ".join(f"run {i + 1} us" for i in range(len(runs))) + " |")
        print("|---:|---|" + "---:|" * len(runs))
        for n in sorted(recurring, key=lambda n: -min(r[2][n][1] for r in runs)):
            print(f"| {n} | {runs[0][2][n][0]} | " + " | ".join(f"{r[2][n][1]:,.1f}" for r in runs) + " |")
    else:
        print("none")
    # A recurring stall counts at its quickest run: the rest of a slower run is the machine's.
    program_max = max((min(r[2][n][1] for r in runs) for n in recurring), default=0.0)
    machine_max = max(us for _, _, slow in runs for _, us in slow.values())
    peak_mb = max(rss for _, rss, _ in runs) / 2**20
    recurring_text = f"{program_max:,.1f} us" if recurring else "none"
    print(f"\nSlowest recurring message: {recurring_text} (limit {args.limit_us:,.0f} us: "
          f"{'met' if program_max < args.limit_us else 'NOT met'}); slowest in any run: {machine_max:,.1f} us; "
          f"peak RSS {peak_mb:.0f} MB (limit 500 MB: {'met' if peak_mb < 500 else 'NOT met'}).")


if __name__ == "__main__":
    main()
