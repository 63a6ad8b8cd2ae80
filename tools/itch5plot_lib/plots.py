"""The figures. Each draw_* function takes what the readers in inputs.py return and gives back a
matplotlib Figure (Agg canvas, no pyplot state)."""

import math
import textwrap

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import (FixedLocator, FuncFormatter, MaxNLocator, MultipleLocator, NullFormatter,  # noqa: E402
                               NullLocator)

from .inputs import EMPTY_OFFER, TDE_FLAGS, quantile_of  # noqa: E402

matplotlib.rcParams.update({
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "legend.fontsize": 8,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "svg.fonttype": "none",
})

COLORS = matplotlib.colormaps["tab10"].colors
AGG_LABEL = "all symbols"


def fit(fig, text, fontsize, share=1.0, bold=False):
    """`text` wrapped to the lines that fit in `share` of the figure's width at `fontsize` points (an
    average glyph is about 0.6 em wide, 0.66 in bold), so that a long title made from the data is never
    cut off."""
    width_px = fig.get_figwidth() * fig.dpi * share
    chars = max(20, int(width_px / (fontsize * fig.dpi / 72 * (0.66 if bold else 0.6))))
    return "\n".join(textwrap.wrap(text, chars)) if len(text) > chars else text


def fit_parts(fig, parts, fontsize, share=1.0, bold=False):
    """As fit(), but the text breaks only between `parts` (each kept whole, its spaces unbreakable)."""
    return fit(fig, " ".join(p.replace(" ", "\u00a0") for p in parts), fontsize, share, bold).replace("\u00a0", " ")


def new_figure(size, dpi):
    width, height = size
    fig = Figure(figsize=(width / dpi, height / dpi), dpi=dpi, layout="constrained")
    fig.itch5_warnings = []  # lines for stderr: what the picture leaves out (see cap_row_labels)
    return fig


