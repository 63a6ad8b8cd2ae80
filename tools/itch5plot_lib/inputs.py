"""Readers for the project's outputs, with one-line errors that name the file.

Every reader raises InputError (message without the program prefix) on input it cannot use: a missing
file, binary data (an ITCH file given by mistake), a file of another kind (the message says which kind
it looks like and which subcommand draws it), a malformed line (named by number). Inputs may be gzip,
detected from the bytes like the C++ tools do. Only the standard library is used here, so that every
wrong-input case is answered before matplotlib is imported.
"""

import array
import gzip
import os
import re
import zlib

GZIP_MAGIC = b"\x1f\x8b"


class InputError(Exception):
    """An input that cannot be drawn; str() is the one-line message (exit status 1)."""


# --------------------------------------------------------------------------------------------------
# Opening and sniffing


STDIN = "-"
_stdin_bytes = None


def stdin_bytes():
    """Standard input, read once (the readers go over a file more than once: a sniff, then the data)."""
    global _stdin_bytes
    if _stdin_bytes is None:
        import sys
        try:
            _stdin_bytes = sys.stdin.buffer.read()
        except OSError as e:
            raise InputError(f"cannot read standard input: {e.strerror}") from None
    return _stdin_bytes


def check_readable(path):
    """Raises InputError unless `path` is a readable regular file (or a FIFO); - is standard input."""
    if path == STDIN:
        return None
    try:
        st = os.stat(path)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    if os.path.isdir(path):
        raise InputError(f"{path} is a directory, not a file")
    if not os.access(path, os.R_OK):
        raise InputError(f"cannot read {path}: permission denied")
    return st


def open_binary(path):
    """The file's bytes, decompressed when it starts with the gzip magic number; - is standard input."""
    if path == STDIN:
        import io
        data = stdin_bytes()
        f = io.BufferedReader(io.BytesIO(data))
        if data[:2] == GZIP_MAGIC:
            return gzip.GzipFile(fileobj=f, mode="rb")
        return f
    try:
        f = open(path, "rb")
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror}") from None
    head = f.peek(2)[:2] if hasattr(f, "peek") else b""
    if head == GZIP_MAGIC:
        return gzip.GzipFile(fileobj=f, mode="rb")
    return f


def read_head(path, size=65536):
    """Up to `size` leading bytes (decompressed)."""
    with open_binary(path) as f:
        try:
            return f.read(size)
        except (OSError, EOFError, zlib.error) as e:
            raise InputError(f"{path}: corrupt gzip data ({e})") from None


KINDS = {
    "stats": ("an itch5inside --stats CSV", "itch5plot stats"),
    "depth": ("an itch5inside --depth CSV", "itch5plot depth"),
    "tde": ("an itch5tde CSV", "itch5plot tde"),
    "inside": ("an itch5inside inside-change file", "itch5plot inside"),
    "latency": ("a microbenchmark --verbose dump", "itch5plot latency"),
}

# Runs of spaces or tabs between the fields, as itch5tde reads them (itch5::parse_inside_line).
INSIDE_LINE = re.compile(rb"^\d+[ \t]+\d+[ \t]+[!-~]{1,8}[ \t]+\d+[ \t]+\d+[ \t]+\d+[ \t]+\d+[ \t]*\r?$")


def looks_like_itch(head):
    """BinaryFILE framing: a 2-byte big-endian length, then a message whose first byte is its type."""
    if len(head) < 3 or head[0] != 0:
        return False
    length = head[1]
    return 1 <= length and chr(head[2]) in "SRHYLVWKJhAFECXDUPQBIN"


