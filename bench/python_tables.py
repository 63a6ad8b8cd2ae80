#!/usr/bin/env python3
"""The Python package against its baselines, interleaved in one run (bench/, not a test):

1. the inside table of a day into pyarrow (itch5.open(day).inside.to_arrow()) against
   `itch5inside day > /dev/null` (issue 33's target: within 1.3x);
2. the day to Parquet (inside, plus trades when the package has that table) with itch5.to_parquet and with
   the console script itch5parquet (`python -m itch5.parquet`, the program a user runs, like the peer's)
   against itch-book's `itch2parquet convert` (installed from PyPI into its own venv, default
   /tmp/itchbook-venv), with each one's peak memory (the child's ru_maxrss).

Every measurement runs in a child process (os.wait4 gives its rusage); the runs alternate, and the
minimum of each is reported with the ratio. Results: a JSON file in bench/results/.

  PYTHONPATH=build/python .venv/bin/python bench/python_tables.py DAY [--runs 3] [--itchbook-venv DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(cmd: list[str], env=None, stdout=subprocess.DEVNULL) -> tuple[float, int, float]:
    """Seconds (wall), peak RSS in bytes and CPU seconds (user + system) of one child; raises on failure."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, env=env)
    _, status, ru = os.wait4(p.pid, 0)
    seconds = time.perf_counter() - start
    p.returncode = os.waitstatus_to_exitcode(status)
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    if p.returncode != 0:
        raise RuntimeError(f"{cmd[0]} failed ({p.returncode}): {err[-2000:]}")
    return seconds, ru.ru_maxrss * 1024, ru.ru_utime + ru.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("day")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tools", default=os.path.join(ROOT, "build", "tools"))
    ap.add_argument("--itchbook-venv", default="/tmp/itchbook-venv")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    a = ap.parse_args()

    import itch5

    env = dict(os.environ)
    py = sys.executable
    tables = ["inside"] + (["trades"] if "trades" in itch5.table_names() else [])
    inside_cli = [os.path.join(a.tools, "itch5inside"), a.day, "--quiet"]
    to_arrow = [py, "-c", f"import itch5; t = itch5.open({a.day!r}).inside.to_arrow(); print(t.num_rows)"]
    tmp = tempfile.mkdtemp(prefix="itch5-bench-")
    to_parquet = [py, "-c", "import itch5, shutil, sys; d = sys.argv[1]; shutil.rmtree(d, True); "
                  f"itch5.to_parquet({a.day!r}, d, tables={tables!r})", os.path.join(tmp, "itch5")]
    parquet_cli_out = os.path.join(tmp, "itch5parquet")
    parquet_cli = [py, "-m", "itch5.parquet", a.day, "--out", parquet_cli_out, "--tables", ",".join(tables),
                   "--quiet"]
    itch2parquet = os.path.join(a.itchbook_venv, "bin", "itch2parquet")
    have_itchbook = os.access(itch2parquet, os.X_OK)

    results: dict = {"cli": [], "arrow": [], "parquet": [], "parquet_cli": [], "itch2parquet": []}
    for _ in range(a.runs):
        results["cli"].append(measure(inside_cli))
        results["arrow"].append(measure(to_arrow, env))
        results["parquet"].append(measure(to_parquet, env))
        shutil.rmtree(parquet_cli_out, True)  # a finished table is not redone
        results["parquet_cli"].append(measure(parquet_cli, env))
        if have_itchbook:
            out = os.path.join(tmp, "itchbook")
            shutil.rmtree(out, True)
            os.makedirs(out)
            try:
                results["itch2parquet"].append(
                    measure([itch2parquet, "convert", a.day, out, "--price-type", "fixed", "--date", "2024-01-02",
                             "--tables", ",".join("bbo" if t == "inside" else t for t in tables)]))
            except RuntimeError as e:
                print(f"itch2parquet: {e}", file=sys.stderr)
                have_itchbook = False
    shutil.rmtree(tmp, True)

    def best(k):
        return min(results[k]) if results[k] else None

    summary = {
        "day": os.path.basename(a.day),
        "day_bytes": os.path.getsize(a.day),
        "runs": a.runs,
        "tables": tables,
        "machine": f"{platform.node()} ({os.cpu_count()} cores, shared with other work: loaded)",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "seconds": {k: [round(s, 3) for s, _, _ in v] for k, v in results.items()},
        "cpu_seconds": {k: [round(c, 3) for _, _, c in v] for k, v in results.items()},
        "peak_rss_mb": {k: round(max(m for _, m, _ in v) / 2**20, 1) for k, v in results.items() if v},
        "inside_to_arrow_vs_cli": round(best("arrow")[0] / best("cli")[0], 3),
        "inside_to_arrow_vs_cli_cpu": round(min(c for *_, c in results["arrow"]) /
                                            min(c for *_, c in results["cli"]), 3),
        "itch2parquet_vs_parquet": (round(best("itch2parquet")[0] / best("parquet")[0], 3)
                                    if results["itch2parquet"] else None),
        "itch2parquet_vs_parquet_cpu": (round(min(c for *_, c in results["itch2parquet"]) /
                                              min(c for *_, c in results["parquet"]), 3)
                                        if results["itch2parquet"] else None),
        "itch2parquet_vs_itch5parquet": (round(best("itch2parquet")[0] / best("parquet_cli")[0], 3)
                                         if results["itch2parquet"] else None),
        "itch2parquet_vs_itch5parquet_cpu": (round(min(c for *_, c in results["itch2parquet"]) /
                                                   min(c for *_, c in results["parquet_cli"]), 3)
                                             if results["itch2parquet"] else None),
        "itchbook": "installed" if have_itchbook else f"not available at {itch2parquet}",
    }
    os.makedirs(a.out, exist_ok=True)
    path = os.path.join(a.out, f"python_tables-{summary['day']}.json")
    with open(path, "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    json.dump(summary, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