def plural(n, word, words=None):
    """'1 row', '2 rows', '1,234 rows'."""
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def ordinal(n):
    """'2nd', '3rd', '11th', '21st'."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n:,}{suffix}"


LABEL_PITCH = 1.2  # a row label needs this many times its font's height of axis height


def cap_row_labels(fig, what):
    """Strip axes label one row each; where the rows are closer than a label's height, only every k-th
    row keeps its label (all symbols, the k-th busiest, the 2k-th, ...: k as small as lets the labels
    clear each other) and a warning says so. Measured after the layout, on the axes' final height.
    Returns k, or None when every row is labelled."""
    axes = [ax for ax in fig.axes if getattr(ax, "itch5_row_labels", None)]
    if not axes:
        return None
    fig.draw_without_rendering()  # the constrained layout: the axes' final heights
    step = None
    for ax in axes:
        labels = ax.itch5_row_labels
        font_px = matplotlib.rcParams["ytick.labelsize"] * fig.dpi / 72
        pitch = ax.get_window_extent().height / max(len(labels), 1)  # pixels per row
        k = math.ceil(font_px * LABEL_PITCH / pitch) if pitch > 0 else len(labels)
        if k <= 1:
            continue
        ax.set_yticklabels([label if i % k == 0 else "" for i, label in enumerate(labels)])
        for tick, label in zip(ax.get_yticklabels(), labels):
            if label == AGG_LABEL:
                tick.set_fontweight("bold")
        step = k if step is None else max(step, k)
    if step is not None:
        n = len(axes[0].itch5_row_labels)
        fig.itch5_warnings.append(
            f"{what}: {n:,} rows are too many to label each at {fig.get_figheight() * fig.dpi:.0f} px high: "
            f"every {ordinal(step)} row is labelled ({AGG_LABEL}, the {ordinal(step)} busiest, the "
            f"{ordinal(2 * step)}, ...); "
            f"a smaller --top or a taller --size labels every row")
    return step


# --------------------------------------------------------------------------------------------------
# Number and axis formatting


def fmt_count(v):
    """1234 -> '1,234', 1.5e6 -> '1.5M'; for tick labels of counts."""
    a = abs(v)
    if a >= 1e9:
        return f"{v / 1e9:g}G"
    if a >= 1e6:
        return f"{v / 1e6:g}M"
    if a >= 1e4:
        return f"{v / 1e3:g}k"
    if a >= 1 or a == 0:
        return f"{v:,.0f}" if v == round(v) else f"{v:,.1f}"
    return f"{v:g}"


def fmt_duration(ns):
    """A duration in nanoseconds as text with a unit: 250 ns, 1.5 µs, 20 ms, 3 s, 10,000 s."""
    a = abs(ns)
    if a == 0:
        return "0"
    if a >= 1e12:
        return f"{ns / 1e9:,.0f} s"
    for scale, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "µs")):
        if a >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def fmt_time_of_day(seconds, decimals=0):
    """Seconds since midnight as HH:MM:SS[.fff]."""
    if decimals:
        whole = math.floor(seconds)
        frac = f"{seconds - whole:.{decimals}f}"[1:]
        if frac.startswith(".") is False:  # rounding reached 1.0
            whole, frac = whole + 1, "." + "0" * decimals
    else:
        whole, frac = int(round(seconds)), ""
    h, rem = divmod(int(whole), 3600)
    m, s = divmod(rem, 60)
    return f"{h:02d}:{m:02d}:{s:02d}{frac}"


TIME_STEPS = ([m * 10.0 ** k for k in range(-9, 0) for m in (1, 2, 5)]
              + [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600])


def time_axis(ax, span_seconds, axis="x"):
    """Ticks of a time-of-day axis (values in seconds since midnight) at round times (every 2 ms, 15 s,
    30 min, ...; at most 8), labelled as precisely as the step needs."""
    step = next((s for s in TIME_STEPS if span_seconds / s <= 8), TIME_STEPS[-1])
    decimals = 0 if step >= 1 else min(9, max(0, -math.floor(math.log10(step) + 1e-9)))
    target = getattr(ax, f"{axis}axis")
    target.set_major_locator(MultipleLocator(step))
    target.set_minor_locator(NullLocator())
    target.set_major_formatter(FuncFormatter(lambda v, _: fmt_time_of_day(v, decimals)))


def decade_ticks(lo_exp, hi_exp, with_zero):
    """Powers of ten from 10**lo_exp to 10**hi_exp, every decade or every few so that at most 8 remain."""
    step = max(1, math.ceil((hi_exp - lo_exp + 1) / 8))
    first = lo_exp + step if with_zero and step > 1 else lo_exp
    ticks = [10.0 ** k for k in range(first, hi_exp + 1, step)]
    return ([0.0] if with_zero else []) + ticks


def set_scale(ax, values, axis, kind="count"):
    """Log scale when positive values span two decades or more (symlog when zeros are present, so that
    they stay visible at the axis start), linear otherwise; limits with a margin; tick labels as counts or
    durations."""
    v = np.asarray([x for x in values if x is not None and np.isfinite(x)], dtype=float)
    positive = v[v > 0]
    has_zero = bool((v <= 0).any())
    fmt = fmt_duration if kind == "duration" else fmt_count
    setter = ax.set_xscale if axis == "x" else ax.set_yscale
    limits = ax.set_xlim if axis == "x" else ax.set_ylim
    target = ax.xaxis if axis == "x" else ax.yaxis
    wide = positive.size and (positive.max() / positive.min() >= 100 or (has_zero and positive.max() >= 100))
    if wide:
        lo_exp = 0 if has_zero else int(math.floor(math.log10(positive.min())))
        hi_exp = int(math.ceil(math.log10(positive.max())))
        if has_zero:
            setter("symlog", linthresh=1, linscale=0.4)
            limits(-0.15, positive.max() * 1.6)
        else:
            setter("log")
            limits(positive.min() / 1.6, positive.max() * 1.6)
        target.set_major_locator(FixedLocator(decade_ticks(lo_exp, hi_exp, has_zero)))
        target.set_minor_locator(NullLocator())
        target.set_major_formatter(FuncFormatter(lambda x, _: fmt(x)))
        return "log"
    setter("linear")
    if v.size:
        lo, hi = min(0.0, v.min()), v.max()
        limits(lo - (hi - lo) * 0.04 - 0.02, hi + (hi - lo) * 0.06 + 0.02)
    target.set_major_formatter(FuncFormatter(lambda x, _: fmt(x)))
    return "linear"


def headroom(ax, legend):
    """Raises the top of the y axis (in its own scale) so that an upper legend covers no data."""
    fig = ax.figure
    fig.draw_without_rendering()  # the layout (the canvas's draw() does nothing without a backend)
    box = legend.get_window_extent()
    axbox = ax.get_window_extent()
    share = min(0.6, (box.height + 6) / max(axbox.height, 1))
    scale = ax.yaxis.get_transform()
    lo, hi = ax.get_ylim()
    a, b = scale.transform([lo, hi])
    new_top = b + (b - a) * share / (1 - share)
    ax.set_ylim(lo, scale.inverted().transform([new_top])[0])


def percentile_axis(ax, x_max):
    """The x axis of a percentile curve: log of 1/(1-p), ticks named p0, p50, p90, p99, p99.9, ..."""
    ax.set_xscale("log")
    ticks, labels = [1, 2], ["p0", "p50"]
    k = 1
    while 10 ** k <= x_max * 1.0001 or k == 1:
        ticks.append(10 ** k)
        labels.append("p" + f"{100 - 100 / 10 ** k:.{max(0, k - 2)}f}")
        k += 1
    if x_max > 2000:  # p0 (x 1) and p50 (x 2) would overlap: p0 is the left end of the axis
        labels[0] = ""
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, pos: labels[ticks.index(x)] if x in ticks else ""))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_xlim(0.9, max(x_max, 10) * 1.3)
    ax.set_xlabel("percentile, p0 at the left end (axis: 1/(1-p), log)")


def curve_x(p):
    return 1.0 / (1.0 - p)


# --------------------------------------------------------------------------------------------------
# Quantile rows: one row per symbol, the quantiles a CSV gives as a strip


MARKERS = [  # quantile, marker, label
    (0.5, "o", "p50"),
    (0.9, "^", "p90"),
    (0.99, "s", "p99"),
    (0.999, "D", "p99.9"),
    (0.9999, "*", "p99.99"),
    (1.0, "x", "max"),
]


def quantile_rows(table, rows, suffix):
    """{quantile: value} per row for the columns ending in `suffix` (e.g. 'RatePerSec')."""
    names = [c for c in table.columns if c.endswith(suffix)]
    out = []
    for row in rows:
        out.append({quantile_of(c[: -len(suffix)]): table.value(row, c) for c in names})
    return out


def _marker_style(p, color):
    return dict(marker=dict((q, m) for q, m, _ in MARKERS)[p], color="black" if p == 1.0 else color,
                ms=5.5 if p == 0.9999 else 4.5, mfc="white" if p in (0.9, 0.999) else None, lw=0)


def strip_plot(ax, labels, quantiles, color, kind="count", show_labels=True, key=True):
    """One horizontal strip per row, top to bottom: a line from min to max, a bar from p25 to p75,
    markers at p50, p90, p99, p99.9, p99.99 and max (those the rows have); the key below the axes."""
    n = len(labels)
    ys = np.arange(n)[::-1]
    values = []
    for y, q in zip(ys, quantiles):
        values.extend(q.values())
        lo, hi = q[0.0], q[1.0]
        ax.plot([lo, hi], [y, y], color="0.55", lw=0.9, zorder=1, solid_capstyle="butt")
        if 0.25 in q and 0.75 in q:
            ax.plot([q[0.25], q[0.75]], [y, y], color=color, lw=5, alpha=0.45, zorder=2,
                    solid_capstyle="butt")
        for p, _, _ in MARKERS:
            if p in q:
                ax.plot([q[p]], [y], zorder=3, **_marker_style(p, color))
    set_scale(ax, values, "x", kind)
    ax.set_ylim(-0.7, n - 0.3)
    ax.yaxis.set_major_locator(FixedLocator(list(ys)))
    ax.yaxis.set_minor_locator(NullLocator())
    if show_labels:
        ax.set_yticklabels(labels)
        ax.itch5_row_labels = list(labels)  # cap_row_labels thins them when they do not fit
        for tick, label in zip(ax.get_yticklabels(), labels):
            if label == AGG_LABEL:
                tick.set_fontweight("bold")
    else:
        ax.tick_params(axis="y", labelleft=False)
    ax.grid(axis="y", alpha=0.15)
    if labels and labels[0] == AGG_LABEL and n > 1:
        ax.axhline(n - 1.5, color="0.3", lw=0.6)
    if key and quantiles:
        handles = [Line2D([], [], color="0.55", lw=0.9, label="min-max")]
        if 0.25 in quantiles[0]:
            handles.append(Line2D([], [], color=color, lw=5, alpha=0.45, label="p25-p75"))
        for p, _, label in MARKERS:
            if p in quantiles[0]:
                handles.append(Line2D([], [], label=label, **_marker_style(p, color)))
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.11), ncols=(len(handles) + 1) // 2,
                  frameon=False, handlelength=1.6, columnspacing=1.0, handletextpad=0.4)


def percentile_curve(ax, q, samples, **style):
    """A quantile row ({p: value}) as a curve over 1/(1-p) from p0 to the highest quantile below 1; the
    max is placed at p = 1 - 1/N (N samples) when that lies beyond the others."""
    ps = sorted(p for p in q if p < 1.0)
    xs = [curve_x(p) for p in ps]
    ys = [q[p] for p in ps]
    if 1.0 in q and samples > xs[-1]:
        xs.append(samples)
        ys.append(q[1.0])
    ax.plot(xs, ys, **style)
    return xs, ys


def row_labels(table, chosen):
    return [AGG_LABEL] + [table.names[i] for i in chosen]


def selection_text(table, chosen, symbols_given):
    total = len(table.names)
    if symbols_given:
        return f"{len(chosen)} chosen of {total:,} symbols"
    if len(chosen) == total:
        return f"all {total:,} symbols"
    return f"the {len(chosen)} busiest of {total:,} symbols"


# --------------------------------------------------------------------------------------------------
# stats


def duration_percentile_panel(ax, curves, rows, chosen):
    """The percentile curves of a duration column: one thin line per symbol row, the aggregate (rows[0])
    bold, axes and legend. Returns the aggregate's points (for an annotation)."""
    values, x_max = [], 10
    for k, (q, row) in enumerate(zip(curves[1:], rows[1:])):
        xs, ys = percentile_curve(ax, q, row[1], color=COLORS[k % 10], lw=0.8, alpha=0.6)
        values += ys
        x_max = max(x_max, xs[-1])
    xs, ys = percentile_curve(ax, curves[0], rows[0][1], color="black", lw=2.2, marker="o", ms=3.5)
    values += ys
    x_max = max(x_max, xs[-1])
    percentile_axis(ax, x_max)
    set_scale(ax, values, "y", "duration")
    ax.legend(handles=[Line2D([], [], color="black", lw=2.2, marker="o", ms=3.5, label=AGG_LABEL),
                       Line2D([], [], color=COLORS[0], lw=0.8, label=f"each of the {chosen} symbols "
                              "at the left")], loc="upper left")
    return xs, ys


