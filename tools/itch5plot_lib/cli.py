"""itch5plot's command line: subcommands, the output guard, atomic writing, one-line errors."""

import argparse
import os
import re
import signal
import stat
import sys
import tempfile
import textwrap

import itch5_argparse  # tools/
from itch5_argparse import (CONFIG_HELP, PRINT_CONFIG_HELP, Formatter, Parser, UsageError,  # tools/
                            apply_config, positive_int, print_config)

from . import inputs
from .inputs import InputError

PROG = "itch5plot"
REGULAR_OPEN_NS = (9 * 3600 + 30 * 60) * 10**9  # the regular session, New York time
REGULAR_CLOSE_NS = 16 * 3600 * 10**9
FORMATS = {".png": "png", ".svg": "svg", ".pdf": "pdf"}
HERE = os.path.dirname(os.path.realpath(__file__))

DESCRIPTION = """\
Draws the project's outputs as pictures (matplotlib, headless):

  stats    itch5inside --stats CSV: event rates, inter-arrival times, processing latency
  depth    itch5inside --depth CSV: event depth and book depth
  tde      itch5tde CSV: delay per window, its histogram, the pass fraction
  inside   itch5inside inside-change file: one symbol's bid and offer over a time range
  latency  microbenchmark --verbose dumps: percentile curves, several runs overlaid

'itch5plot SUBCOMMAND --help' explains each one's flags. The image goes to -o FILE: PNG, or SVG / PDF
by the extension (.svg, .pdf); with -o - (the default) it goes to standard output, which must not be a
terminal. Inputs may be gzip (detected from the bytes), and - is standard input (once).
--config FILE (YAML: the long flags' names as keys, the input as 'input', 'inputs' for latency) and
--print-config work as in the C++ tools; they follow the subcommand."""

EPILOG = """\
Exit status: 0 success; 1 an input that is missing, unreadable, of the wrong kind (an ITCH file, another
CSV), malformed (the line is named) or without the chosen symbol, or an output that cannot be written;
2 a usage error, or an output that is one of the inputs (under any name); 128+N when stopped by signal N
(nothing is written). The image is written to a temporary file beside the output and renamed at the end,
so the output only ever exists complete; an existing output keeps its permissions (a 0600 file stays
0600), a symbolic link is written through (the link stays), a new file gets 0666 less the umask. Errors are one line, 'itch5plot: error: ...'."""


class Interrupted(Exception):
    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def describe(text):
    """A subcommand's description for the raw formatter: the prose wrapped at 100 columns, the indented
    example lines kept as they are."""
    out = []
    for block in text.split("\n\n"):
        out.append(block if block.startswith("  ") else textwrap.fill(block, width=100))
    return "\n\n".join(out)


def pixel_size(text):
    m = re.fullmatch(r"(\d+)x(\d+)", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"'{text}' is not WIDTHxHEIGHT in pixels, e.g. 1600x1000")
    w, h = int(m.group(1)), int(m.group(2))
    if not (200 <= w <= 20000 and 150 <= h <= 20000):
        raise argparse.ArgumentTypeError(f"'{text}': width 200..20000 and height 150..20000 pixels")
    return w, h


