#!/usr/bin/env python3
"""Order-reference patterns and day shapes: itch5inside on the same generated day with references numbered
four ways, and on days of other shapes, each next to the typical day (sequential references, the default
shape) measured in the same run (issue 11: no pattern or shape may fall off a cliff; the target is within 2x
of the typical day).

  bench/patterns.py                       # 2 M messages, 5 runs of each case, array and map books
  bench/patterns.py --messages 20M --runs 3 --books array
  bench/patterns.py --cases sequential,hot,deep

Reference patterns come from `itch5synth --references PATTERN` with one seed: only the reference numbers
differ (the generator draws them from a stream of their own), so their ratio is the cost of the pattern
alone. The shapes change the day itself, with the same number of messages:
  symbols10k  10,000 symbols (--symbols 10000): books spread thin, more of them cold;
  hot         one symbol with half of all trading messages (--hot-share 0.5): one deep, busy book;
  deep        books thousands of levels deep (--symbols 10 --depth-scale 20: orders added 20x further
              from the inside than on a real day, removed as close to it as on a real day; 2,500 levels on
              one side at 2 M messages).
The runs of all cases are interleaved (round robin), so a slow drift of a shared machine hits all alike.
Reported per case and book: median and minimum wall time, ns/message at the median, peak RSS, and the
ratio of the median to the typical day's median.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402  (run_timed, machine_info, parse_count)

# Case name -> itch5synth arguments. "sequential" is the typical day every other case is compared with.
CASES = {
    "sequential": ["--references", "sequential"],
    "gapped": ["--references", "gapped"],
    "random": ["--references", "random"],
    "reuse": ["--references", "reuse"],
    "symbols10k": ["--symbols", "10000"],
    "hot": ["--hot-share", "0.5"],
    "deep": ["--symbols", "10", "--depth-scale", "20"],
}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--messages", default="2M", help="messages per generated day (default 2M)")
    p.add_argument("--seed", type=int, default=3, help="generator seed (default 3)")
    p.add_argument("--runs", type=int, default=5, help="runs of each configuration (default 5)")
    p.add_argument("--books", default="array,map", help="book types, comma-separated (default array,map)")
    p.add_argument("--cases", default=",".join(CASES),
                   help="cases, comma-separated, sequential always included (default: all: " + ",".join(CASES) + ")")
    p.add_argument("--build", default=os.path.join(e2e.ROOT, "build"), help="build directory (default build/)")
    p.add_argument("--cache-dir", default=e2e.CACHE_DIR,
                   help="where the generated days are kept (default bench/cache/)")
    args = p.parse_args()
    messages = e2e.parse_count(args.messages)
    tools = os.path.join(args.build, "tools")
    e2e.require_tools(tools, ("itch5synth", "itch5inside"), "patterns")
    os.makedirs(args.cache_dir, exist_ok=True)

    cases = ["sequential"] + [c for c in args.cases.split(",") if c and c != "sequential"]
    for c in cases:
        if c not in CASES:
            sys.exit(f"patterns: error: unknown case '{c}' (known: {', '.join(CASES)})")
    files = {case: e2e.synth_day(tools, os.path.join(args.cache_dir, f"synth-{messages}-seed{args.seed}-{case}.itch"),
                                 messages, args.seed, CASES[case], "patterns")
             for case in cases}

    books = [b for b in args.books.split(",") if b]
    commands = {(b, pat): [os.path.join(tools, "itch5inside"), "-q", "--book", b, "-o", "/dev/null", files[pat]]
                for b in books for pat in cases}
    times, rss = e2e.interleaved_runs(commands, args.runs, "patterns")

    e2e.print_header(f"bench/patterns.py --messages {args.messages} --seed {args.seed} --runs {args.runs} "
                     f"--books {args.books} --cases {','.join(cases)}", args.build)
    print("| book | case | median s | min s | ns/msg | peak RSS | vs sequential |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for b in books:
        base = statistics.median(times[(b, "sequential")])
        for pat in cases:
            t = times[(b, pat)]
            med = statistics.median(t)
            print(f"| {b} | {pat} | {med:.3f} | {min(t):.3f} | {med * 1e9 / messages:.0f} | "
                  f"{rss[(b, pat)] / 1e6:.0f} MB | {med / base:.2f}x |")


if __name__ == "__main__":
    main()