def draw_stats(table, top, symbols, size, dpi, title=None):
    chosen = table.busiest(top, symbols)
    rows = [table.aggregate] + [table.rows[i] for i in chosen]
    labels = row_labels(table, chosen)
    fig = new_figure(size, dpi)
    latency = getattr(table, "has_latency", False)  # a capture's CSV: a third row, the feed latency
    gs = fig.add_gridspec(3, 3) if latency else fig.add_gridspec(2, 3)
    agg_events = int(table.aggregate[1])
    fig.suptitle(fit(fig, title or f"Feed statistics of {table.path}: {agg_events:,} events, "
                     f"{selection_text(table, chosen, symbols)} and all symbols together", 12, bold=True),
                 fontsize=12, fontweight="bold")

    timescales = [("RatePerSec", "1 s", "1 ms"), ("RatePerMSec", "1 ms", "1 µs"), ("RatePerUSec", "1 µs", "1 ns")]
    first = None
    for i, (suffix, window, step) in enumerate(timescales):
        ax = fig.add_subplot(gs[0, i], sharey=first) if first else fig.add_subplot(gs[0, i])
        first = first or ax
        strip_plot(ax, labels, quantile_rows(table, rows, suffix), COLORS[0], show_labels=(i == 0),
                   key=(i == 1))
        ax.set_title(f"Event rate in {window} windows")
        ax.set_xlabel(f"events per {window} of feed time (window slides by {step})")

    ax = fig.add_subplot(gs[1, 0])
    arrival = quantile_rows(table, rows, "Arrival")
    strip_plot(ax, labels, arrival, COLORS[2], kind="duration")
    ax.set_title("Time between consecutive events (inter-arrival)")
    ax.set_xlabel("gap between a symbol's consecutive events (feed time)")

    ax = fig.add_subplot(gs[1, 1])
    processing = quantile_rows(table, rows, "Processing")
    xs, ys = duration_percentile_panel(ax, processing, rows, len(chosen))
    ax.set_ylabel("processing time per event (wall clock)")
    ax.set_title("Processing latency of itch5inside, per event")
    ax.annotate(f"max {fmt_duration(processing[0][1.0])}", (xs[-1], ys[-1]), textcoords="offset points",
                xytext=(-4, -12), ha="right", fontsize=8)

    ax = fig.add_subplot(gs[1, 2])
    counts = np.sort(np.asarray(table.samples, dtype=float))[::-1]
    ranks = np.arange(1, len(counts) + 1)
    ax.plot(ranks, counts, color=COLORS[1], lw=1.5, marker="." if len(counts) < 60 else None)
    if not symbols and chosen:
        share = counts[: len(chosen)].sum() / max(counts.sum(), 1)
        ax.axvspan(0.5, len(chosen) + 0.5, color=COLORS[0], alpha=0.12,
                   label=f"the {len(chosen)} drawn at the left: {share:.0%} of the events")
        ax.legend(loc="lower left")
    ax.set_xscale("log")
    ax.set_xlim(0.5, max(len(counts), 2) * 1.5)
    set_scale(ax, counts, "y")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: fmt_count(x)))
    ax.set_xlabel("symbol rank (busiest first, log)")
    ax.set_ylabel("events per symbol")
    ax.set_title(f"Events per symbol, all {len(counts):,} symbols ranked")
    if latency:
        ax = fig.add_subplot(gs[2, 0:2])
        curves = quantile_rows(table, rows, "Latency")
        duration_percentile_panel(ax, curves, rows, len(chosen))
        ax.set_ylabel("capture time - exchange time")
        ax.set_title("Feed latency of each event's message (capture clock - exchange clock)")
        ax = fig.add_subplot(gs[2, 2])
        strip_plot(ax, labels, curves, COLORS[3], kind="duration")
        ax.set_title("Feed latency per symbol")
        ax.set_xlabel("capture time - exchange time")
    cap_row_labels(fig, "stats")
    what = f"{len(chosen)} of {len(table.names):,} symbols and the aggregate"
    return fig, what + (", with the feed latency of a capture" if latency else "")


