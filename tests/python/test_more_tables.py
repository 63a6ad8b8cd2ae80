"""The tables bound after the inside table (trades, trade statistics, the N-level book, the market-state event
tables) against the CLI's CSV of the same file, value for value."""

import csv
import os
import subprocess

import pytest

import itch5

pa = pytest.importorskip("pyarrow")


def cli_csv(tool, sample, tmp_path, *args):
    """Runs itch5inside with args (which name files in tmp_path) and returns nothing; the caller reads them."""
    subprocess.run([tool("itch5inside"), sample, "--quiet", "-o", os.devnull, *args], check=True,
                   capture_output=True)


def csv_rows(path):
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = next(r)
        return header, [row for row in r]


def as_text(v):
    """A table value as the CSV writes it: None as empty, bool as 0/1."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "1" if v else "0"
    return str(v)


def table_rows(table):
    cols = [table.column(i).to_pylist() for i in range(table.num_columns)]
    return [[as_text(v) for v in row] for row in zip(*cols)]


def check_equal(path, table):
    header, rows = csv_rows(path)
    assert table.column_names == header
    assert len(rows) > 0
    assert table_rows(table) == rows


@pytest.mark.parametrize("name,flag,file", [
    ("trades", "--trades", "trades.csv"),
    ("trade_stats", "--trade-stats", "trade_stats.csv"),
    ("levels", "--book-levels", "levels.csv"),
])
def test_table_equals_the_cli_csv(sample, tool, tmp_path, name, flag, file):
    out = tmp_path / file
    cli_csv(tool, sample, tmp_path, flag, str(out), "--symbols", "SPY,AAPL,MSFT")
    check_equal(out, itch5.open(sample, symbols=["SPY", "AAPL", "MSFT"]).table(name).to_arrow())


def test_levels_n_shapes_the_columns_as_the_cli(sample, tool, tmp_path):
    out = tmp_path / "levels3.csv"
    cli_csv(tool, sample, tmp_path, "--book-levels", str(out), "--levels", "3", "--symbols", "QQQ")
    t = itch5.open(sample, symbols=["QQQ"]).table("levels3").to_arrow()
    assert t.num_columns == 3 + 6 * 3
    check_equal(out, t)
    with pytest.raises(ValueError):
        itch5.open(sample).table("levels51")


def test_event_tables_equal_the_cli_csvs(sample, tool, tmp_path):
    out = tmp_path / "events"
    cli_csv(tool, sample, tmp_path, "--events", str(out))
    day = itch5.open(sample)
    checked = 0
    for f in sorted(os.listdir(out)):
        header, rows = csv_rows(out / f)
        if not rows:
            continue
        name = f[:-len(".csv")]
        check_equal(out / f, day.table(name).to_arrow())
        checked += 1
    assert checked >= 3  # the sample has directory, system event, Reg SHO, NOII ... messages


def test_one_pass_gives_several_tables(sample, tool, tmp_path):
    got = {}
    for name, batch in itch5.open(sample, symbols=["SPY"]).batches("inside", "trades", "stock_directory"):
        got[name] = got.get(name, 0) + batch.num_rows
    assert set(got) == {"inside", "trades", "stock_directory"}
    assert got["stock_directory"] == 1
