"""itch5: Nasdaq TotalView-ITCH 5.0 order books and their tables, as Arrow streams.

One pass of the itch5 engine (the C++ library behind ``itch5inside``) over a day's file gives the tables
asked for, batch by batch, typed exactly (docs/python.md):

    >>> import itch5
    >>> day = itch5.open("data/synthetic-200k.itch.gz", symbols=["AAPL"], start="09:30", end="16:00")
    >>> inside = day.inside.to_polars()            # or pyarrow: day.inside.to_arrow()
    >>> for table, batch in day.batches("inside"):  # pyarrow.RecordBatch per batch, one pass for all
    ...     pass

Every table object speaks the Arrow PyCapsule stream interface (``__arrow_c_stream__``), so
``pyarrow.RecordBatchReader.from_stream(t)``, ``polars.DataFrame(t)`` and ``duckdb.sql("select * from t")``
read it directly. Timestamps are int64 nanoseconds since midnight (plus a timezone-aware ``time`` column
when the day's date is known), prices int64 in $0.0001, symbols dictionary-encoded.

The engine runs on a thread of its own with the GIL released and hands batches through a bounded queue:
memory stays bounded by the batch size, Ctrl-C raises KeyboardInterrupt within a second, and a corrupt
or truncated file raises :class:`itch5.Error` (path, byte offset, message number) after the batches before
the damage were delivered.
"""

from __future__ import annotations

import datetime as _dt
import os as _os
import re as _re
from typing import Any, Iterator, Optional, Sequence, Union

from . import _itch5

__version__ = "0.1.0"
__all__ = ["Error", "Day", "Table", "open", "table_names", "to_parquet", "tde", "__version__"]

TimeLike = Union[None, int, str, _dt.time, _dt.timedelta]
NS_PER_SECOND = 1_000_000_000
_END_OF_TIME = 2**63 - 1


class Error(Exception):
    """Corrupt or truncated input: where the engine stopped.

    Attributes: ``path``, ``offset`` (byte offset in the decompressed stream of the failing message),
    ``message_number`` (1-based), ``message`` (the engine's description, as itch5inside prints it).
    """

    def __init__(self, message: str, path: str, offset: int, message_number: int) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.offset = offset
        self.message_number = message_number


def table_names() -> list[str]:
    """The tables a run can make (``inside``, and those bound since: trades, levels, events...)."""
    return list(_itch5.table_names())


_LOBSTER = _re.compile(r"lobster_(message|orderbook([1-9][0-9]?)?):[^:]{1,8}")


def _is_table(name: str) -> bool:
    """Whether `name` is a table: one of table_names(), ``levelsN`` (the book N levels deep, N from 1 to
    50; ``levels`` is N = 10), or a symbol's LOBSTER table: ``lobster_message:SYMBOL``,
    ``lobster_orderbook:SYMBOL`` (10 levels) or ``lobster_orderbookN:SYMBOL`` (N from 1 to 50)."""
    if name in table_names():
        return True
    m = _LOBSTER.fullmatch(name)
    if m:
        return m.group(2) is None or int(m.group(2)) <= 50
    n = name[6:] if name.startswith("levels") else ""
    return n.isdigit() and str(int(n)) == n and 1 <= int(n) <= 50


def _time_ns(t: TimeLike, default: int) -> int:
    """Nanoseconds since midnight from None, an int (ns), 'HH:MM[:SS[.fffffffff]]', a time or timedelta."""
    if t is None:
        return default
    if isinstance(t, bool):
        raise TypeError("a time of day, not a bool")
    if isinstance(t, int):
        return t
    if isinstance(t, _dt.timedelta):
        return (t.days * 86400 + t.seconds) * NS_PER_SECOND + t.microseconds * 1000
    if isinstance(t, _dt.time):
        return ((t.hour * 60 + t.minute) * 60 + t.second) * NS_PER_SECOND + t.microsecond * 1000
    if isinstance(t, str):
        m = _re.fullmatch(r"(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?", t.strip())
        if not m:
            raise ValueError(f"time of day {t!r}: expected HH:MM[:SS[.fraction]]")
        h, mi, s, frac = int(m[1]), int(m[2]), int(m[3] or 0), (m[4] or "")
        if mi > 59 or s > 59:
            raise ValueError(f"time of day {t!r}: out of range (minutes and seconds go up to 59)")
        if h > 24 or (h == 24 and (mi or s or frac.strip("0"))):
            raise ValueError(f"time of day {t!r}: out of range (beyond 24:00, as itch5inside --from/--to)")
        return ((h * 60 + mi) * 60 + s) * NS_PER_SECOND + int(frac.ljust(9, "0") or 0)
    raise TypeError(f"time of day: unsupported type {type(t).__name__}")


def _date_from_name(path: str) -> Optional[_dt.date]:
    """The date of a file named as Nasdaq names its days (MMDDYYYY.NASDAQ_ITCH50[.gz])."""
    m = _re.search(r"(\d{2})(\d{2})(\d{4})\.NASDAQ_ITCH50", _os.path.basename(path))
    if not m:
        return None
    try:
        return _dt.date(int(m[3]), int(m[1]), int(m[2]))
    except ValueError:
        return None