def sniff(head):
    """(kind, description) of a file from its first bytes; kind is one of KINDS, or None."""
    if not head:
        return None, "an empty file"
    if looks_like_itch(head):
        return None, "ITCH 5.0 binary data (itch5inside turns it into the files itch5plot draws)"
    if b"\x00" in head:
        return None, "binary data"
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start < len(head) - 4:  # not just a character cut at the end of the sample
            return None, "binary data"
        text = head[: e.start].decode("utf-8")
    lines = text.split("\n")
    first = None
    for line in lines[:-1] if len(lines) > 1 else lines:
        if line.strip() and not line.startswith("#"):
            first = line.strip()
            break
    if first is None:
        if any(line.startswith("#") for line in lines):
            return None, "comment lines only"
        return None, "an empty file"
    if first.startswith("Name,NSamples,minRatePerSec"):
        return "stats", KINDS["stats"][0]
    if first.startswith("Name,NSamples,minEventDepth"):
        return "depth", KINDS["depth"][0]
    if first.startswith("window_start_ns,symbol,signal"):
        return "tde", KINDS["tde"][0]
    if first == "testcase,nanoseconds":
        return "latency", KINDS["latency"][0]
    if INSIDE_LINE.match(first.encode()):
        return "inside", KINDS["inside"][0]
    shown = first if len(first) <= 40 else first[:40] + "..."
    return None, f"text starting '{shown}'"


def expect_kind(path, kind):
    """Raises InputError unless `path` holds a file of `kind` (checked on its first bytes)."""
    check_readable(path)
    found, description = sniff(read_head(path))
    if found == kind:
        return
    wanted = KINDS[kind][0]
    hint = f" (draw it with '{KINDS[found][1]}')" if found else ""
    raise InputError(f"{path}: expected {wanted}, found {description}{hint}")


def text_lines(path):
    """(line number, line without newline) of a text file (gzip allowed); decoding errors are named."""
    f = open_binary(path)
    number = 0
    try:
        for raw in f:
            number += 1
            try:
                yield number, raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                raise InputError(f"{path}:{number}: binary data in a text file") from None
    except (OSError, EOFError, zlib.error) as e:
        raise InputError(f"{path}: after line {number}: corrupt or truncated gzip data ({e})") from None
    finally:
        f.close()


