#!/usr/bin/env python3
"""Wire-to-inside latency of a live feed, without coordinated omission (issue 34).

For each steady rate, itch5replay sends a day as a MoldUDP64 feed to 127.0.0.1 at that many messages per
second (--rate: a steady pace, packets filled to 1400 bytes) and writes its schedule: for every packet the
time it was DUE by the schedule, not the time it went out. itch5inside --listen builds the books and, with
--ready-times, records when each packet's lines were handed to the output. A packet's latency is

    ready time of the packet's last message  -  due time of the packet

so a stall of the sender (sending late), of the kernel or of the receiver all count in full: the schedule
does not wait for anybody (coordinated omission is the mistake of measuring from the send instead).
Both times are CLOCK_REALTIME of the one machine. Loss (gaps reported by itch5inside) is reported per rate;
latencies are only computed for runs without loss (message numbers then equal sequence numbers).

Before the first rate and after the last, bm_machine_stalls (--probe, 10 s each by default) measures what
the machine does on its own: a thread spinning on each core, nothing else running, sees the stalls that the
kernel and the hypervisor impose on any program there, and from them the floor under each latency quantile
(bench/machine_stalls.hpp): no sender and receiver on these cores can show a lower one. The report puts the
floors beside the measured quantiles and the issue's targets.

Each rate is run twice, once per way the receiver waits for a packet (--modes): asleep in poll() until the
kernel wakes it, and busy (itch5inside --busy-poll: asking the socket again without sleeping, a core kept
busy). The report also gives each packet's latency from when it was actually sent, the receiving side alone.

  python3 bench/live_latency.py --day /work/days/d1M.itch --rates 100k,200k,400k,560k,800k,1M \\
      --out bench/results/live-latency.md --plot bench/results/live-latency.png --dump /tmp/live
  build/tools/itch5plot latency /tmp/live-sleep.csv /tmp/live-busy.csv --label sleep,busy -o latency.png

Not a test: the numbers depend on the machine and on its load; the report says what the machine was doing.
"""
import argparse
import bisect
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time

QUANTILES = [50, 90, 99, 99.9, 99.99]
KEPT_UP_P50_US = 100  # a receiver that falls behind has a p50 of milliseconds: its queue grows to the end


def parse_rate(text):
    text = text.strip().lower()
    mult = 1
    if text.endswith("k"):
        mult, text = 1_000, text[:-1]
    elif text.endswith("m"):
        mult, text = 1_000_000, text[:-1]
    return int(float(text) * mult)


