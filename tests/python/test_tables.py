"""itch5's tables against the CLI's output of the same file, and read by pyarrow, polars, duckdb, pandas."""

import datetime as dt
import os
import subprocess

import pytest

import itch5
from conftest import inside_lines

pa = pytest.importorskip("pyarrow")

INSIDE_COLUMNS = ["timestamp", "locate", "symbol", "bid_price", "bid_size", "ask_price", "ask_size"]


def rows_of(table):
    cols = [table.column(c).to_pylist() for c in INSIDE_COLUMNS]
    return list(zip(*cols))


def test_inside_equals_the_cli_row_for_row(sample, tool):
    expected = inside_lines(tool, sample)
    got = itch5.open(sample).inside.to_arrow()
    assert got.column_names == INSIDE_COLUMNS
    assert len(expected) > 10000
    assert rows_of(got) == expected


def test_symbols_and_time_range_as_the_cli(sample, tool):
    expected = inside_lines(tool, sample, "--symbols", "AAPL,MSFT", "--from", "09:30", "--to", "10:00")
    got = itch5.open(sample, symbols="aapl,MSFT", start="09:30", end=dt.time(10, 0)).inside.to_arrow()
    assert len(expected) > 0
    assert rows_of(got) == expected


def test_small_batches_give_the_same_rows(sample, tool):
    day = itch5.open(sample, symbols=["SPY"], batch_rows=100, queue_batches=1)
    batches = [b for _, b in day.batches("inside")]
    assert len(batches) > 2 and all(b.num_rows <= 100 for b in batches)
    assert rows_of(pa.Table.from_batches(batches)) == inside_lines(tool, sample, "--symbols", "SPY")


def test_a_batch_of_thousands_of_symbols_as_the_cli(tool, tmp_path):
    # One batch holding more symbols than the converter's symbol table starts with room for (2,048 at
    # most half full): the table grows within the batch and every row keeps its symbol.
    path = tmp_path / "many.itch"
    subprocess.run([tool("itch5synth"), "--messages", "400k", "--symbols", "5000", "--zipf", "0.3",
                    "-o", str(path)], check=True, capture_output=True)
    expected = inside_lines(tool, str(path))
    batches = [b for _, b in itch5.open(str(path), batch_rows=1 << 20).batches("inside")]
    assert len(batches) == 1
    names = batches[0].column("symbol").dictionary.to_pylist()
    assert len(names) > 2048 and len(set(names)) == len(names)  # each symbol once in the dictionary
    assert rows_of(pa.Table.from_batches(batches)) == expected


def test_columns_are_typed_exactly(sample):
    t = itch5.open(sample, symbols=["SPY"]).inside
    s = t.schema
    assert s.field("timestamp").type == pa.int64()
    assert s.field("bid_price").type == pa.int64() and s.field("ask_price").type == pa.int64()
    assert s.field("locate").type == pa.uint64()
    assert pa.types.is_dictionary(s.field("symbol").type)
    assert s.field("symbol").type.value_type == pa.string()
    assert s.field("bid_price").metadata[b"itch5.type"] == b"price4"
    a = t.to_arrow()
    assert a.schema.equals(s)
    assert set(a.column("symbol").to_pylist()) == {"SPY"}


def test_time_column_when_the_date_is_known(sample):
    day = itch5.open(sample, symbols=["SPY"], date=dt.date(2024, 3, 15))
    a = day.inside.to_arrow()
    assert a.column_names[:3] == ["timestamp", "time", "locate"]
    assert a.schema.field("time").type == pa.timestamp("ns", tz="America/New_York")
    ts = a.column("timestamp")[0].as_py()
    t = a.column("time")[0].as_py()
    local = t.replace(tzinfo=None)
    assert local.date() == dt.date(2024, 3, 15)
    since_midnight = (local - dt.datetime(2024, 3, 15)).total_seconds()
    assert abs(since_midnight - ts / 1e9) < 1e-5


