"""itch5.tde: the delay estimator (itch5tde, the tde/ library's program) on two inside-change files, its
windows and summary returned as pyarrow tables.

The estimator runs as the program ``itch5tde`` (found in $ITCH5_TOOLS_DIR, in the installed package's bin/
where ``pip install`` puts it, beside the build tree's package, or on PATH), with its outputs in a temporary directory that is read back and removed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from typing import Any, Optional


def find_tool(name: str) -> str:
    """The program `name` of the toolchain: $ITCH5_TOOLS_DIR, the package's bin/ (an installed wheel), the
    build tree beside this package, PATH."""
    here = os.path.dirname(os.path.abspath(__file__))
    places = (os.environ.get("ITCH5_TOOLS_DIR"), os.path.join(here, "bin"), os.path.join(here, "..", "..", "tools"))
    for d in places:
        if d and os.access(os.path.join(d, name), os.X_OK):
            return os.path.join(d, name)
    p = shutil.which(name)
    if p is None:
        raise FileNotFoundError(f"{name}: not found (build it, or set ITCH5_TOOLS_DIR)")
    return p


def tde(a: str, b: str, symbols: Optional[list[str]] = None, **options: Any):
    """Estimates how much inside-change file `b` lags `a` (itch5tde). Options are itch5tde's flags with
    underscores (window="10s", max_lag="1ms", signal="events", ...). Returns (windows, summary), two
    pyarrow.Tables: itch5tde's --output and --summary CSVs. Raises RuntimeError with itch5tde's message."""
    import pyarrow.csv as pacsv

    with tempfile.TemporaryDirectory(prefix="itch5tde-") as tmp:
        windows = os.path.join(tmp, "windows.csv")
        summary = os.path.join(tmp, "summary.csv")
        cmd = [find_tool("itch5tde"), os.fspath(a), os.fspath(b), "-o", windows, "--summary", summary,
               "--metadata", os.path.join(tmp, "windows.yaml"), "--quiet"]
        if symbols:
            cmd += ["--symbols", ",".join(symbols)]
        for k, v in options.items():
            cmd += ["--" + k.replace("_", "-"), ",".join(v) if isinstance(v, (list, tuple)) else str(v)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(r.stderr.strip() or f"itch5tde failed with status {r.returncode}")
        return pacsv.read_csv(windows), pacsv.read_csv(summary)