def free_port():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def bound(port):
    want = ":%04X " % port
    with open("/proc/net/udp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            if len(fields) > 1 and (fields[1] + " ").endswith(want):
                return True
    return False


def quantile(sorted_values, q):
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, int(round(q / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def machine_probe(bench, duration):
    """bm_machine_stalls --json: per CPU its stalls, and the floors under the latency quantiles (us)."""
    out = subprocess.run([os.path.join(bench, "bm_machine_stalls"), "--duration", duration, "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        raise RuntimeError("bm_machine_stalls failed: " + out.stderr)
    return json.loads(out.stdout)


def probe_lines(name, probe):
    """The Markdown lines of one machine probe."""
    waits = ["20", "200", "1000"]
    lines = ["", "Machine alone, %s (bm_machine_stalls, %g s, a thread spinning on each core, stalls = gaps of at "
             "least %g us between two clock readings):" % (name, probe["seconds"], probe["threshold_us"]), "",
             "| cpu | stalls | time lost | longest (us) | " + " | ".join("P(wait > %s us)" % w for w in waits) + " |",
             "|---:|---:|---:|---:|" + "---:|" * len(waits)]
    for c in probe["cpus"]:
        lines.append("| %d | %d | %.3f%% | %.1f | %s |" % (
            c["cpu"], c["stalls"], 100 * c["lost_share"], c["longest_us"],
            " | ".join("%.4f%%" % (100 * c["p_wait_over_us"][w]) for w in waits)))
    names = ["p50", "p90", "p99", "p99.9", "p99.99"]
    lines += ["", "Floors under the latency of a packet that needs both cores (us): " +
              ", ".join("%s %.1f" % (q, probe["floor_worst_us"][q]) for q in names) +
              " (the worst core's stalls alone); " +
              ", ".join("%s %.1f" % (q, probe["floor_independent_us"][q]) for q in names) +
              " (the two cores' stalls independent). Issue 34's targets: p99 20 us, p99.99 200 us."]
    return lines


def one_run(tools, day, rate, mode, work):
    port = free_port()
    ready = os.path.join(work, "ready.txt")
    schedule = os.path.join(work, "schedule.txt")
    listener = subprocess.Popen(
        [os.path.join(tools, "itch5inside"), "--listen", "127.0.0.1:%d" % port, "--ready-times", ready,
         "--idle", "60s", "-o", os.path.join(work, "inside.txt")] + (["--busy-poll"] if mode == "busy" else []),
        stderr=subprocess.PIPE, text=True)
    give_up = time.time() + 60
    while not bound(port):
        if listener.poll() is not None or time.time() > give_up:
            raise RuntimeError("itch5inside did not start: " + listener.stderr.read())
        time.sleep(0.005)
    replay = subprocess.run(
        [os.path.join(tools, "itch5replay"), day, "--to", "127.0.0.1:%d" % port, "--rate", str(rate),
         "--schedule", schedule], stderr=subprocess.PIPE, text=True, check=True)
    _, err = listener.communicate(timeout=600)
    if listener.returncode != 0:
        raise RuntimeError("itch5inside failed: " + err)
    achieved = re.search(r"\(([\d.]+ [kM]?) msg/s", replay.stderr)
    behind = re.search(r"at most ([\d.]+) us behind", replay.stderr)
    gaps = re.search(r"(\d+) gaps \((\d+) messages missing\)", err)
    missing = int(gaps.group(2)) if gaps else -1
    ready_entries = []
    with open(ready) as f:
        for line in f:
            m, t = line.split()
            ready_entries.append((int(m), int(t)))
    ready_messages = [m for m, _ in ready_entries]
    latencies = []
    from_send = []  # the same, from when the packet was sent: the receiving side alone
    if missing == 0:
        with open(schedule) as f:
            for line in f:
                seq, count, due, sent = (int(x) for x in line.split())
                if count == 0:
                    continue
                last = seq + count - 1
                i = bisect.bisect_left(ready_messages, last)
                if i < len(ready_entries):
                    latencies.append((ready_entries[i][1] - due) / 1000.0)  # us
                    from_send.append((ready_entries[i][1] - sent) / 1000.0)
    latencies.sort()
    from_send.sort()
    return {
        "rate": rate,
        "mode": mode,
        "achieved": achieved.group(1) if achieved else "?",
        "behind_us": float(behind.group(1)) if behind else float("nan"),
        "missing": missing,
        "packets": len(latencies),
        "latencies": latencies,
        "from_send": from_send,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--day", required=True, help="the day to send (raw, .gz or a capture)")
    ap.add_argument("--rates", default="100k,200k,400k,560k,800k,1M,2M,4M,8M,16M",
                    help="messages per second, A,B,...")
    ap.add_argument("--modes", default="sleep,busy",
                    help="how itch5inside waits for a packet, each rate run once per mode in this order: sleep "
                         "(in poll(), woken by the kernel) and busy (--busy-poll)")
    ap.add_argument("--tools", default=os.path.join(os.path.dirname(__file__), "..", "build", "tools"))
    ap.add_argument("--bench", default=os.path.join(os.path.dirname(__file__), "..", "build", "bench"),
                    help="where bm_machine_stalls is (default build/bench)")
    ap.add_argument("--probe", default="10s",
                    help="how long bm_machine_stalls measures the machine alone, before the first rate and after "
                         "the last (a duration such as 10s; 0 for no probe)")
    ap.add_argument("--out", help="Markdown report (default: standard output)")
    ap.add_argument("--plot", help="PNG of the latency quantiles per rate (matplotlib)")
    ap.add_argument("--dump", metavar="PREFIX",
                    help="also write every packet's latency (ns, from its due time) as PREFIX-MODE.csv, one file "
                         "per mode in the microbenchmark dump format that 'itch5plot latency' draws (a test "
                         "case per rate; with both modes, itch5plot latency PREFIX-sleep.csv PREFIX-busy.csv "
                         "adds the busy/sleep ratio panel)")
    args = ap.parse_args()
    modes = args.modes.split(",")
    for mode in modes:
        if mode not in ("sleep", "busy"):
            ap.error("--modes: '%s' is neither sleep nor busy" % mode)
    results = []
    probing = args.probe not in ("0", "0s", "")
    probes = []
    if probing:
        probes.append(("before the runs", machine_probe(args.bench, args.probe)))
    with tempfile.TemporaryDirectory(prefix="itch5-live-") as work:
        for rate in (parse_rate(r) for r in args.rates.split(",")):
            for mode in modes:
                r = one_run(args.tools, args.day, rate, mode, work)
                results.append(r)
                print("rate %d, %s: achieved %s msg/s, %s messages missing, %d packets timed" %
                      (rate, mode, r["achieved"], r["missing"], r["packets"]), file=sys.stderr)
    if probing:
        probes.append(("after the runs", machine_probe(args.bench, args.probe)))
    load = open("/proc/loadavg").read().split()[:3]
    lines = ["# Wire-to-inside latency over loopback (bench/live_latency.py)", "",
             "Day: `%s`; %d cores; load average at the end %s (other sessions were running)." %
             (args.day, os.cpu_count(), " ".join(load)), "",
             "Receiver waits: sleep = in poll(), woken by the kernel; busy = `--busy-poll`, asking the socket "
             "again without sleeping (one core kept busy). Latency is from each packet's due time (its schedule); "
             "'from send' is from when the sender actually sent it, the receiving side alone: where the two "
             "differ, the sender was held up (descheduled) and the packets due meanwhile count that wait.", "",
             "| rate (msg/s) | receiver waits | achieved | messages lost | packets | " +
             " | ".join("p%s (us)" % q for q in QUANTILES) + " | max (us) | sender behind (max us) |"
             " from send: p50, p99, max (us) |",
             "|---:|---|" + "---:|" * (6 + len(QUANTILES))]
    for r in results:
        lat = r["latencies"]
        qs = " | ".join("%.1f" % quantile(lat, q) if lat else "-" for q in QUANTILES)
        fs = r["from_send"]
        lines.append("| %d | %s | %s | %s | %d | %s | %s | %.1f | %s |" % (
            r["rate"], r["mode"], r["achieved"], r["missing"], r["packets"], qs, "%.1f" % lat[-1] if lat else "-",
            r["behind_us"], "%.1f, %.1f, %.1f" % (quantile(fs, 50), quantile(fs, 99), fs[-1]) if fs else "-"))
    for mode in modes:
        no_loss = [r["rate"] for r in results if r["missing"] == 0 and r["mode"] == mode]
        # Without loss may only mean that the day fitted the receive buffer: kept up says the receiver
        # took the packets as fast as they came (no queue growing through the run).
        kept_up = [r["rate"] for r in results if r["missing"] == 0 and r["mode"] == mode and r["from_send"]
                   and quantile(r["from_send"], 50) < KEPT_UP_P50_US]
        lines += ["", "Receiver waiting %s: highest rate without loss %s msg/s; highest rate kept up with "
                  "(p50 from the send under %d us) %s msg/s." %
                  ("in poll()" if mode == "sleep" else "busy", max(no_loss) if no_loss else "none",
                   KEPT_UP_P50_US, max(kept_up) if kept_up else "none")]
    for name, probe in probes:
        lines += probe_lines(name, probe)
    lines.append("")
    if args.dump:
        for mode in modes:
            with open("%s-%s.csv" % (args.dump, mode), "w") as f:
                f.write("# program: itch5replay -> itch5inside --listen (bench/live_latency.py)\n")
                f.write("# mode: per-packet\n")
                f.write("# measured: wire-to-inside latency, from each packet's due time to its lines' hand-over\n")
                f.write("# day: %s\n# receiver waits: %s\n# load average: %s\n" % (args.day, mode, " ".join(load)))
                f.write("testcase,nanoseconds\n")
                for r in results:
                    if r["mode"] == mode:
                        name = "%d msg/s" % r["rate"]
                        f.writelines("%s,%d\n" % (name, round(v * 1000)) for v in r["latencies"])
    text = "\n".join(lines)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        print(text)
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(8, 5))
        rates = sorted({r["rate"] for r in results})
        for r in results:
            lat = r["latencies"]
            if not lat:
                continue
            color = "C%d" % (rates.index(r["rate"]) % 10)  # one colour per rate, the modes told by the line
            qs = [50, 75, 90, 99, 99.9, 99.99, 100]
            ax.plot(range(len(qs)), [quantile(lat, q) if q < 100 else lat[-1] for q in qs], marker="o",
                    color=color, linestyle="-" if r["mode"] == "sleep" else "--",
                    label="%s msg/s, %s" % (format(r["rate"], ","), r["mode"]))
            ax.set_xticks(range(len(qs)), ["p50", "p75", "p90", "p99", "p99.9", "p99.99", "max"])
        ax.set_yscale("log")
        ax.set_ylabel("wire-to-inside latency (us, from the packet's due time)")
        ax.set_title("itch5replay --rate -> itch5inside --listen, loopback, 2-core VM")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