def time_of_day(text):
    try:
        return inputs.parse_time(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def name_list(text):
    items = [x.strip() for x in text.split(",")]
    if not text.strip() or any(not x for x in items):
        raise argparse.ArgumentTypeError(f"'{text}' has an empty item (a comma-separated list is expected)")
    return items


name_list.takes_list = True  # a YAML list for --config


def symbol_name(text):
    s = text.strip().upper()
    if not re.fullmatch(r"[!-~]{1,8}", s):
        raise argparse.ArgumentTypeError(f"'{text}' cannot be an ITCH symbol (1 to 8 characters, no spaces)")
    return s


def symbol_list(text):
    return [symbol_name(x) for x in name_list(text)]


symbol_list.takes_list = True


def add_output_options(p, default_size):
    g = p.add_argument_group("output")
    g.add_argument("-o", "--output", metavar="FILE", default="-",
                   help="image file: .png (also any name without an extension), .svg or .pdf; - for standard "
                        "output (refused when it is a terminal). It may not be one of the inputs. "
                        "Default: -.")
    g.add_argument("--format", choices=["png", "svg", "pdf"],
                   help="image format, overriding the extension of -o. Default: from the extension, png for -.")
    size_help = f"{default_size[0]}x{default_size[1]}" if default_size else "1600 wide, 250 per row drawn"
    g.add_argument("--size", type=pixel_size, metavar="WxH", default=default_size,
                   help=f"image size in pixels (at --dpi; SVG and PDF get the same size in inches). "
                        f"Default: {size_help}.")
    g.add_argument("--dpi", type=positive_int, default=100,
                   help="dots per inch: text and lines scale with it at a fixed pixel size. Default: 100.")
    g.add_argument("--title", metavar="TEXT", help="title instead of the one made from the data.")
    g.add_argument("-q", "--quiet", action="store_true",
                   help="no summary line on standard error (errors are still reported).")
    g = p.add_argument_group("configuration")
    g.add_argument("--config", metavar="FILE", action="append", help=CONFIG_HELP)
    g.add_argument("--print-config", action="store_true", help=PRINT_CONFIG_HELP)


def build_parser():
    parser = Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG, formatter_class=Formatter)
    parser.add_argument("--version", action="store_true",
                        help="print the version, git commit and the Python and matplotlib versions, and exit.")
    sub = parser.add_subparsers(dest="command", metavar="SUBCOMMAND", parser_class=Parser)

    p = sub.add_parser("stats", formatter_class=Formatter, epilog=EPILOG,
                       help="itch5inside --stats CSV: rates, inter-arrival, processing latency",
                       description=describe("Draws an itch5inside --stats CSV: for the busiest symbols and all symbols "
                                   "together, event rates in sliding 1 s, 1 ms and 1 us windows and the times "
                                   "between events as quantile strips (min-max line, p25-p75 bar, p50, p90, "
                                   "p99, p99.9, max); itch5inside's processing time per event as percentile "
                                   "curves (p0 .. p99.99, x axis log of 1/(1-p)); every symbol's event count, "
                                   "ranked. Axes are log where the values span two decades or more.\n\n"
                                   "  itch5inside day.itch.gz -o inside.txt --stats stats.csv\n"
                                   "  itch5plot stats stats.csv -o stats.png --top 20"))
    p.add_argument("input", metavar="STATS.csv", help="itch5inside --stats output (plain or gzip; - for "
                                                      "standard input); a capture's, with the Latency "
                                                      "columns, adds a panel of the feed latency.")
    p.add_argument("--top", type=positive_int, default=20,
                   help="draw the N symbols with the most events (ties in file order). Default: 20.")
    p.add_argument("--symbols", type=symbol_list, metavar="A,B,...",
                   help="draw these symbols instead of the busiest (each must have a row).")
    add_output_options(p, (1600, 1000))

    p = sub.add_parser("depth", formatter_class=Formatter, epilog=EPILOG,
                       help="itch5inside --depth CSV: event depth and book depth",
                       description=describe("Draws an itch5inside --depth CSV: event depth (price levels between an "
                                   "event's price and its side's best price) and book depth (levels between "
                                   "the best and worst price of a side), as percentile curves (all symbols "
                                   "bold, the busiest thin) and as one quantile strip per symbol.\n\n"
                                   "  itch5inside day.itch.gz -o inside.txt --depth depth.csv\n"
                                   "  itch5plot depth depth.csv -o depth.png"))
    p.add_argument("input", metavar="DEPTH.csv", help="itch5inside --depth output (plain or gzip; - for "
                                                      "standard input).")
    p.add_argument("--top", type=positive_int, default=20,
                   help="draw the N symbols with the most book events. Default: 20.")
    p.add_argument("--symbols", type=symbol_list, metavar="A,B,...",
                   help="draw these symbols instead of the busiest (each must have a row).")
    add_output_options(p, (1500, 1000))

    p = sub.add_parser("tde", formatter_class=Formatter, epilog=EPILOG,
                       help="itch5tde CSV: delay per window, histogram, pass fraction",
                       description=describe("Draws an itch5tde CSV, one row of panels per series: the delay of each "
                                   "window that passed itch5tde's checks (flags ok) over time, coloured by "
                                   "rho (its confidence), with the rho-weighted median and IQR; the histogram "
                                   "of those delays; the share of windows carrying each flag. The rows: for "
                                   "each signal, all symbols together (when the file has several), then the "
                                   "--top symbol/signal series with the most passing windows. The file is "
                                   "streamed; only passing windows are kept.\n\n"
                                   "  itch5tde a.txt b.txt --sampling-period 1us --smooth 2us -o tde.csv\n"
                                   "  itch5plot tde tde.csv -o tde.png --top 3"))
    p.add_argument("input", metavar="TDE.csv", help="itch5tde output (plain or gzip; - for standard input).")
    p.add_argument("--top", type=positive_int, default=4,
                   help="draw the N symbol/signal series with the most passing windows. Default: 4.")
    p.add_argument("--symbols", type=symbol_list, metavar="A,B,...",
                   help="only rows of these symbols (as the CSV names them: SYM or SYMA:SYMB); each must "
                        "occur in the file.")
    p.add_argument("--signal", type=name_list, metavar="S,...",
                   help="only rows of these signals (events, mid, bid, offer, bid-size, offer-size); each "
                        "must occur in the file.")
    add_output_options(p, None)

    p = sub.add_parser("inside", formatter_class=Formatter, epilog=EPILOG,
                       help="inside-change file: one symbol's bid and offer over time",
                       description=describe("Draws one symbol's best bid and offer from an itch5inside inside-change "
                                   "file: prices as step lines (the spread shaded) and the sizes at the best "
                                   "prices below, over a time range. The file is streamed in blocks: only the "
                                   "symbol's lines are parsed and reading stops after --to, so a day's file of "
                                   "gigabytes needs little memory; a range with more changes than the image "
                                   "has pixels is drawn from the first, last, lowest and highest value per "
                                   "pixel column. An empty side (bid 0 0, offer 2000000000 0) leaves a gap. "
                                   "Times are since midnight, New York time, as in ITCH.\n\n"
                                   "  itch5plot inside inside.txt --symbol AAPL --from 09:30 --to 09:35 -o aapl.png"))
    p.add_argument("input", metavar="INSIDE.txt", help="itch5inside output (plain or gzip; - for standard "
                                                       "input); fields separated by runs of spaces or tabs, "
                                                       "as itch5tde reads them.")
    p.add_argument("--symbol", type=symbol_name, required=True,
                   help="the symbol to draw (lower case is upper-cased, as ITCH symbols are).")
    p.add_argument("--from", dest="t_from", type=time_of_day, metavar="TIME",
                   help="start: HH:MM[:SS[.fraction]] or nanoseconds since midnight. The inside in force at "
                        "that time (the last change before it) starts the lines. Default: 09:30, the regular "
                        "session (see --whole-day).")
    p.add_argument("--to", dest="t_to", type=time_of_day, metavar="TIME",
                   help="end, as --from; reading stops after it. Default: 16:00, the end of the regular "
                        "session (see --whole-day).")
    p.add_argument("--whole-day", action="store_true",
                   help="without --from and --to, draw from the symbol's first change to its last (pre- and "
                        "post-market included). Without it the default range is the regular session, 09:30 "
                        "to 16:00, when the file covers it (its first line at or before 09:30, its last at or "
                        "after 16:00), so that 5.5 h of sparse pre-market do not squash the session; a file "
                        "that does not cover it is drawn whole.")
    add_output_options(p, (1400, 750))

    p = sub.add_parser("latency", formatter_class=Formatter, epilog=EPILOG,
                       help="microbenchmark --verbose dumps: percentile curves, runs overlaid",
                       description=describe("Draws microbenchmark sample dumps (bm_* --verbose: '# key: value' lines, "
                                   "then 'testcase,nanoseconds' and one row per sample) as percentile curves "
                                   "(nearest rank, x axis log of 1/(1-p), from p0 to the max): one colour per "
                                   "test case, one line style per run. With several runs, a second panel shows "
                                   "each run's quantiles divided by the first run's (below 1: faster).\n\n"
                                   "  bm_order_book --verbose > before.csv    # ... change, rebuild ...\n"
                                   "  bm_order_book --verbose > after.csv\n"
                                   "  itch5plot latency before.csv after.csv -o latency.png"))
    p.add_argument("inputs", metavar="FILE", nargs="+", help="--verbose dumps (plain or gzip; - for standard "
                                                               "input, once); the first is the baseline of "
                                                               "the ratio panel.")
    p.add_argument("--testcase", type=name_list, metavar="A,B,...",
                   help="only these test cases (each must occur in some file). Default: all.")
    p.add_argument("--label", type=name_list, metavar="A,B,...",
                   help="one name per file for the legend. Default: the file names.")
    p.add_argument("--yscale", choices=["auto", "log", "linear"], default="auto",
                   help="y axis: log when the values span two decades or more (auto), or as chosen. "
                        "Default: auto.")
    add_output_options(p, (1300, 800))
    return parser


