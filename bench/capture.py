#!/usr/bin/env python3
"""Capture input throughput: itch5cat --decode and itch5inside on a pcap of MoldUDP64 packets next to the
BinaryFILE of the same messages, measured in the same run (issue 14: "pcap input throughput next to
BinaryFILE on the same messages").

  bench/capture.py                          # 2 M messages, 5 runs of each configuration
  bench/capture.py --messages 20M --runs 3 --payload 1400

One itch5synth call writes both files: the BinaryFILE day and `--pcap` of the same messages (MoldUDP64
packets of at most --payload bytes of messages, Ethernet/IPv4/UDP frames, nanosecond pcap). The runs of all
configurations are interleaved (round robin), so a slow drift of a shared machine hits all alike. Reported
per tool and input: median and minimum wall time, ns/message at the median, input size, peak RSS, and the
ratio of the capture's median to the BinaryFILE's median. itch5inside is also run with --stats (the capture
then also collects its feed latency columns).
"""
import argparse
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e  # noqa: E402  (run_timed, machine_info, parse_count)

INPUTS = ["binaryfile", "pcap"]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--messages", default="2M", help="messages per generated day (default 2M)")
    p.add_argument("--seed", type=int, default=3, help="generator seed (default 3)")
    p.add_argument("--runs", type=int, default=5, help="runs of each configuration (default 5)")
    p.add_argument("--payload", type=int, default=1400, help="MoldUDP64 message bytes per packet (default 1400)")
    p.add_argument("--build", default=os.path.join(e2e.ROOT, "build"), help="build directory (default build/)")
    p.add_argument("--cache-dir", default=e2e.CACHE_DIR,
                   help="where the generated files are kept (default bench/cache/)")
    args = p.parse_args()
    messages = e2e.parse_count(args.messages)
    tools = os.path.join(args.build, "tools")
    e2e.require_tools(tools, ("itch5synth", "itch5inside", "itch5cat"), "capture")
    os.makedirs(args.cache_dir, exist_ok=True)

    stem = os.path.join(args.cache_dir, f"synth-{messages}-seed{args.seed}")
    files = {"binaryfile": stem + ".itch", "pcap": stem + f"-mold{args.payload}.pcap"}
    if not all(os.path.exists(f) for f in files.values()):
        print(f"capture: generating {files['binaryfile']} and {files['pcap']}", file=sys.stderr)
        subprocess.run([os.path.join(tools, "itch5synth"), "-q", "--messages", str(messages), "--seed",
                        str(args.seed), "-o", files["binaryfile"] + ".tmp", "--pcap", files["pcap"] + ".tmp",
                        "--pcap-payload", str(args.payload)], check=True)
        for f in files.values():
            os.rename(f + ".tmp", f)

    configs = {
        "itch5cat --decode": lambda f: [os.path.join(tools, "itch5cat"), "-q", "--decode", f],
        "itch5inside": lambda f: [os.path.join(tools, "itch5inside"), "-q", "-o", "/dev/null", f],
        "itch5inside --stats": lambda f: [os.path.join(tools, "itch5inside"), "-q", "-o", "/dev/null", "--stats",
                                          "/dev/null", f],
    }
    commands = {(c, i): argv(files[i]) for c, argv in configs.items() for i in INPUTS}
    times, rss = e2e.interleaved_runs(commands, args.runs, "capture")

    e2e.print_header(f"bench/capture.py --messages {args.messages} --seed {args.seed} --runs {args.runs} "
                     f"--payload {args.payload}", args.build)
    print("| tool | input | size | median s | min s | ns/msg | peak RSS | capture / BinaryFILE |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for c in configs:
        base = statistics.median(times[(c, "binaryfile")])
        for i in INPUTS:
            t = times[(c, i)]
            med = statistics.median(t)
            size = os.path.getsize(files[i])
            print(f"| {c} | {i} | {size / 1e6:.0f} MB | {med:.3f} | {min(t):.3f} | {med * 1e9 / messages:.0f} | "
                  f"{rss[(c, i)] / 1e6:.0f} MB | {med / base:.2f}x |")


if __name__ == "__main__":
    main()
