"""itch5.to_parquet and itch5parquet: round trip, footer metadata, sorting columns, resumability."""

import datetime
import hashlib
import os
import subprocess
import sys

import pytest

import itch5

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def test_round_trip_and_metadata(sample, tmp_path):
    day = itch5.open(sample, symbols=["SPY", "AAPL"])
    paths = itch5.to_parquet(day, str(tmp_path), tables=["inside"], row_group_rows=1000)
    back = pq.read_table(paths["inside"])
    want = day.inside.to_arrow()
    assert back.num_rows == want.num_rows > 1000
    for c in want.column_names:
        assert back.column(c).to_pylist() == want.column(c).to_pylist(), c
    f = pq.ParquetFile(paths["inside"])
    meta = f.metadata.metadata  # the footer's key-value metadata
    assert meta[b"itch5.source.name"] == os.path.basename(sample).encode()
    assert int(meta[b"itch5.source.size"]) == os.path.getsize(sample)
    with open(sample, "rb") as s:
        assert meta[b"itch5.source.sha256"] == hashlib.sha256(s.read()).hexdigest().encode()
    assert meta[b"itch5.version"] == itch5.__version__.encode()
    # All but the sha256 (computed while the engine runs) are in the Arrow schema's metadata too.
    schema_meta = f.schema_arrow.metadata
    for k in (b"itch5.source.name", b"itch5.source.size", b"itch5.version"):
        assert schema_meta[k] == meta[k], k
    assert f.metadata.num_row_groups == -(-want.num_rows // 1000)
    sc = f.metadata.row_group(0).sorting_columns
    assert sc and sc[0].column_index == 0
    assert f.metadata.row_group(0).column(0).compression == "ZSTD"
    assert "DELTA_BINARY_PACKED" in f.metadata.row_group(0).column(0).encodings  # the timestamp


def test_several_tables_in_many_row_groups(sample, tmp_path):
    # Row groups are written on a thread of their own while the engine runs: two tables of many small row
    # groups each come back whole and in order, the time columns (delta-encoded) included.
    day = itch5.open(sample, symbols=["SPY", "AAPL", "QQQ"], date=datetime.date(2024, 1, 2))
    paths = itch5.to_parquet(day, str(tmp_path), tables=["inside", "trades"], row_group_rows=300)
    for table in ("inside", "trades"):
        want = day.table(table).to_arrow()
        f = pq.ParquetFile(paths[table])
        assert f.metadata.num_row_groups == -(-want.num_rows // 300) > 3, table
        back = f.read()
        assert back.column_names == want.column_names
        for c in want.column_names:
            assert back.column(c).to_pylist() == want.column(c).to_pylist(), (table, c)
        names = [f.schema_arrow.field(i).name for i in range(f.metadata.num_columns)]
        for name in ("timestamp", "time"):
            encodings = f.metadata.row_group(0).column(names.index(name)).encodings
            assert "DELTA_BINARY_PACKED" in encodings, (table, name, encodings)


def test_row_groups_of_many_batches_and_their_statistics(sample, tmp_path):
    # Batches of 97 rows, each with its own symbol dictionary, gathered into row groups of 1,000 rows: the
    # writer unifies each group's dictionaries, and every row comes back with its symbol. Min/max
    # statistics are written for the number and time columns, not for the text ones (the symbol, letters).
    day = itch5.open(sample, symbols=["SPY", "AAPL", "QQQ", "MSFT"], batch_rows=97)
    paths = itch5.to_parquet(day, str(tmp_path), tables=["inside", "trades"], row_group_rows=1000)
    for table in ("inside", "trades"):
        want = itch5.open(sample, symbols=["SPY", "AAPL", "QQQ", "MSFT"]).table(table).to_arrow()
        f = pq.ParquetFile(paths[table])
        assert f.metadata.num_row_groups == -(-want.num_rows // 1000) > 1, table
        back = f.read()
        for c in want.column_names:
            assert back.column(c).to_pylist() == want.column(c).to_pylist(), (table, c)
        schema = f.schema_arrow
        for g in range(f.metadata.num_row_groups):
            for i in range(f.metadata.num_columns):
                t = schema.field(i).type
                text = pa.types.is_dictionary(t) or pa.types.is_string(t)
                column = f.metadata.row_group(g).column(i)
                assert column.is_stats_set != text, (table, schema.field(i).name, str(t))
        ts = f.metadata.row_group(0).column(0).statistics
        assert (ts.min, ts.max) == (want.column(0)[0].as_py(), want.column(0)[999].as_py())


def test_a_finished_table_is_not_redone(sample, tmp_path):
    day = itch5.open(sample, symbols=["SPY"])
    p = itch5.to_parquet(day, str(tmp_path))["inside"]
    stamp = os.stat(p).st_mtime_ns
    os.utime(p, ns=(stamp - 10**9, stamp - 10**9))
    itch5.to_parquet(day, str(tmp_path))
    assert os.stat(p).st_mtime_ns == stamp - 10**9
    assert not [n for n in os.listdir(tmp_path) if ".tmp." in n]


def test_corrupt_input_leaves_no_file(raw_sample, tmp_path):
    cut = tmp_path / "cut.itch"
    with open(raw_sample, "rb") as f:
        cut.write_bytes(f.read(200003))
    for rows in (1 << 20, 500):  # the error before any row group, and while row groups are being written
        out = tmp_path / f"out{rows}"
        with pytest.raises(itch5.Error):
            itch5.to_parquet(str(cut), str(out), tables=["inside", "trades"], row_group_rows=rows)
        assert os.listdir(out) == []


def test_console_script(sample, tmp_path):
    r = subprocess.run([sys.executable, "-m", "itch5.parquet", sample, "--out", str(tmp_path), "--tables",
                        "inside", "--symbols", "QQQ", "--quiet"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    t = pq.read_table(tmp_path / "inside.parquet")
    assert set(t.column("symbol").to_pylist()) == {"QQQ"}
    assert "time" not in t.column_names  # no date in the file's name, none given
    dated = tmp_path / "dated"
    r = subprocess.run([sys.executable, "-m", "itch5.parquet", sample, "--out", str(dated), "--symbols", "QQQ",
                        "--date", "2024-01-02", "--timezone", "America/Chicago", "--quiet"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    t = pq.read_table(dated / "inside.parquet")
    assert t.schema.field("time").type == pa.timestamp("ns", tz="America/Chicago")
    assert t.column("time")[0].as_py().date() == datetime.date(2024, 1, 2)
    r = subprocess.run([sys.executable, "-m", "itch5.parquet", sample, "--out", str(dated), "--date", "Jan 2"],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "itch5parquet: error: date: 'Jan 2' is not a date as YYYY-MM-DD" in r.stderr
    r = subprocess.run([sys.executable, "-m", "itch5.parquet", "/nonexistent.itch", "--out", str(tmp_path)],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "itch5parquet: error:" in r.stderr


def test_ctrl_c_while_row_groups_are_written_leaves_no_file(generated_day, tmp_path):
    # SIGINT once the first row group is on disk, with more being written on the writing thread: the
    # script waits for the write in flight, removes every temporary file, says so and exits 130.
    import signal
    import time

    out = tmp_path / "out"
    p = subprocess.Popen([sys.executable, "-m", "itch5.parquet", generated_day, "--out", str(out), "--tables",
                          "inside,trades,levels", "--row-group-rows", "2000", "--quiet"],
                         stderr=subprocess.PIPE, text=True)
    give_up = time.monotonic() + 60
    while not any(n.endswith(f".tmp.{p.pid}") and os.path.getsize(out / n) > 0
                  for n in (os.listdir(out) if out.exists() else [])):
        assert p.poll() is None and time.monotonic() < give_up, "no row group written before the end"
        time.sleep(0.005)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    assert "itch5parquet: interrupted" in err
    assert os.listdir(out) == []