# --------------------------------------------------------------------------------------------------
# Output


def output_format(args):
    if args.format:
        return args.format
    if args.output == "-":
        return "png"
    ext = os.path.splitext(args.output)[1].lower()
    if ext == "":
        return "png"
    if ext not in FORMATS:
        raise UsageError(f"-o {args.output}: unknown image type '{ext}' (.png, .svg or .pdf, or give --format)")
    return FORMATS[ext]


def same_file(a, b):
    return a.st_dev == b.st_dev and a.st_ino == b.st_ino


def check_output(out, input_paths):
    """Refuses an output that is an input (exit 2) or cannot be written (exit 1), before any reading;
    standard input (-) given twice (exit 2)."""
    if input_paths.count(inputs.STDIN) > 1:
        raise UsageError("standard input (-) is given twice; it can be read only once")
    input_stats = []
    for p in input_paths:
        if p != inputs.STDIN:
            input_stats.append((p, os.stat(p)))
            continue
        try:
            st = os.fstat(sys.stdin.fileno())
        except (OSError, ValueError):
            continue
        if stat.S_ISREG(st.st_mode):
            input_stats.append(("(standard input)", st))
    if out == "-":
        if sys.stdout.isatty():
            raise UsageError("refusing to write an image to a terminal: give -o FILE (or redirect)")
        try:
            st = os.fstat(sys.stdout.fileno())
        except OSError:
            return
        for p, s in input_stats:
            if stat.S_ISREG(st.st_mode) and same_file(st, s):
                raise UsageError(f"standard output is the input {p}: it would be overwritten")
        return
    if os.path.isdir(out):
        raise InputError(f"-o {out}: is a directory")
    parent = os.path.dirname(os.path.realpath(out))  # a symbolic link's file is written (write_figure)
    if not os.path.isdir(parent):
        raise InputError(f"-o {out}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise InputError(f"-o {out}: directory {parent} is not writable")
    try:
        st = os.stat(out)
    except FileNotFoundError:
        return
    except OSError as e:
        raise InputError(f"-o {out}: {e.strerror}") from None
    for p, s in input_stats:
        if same_file(st, s):
            what = "is" if os.path.abspath(p) == os.path.abspath(out) else "is the same file as"
            raise UsageError(f"-o {out} {what} the input {p}: it would be overwritten")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"-o {out}: exists and is not a regular file")
    if not os.access(out, os.W_OK) or not st.st_mode & 0o222:
        raise InputError(f"-o {out}: exists and is read-only")


