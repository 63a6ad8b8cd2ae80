"""Shared fixtures of the Python package's tests: the sample day, the CLI programs, a raw copy of it."""

import gzip
import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.environ.get("ITCH5_DATA_DIR", os.path.join(ROOT, "data"))
TOOLS = os.environ.get("ITCH5_TOOLS_DIR", os.path.join(ROOT, "build", "tools"))


@pytest.fixture(scope="session")
def sample():
    return os.path.join(DATA, "synthetic-200k.itch.gz")


@pytest.fixture(scope="session")
def tool():
    def path(name):
        p = os.path.join(TOOLS, name)
        if not os.path.exists(p):
            pytest.skip(f"{p} not built")
        return p

    return path


@pytest.fixture(scope="session")
def raw_sample(sample, tmp_path_factory):
    """The sample inflated: truncating it cuts messages, not the gzip stream."""
    out = tmp_path_factory.mktemp("raw") / "synthetic-200k.itch"
    with gzip.open(sample, "rb") as src, open(out, "wb") as dst:
        shutil.copyfileobj(src, dst)
    return str(out)


def inside_lines(tool, path, *args):
    """The inside file of itch5inside as a list of tuples of the table's columns."""
    out = subprocess.run([tool("itch5inside"), path, "--quiet", *args], check=True, capture_output=True,
                         text=True).stdout
    rows = []
    for line in out.splitlines():
        ts, locate, symbol, bp, bq, ap, aq = line.split(" ")
        rows.append((int(ts), int(locate), symbol, int(bp), int(bq), int(ap), int(aq)))
    return rows


@pytest.fixture(scope="session")
def generated_day(tool, tmp_path_factory):
    """A generated day of 3 M messages (about 90 MB raw): big enough for the memory bound to mean something."""
    path = tmp_path_factory.mktemp("day") / "day.itch"
    subprocess.run([tool("itch5synth"), "--messages", "3M", "--symbols", "200", "-o", str(path)], check=True,
                   capture_output=True)
    return str(path)