# --------------------------------------------------------------------------------------------------
# depth


def draw_depth(table, top, symbols, size, dpi, title=None):
    chosen = table.busiest(top, symbols)
    rows = [table.aggregate] + [table.rows[i] for i in chosen]
    labels = row_labels(table, chosen)
    fig = new_figure(size, dpi)
    gs = fig.add_gridspec(2, 2, height_ratios=[2, 3])
    fig.suptitle(fit(fig, title or f"Book depth of {table.path}: {int(table.aggregate[1]):,} book events, "
                     f"{selection_text(table, chosen, symbols)} and all symbols together", 12, bold=True),
                 fontsize=12, fontweight="bold")
    panels = [
        ("EventDepth", "Event depth: where events land",
         "price levels between the event's price and its side's best price"),
        ("BookDepth", "Book depth: how deep each side is",
         "price levels between the best and the worst price of the side"),
    ]
    legends = []
    for col, (suffix, name, unit) in enumerate(panels):
        q = quantile_rows(table, rows, suffix)
        ax = fig.add_subplot(gs[0, col])
        values, x_max = [], 10
        for k, (qq, row) in enumerate(zip(q[1:], rows[1:])):
            xs, ys = percentile_curve(ax, qq, row[1], color=COLORS[k % 10], lw=0.8, alpha=0.55)
            values += ys
            x_max = max(x_max, xs[-1])
        xs, ys = percentile_curve(ax, q[0], rows[0][1], color="black", lw=2.2, marker="o", ms=3.5)
        values += ys
        x_max = max(x_max, xs[-1])
        percentile_axis(ax, x_max)
        set_scale(ax, values, "y")
        ax.set_ylabel(f"{unit.split(' between')[0]}")
        ax.set_title(f"{name}, percentiles")
        # The key sits above the curves (headroom raises the y axis under it): in the corner of the
        # axes it covered the busiest symbols' curves, which reach the top left of the book-depth panel.
        legend = ax.legend(handles=[Line2D([], [], color="black", lw=2.2, marker="o", ms=3.5, label=AGG_LABEL),
                                    Line2D([], [], color=COLORS[0], lw=0.8,
                                           label=f"each of the {len(chosen)} symbols below")],
                           loc="upper left", ncols=2, framealpha=0.9)
        legends.append((ax, legend))
        ax = fig.add_subplot(gs[1, col])
        strip_plot(ax, labels, q, COLORS[3 + col], show_labels=True)
        ax.set_title(f"{name}, per symbol")
        ax.set_xlabel(unit)
    cap_row_labels(fig, "depth")
    for ax, legend in legends:
        headroom(ax, legend)
    return fig, f"{len(chosen)} of {len(table.names):,} symbols and the aggregate"