def test_times_of_day_as_itch5inside_reads_them(sample):
    ns = 1_000_000_000
    assert itch5.open(sample, start="09:30").start == 34_200 * ns
    assert itch5.open(sample, start="9:30:01.5").start == 34_201 * ns + ns // 2
    assert itch5.open(sample, start=dt.time(9, 30, 0, 250_000)).start == 34_200 * ns + 250_000_000
    assert itch5.open(sample, start=dt.timedelta(hours=16)).start == 57_600 * ns
    assert itch5.open(sample, start=12, end="24:00").end == 86_400 * ns
    for bad in ("24:30", "24:00:01", "24:00:00.000000001", "10:60", "9h30"):
        with pytest.raises(ValueError, match=f"time of day '{bad}'"):
            itch5.open(sample, start=bad)
    with pytest.raises(TypeError):
        itch5.open(sample, start=True)
    with pytest.raises(ValueError, match="start must be before end"):
        itch5.open(sample, start="16:00", end="09:30")


def test_the_date_as_text_and_bad_dates_or_zones_at_open(sample):
    as_date = itch5.open(sample, symbols=["SPY"], date=dt.date(2024, 3, 15), timezone="Europe/London")
    as_text = itch5.open(sample, symbols=["SPY"], date="2024-03-15", timezone="Europe/London")
    assert as_text.date == dt.date(2024, 3, 15)
    a, b = as_date.inside.to_arrow(), as_text.inside.to_arrow()
    assert b.schema.field("time").type == pa.timestamp("ns", tz="Europe/London")
    assert a.column("time").to_pylist() == b.column("time").to_pylist()
    assert itch5.open(sample, date=dt.datetime(2024, 3, 15, 9, 30)).date == dt.date(2024, 3, 15)
    # Errors when the day is opened, naming what was wrong, not when the first table is made.
    with pytest.raises(ValueError, match=r"date: '2024-13-01' is not a date as YYYY-MM-DD"):
        itch5.open(sample, date="2024-13-01")
    with pytest.raises(TypeError, match="date: expected a datetime.date or 'YYYY-MM-DD', got int"):
        itch5.open(sample, date=20240315)
    with pytest.raises(ValueError, match="timezone: 'Mars/Olympus' is not an IANA time zone"):
        itch5.open(sample, timezone="Mars/Olympus")


def test_pyarrow_polars_duckdb_pandas_read_the_stream(sample, tool):
    expected = inside_lines(tool, sample, "--symbols", "QQQ")
    t = itch5.open(sample, symbols=["QQQ"]).inside
    reader = pa.RecordBatchReader.from_stream(t)
    assert rows_of(reader.read_all()) == expected

    pl = pytest.importorskip("polars")
    df = pl.DataFrame(t)
    assert df.height == len(expected)
    assert df["bid_price"].to_list() == [r[3] for r in expected]
    assert t.to_polars().height == len(expected)

    duckdb = pytest.importorskip("duckdb")
    n, total = duckdb.sql("select count(*), sum(ask_size) from t").fetchall()[0]
    assert n == len(expected) and total == sum(r[6] for r in expected)

    pytest.importorskip("pandas")
    pdf = t.to_pandas()
    assert len(pdf) == len(expected)
    assert list(pdf["timestamp"][:5]) == [r[0] for r in expected[:5]]


def test_missing_file():
    with pytest.raises(FileNotFoundError):
        itch5.open("/nonexistent/day.itch.gz")