def number(path, line_number, column, text, integer=False):
    what = "a whole number" if integer else "a finite number"
    try:
        value = int(text) if integer else float(text)
    except ValueError:
        raise InputError(f"{path}:{line_number}: {column} '{text}' is not {what}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise InputError(f"{path}:{line_number}: {column} '{text}' is not {what}")
    return value


# --------------------------------------------------------------------------------------------------
# itch5inside --stats and --depth CSVs (small: one row per symbol)

STATS_COLUMNS = (
    ["Name", "NSamples"]
    + [f"{q}RatePerSec" for q in ("min", "p25", "p50", "p75", "p90", "p99", "p999", "p9999", "max")]
    + [f"{q}RatePerMSec" for q in ("min", "p25", "p50", "p75", "p90", "p99", "p999", "p9999", "max")]
    + [f"{q}RatePerUSec" for q in ("min", "p25", "p50", "p75", "p90", "p99", "p999", "p9999", "max")]
    + [f"{q}Arrival" for q in ("min", "p0001", "p001", "p01", "p05", "p10", "p25", "p50", "p75", "p90",
                                "p99", "max")]
    + [f"{q}Processing" for q in ("min", "p10", "p25", "p50", "p75", "p90", "p99", "p999", "p9999", "max")]
)

# Appended after the Processing columns when itch5inside read a pcap/pcapng capture (docs/formats.md,
# "Statistics CSV", Latency): the feed latency, capture clock - exchange clock, in ns.
LATENCY_COLUMNS = [f"{q}Latency" for q in ("min", "p25", "p50", "p75", "p90", "p99", "p999", "max")]

DEPTH_COLUMNS = (
    ["Name", "NSamples"]
    + [f"{q}EventDepth" for q in ("min", "p25", "p50", "p75", "p90", "p99", "p999", "p9999", "max")]
    + [f"{q}BookDepth" for q in ("min", "p25", "p50", "p75", "p90", "p99", "p999", "p9999", "max")]
)

AGGREGATE = "__aggregate__"


def symbol_examples(order, names, total, where="the file"):
    """'the file has 313 symbols, busiest first: A, B, ...' for an unknown-symbol message."""
    if total == 0:
        return f"{where} has no symbol"
    shown = ", ".join(names[i] for i in order[:8])
    more = ", ..." if total > 8 else ""
    return f"{where} has {total:,} symbol{'s' if total != 1 else ''}, busiest first: {shown}{more}"


def quantile_of(column_prefix):
    """The probability of a JayBeams quantile column prefix: min 0, p25 0.25, p999 0.999, max 1."""
    if column_prefix == "min":
        return 0.0
    if column_prefix == "max":
        return 1.0
    digits = column_prefix[1:]
    return float("0." + digits)


class SymbolTable:
    """Rows of a per-symbol CSV: names, samples and columns by name (floats), plus the aggregate row."""

    def __init__(self, path, columns):
        self.path = path
        self.columns = columns
        self.names = []
        self.samples = []
        self.rows = []
        self.aggregate = None

    def value(self, row, column):
        return row[self.columns.index(column)]

    def busiest(self, top, symbols=None):
        """Indices of the rows to draw: the `symbols` given (in that order), else the `top` rows with the
        most samples (ties in file order)."""
        if symbols:
            index = {name: i for i, name in enumerate(self.names)}
            missing = [s for s in symbols if s not in index]
            if missing:
                raise InputError(f"{self.path}: no row for symbol {', '.join(missing)} "
                                 f"({symbol_examples(self.busiest(8), self.names, len(self.names))})")
            return [index[s] for s in symbols]
        order = sorted(range(len(self.names)), key=lambda i: (-self.samples[i], i))
        return order[:top]


def read_symbol_table(path, kind):
    """An itch5inside --stats (kind 'stats') or --depth ('depth') CSV."""
    expect_kind(path, kind)
    columns = STATS_COLUMNS if kind == "stats" else DEPTH_COLUMNS
    table = SymbolTable(path, columns)
    table.has_latency = False
    header_seen = False
    for n, line in text_lines(path):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split(",")
        if not header_seen:
            if kind == "stats" and fields == STATS_COLUMNS + LATENCY_COLUMNS:  # a capture's
                columns = table.columns = fields
                table.has_latency = True
            if fields != columns:
                extra = [c for c in fields if c not in columns]
                missing = [c for c in columns if c not in fields]
                detail = (f"unknown column {extra[0]}" if extra else
                          f"missing column {missing[0]}" if missing else "columns out of order")
                raise InputError(f"{path}:{n}: not the header of {KINDS[kind][0]} ({detail})")
            header_seen = True
            continue
        if len(fields) != len(columns):
            raise InputError(f"{path}:{n}: expected {len(columns)} fields, found {len(fields)}")
        name = fields[0]
        values = [number(path, n, columns[i], fields[i]) for i in range(1, len(columns))]
        row = [name] + values
        if name == AGGREGATE:
            table.aggregate = row
        else:
            if table.aggregate is not None:
                raise InputError(f"{path}:{n}: a symbol row after the {AGGREGATE} row")
            table.names.append(name)
            table.samples.append(values[0])
            table.rows.append(row)
    if table.aggregate is None:
        if not table.rows:
            raise InputError(f"{path}: no rows after the header")
        raise InputError(f"{path}: no {AGGREGATE} row (a truncated file?)")
    if not table.rows or table.aggregate[1] <= 0:
        what = "event" if kind == "stats" else "book event"
        raise InputError(f"{path}: nothing to draw: no {what} in the file (itch5inside saw no order; "
                         f"{len(table.names):,} symbol rows)")
    return table


# --------------------------------------------------------------------------------------------------
# itch5tde CSV (streamed: a day's comparison has millions of rows)

# The columns read, found by name: the CSV may carry more (docs/formats.md, "TDE CSV").
TDE_COLUMNS = ["window_start_ns", "symbol", "signal", "delay_us", "rho", "flags"]
TDE_FLAGS = ["ok", "few_events", "flat", "low_rho", "low_psr", "ambiguous", "edge", "not_significant"]


class TdeSeries:
    """One (symbol, signal) series of an itch5tde CSV: every passed window's start, delay and rho, and
    how many windows carry each flag."""

    def __init__(self, symbol, signal):
        self.symbol = symbol
        self.signal = signal
        self.windows = 0
        self.flag_counts = dict.fromkeys(TDE_FLAGS, 0)
        self.t_ns = array.array("q")
        self.delay_us = array.array("d")
        self.rho = array.array("d")

    @property
    def passed(self):
        return self.flag_counts["ok"]


class TdeFile:
    def __init__(self, path):
        self.path = path
        self.series = {}  # (symbol, signal) -> TdeSeries, in order of first appearance
        self.comments = []
        self.rows = 0


def read_tde(path, symbols=None, signals=None):
    """The series of an itch5tde CSV, keeping only passed windows' values (failed ones are counted).
    `symbols`/`signals`: keep only these (None: all)."""
    expect_kind(path, "tde")
    tde = TdeFile(path)
    keep_symbols = set(symbols) if symbols else None
    keep_signals = set(signals) if signals else None
    seen_symbols = set()
    seen_signals = set()
    header = None
    for n, line in text_lines(path):
        if not line:
            continue
        if line.startswith("#"):  # the two comment lines of itch5tde CSVs before issue 12
            tde.comments.append(line[1:].strip())
            continue
        fields = line.split(",")
        if header is None:
            if fields[:3] != TDE_COLUMNS[:3] or any(c not in fields for c in TDE_COLUMNS):
                raise InputError(f"{path}:{n}: not the header of an itch5tde CSV (expected "
                                 f"{','.join(TDE_COLUMNS[:3])},... with the columns {', '.join(TDE_COLUMNS[3:])})")
            header = fields
            at = {c: fields.index(c) for c in TDE_COLUMNS}
            continue
        if len(fields) != len(header):
            raise InputError(f"{path}:{n}: expected {len(header)} fields, found {len(fields)}")
        symbol, signal, flags = fields[at["symbol"]], fields[at["signal"]], fields[at["flags"]]
        seen_symbols.add(symbol)
        seen_signals.add(signal)
        if keep_symbols is not None and symbol not in keep_symbols:
            continue
        if keep_signals is not None and signal not in keep_signals:
            continue
        key = (symbol, signal)
        s = tde.series.get(key)
        if s is None:
            s = tde.series[key] = TdeSeries(symbol, signal)
        s.windows += 1
        tde.rows += 1
        for flag in flags.split("|"):
            if flag not in s.flag_counts:
                raise InputError(f"{path}:{n}: unknown flag '{flag}' (expected {', '.join(TDE_FLAGS)})")
            s.flag_counts[flag] += 1
        if flags == "ok":
            s.t_ns.append(number(path, n, "window_start_ns", fields[at["window_start_ns"]], integer=True))
            s.delay_us.append(number(path, n, "delay_us", fields[at["delay_us"]]))
            s.rho.append(number(path, n, "rho", fields[at["rho"]]))
    if header is None:
        raise InputError(f"{path}: no header line")
    if not seen_symbols:
        raise InputError(f"{path}: no rows after the header (itch5tde found no window to compare)")
    for wanted, seen, what in ((symbols, seen_symbols, "symbol"), (signals, seen_signals, "signal")):
        missing = [x for x in (wanted or []) if x not in seen]
        if missing:
            raise InputError(f"{path}: no row for {what} {', '.join(missing)} "
                             f"(the file has {len(seen):,}: {', '.join(sorted(seen)[:8])}"
                             f"{', ...' if len(seen) > 8 else ''})")
    return tde


# --------------------------------------------------------------------------------------------------
# Microbenchmark --verbose dumps


class BenchDump:
    def __init__(self, path):
        self.path = path
        self.header = {}  # '# key: value' lines
        self.cases = {}  # test case -> list of ns, in order of first appearance


def read_bench_dump(path):
    expect_kind(path, "latency")
    dump = BenchDump(path)
    header_seen = False
    for n, line in text_lines(path):
        if not line.strip():
            continue
        if line.startswith("#"):
            key, sep, value = line[1:].partition(":")
            if sep and key.strip() not in dump.header:
                dump.header[key.strip()] = value.strip()
            continue
        if line == "testcase,nanoseconds":
            header_seen = True
            continue
        if not header_seen:
            raise InputError(f"{path}:{n}: a sample before the 'testcase,nanoseconds' header")
        name, sep, value = line.rpartition(",")
        if not sep or not name:
            raise InputError(f"{path}:{n}: expected 'testcase,nanoseconds', found '{line[:40]}'")
        dump.cases.setdefault(name, []).append(number(path, n, "nanoseconds", value))
    if not dump.cases:
        raise InputError(f"{path}: no samples after the 'testcase,nanoseconds' header")
    return dump


# --------------------------------------------------------------------------------------------------
# Inside-change files, streamed


def inside_symbols(path, max_bytes=1 << 24):
    """The symbols of an inside-change file's first `max_bytes` (decompressed), busiest first, and whether
    that was the whole file: for the message about a symbol the file does not have."""
    counts = {}
    with open_binary(path) as f:
        try:
            data = f.read(max_bytes)
            complete = not f.read(1)
        except (OSError, EOFError, zlib.error):
            complete = False
    if not complete:
        data = data[: data.rfind(b"\n") + 1]
    data = spaced(data)
    for line in data.split(b"\n"):
        fields = line.split(b" ", 3)
        if len(fields) >= 3:
            name = fields[2].decode("ascii", "replace")
            counts[name] = counts.get(name, 0) + 1
    names = sorted(counts, key=lambda k: (-counts[k], k))
    return names, complete

BLANKS = re.compile(rb"[ \t]+")


def spaced(data):
    """Lines whose fields are separated by runs of spaces or tabs (as itch5tde reads them) with one space
    between fields, the form itch5inside writes and the block search below expects."""
    return BLANKS.sub(b" ", data) if b"\t" in data or b"  " in data else data


TIME_RE = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$")
DAY_NS = 24 * 3600 * 10**9
EMPTY_OFFER = 2000000000


def parse_time(text):
    """Nanoseconds since midnight from HH:MM[:SS[.fraction]] or a whole number of nanoseconds; ValueError
    with the reason otherwise."""
    text = text.strip()
    if text.isdigit():
        ns = int(text)
    else:
        m = TIME_RE.match(text)
        if not m:
            raise ValueError(f"'{text}' is neither HH:MM[:SS[.fraction]] nor nanoseconds since midnight")
        h, mi, s = int(m.group(1)), int(m.group(2)), int(m.group(3) or 0)
        if mi >= 60 or s >= 60:
            raise ValueError(f"'{text}': minutes and seconds go from 00 to 59")
        frac = m.group(4) or ""
        ns = ((h * 60 + mi) * 60 + s) * 10**9 + int((frac + "000000000")[:9])
    if ns > DAY_NS:
        raise ValueError(f"'{text}' is after 24:00 (ITCH timestamps are nanoseconds since midnight)")
    return ns


class InsideSeries:
    """One symbol's inside changes within a time range, reduced to a bounded number of points.

    Changes arrive in time order. Up to `limit` of them are kept as they are; beyond that the kept points
    are reduced to the first, last, lowest and highest of each value per time bin (`bins` bins over the span
    so far), which draws the same picture at the resolution of the image, so memory stays bounded however
    many changes the range holds."""

    def __init__(self, limit=400000, bins=4000):
        self.limit = limit
        self.bins = bins
        self.t = array.array("q")
        self.values = [array.array("q") for _ in range(4)]  # bid px, bid qty, offer px, offer qty
        self.changes = 0
        self.reduced = False
        self.before = None  # the last change before the range: (t, bid, bid qty, offer, offer qty)

    def add(self, t, bid, bid_qty, offer, offer_qty):
        self.changes += 1
        self.t.append(t)
        for a, v in zip(self.values, (bid, bid_qty, offer, offer_qty)):
            a.append(v)
        if len(self.t) > self.limit:
            self.reduce(self.bins)

    def reduce(self, bins):
        n = len(self.t)
        if n <= 4 * bins:
            return
        t0, t1 = self.t[0], self.t[-1]
        width = max(1, (t1 - t0) // bins + 1)
        keep = []
        start = 0
        t = self.t
        while start < n:
            b = (t[start] - t0) // width
            end = start + 1
            while end < n and (t[end] - t0) // width == b:
                end += 1
            chosen = {start, end - 1}
            for a in self.values:
                segment = a[start:end]
                chosen.add(start + min(range(len(segment)), key=segment.__getitem__))
                chosen.add(start + max(range(len(segment)), key=segment.__getitem__))
            keep.extend(sorted(chosen))
            start = end
        self.t = array.array("q", (t[i] for i in keep))
        self.values = [array.array("q", (a[i] for i in keep)) for a in self.values]
        self.reduced = True


def read_inside(path, symbol, t_from=None, t_to=None, block_size=1 << 23):
    """The changes of `symbol` between `t_from` and `t_to` (ns since midnight, None: open) of an
    inside-change file, streamed in blocks: only the symbol's lines are parsed (found with bytes.find),
    and reading stops at the first block that starts after `t_to` (the file is in time order)."""
    expect_kind(path, "inside")
    series = InsideSeries()
    needle = b" " + symbol.encode() + b" "
    first_t = last_t = None
    lines_before = 0
    carry = b""
    stopped_early = False
    f = open_binary(path)
    try:
        while True:
            try:
                block = f.read(block_size)
            except (OSError, EOFError, zlib.error) as e:
                where = f" after line {lines_before:,}" if lines_before else ""
                raise InputError(f"{path}:{where} corrupt or truncated gzip data ({e})") from None
            if not block:
                data = carry
                carry = b""
                if not data:
                    break
            else:
                data = carry + block
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    carry = data
                    continue
                data, carry = data[:cut], data[cut:]
            data = spaced(data)
            space = data.find(b" ")
            if 0 < space < 24 and data[:space].isdigit():
                t_block = int(data[:space])
                if first_t is None:
                    first_t = t_block
                if t_to is not None and t_block > t_to:
                    stopped_early = True
                    break
            pos = data.find(needle)
            while pos >= 0:
                start = data.rfind(b"\n", 0, pos) + 1
                end = data.find(b"\n", pos)
                if end < 0:
                    end = len(data)
                line = data[start:end]
                fields = line.split()
                if len(fields) != 7 or fields[2] != needle[1:-1]:
                    if len(fields) >= 3 and fields[2] != needle[1:-1]:  # the needle in another field
                        pos = data.find(needle, pos + 1)
                        continue
                    number_ = lines_before + data.count(b"\n", 0, start) + 1
                    raise InputError(f"{path}:{number_}: not an inside-change line "
                                     f"(expected 7 fields: ns locate symbol bid bid_qty offer offer_qty)")
                try:
                    t, bid, bid_qty, offer, offer_qty = (int(fields[0]), int(fields[3]), int(fields[4]),
                                                         int(fields[5]), int(fields[6]))
                except ValueError:
                    number_ = lines_before + data.count(b"\n", 0, start) + 1
                    raise InputError(f"{path}:{number_}: a field of an inside-change line is not a whole "
                                     f"number") from None
                if t_from is not None and t < t_from:
                    series.before = (t, bid, bid_qty, offer, offer_qty)
                elif t_to is not None and t > t_to:
                    stopped_early = True
                    break
                else:
                    series.add(t, bid, bid_qty, offer, offer_qty)
                pos = data.find(needle, end)
            if stopped_early:
                break
            lines_before += data.count(b"\n")
            last = data.rstrip(b"\n").rsplit(b"\n", 1)[-1]
            space = last.find(b" ")
            if 0 < space < 24 and last[:space].isdigit():
                last_t = int(last[:space])
    finally:
        f.close()
    series.file_first_t = first_t
    series.file_last_t = last_t
    series.read_to_end = not stopped_early
    return series