# --------------------------------------------------------------------------------------------------
# tde


def weighted_quantile(values, weights, q):
    order = np.argsort(values)
    v, w = values[order], weights[order]
    c = np.cumsum(w)
    if c[-1] <= 0:
        return float(np.quantile(values, q))
    return float(v[min(len(v) - 1, np.searchsorted(c, q * c[-1]))])


class _Group:
    def __init__(self, label, series_list):
        self.label = label
        self.windows = sum(s.windows for s in series_list)
        self.flags = {f: sum(s.flag_counts[f] for s in series_list) for f in TDE_FLAGS}
        self.t = np.concatenate([np.frombuffer(s.t_ns, dtype=np.int64) for s in series_list]) / 1e9 \
            if series_list else np.zeros(0)
        self.delay = np.concatenate([np.frombuffer(s.delay_us, dtype=np.float64) for s in series_list])
        self.rho = np.concatenate([np.frombuffer(s.rho, dtype=np.float64) for s in series_list])


def tde_groups(tde, top):
    """The rows to draw: per signal, all symbols together (when there are several), then the `top`
    (symbol, signal) series with the most passed windows."""
    signals = []
    for (_, signal) in tde.series:
        if signal not in signals:
            signals.append(signal)
    groups = []
    symbols = {sym for (sym, _) in tde.series}
    if len(symbols) > 1:
        for signal in signals:
            members = [s for (sym, sig), s in tde.series.items() if sig == signal]
            groups.append(_Group(f"{signal}, all {len(members):,} symbols", members))
    ranked = sorted(tde.series.values(), key=lambda s: (-s.passed, -s.windows))
    shown = [s for s in ranked if s.passed] or ([] if groups else ranked)
    for s in shown[:top]:
        groups.append(_Group(f"{s.signal}, {s.symbol}", [s]))
    return groups, len(ranked)