def write_figure(fig, out, fmt):
    """Renders to standard output, or to a temporary file renamed at the end over the file `out` finally
    names: a symbolic link is written through (the file it points to is replaced, the link stays). A
    replaced file keeps its permission bits (a 0600 file stays 0600) and, where allowed, its owner and
    group; a new file gets 0666 less the umask."""
    if out == "-":
        import io
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, dpi=fig.dpi)
        try:
            sys.stdout.buffer.write(buf.getvalue())
            sys.stdout.buffer.flush()
        except BrokenPipeError:
            raise InputError("standard output was closed before the image was written") from None
        return
    target = os.path.realpath(out)  # through symbolic links, relative ones against the link's directory
    directory = os.path.dirname(target)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix="." + os.path.basename(target) + ".", suffix=".tmp")
    try:
        _keep_mode_and_owner(fd, target)
        with os.fdopen(fd, "wb") as f:
            fig.savefig(f, format=fmt, dpi=fig.dpi)
        os.replace(tmp, target)
    except OSError as e:
        _remove(tmp)
        raise InputError(f"-o {out}: cannot write: {e.strerror or e}") from None
    except BaseException:
        _remove(tmp)
        raise


def _keep_mode_and_owner(fd, target):
    """Gives the temporary file `fd` the mode (and, where allowed, owner and group) of the file it will
    replace, or 0666 less the umask for a new file (mkstemp creates 0600). Set before the image is written,
    so it is never readable by more people than the file it replaces."""
    try:
        old = os.stat(target)
    except OSError:
        old = None
    if old is None or not stat.S_ISREG(old.st_mode):
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)
        return
    for uid in (old.st_uid, -1):
        try:
            os.fchown(fd, uid, old.st_gid)
            break
        except OSError:  # EPERM: an owner (or group) this process may not give
            pass
    os.fchmod(fd, stat.S_IMODE(old.st_mode))