def test_truncated_file_gives_the_batches_before_then_the_error(raw_sample, tool, tmp_path):
    size = os.path.getsize(raw_sample)
    cut = tmp_path / "cut.itch"
    with open(raw_sample, "rb") as f:
        cut.write_bytes(f.read(size // 2 + 3))  # mid-message
    day = itch5.open(str(cut), batch_rows=1000)
    got = []
    with pytest.raises(itch5.Error) as err:
        for _, b in day.batches("inside"):
            got.append(b)
    e = err.value
    assert e.path == str(cut)
    assert 0 < e.offset <= size // 2 + 3 and e.message_number > 0
    assert str(cut) in str(e) and "byte offset" in str(e)
    rows = rows_of(pa.Table.from_batches(got))
    full = inside_lines(tool, raw_sample)
    assert len(rows) > 1000
    assert rows == full[: len(rows)]
    # the CLI keeps the same lines before the damage
    assert rows[-1][0] <= full[-1][0]


def test_not_itch_raises_the_error(tmp_path):
    bad = tmp_path / "bad.itch"
    bad.write_bytes(b"\x00\x05Xabcd" * 10)
    with pytest.raises(itch5.Error):
        itch5.open(str(bad)).inside.to_arrow()


def test_unknown_table_and_bad_times(sample):
    with pytest.raises(ValueError):
        itch5.open(sample).table("nope")
    with pytest.raises(ValueError):
        itch5.open(sample, start="10:00", end="09:00")
    with pytest.raises(ValueError):
        itch5.open(sample, start="9h")


def test_stream_errors_reach_pyarrow(raw_sample, tmp_path):
    cut = tmp_path / "cut2.itch"
    with open(raw_sample, "rb") as f:
        cut.write_bytes(f.read(100003))
    with pytest.raises(Exception, match="byte offset"):
        pa.RecordBatchReader.from_stream(itch5.open(str(cut)).inside).read_all()


def test_statistics_and_depth_as_the_cli(sample, tool, tmp_path):
    import subprocess

    stats_csv, depth_csv = tmp_path / "s.csv", tmp_path / "d.csv"
    subprocess.run([tool("itch5inside"), sample, "--quiet", "-o", str(tmp_path / "i.txt"), "--stats",
                    str(stats_csv), "--depth", str(depth_csv)], check=True)
    import pyarrow.csv as pacsv

    day = itch5.open(sample)
    s = day.stats()
    d = day.depth()
    want_s = pacsv.read_csv(str(stats_csv))
    want_d = pacsv.read_csv(str(depth_csv))
    # processing-time columns are measured, so differ run to run; the rest is the same
    keep = [c for c in want_s.column_names if "rocessing" not in c]
    assert s.select(keep).equals(want_s.select(keep))
    assert d.equals(want_d)


_PEAK = """
import sys, itch5, pyarrow  # pyarrow in every mode: its own footprint is not the table's
day = itch5.open(sys.argv[1], batch_rows=4096, queue_batches=2)
mode = sys.argv[2]
if mode == "engine":      # the books alone: a run with no table
    run = day._run([])
    while run.next() is not None:
        pass
elif mode == "stream":    # every row through Python, batch by batch, none kept
    rows = sum(b.num_rows for _, b in day.batches("inside"))
else:                     # the whole table held
    t = day.inside.to_arrow()
# VmHWM: this process's peak RSS (ru_maxrss would start from the forking parent's RSS)
with open("/proc/self/status") as f:
    print(next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmHWM:")))
"""


def test_memory_is_bounded_by_the_batch_size(generated_day):
    import subprocess
    import sys

    day_path = generated_day

    def peak(mode):
        out = subprocess.run([sys.executable, "-c", _PEAK, str(day_path), mode], check=True,
                             capture_output=True, text=True, env=dict(os.environ)).stdout
        return int(out.split()[-1])

    engine, stream, whole = peak("engine"), peak("stream"), peak("whole")
    print(f"peak RSS: engine alone {engine >> 20} MiB, streaming {stream >> 20} MiB, whole table {whole >> 20} MiB")
    # streaming costs the batches in flight (4096 rows x 2 queued + 1 built + 1 held), not the day's rows
    assert stream - engine < 24 << 20, (engine, stream, whole)
    # while holding the table costs its size: the day is big enough for the bound to mean something
    assert whole - engine > (stream - engine) + (32 << 20), (engine, stream, whole)


_INTERRUPTED = """
import sys, time, itch5
day = itch5.open(sys.argv[1], symbols=["NOSUCH"])  # no rows: Python waits for the engine all along
print("ready", flush=True)
try:
    for _ in range(100):  # passes over the day until the signal comes
        if sys.argv[2] == "batches":
            for _ in day.batches("inside"):
                pass
        else:
            import pyarrow as pa
            try:
                pa.RecordBatchReader.from_stream(day.inside).read_all()
            except (pa.ArrowException, OSError) as e:
                # pyarrow's own SIGINT handling during read_all may take the re-armed interrupt and raise the
                # stream's error instead ("interrupted (KeyboardInterrupt)"); otherwise the interrupt is
                # raised here, once back in Python.
                if "interrupted (KeyboardInterrupt)" in str(e):
                    raise KeyboardInterrupt from e
                time.sleep(5)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    sys.exit(3)
print("finished", flush=True)
"""


@pytest.mark.parametrize("way", ["batches", "stream"])
def test_ctrl_c_raises_keyboard_interrupt_within_a_second(generated_day, way):
    import signal
    import subprocess
    import sys
    import time

    p = subprocess.Popen([sys.executable, "-c", _INTERRUPTED, generated_day, way], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(0.3)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    took = time.monotonic() - sent
    assert "KeyboardInterrupt" in out, (out, err)
    assert p.returncode == 3
    assert took < 1.0 or way == "stream" and took < 1.5, took
