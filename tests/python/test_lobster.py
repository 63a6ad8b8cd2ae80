"""LOBSTER's two tables of a symbol (day.lobster, lobster_message:SYM / lobster_orderbookN:SYM) against
itch5lobster's files of the same day and window, value for value."""

import csv
import glob
import os
import subprocess

import pytest

import itch5

pa = pytest.importorskip("pyarrow")


def lobster_files(tool, sample, out, symbols, levels):
    """itch5lobster's message and orderbook rows per symbol (its default window, 09:30 to 16:00)."""
    os.makedirs(out, exist_ok=True)
    subprocess.run([tool("itch5lobster"), sample, "--symbols", ",".join(symbols), "--levels", str(levels),
                    "--out", str(out), "--date", "2019-01-30", "--quiet"], check=True, capture_output=True)
    files = {}
    for s in symbols:
        (m,) = glob.glob(os.path.join(out, f"{s}_*_message_{levels}.csv"))
        (b,) = glob.glob(os.path.join(out, f"{s}_*_orderbook_{levels}.csv"))
        with open(m, newline="") as f:
            messages = list(csv.reader(f))
        with open(b, newline="") as f:
            books = list(csv.reader(f))
        files[s] = (messages, books)
    return files


def seconds_text_to_ns(text):
    """LOBSTER's time, seconds after midnight with nanosecond decimals, as integer nanoseconds (exactly)."""
    whole, _, frac = text.partition(".")
    return int(whole) * 1_000_000_000 + int((frac + "000000000")[:9])


def message_rows(table):
    cols = [table.column(n).to_pylist() for n in ("time", "event_type", "order_id", "size", "price", "direction")]
    return [list(r) for r in zip(*cols)]


def cli_message_rows(rows):
    return [[seconds_text_to_ns(r[0])] + [int(v) for v in r[1:]] for r in rows]


@pytest.mark.parametrize("only_symbols", [False, True])
def test_lobster_tables_equal_itch5lobster_files(sample, tool, tmp_path, only_symbols):
    symbols = ["SPY", "AAPL"]
    files = lobster_files(tool, sample, tmp_path / "lobster", symbols, 5)
    # The whole day's books, or only the chosen symbols': the same rows.
    day = itch5.open(sample, symbols=symbols if only_symbols else None, start="09:30", end="16:00")
    asked = []
    for s in symbols:
        asked += list(day.lobster(s, levels=5))
    got = {t.name: [] for t in asked}
    for name, batch in day.batches(*asked):
        got[name].append(batch)
    for s in symbols:
        messages, books = files[s]
        assert len(messages) > 1000 and len(messages) == len(books)
        m = pa.Table.from_batches(got[f"lobster_message:{s}"])
        b = pa.Table.from_batches(got[f"lobster_orderbook5:{s}"])
        assert m.column_names == ["time", "event_type", "order_id", "size", "price", "direction"]
        assert b.num_columns == 20 and b.column_names[:4] == ["ask_price_01", "ask_size_01", "bid_price_01",
                                                              "bid_size_01"]
        assert message_rows(m) == cli_message_rows(messages)
        assert [list(r) for r in zip(*[c.to_pylist() for c in b.columns])] == [[int(v) for v in r] for r in books]


def test_one_table_of_a_symbol_and_the_default_levels(sample, tool, tmp_path):
    files = lobster_files(tool, sample, tmp_path / "lobster", ["MSFT"], 10)
    day = itch5.open(sample, start="09:30", end="16:00")
    book = day.table("lobster_orderbook:msft").to_arrow()  # 10 levels, the symbol in any case
    assert book.num_columns == 40
    assert book.num_rows == len(files["MSFT"][1])
    assert [int(v) for v in files["MSFT"][1][-1]] == [c[-1].as_py() for c in book.columns]
    assert day.table("lobster_message:MSFT").to_arrow().num_rows == len(files["MSFT"][0])


def test_lobster_names_that_are_refused(sample):
    day = itch5.open(sample)
    for bad in ("lobster_message", "lobster_message:", "lobster_orderbook51:SPY", "lobster_orderbook0:SPY",
                "lobster_trades:SPY", "lobster_message:TOOLONGNAME"):
        with pytest.raises(ValueError):
            day.table(bad)
    with pytest.raises(ValueError, match="same levels"):
        list(day.batches("lobster_orderbook5:SPY", "lobster_orderbook10:AAPL"))
    with pytest.raises(ValueError, match="twice"):
        list(day.batches("lobster_message:SPY", "lobster_message:spy"))
    with pytest.raises(ValueError):
        day.lobster("SPY", levels=51)