def draw_tde(tde, top, size, dpi, title=None):
    groups, n_series = tde_groups(tde, top)
    if size is None:
        size = (1600, 130 + 250 * len(groups))
    fig = new_figure(size, dpi)
    gs = fig.add_gridspec(len(groups), 3, width_ratios=[5, 2, 1.6])
    passed = sum(s.passed for s in tde.series.values())
    fig.suptitle(fit(fig, title or f"Delay of B behind A by window, {tde.path}: {passed:,} of {tde.rows:,} "
                     f"windows pass the checks ({n_series:,} symbol/signal series, {plural(len(groups), 'row')} drawn)", 12, bold=True),
                 fontsize=12, fontweight="bold")
    row_share = 5 / 8.6 * 0.8  # the delay panel's share of the width, less the colour bar
    all_t = np.concatenate([g.t for g in groups]) if groups else np.zeros(0)
    t_lo, t_hi = (all_t.min(), all_t.max()) if all_t.size else (0, 1)
    delay_axes = []
    scatter = None
    for r, g in enumerate(groups):
        ax = fig.add_subplot(gs[r, 0], sharex=delay_axes[0] if delay_axes else None)
        delay_axes.append(ax)
        share = g.flags["ok"] / g.windows if g.windows else 0
        if g.delay.size:
            median = weighted_quantile(g.delay, g.rho, 0.5)
            p25, p75 = weighted_quantile(g.delay, g.rho, 0.25), weighted_quantile(g.delay, g.rho, 0.75)
            ax.axhspan(p25, p75, color=COLORS[1], alpha=0.18, lw=0, label="rho-weighted IQR")
            ax.axhline(median, color=COLORS[1], lw=1.2, label="rho-weighted median")
            scatter = ax.scatter(g.t, g.delay, c=g.rho, cmap="viridis", vmin=0, vmax=1,
                                 s=9 if g.delay.size < 3000 else 3, lw=0, zorder=3,
                                 rasterized=g.delay.size > 5000, label="a passing window (colour: rho)")
            if r == 0:
                ax.legend(loc="upper right", ncols=3, framealpha=0.85)
            # Wrapped between its parts only: a number never parts from its unit nor a bracket's contents.
            ax.set_title(fit_parts(fig, [f"{g.label}:", f"{g.flags['ok']:,} of {g.windows:,} windows pass "
                                         f"({share:.1%}),", f"delay {median:.3f} µs", f"(IQR {p75 - p25:.3f} µs)"],
                                   10, row_share), loc="left")
            lo, hi = np.percentile(g.delay, [0.5, 99.5])
            pad = max((hi - lo) * 0.1, 0.3)
            ax.set_ylim(lo - pad, hi + pad + ((hi - lo + 2 * pad) * 0.3 if r == 0 else 0))  # room for the legend
        else:
            ax.text(0.5, 0.5, "no window passed the checks", transform=ax.transAxes, ha="center",
                    va="center", color="0.4")
            ax.set_title(f"{g.label}: 0 of {g.windows:,} windows pass", loc="left")
        ax.set_ylabel("delay (µs)")
        if r == len(groups) - 1:
            ax.set_xlabel("window start (time of day, New York)")
        else:
            ax.tick_params(axis="x", labelbottom=False)

        ax = fig.add_subplot(gs[r, 1])
        if g.delay.size:
            bins = np.histogram_bin_edges(g.delay, bins="auto")
            if len(bins) > 61:
                bins = 60
            ax.hist(g.delay, bins=bins, color=COLORS[0], alpha=0.8)
            ax.axvline(median, color=COLORS[1], lw=1.2)
            ax.xaxis.set_major_locator(MaxNLocator(5))
        else:
            ax.text(0.5, 0.5, "nothing to count", transform=ax.transAxes, ha="center", va="center", color="0.4")
        ax.set_ylabel("windows")
        ax.set_title("delays of passing windows")
        if r == len(groups) - 1:
            ax.set_xlabel("delay of B behind A (µs)")

        ax = fig.add_subplot(gs[r, 2])
        present = [f for f in TDE_FLAGS if g.flags[f] or f == "ok"]
        fractions = [g.flags[f] / g.windows if g.windows else 0 for f in present]
        ys = np.arange(len(present))[::-1]
        ax.barh(ys, fractions, color=[COLORS[2] if f == "ok" else "0.6" for f in present])
        for y, fr in zip(ys, fractions):
            ax.text(min(fr, 1) + 0.02, y, f"{fr:.1%}", va="center", fontsize=7)
        ax.set_yticks(ys)
        ax.set_yticklabels(present)
        ax.set_xlim(0, 1.35)
        ax.xaxis.set_major_locator(FixedLocator([0, 0.5, 1]))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:.0%}"))
        ax.set_title("windows by flag")
        if r == len(groups) - 1:
            ax.set_xlabel("share of windows")
    if delay_axes:
        span = max(t_hi - t_lo, 1e-6)
        delay_axes[0].set_xlim(t_lo - span * 0.02, t_hi + span * 0.02)
        time_axis(delay_axes[-1], span)
    if scatter is not None:
        bar = fig.colorbar(scatter, ax=delay_axes, location="right", shrink=min(0.6, 1.2 / len(delay_axes) + 0.2),
                           pad=0.01, aspect=30)
        bar.set_label("rho: correlation at the peak (confidence)")
    return fig, f"{plural(len(groups), 'row')} of {n_series:,} series"