def _remove(path):
    try:
        os.unlink(path)
    except OSError:
        pass


# --------------------------------------------------------------------------------------------------


def version_text():
    try:
        import matplotlib
        mpl = matplotlib.__version__
    except ImportError:
        mpl = "not installed"
    return itch5_argparse.version_text(
        PROG, [f"python {sys.version.split()[0]} ({sys.executable}); matplotlib {mpl}"])


def load_plots():
    try:
        from . import plots
    except ImportError as e:
        raise InputError(f"cannot import matplotlib/numpy ({e.name or e}) in {sys.executable}: install "
                         f"python3-matplotlib (scripts/setup) and run with /usr/bin/python3") from None
    return plots


def run(args):
    fmt = output_format(args)
    paths = args.inputs if args.command == "latency" else [args.input]
    for p in paths:
        inputs.check_readable(p)
    check_output(args.output, paths)
    if args.command in ("stats", "depth"):
        table = inputs.read_symbol_table(args.input, args.command)
        chosen_check = table.busiest(args.top, args.symbols)  # unknown symbols: error before matplotlib
        del chosen_check
        plots = load_plots()
        draw = plots.draw_stats if args.command == "stats" else plots.draw_depth
        fig, what = draw(table, args.top, args.symbols, args.size, args.dpi, args.title)
    elif args.command == "tde":
        tde = inputs.read_tde(args.input, args.symbols, args.signal)
        plots = load_plots()
        fig, what = plots.draw_tde(tde, args.top, args.size, args.dpi, args.title)
    elif args.command == "inside":
        if args.t_from is not None and args.t_to is not None and args.t_from >= args.t_to:
            raise UsageError("--from must be before --to")
        t_from, t_to = args.t_from, args.t_to
        series = None
        if t_from is None and t_to is None and not args.whole_day:
            series = inputs.read_inside(args.input, args.symbol, REGULAR_OPEN_NS, REGULAR_CLOSE_NS)
            covered = (series.file_first_t is not None and series.file_first_t <= REGULAR_OPEN_NS
                       and (not series.read_to_end or (series.file_last_t or 0) >= REGULAR_CLOSE_NS))
            if covered and (series.changes or series.before is not None):
                t_from, t_to = REGULAR_OPEN_NS, REGULAR_CLOSE_NS
            else:
                series = None  # not a whole session: the symbol's whole file
        if series is None:
            series = inputs.read_inside(args.input, args.symbol, t_from, t_to)
        if series.changes == 0 and series.before is None:
            if args.t_to is None or series.read_to_end:
                names, complete = inputs.inside_symbols(args.input)
                where = "the file" if complete else "its first 16 MB"
                raise InputError(f"{args.input}: no line of symbol {args.symbol} "
                                 f"({inputs.symbol_examples(range(len(names)), names, len(names), where)})")
            raise InputError(f"{args.input}: no line of symbol {args.symbol} up to --to {plots_time(t_to)}")
        if series.changes == 0 and t_to is None:
            raise InputError(f"{args.input}: no change of {args.symbol} after --from "
                             f"{plots_time(t_from)} (give --to to draw its last inside up to a time)")
        plots = load_plots()
        fig, what = plots.draw_inside(series, args.input, args.symbol, t_from, t_to, args.size,
                                      args.dpi, args.title)
    else:
        if args.label and len(args.label) != len(args.inputs):
            raise UsageError(f"--label gives {len(args.label)} names for {len(args.inputs)} files")
        dumps = [inputs.read_bench_dump(p) for p in args.inputs]
        cases = []
        for d in dumps:
            for c in d.cases:
                if c not in cases:
                    cases.append(c)
        if args.testcase:
            missing = [c for c in args.testcase if c not in cases]
            if missing:
                raise InputError(f"{', '.join(args.inputs)}: no test case {', '.join(missing)} "
                                 f"(the files have {', '.join(cases)})")
            cases = args.testcase
        labels = args.label or default_labels(args.inputs)
        plots = load_plots()
        fig, what = plots.draw_latency(dumps, labels, cases, args.yscale, args.size, args.dpi, args.title)
    for line in getattr(fig, "itch5_warnings", []):
        print(f"{PROG}: warning: {line}", file=sys.stderr)
    write_figure(fig, args.output, fmt)
    if not args.quiet:
        w, h = fig.canvas.get_width_height()
        where = "standard output" if args.output == "-" else args.output
        print(f"{PROG}: {args.command}: {what} -> {where} ({w}x{h} {fmt})", file=sys.stderr)