def _date_arg(date: Union[_dt.date, str, None]) -> Optional[_dt.date]:
    """open()'s date: a datetime.date (a datetime's date part), or "YYYY-MM-DD"."""
    if date is None:
        return None
    if isinstance(date, _dt.datetime):
        return date.date()
    if isinstance(date, _dt.date):
        return date
    if isinstance(date, str):
        try:
            return _dt.date.fromisoformat(date.strip())
        except ValueError:
            raise ValueError(f"date: {date!r} is not a date as YYYY-MM-DD") from None
    raise TypeError(f"date: expected a datetime.date or 'YYYY-MM-DD', got {type(date).__name__}")


def _timezone_arg(timezone: str) -> str:
    """open()'s timezone, checked now rather than when the first table is made."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        ZoneInfo(timezone)
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValueError(f"timezone: {timezone!r} is not an IANA time zone, e.g. America/New_York") from None
    return timezone


def _midnight_utc_ns(date: _dt.date, timezone: str) -> int:
    from zoneinfo import ZoneInfo

    midnight = _dt.datetime.combine(date, _dt.time(0), tzinfo=ZoneInfo(timezone))
    return int(midnight.timestamp()) * NS_PER_SECOND


def _pyarrow():
    try:
        import pyarrow
    except ImportError as e:  # pragma: no cover
        raise ImportError("itch5: this call needs pyarrow (pip install pyarrow)") from e
    return pyarrow


class Day:
    """A day's file opened for reading (nothing is read until a table or batch is asked for).

    Each table or batch call is one pass of the engine over the file. See :func:`open`.
    """

    def __init__(
        self,
        path: Union[str, "_os.PathLike[str]"],
        symbols: Optional[Sequence[str]] = None,
        start: TimeLike = None,
        end: TimeLike = None,
        book: str = "array",
        date: Union[_dt.date, str, None] = None,
        timezone: str = "America/New_York",
        batch_rows: int = 65536,
        queue_batches: int = 4,
    ) -> None:
        self.path = _os.fspath(path)
        if self.path != "-" and not _os.path.exists(self.path):
            raise FileNotFoundError(2, "No such file or directory", self.path)
        if isinstance(symbols, str):
            symbols = [s for s in symbols.split(",") if s]
        self.symbols = [s.strip().upper() for s in (symbols or [])]
        self.start = _time_ns(start, 0)
        self.end = _time_ns(end, _END_OF_TIME)
        if self.start >= self.end:
            raise ValueError("start must be before end")
        self.book = book
        given = _date_arg(date)
        self.date = given if given is not None else _date_from_name(self.path)
        self.timezone = _timezone_arg(timezone)
        self.batch_rows = int(batch_rows)
        self.queue_batches = int(queue_batches)
        if self.batch_rows < 1 or self.queue_batches < 1:
            raise ValueError("batch_rows and queue_batches must be at least 1")

    def __repr__(self) -> str:
        return f"itch5.Day({self.path!r}, symbols={self.symbols or None}, start={self.start}, end={self.end})"

    def _time_args(self) -> tuple[str, int]:
        if self.date is None:
            return "", 0
        return self.timezone, _midnight_utc_ns(self.date, self.timezone)

    def _run(self, tables: Sequence[str], stats: bool = False) -> "_itch5.Run":
        known = table_names()
        for t in tables:
            if not _is_table(t):
                raise ValueError(f"unknown table {t!r} (tables: {', '.join(known)})")
        tz, midnight = self._time_args()
        try:
            return _itch5.Run(
                self.path, list(tables), self.symbols, self.start, self.end, self.book, self.batch_rows,
                self.queue_batches, tz, midnight, stats,
            )
        except RuntimeError as e:
            raise Error(str(e), self.path, 0, 0) from None

    @staticmethod
    def _raise_if_failed(run: "_itch5.Run", path: str) -> dict:
        end = run.end()
        if end["error"]:
            raise Error(end["message"], path, end["offset"], end["message_number"])
        return end

    def batches(self, *tables: Union[str, "Table"]) -> Iterator[tuple[str, Any]]:
        """Yields ``(table name, pyarrow.RecordBatch)`` for the tables asked for (names or Table objects),
        in one pass, in the order the engine makes them. Raises :class:`Error` after the last good batch on
        corrupt input."""
        names = [t.name if isinstance(t, Table) else t for t in tables]
        yield from self._drain(self._run(names or ("inside",)))

    def _drain(self, run: "_itch5.Run") -> Iterator[tuple[str, Any]]:
        """batches() of a run already started (to_parquet starts it before it imports pyarrow.parquet and
        opens its writers); cancels the run when done or abandoned."""
        try:
            pa = _pyarrow()  # imported while the engine, started before, reads the first batches
            while True:
                item = run.next()
                if item is None:
                    break
                name, schema, array = item
                yield name, pa.RecordBatch._import_from_c_capsule(schema, array)
            self._raise_if_failed(run, self.path)
        finally:
            run.cancel()

    def table(self, name: str) -> "Table":
        """The table `name` of this day (lazy: read when consumed)."""
        if not _is_table(name):
            raise ValueError(f"unknown table {name!r} (tables: {', '.join(table_names())})")
        return Table(self, name)

    def lobster(self, symbol: str, levels: int = 10) -> tuple["Table", "Table"]:
        """LOBSTER's message and orderbook tables of `symbol` (itch5lobster's two files as tables; the
        orderbook `levels` deep, 1 to 50). Their rows cover this day's start/end: open the day with
        ``start="09:30", end="16:00"`` for LOBSTER's usual window. Both in one pass:
        ``day.batches(*day.lobster("AAPL"))`` or ``day.batches(m.name, b.name)``."""
        if not 1 <= int(levels) <= 50:
            raise ValueError("levels must be between 1 and 50")
        book = "lobster_orderbook" + ("" if int(levels) == 10 else str(int(levels)))
        return self.table(f"lobster_message:{symbol}"), self.table(f"{book}:{symbol}")

    def __getattr__(self, name: str) -> "Table":
        if not name.startswith("_") and _is_table(name):
            return Table(self, name)
        raise AttributeError(name)

    def _statistics(self):
        pa = _pyarrow()
        import pyarrow.csv as pacsv
        import io

        run = self._run([], stats=True)
        while run.next() is not None:
            pass
        end = self._raise_if_failed(run, self.path)

        def read(text: str):
            if not text:
                return pa.table({})
            return pacsv.read_csv(io.BytesIO(text.encode()))

        return read(end["stats_csv"]), read(end["depth_csv"])

    def stats(self):
        """The per-symbol feed statistics (itch5inside --stats's CSV) as a pyarrow.Table."""
        return self._statistics()[0]

    def depth(self):
        """The depth histograms (itch5inside --depth's CSV) as a pyarrow.Table."""
        return self._statistics()[1]


class Table:
    """One table of a day: an Arrow stream (``__arrow_c_stream__``), read in one pass when consumed."""

    def __init__(self, day: Day, name: str) -> None:
        self.day = day
        self.name = name

    def __repr__(self) -> str:
        return f"itch5.Table({self.name!r} of {self.day.path!r})"

    @property
    def schema(self):
        """The table's pyarrow.Schema (field metadata: itch5.type, itch5.meaning)."""
        pa = _pyarrow()
        tz, midnight = self.day._time_args()
        return pa.Schema._import_from_c_capsule(_itch5.schema(self.name, tz, midnight))

    def __arrow_c_stream__(self, requested_schema: Any = None) -> Any:
        """The Arrow PyCapsule stream interface: a new pass over the file."""
        return self.day._run([self.name]).stream()

    def batches(self) -> Iterator[Any]:
        """pyarrow.RecordBatch after pyarrow.RecordBatch (see Day.batches)."""
        for _, b in self.day.batches(self.name):
            yield b

    def to_arrow(self):
        """The whole table as a pyarrow.Table (for a day that fits in memory)."""
        batches = list(self.batches())  # imports pyarrow once the engine runs (Day.batches)
        return _pyarrow().Table.from_batches(batches, schema=self.schema)

    def to_polars(self):
        """The whole table as a polars.DataFrame (symbols Categorical)."""
        import polars as pl

        return pl.from_arrow(self.to_arrow())

    def to_pandas(self):
        """The whole table as a pandas.DataFrame (through pyarrow)."""
        return self.to_arrow().to_pandas()


def open(  # noqa: A001 - the package's entry point, like builtins.open for a day
    path: Union[str, "_os.PathLike[str]"],
    symbols: Optional[Sequence[str]] = None,
    start: TimeLike = None,
    end: TimeLike = None,
    book: str = "array",
    date: Union[_dt.date, str, None] = None,
    timezone: str = "America/New_York",
    batch_rows: int = 65536,
    queue_batches: int = 4,
) -> Day:
    """Opens a day's ITCH 5.0 file (raw or gzip, or a pcap of a MoldUDP64 feed) for reading tables.

    symbols: restrict rows to these symbols (a list or "AAPL,MSFT"); start/end: the time range of rows
    (``"09:30"``, ns since midnight, a datetime.time); the books are built from every message. book: the
    book type (as itch5inside --book). date: the day's date (a datetime.date or ``"YYYY-MM-DD"``), for the
    timezone-aware ``time`` column (taken from a Nasdaq-style file name when not given); timezone: that
    column's IANA time zone. batch_rows: rows per record batch; queue_batches:
    batches the engine may run ahead (memory is bounded by their product).
    """
    return Day(path, symbols, start, end, book, date, timezone, batch_rows, queue_batches)


def to_parquet(day: Union[Day, str], out_dir: str, tables: Sequence[str] = ("inside",), **kwargs: Any):
    """Writes tables of a day as Parquet files in out_dir (see itch5.parquet.to_parquet)."""
    from .parquet import to_parquet as _to_parquet

    return _to_parquet(day, out_dir, tables=tables, **kwargs)


def tde(*args: Any, **kwargs: Any):
    """The delay estimator (itch5tde) on two inside series; see itch5.tde_tables."""
    from .tde_tables import tde as _tde

    return _tde(*args, **kwargs)