# --------------------------------------------------------------------------------------------------
# inside


def draw_inside(series, path, symbol, t_from, t_to, size, dpi, title=None):
    if series.changes and len(series.t) > 4 * size[0]:
        series.reduce(2 * size[0])
    t = np.frombuffer(series.t, dtype=np.int64).astype(float) / 1e9
    bid, bid_qty, offer, offer_qty = (np.frombuffer(a, dtype=np.int64).astype(float) for a in series.values)
    if series.before is not None:
        t0 = t_from / 1e9
        bt = series.before
        t = np.concatenate([[t0], t])
        bid = np.concatenate([[bt[1]], bid])
        bid_qty = np.concatenate([[bt[2]], bid_qty])
        offer = np.concatenate([[bt[3]], offer])
        offer_qty = np.concatenate([[bt[4]], offer_qty])
    start = t_from / 1e9 if t_from is not None else t[0]
    end = t_to / 1e9 if t_to is not None else t[-1]
    if t_to is None and end <= start:
        end = start + 1e-6
    t = np.append(t, end)
    empty_bid = bid <= 0
    empty_offer = offer >= EMPTY_OFFER
    bid_px = np.where(empty_bid, np.nan, bid / 1e4)
    offer_px = np.where(empty_offer, np.nan, offer / 1e4)
    bid_q = np.where(empty_bid, np.nan, bid_qty)
    offer_q = np.where(empty_offer, np.nan, offer_qty)
    # steps: each value holds until the next change; the last one until the end of the range
    def steps(v):
        return np.append(v, v[-1])

    fig = new_figure(size, dpi)
    gs = fig.add_gridspec(2, 1, height_ratios=[3, 2])
    ax = fig.add_subplot(gs[0])
    ax.fill_between(t, steps(bid_px), steps(offer_px), step="post", color="0.5", alpha=0.15, lw=0,
                    label="spread")
    ax.step(t, steps(offer_px), where="post", color=COLORS[3], lw=1.1, label="best offer (ask)")
    ax.step(t, steps(bid_px), where="post", color=COLORS[0], lw=1.1, label="best bid")
    ax.set_ylabel("price ($)")
    ax.ticklabel_format(axis="y", useOffset=False, style="plain")
    ax.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), frameon=False)
    ax.tick_params(axis="x", labelbottom=False)
    span = end - start
    places = 3 if span >= 1 else 6 if span >= 1e-3 else 9
    range_text = f"{fmt_time_of_day(start, places)} to {fmt_time_of_day(end, places)}"
    drawn = f", drawn from {len(series.t):,} points (first, last, low and high per pixel column)" \
        if series.reduced else ""
    ax.set_title(fit(fig, title or f"{symbol}: best bid and offer, {range_text} (New York time), "
                     f"{series.changes:,} changes{drawn}", 11, 0.85, True), fontsize=11, fontweight="bold", loc="left")
    ax2 = fig.add_subplot(gs[1], sharex=ax)
    ax2.step(t, steps(offer_q), where="post", color=COLORS[3], lw=1.0, label="offer size")
    ax2.step(t, steps(bid_q), where="post", color=COLORS[0], lw=1.0, label="bid size")
    sizes = np.concatenate([bid_q[~np.isnan(bid_q)], offer_q[~np.isnan(offer_q)]])
    set_scale(ax2, sizes if sizes.size else [1], "y")
    ax2.set_ylabel("shares at the best price")
    ax2.set_xlabel(f"time of day (New York), {fmt_duration(span * 1e9)} shown")
    ax2.legend(loc="upper left", bbox_to_anchor=(1.005, 1.0), frameon=False)
    ax.set_xlim(start, end)
    time_axis(ax2, span)
    if np.isnan(bid_px).all() and np.isnan(offer_px).all():
        ax.text(0.5, 0.5, "both sides empty in this range", transform=ax.transAxes, ha="center")
    return fig, f"{series.changes:,} changes of {symbol}"


# --------------------------------------------------------------------------------------------------
# latency


def sample_curve(samples, points=400):
    """Sorted samples as a percentile curve: sample k of N (1-based, ascending) at p = (k - 1/2) / N, so
    x = 1/(1-p) runs from about 1 (the min) to 2N (the max); at most `points` log-spaced points.
    Returns (x, value, sorted samples)."""
    v = np.sort(np.asarray(samples, dtype=float))
    n = len(v)
    xs = np.geomspace(n / (n - 0.5), 2 * n, points)
    k = np.unique(np.clip(np.rint(n + 0.5 - n / xs), 1, n).astype(int))
    return n / (n - k + 0.5), v[k - 1], v