def plots_time(ns):
    s, frac = divmod(ns, 10**9)
    h, rem = divmod(s, 3600)
    m, sec = divmod(rem, 60)
    return f"{h:02d}:{m:02d}:{sec:02d}" + (f".{frac:09d}".rstrip("0") if frac else "")


def default_labels(paths):
    names = [os.path.basename(p) for p in paths]
    if len(set(names)) == len(names):
        return names
    return list(paths)


def subcommand_parser(parser, argv):
    """The parser of the subcommand `argv` names (its first argument that is one), or None."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for a in argv:
                if a in action.choices:
                    return action.choices[a]
                if not a.startswith("-"):
                    return None
    return None


# --print-config: values whose text is not str() of the parsed value.
CONFIG_FORMATTERS = {
    "size": lambda v: f"{v[0]}x{v[1]}",
    "t_from": lambda ns: plots_time(ns),
    "t_to": lambda ns: plots_time(ns),
}


def _raise_interrupted(signum, _frame):
    raise Interrupted(signum)


def main(argv=None):
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_interrupted)
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        sub = subcommand_parser(parser, argv)
        if sub is not None:
            apply_config(sub, argv)
        args = parser.parse_args(argv)
        if getattr(args, "print_config", False):
            sys.stdout.write(print_config(sub, args, CONFIG_FORMATTERS))
            return 0
        if args.version:
            print(version_text())
            return 0
        if not args.command:
            raise UsageError("a subcommand is needed: stats, depth, tde, inside or latency (see itch5plot --help)")
        run(args)
        return 0
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except InputError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 1
    except (KeyboardInterrupt, Interrupted) as e:
        signum = e.signum if isinstance(e, Interrupted) else signal.SIGINT
        print(f"{PROG}: stopped by {signal.Signals(signum).name}; nothing written", file=sys.stderr)
        sys.stderr.flush()
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return 128 + signum
    except MemoryError:
        print(f"{PROG}: error: out of memory", file=sys.stderr)
        return 1
    except BrokenPipeError:
        print(f"{PROG}: error: standard output was closed before the image was written", file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - a bug or an input no reader foresaw: still one line, no traceback
        where = ""
        tb = e.__traceback__
        while tb is not None and tb.tb_next is not None:
            tb = tb.tb_next
        if tb is not None:
            where = f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}"
        print(f"{PROG}: error: unexpected {type(e).__name__}{where}: {str(e).splitlines()[0] if str(e) else ''} "
              f"(please report it with the command line)", file=sys.stderr)
        return 1
