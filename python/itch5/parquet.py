"""Tables of a day as Parquet files: ``itch5.to_parquet`` and the console script ``itch5parquet``.

One pass of the engine writes every table asked for (pyarrow.parquet's writer over the Arrow batches):
one file per table, ``OUT/<table>.parquet``, zstd by default, row groups of ``row_group_rows`` rows (1 Mi:
large enough for scans, small enough to skip by the timestamp statistics), the sort order recorded
(timestamp, the feed's order), and in the footer's key-value metadata the source file's name, size and
sha256 and the tool's version (the sha256 computed on a thread of its own while the engine runs, so the
day is not read twice in a row; it joins the other keys in the footer when the files close, and name, size
and version are in the Arrow schema's metadata too). Row groups are encoded and compressed on a writing
thread while the engine makes the next (pyarrow releases the GIL): on the 20 M-message day this took the
conversion of inside and trades from 3.15 s to 2.6 s on 2 cores (bench/python_tables.py). Each file is
written to a temporary name and renamed when complete, so a file that exists is finished: a second run
skips it (resumable, like itch5batch).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Optional, Sequence, Union

from . import Day, Error, __version__, open as _open, table_names

ROW_GROUP_ROWS = 1 << 20


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            chunk = f.read(1 << 22)
            if not chunk:
                break
            h.update(chunk)
    return h.hexdigest()


def _encodings(schema: Any) -> dict:
    """ParquetWriter arguments: the time columns (itch5 types ``ns`` and ``time``: 64-bit integers, and the
    row's timestamp non-decreasing in feed order) delta-encoded (DELTA_BINARY_PACKED, part of Parquet since
    its first format version), every other column as pyarrow chooses (dictionary, falling back to plain). On
    the 20 M-message day's inside and trades tables this writes 4% fewer bytes in 9% less time than
    dictionaries over timestamps, which are nearly all distinct.
    """
    deltas = [f.name for f in schema if (f.metadata or {}).get(b"itch5.type") in (b"ns", b"time")]
    if not deltas:
        return {}
    return {
        "use_dictionary": [f.name for f in schema if f.name not in deltas],
        "column_encoding": {name: "DELTA_BINARY_PACKED" for name in deltas},
    }


def _statistics_columns(schema: Any) -> list:
    """The columns whose min/max statistics are written: every column but the text ones (strings, and the
    dictionary-encoded symbol). A row group of a day holds nearly every symbol, so a symbol's min and max
    would prune nothing, and computing them over the symbols' text was ~10% of the writing thread's CPU on
    the 20 M-message day (bench/python_tables.py; docs/performance.md). The timestamp's statistics are
    what a time-range scan skips row groups by.
    """
    import pyarrow as pa

    def text(t: Any) -> bool:
        if pa.types.is_dictionary(t):
            t = t.value_type
        return pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_binary(t)

    return [f.name for f in schema if not text(f.type)]


def _write_group(writer: Any, group: Any, row_group_rows: int) -> None:
    """Writes one row group (on the writing thread). Its batches each carry their own symbol dictionary;
    unified first, the column chunk has one dictionary, which the Parquet writer stores as it is and whose
    indices it writes directly, instead of expanding every symbol to its text and hashing it again (a
    fallback that pyarrow takes when a column's dictionary changes between the batches of a row group).
    """
    writer.write_table(group.unify_dictionaries(), row_group_size=row_group_rows)


def _known_metadata(path: str) -> dict:
    """The metadata known before the file is read: all but the sha256."""
    return {
        "itch5.source.name": os.path.basename(path),
        "itch5.source.size": str(os.path.getsize(path)),
        "itch5.version": __version__,
    }


class _Digest(threading.Thread):
    """The sha256 of a file, computed beside the conversion (hashlib releases the GIL while it hashes)."""

    def __init__(self, path: str) -> None:
        super().__init__(name="itch5-sha256", daemon=True)
        self.path = path
        self.digest: Optional[str] = None
        self.error: Optional[BaseException] = None
        self.start()

    def run(self) -> None:
        try:
            self.digest = _sha256(self.path)
        except BaseException as e:  # reported by result(), on the caller's thread
            self.error = e

    def result(self) -> str:
        self.join()
        if self.error is not None:
            raise self.error
        assert self.digest is not None
        return self.digest


class _Progress:
    """Rows written per table and elapsed time on one stderr line, on a terminal only."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, rows: dict, final: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not final and now - self.last < 0.2:
            return
        self.last = now
        spin = "|/-\\"[int(now * 5) % 4] if not final else "done"
        text = " ".join(f"{k} {v:,}" for k, v in rows.items())
        sys.stderr.write(f"\ritch5parquet [{spin}] {text} rows, {now - self.start:.1f} s\x1b[K")
        if final:
            sys.stderr.write("\n")
        sys.stderr.flush()


def to_parquet(
    day: Union[Day, str],
    out_dir: str,
    tables: Sequence[str] = ("inside",),
    compression: str = "zstd",
    row_group_rows: int = ROW_GROUP_ROWS,
    progress: bool = False,
    **open_args: Any,
) -> dict:
    """Writes `tables` of `day` (an itch5.Day or a path, opened with open_args) to out_dir/<table>.parquet.

    Returns {table: path}. Tables whose file exists are not redone. On corrupt input raises itch5.Error
    and leaves no file for the tables of that pass (their temporaries removed).
    """
    if not isinstance(day, Day):
        day = _open(day, **open_args)
    known = table_names()
    for t in tables:
        if t not in known:
            raise ValueError(f"unknown table {t!r} (tables: {', '.join(known)})")
    os.makedirs(out_dir, exist_ok=True)
    paths = {t: os.path.join(out_dir, f"{t}.parquet") for t in tables}
    todo = [t for t in tables if not os.path.exists(paths[t])]
    if not todo:
        return paths
    meta = _known_metadata(day.path)
    # The engine starts first and makes the first batches (as many as the day's queue holds) while pyarrow
    # is imported and the writers are opened (`import pyarrow` alone takes 0.11-0.15 s on the 2-core VM).
    digest = _Digest(day.path)
    run = day._run(todo)
    batches = day._drain(run)  # cancels the run when it ends; the except below, if it never starts
    temps = {t: f"{paths[t]}.tmp.{os.getpid()}" for t in todo}
    writers: dict = {}
    pending: dict = {t: [] for t in todo}
    pending_rows = {t: 0 for t in todo}
    rows = {t: 0 for t in todo}
    bar = _Progress(progress)

    # Row groups are written on a thread of their own (pyarrow releases the GIL while it encodes and
    # compresses), one at a time, while the engine fills the next: memory stays bounded by two row groups
    # per table plus the batch queue, and a write's error surfaces at the next flush or at the end. Once
    # the engine is done, the tables' last row groups are written at once, a thread each (the cores are
    # free then: on the 20 M-message day the inside table's last group and the trades table's only one
    # took ~0.07 s and ~0.12 s one after the other).
    writing = ThreadPoolExecutor(max_workers=len(todo), thread_name_prefix="itch5-parquet")
    in_flight: list[Future] = []  # the row groups being written (one while the engine runs)

    def wait_written() -> None:
        while in_flight:
            in_flight[0].result()  # kept until done: an interrupt here still waits for it below
            in_flight.pop(0)

    def flush(t: str, last: bool = False) -> None:
        # Writes whole row groups of the pending rows (all of them when `last`, without waiting for the
        # other tables' last ones); the rows beyond the last whole group stay pending (slices: no copy), so
        # every row group but a table's last has exactly row_group_rows rows whatever the batches' sizes.
        if pending[t]:
            group = pa.Table.from_batches(pending[t])
            keep = 0 if last else group.num_rows % row_group_rows
            pending[t] = group.slice(group.num_rows - keep).to_batches() if keep else []
            pending_rows[t] = keep
            if group.num_rows > keep:
                if not last:
                    wait_written()
                group = group.slice(0, group.num_rows - keep)
                in_flight.append(writing.submit(_write_group, writers[t], group, row_group_rows))

    try:
        import pyarrow as pa
        import pyarrow.parquet as pq

        for t in todo:
            schema = day.table(t).schema
            schema = schema.with_metadata({**(schema.metadata or {}), **{k.encode(): v.encode() for k, v in meta.items()}})
            writers[t] = pq.ParquetWriter(
                temps[t], schema, compression=compression,
                sorting_columns=[pq.SortingColumn(0)], write_statistics=_statistics_columns(schema),
                **_encodings(schema),
            )
        for t, batch in batches:
            pending[t].append(batch)
            pending_rows[t] += batch.num_rows
            rows[t] += batch.num_rows
            if pending_rows[t] >= row_group_rows:
                flush(t)
            bar.update(rows)
        wait_written()  # the group in flight first: a writer must not take two groups at once
        for t in todo:
            flush(t, last=True)  # then every table's last group, each on its own writer, at once
        wait_written()
        full = {**meta, "itch5.source.sha256": digest.result()}
        for t in todo:
            writers[t].add_key_value_metadata(full)
            writers.pop(t).close()
            os.replace(temps[t], paths[t])
        bar.update(rows, final=True)
    except BaseException:
        run.cancel()  # the engine's thread stops (batches' own cancel runs only once it has started)
        for f in in_flight:
            f.exception()  # wait for it; the original error matters
        for w in writers.values():
            try:
                w.close()
            except Exception:  # pragma: no cover - the original error matters
                pass
        for t in todo:
            if os.path.exists(temps[t]):
                os.remove(temps[t])
        raise
    finally:
        writing.shutdown()
    return paths


def main(argv: Optional[Sequence[str]] = None) -> int:
    """itch5parquet DAY --out DIR [--tables inside,...] [--symbols A,B] [--from T] [--to T] [--date D]."""
    p = argparse.ArgumentParser(
        prog="itch5parquet",
        description="Writes tables of an ITCH 5.0 day as Parquet files, one per table (OUT/<table>.parquet), "
        "in one pass. A table whose file exists is skipped (resumable).",
    )
    p.add_argument("day", help="the day's file: raw or gzip ITCH 5.0, or a pcap/pcapng of a MoldUDP64 feed")
    p.add_argument("--out", required=True, help="the directory for the Parquet files (made if missing)")
    p.add_argument("--tables", default="inside",
                   help=f"comma-separated tables to write (default inside; known: {', '.join(table_names())})")
    p.add_argument("--symbols", default="", help="comma-separated symbols to keep (default: all)")
    p.add_argument("--from", dest="start", default=None, help="keep rows from this time of day (HH:MM[:SS])")
    p.add_argument("--to", dest="end", default=None, help="keep rows before this time of day (HH:MM[:SS])")
    p.add_argument("--date", default=None,
                   help="the day's date, YYYY-MM-DD: adds the timezone-aware time column (default: from a "
                   "Nasdaq-style file name, MMDDYYYY.NASDAQ_ITCH50[.gz], else no time column)")
    p.add_argument("--timezone", default="America/New_York",
                   help="the time column's IANA time zone (default America/New_York)")
    p.add_argument("--compression", default="zstd", help="Parquet compression codec (default zstd)")
    p.add_argument("--row-group-rows", type=int, default=ROW_GROUP_ROWS,
                   help=f"rows per row group (default {ROW_GROUP_ROWS})")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.add_argument("--version", action="version", version=f"itch5parquet {__version__}")
    a = p.parse_args(argv)
    tables = [t for t in a.tables.split(",") if t]
    # numpy's OpenBLAS, loaded with pyarrow below, starts a thread per core that spins for a while (~0.09 s
    # of CPU on the 20 M-message day's conversion on 2 cores, perf): a conversion has no use for BLAS.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        day = _open(a.day, symbols=[s for s in a.symbols.split(",") if s], start=a.start, end=a.end,
                    date=a.date, timezone=a.timezone)
        paths = to_parquet(day, a.out, tables=tables, compression=a.compression,
                           row_group_rows=a.row_group_rows, progress=not a.quiet)
    except (Error, OSError, ValueError) as e:
        print(f"itch5parquet: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("itch5parquet: interrupted", file=sys.stderr)
        return 130
    if not a.quiet:
        for t, path in paths.items():
            print(f"itch5parquet: {t}: {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