def quantile_at(sorted_values, x):
    """The sample whose plotting position is nearest to x = 1/(1-p) (as sample_curve places them)."""
    n = len(sorted_values)
    k = np.clip(np.rint(n + 0.5 - n / np.asarray(x)), 1, n).astype(int)
    return sorted_values[k - 1]


def draw_latency(dumps, labels, testcases, yscale, size, dpi, title=None):
    multi = len(dumps) > 1
    fig = new_figure(size, dpi)
    if multi:
        gs = fig.add_gridspec(2, 1, height_ratios=[3, 2])
    else:
        gs = fig.add_gridspec(1, 1)
    ax = fig.add_subplot(gs[0])
    styles = ["-", "--", ":", "-."]
    values = []
    x_max = 10
    curves = {}
    for d, (dump, label) in enumerate(zip(dumps, labels)):
        for c, case in enumerate(testcases):
            if case not in dump.cases:
                continue
            xs, ys, v = sample_curve(dump.cases[case])
            curves[(d, case)] = (xs, ys, v)
            values.extend(ys)
            x_max = max(x_max, xs[-1])
            p50 = v[max(0, math.ceil(len(v) / 2) - 1)]
            p99 = v[max(0, math.ceil(0.99 * len(v)) - 1)]
            ax.plot(xs, ys, color=COLORS[c % 10], ls=styles[d % 4], lw=1.6,
                    label=f"{case}{' - ' + label if multi else ''}: N {len(v):,}, p50 {fmt_duration(p50)}, "
                          f"p99 {fmt_duration(p99)}")
    percentile_axis(ax, x_max)
    if yscale == "auto":
        set_scale(ax, values, "y", "duration")
    else:
        if yscale == "log" and min(values) <= 0:
            ax.set_yscale("symlog", linthresh=1, linscale=0.4)
        else:
            ax.set_yscale(yscale)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda x, _: fmt_duration(x)))
        ax.yaxis.set_minor_formatter(NullFormatter())
    modes = {dump.header.get("mode", "per-iteration") for dump in dumps}
    # per-packet: bench/live_latency.py --dump (a packet's wire-to-inside latency)
    units = {"per-item": "item", "per-iteration": "iteration", "per-packet": "packet"}
    unit = units.get(next(iter(modes)), "sample") if len(modes) == 1 else "sample"
    ax.set_ylabel(f"time per {unit}")
    legend = ax.legend(loc="upper left", framealpha=0.9, ncols=2 if len(curves) > 8 else 1)
    headroom(ax, legend)
    programs = sorted({dump.header.get("program", "?") for dump in dumps})
    style_names = ["solid", "dashed", "dotted", "dash-dot"]
    runs = ", ".join(f"{label} ({style_names[d % 4]})" if multi else label for d, label in enumerate(labels))
    ax.set_title(fit(fig, title or f"{', '.join(programs)}: time per {unit} by percentile, "
                     f"{'runs ' if multi else ''}{runs}", 11, 0.95, True), fontsize=11, fontweight="bold", loc="left")
    if multi:
        ax.tick_params(axis="x", labelbottom=False)
        ax.set_xlabel("")
        ax2 = fig.add_subplot(gs[1], sharex=ax)
        ratios = []
        for d in range(1, len(dumps)):
            for c, case in enumerate(testcases):
                if (0, case) not in curves or (d, case) not in curves:
                    continue
                va, vb = curves[(0, case)][2], curves[(d, case)][2]
                n = min(len(va), len(vb))  # up to the max of the smaller run
                xs = np.geomspace(1, 2 * n, 300)
                qa, qb = quantile_at(va, xs), quantile_at(vb, xs)
                ok = qa > 0
                r = qb[ok] / qa[ok]
                ratios.extend(r)
                ax2.plot(xs[ok], r, color=COLORS[c % 10], ls=styles[d % 4], lw=1.4,
                         label=f"{case}: {labels[d]} / {labels[0]}")
        ax2.axhline(1, color="black", lw=0.8)
        if ratios:
            r = np.asarray(ratios)
            if r.max() / max(r.min(), 1e-12) >= 10:
                ax2.set_yscale("log")
                ax2.yaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:g}x"))
                ax2.yaxis.set_minor_formatter(NullFormatter())
            else:
                ax2.yaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:.2f}x"))
            ax2.legend(loc="upper left", framealpha=0.9, ncols=2)
        else:
            ax2.text(0.5, 0.5, "no test case in both the first run and another", transform=ax2.transAxes,
                     ha="center")
        ax2.set_ylabel(f"ratio to {labels[0]} (below 1: faster)")
        ax2.set_title("each run against the first, at the same percentile", loc="left")
        percentile_axis(ax2, x_max)
    return fig, f"{len(curves)} curves"
