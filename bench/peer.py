#!/usr/bin/env python3
"""itch5inside next to a peer, itch-book (PyPI), on the same generated day, in the same run (issue 11 item 6).

  /usr/bin/python3 bench/peer.py                          # 20 M messages, 3 interleaved runs of each
  /usr/bin/python3 bench/peer.py --messages 2M --runs 5 --inputs raw,gz

The peer: itch-book's Feed(...).batches(tables=("bbo",)), its fastest way to the best bid and offer of every
symbol after every change (a C++ core behind a Python loop over 8 MB chunks; the rows are taken in batches of
a million and dropped), installed from PyPI into a virtual environment of its own (bench/cache/venv-itch-book,
made on first use with `python3 -m venv` and `pip install itch-book==VERSION`; needs the network once).
Ours: `itch5inside -q -o /dev/null FILE`, the inside lines formatted and written, on the same file.

Both read the same itch5synth day (cached in bench/cache/), raw and, with --inputs raw,gz, gzip -6. The runs
are interleaved (round robin), so a slow drift of a shared machine hits both alike. Reported per tool and
input: median and minimum wall time, M messages/s, peak RSS, the rows each produced (inside lines; BBO rows),
and the ratio peer / itch5inside of the medians (> 1: itch5inside is faster).
"""
import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402  (run_timed, interleaved_runs, print_header, parse_count, ROOT)

# Run by the venv's interpreter: every BBO row of the file, counted; prints the count.
PEER_RUNNER = """
import datetime, sys
import itch_book
rows = 0
with itch_book.Feed(sys.argv[1], date=datetime.date(2019, 1, 30)) as feed:
    for batch in feed.batches(tables=("bbo",), rows=1_000_000):
        rows += len(batch.bbo["ts_event"])
print(rows)
"""


def ensure_venv(venv, version):
    python = os.path.join(venv, "bin", "python")
    probe = [python, "-c", "import importlib.metadata as m; print(m.version('itch-book'))"]
    if os.access(python, os.X_OK):
        have = subprocess.run(probe, capture_output=True, text=True)
        if have.returncode == 0 and have.stdout.strip() == version:
            return python
    print(f"peer: installing itch-book=={version} into {venv}", file=sys.stderr)
    subprocess.run(["/usr/bin/python3", "-m", "venv", venv], check=True)
    pip = subprocess.run([python, "-m", "pip", "install", "-q", f"itch-book=={version}"])
    if pip.returncode != 0:
        sys.exit(f"peer: error: pip could not install itch-book=={version} (no network?); the venv is {venv}")
    return python


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--messages", default="20M", help="messages of the generated day (default 20M)")
    p.add_argument("--seed", type=int, default=3, help="generator seed (default 3)")
    p.add_argument("--runs", type=int, default=3, help="runs of each configuration (default 3)")
    p.add_argument("--inputs", default="raw", help="raw, gz or raw,gz (default raw)")
    p.add_argument("--itch-book", default="0.2.1", help="itch-book version from PyPI (default 0.2.1)")
    p.add_argument("--build", default=os.path.join(e2e.ROOT, "build"), help="build directory (default build/)")
    p.add_argument("--cache-dir", default=e2e.CACHE_DIR,
                   help="where the generated days and the venv are kept (default bench/cache/)")
    args = p.parse_args()
    messages = e2e.parse_count(args.messages)
    tools = os.path.join(args.build, "tools")
    e2e.require_tools(tools, ("itch5synth", "itch5inside"), "peer")
    inputs = [i for i in args.inputs.split(",") if i]
    if not inputs or any(i not in ("raw", "gz") for i in inputs):
        sys.exit(f"peer: error: --inputs takes raw, gz or raw,gz, got '{args.inputs}'")
    os.makedirs(args.cache_dir, exist_ok=True)
    python = ensure_venv(os.path.join(args.cache_dir, "venv-itch-book"), args.itch_book)

    raw = e2e.synth_day(tools, os.path.join(args.cache_dir, f"synth-{messages}-seed{args.seed}.itch"), messages,
                        args.seed, [], "peer")
    files = {"raw": raw}
    if "gz" in inputs:
        files["gz"] = raw + ".gz"
        if not os.path.exists(files["gz"]):
            print(f"peer: compressing {files['gz']}", file=sys.stderr)
            with open(files["gz"] + ".tmp", "wb") as out:
                subprocess.run(["gzip", "-6", "-c", raw], stdout=out, check=True)
            os.rename(files["gz"] + ".tmp", files["gz"])

    commands = {}
    for i in inputs:
        commands[("itch5inside", i)] = [os.path.join(tools, "itch5inside"), "-q", "-o", "/dev/null", files[i]]
        commands[(f"itch-book {args.itch_book}", i)] = [python, "-c", PEER_RUNNER, files[i]]
    # What each produces, once (not timed): inside lines and BBO rows.
    produced = {}
    for i in inputs:
        inside = subprocess.Popen([os.path.join(tools, "itch5inside"), "-q", files[i]], stdout=subprocess.PIPE)
        count = subprocess.run(["wc", "-l"], stdin=inside.stdout, capture_output=True, text=True, check=True)
        if inside.wait() != 0:
            sys.exit(f"peer: error: itch5inside failed on {files[i]}")
        produced[("itch5inside", i)] = int(count.stdout.split()[0])
        _, _, rows = e2e.run_timed(commands[(f"itch-book {args.itch_book}", i)], stdout=None)
        produced[(f"itch-book {args.itch_book}", i)] = int(rows.strip())
    times, rss = e2e.interleaved_runs(commands, args.runs, "peer")

    e2e.print_header(f"bench/peer.py --messages {args.messages} --seed {args.seed} --runs {args.runs} "
                     f"--inputs {args.inputs} --itch-book {args.itch_book}", args.build)
    print("| tool | input | median s | min s | M msg/s | peak RSS | rows | peer / itch5inside |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for i in inputs:
        ours = statistics.median(times[("itch5inside", i)])
        for key in (("itch5inside", i), (f"itch-book {args.itch_book}", i)):
            t = times[key]
            med = statistics.median(t)
            ratio = f"{med / ours:.2f}x" if key[0] != "itch5inside" else ""
            print(f"| {key[0]} | {i} | {med:.2f} | {min(t):.2f} | {messages / med / 1e6:.1f} | "
                  f"{rss[key] / 1e6:.0f} MB | {produced[key]:,} | {ratio} |")


if __name__ == "__main__":
    main()
