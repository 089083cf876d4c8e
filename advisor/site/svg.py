"""Small static SVG charts (grouped bars, lines, labelled points), written as text with no dependencies.

Deterministic output (same data, same bytes), every label escaped, no script: the site embeds them
as images. Axes are linear from zero or logarithmic; log axes put ticks on powers of two or ten.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from probes.reporting import BarGroup, LabelledPoint, Series

WIDTH, HEIGHT = 720, 380
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 72, 190, 44, 64
PALETTE = ("#3f51b5", "#e65100", "#2e7d32", "#c2185b", "#00838f", "#6d4c41", "#7b1fa2", "#9e9d24", "#455a64", "#d84315")


@dataclass(frozen=True)
class Axis:
    """A value range mapped onto pixels, linear or log."""

    low: float
    high: float
    start_px: float
    end_px: float
    log: bool = False

    def to_px(self, value: float) -> float:
        """Pixel position of `value` (clamped into the range)."""
        if self.log:
            value, low, high = math.log(max(value, self.low)), math.log(self.low), math.log(self.high)
        else:
            low, high = self.low, self.high
        share = 0.0 if high == low else (min(max(value, low), high) - low) / (high - low)
        return self.start_px + share * (self.end_px - self.start_px)

    def ticks(self, base: int = 10) -> list[float]:
        """Round values to label: 5 or so linear steps, or the powers of `base` inside the range."""
        if self.log:
            first, last = math.floor(math.log(self.low, base) + 1e-9), math.ceil(math.log(self.high, base) - 1e-9)
            powers = [float(base) ** exponent for exponent in range(first, last + 1)]
            return [value for value in powers if self.low * 0.999 <= value <= self.high * 1.001]
        step = nice_step((self.high - self.low) / 5)
        count = int(math.floor((self.high - self.low) / step + 1e-9))
        return [self.low + index * step for index in range(count + 1)]


def nice_step(raw: float) -> float:
    """1, 2, 2.5 or 5 times a power of ten, at least `raw`."""
    if raw <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(raw))
    return next(factor * power for factor in (1, 2, 2.5, 5, 10) if factor * power >= raw)


def format_tick(value: float) -> str:
    """Short tick text: 0.5, 12, 1.5k, 2M, 1e-05."""
    if value == 0:
        return "0"
    magnitude = abs(value)
    if magnitude >= 1e6:
        return f"{value / 1e6:g}M"
    if magnitude >= 1e3:
        return f"{value / 1e3:g}k"
    if magnitude < 1e-3:
        return f"{value:.0e}"
    return f"{value:.3g}"


def _text(x: float, y: float, content: str, *, anchor: str = "middle", size: int = 12, extra: str = "") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}"{extra}>'
            f"{escape(content)}</text>")


def _frame(title: str, body: list[str], x_label: str, y_label: str, legend: Sequence[str]) -> str:
    plot_bottom = HEIGHT - MARGIN_BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-label="{escape(title)}" font-family="Helvetica, Arial, sans-serif" fill="#212121">',
        f"<title>{escape(title)}</title>",
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        _text(WIDTH / 2, 24, title, size=15, extra=' font-weight="bold"'),
        *body,
        f'<line x1="{MARGIN_LEFT}" y1="{plot_bottom}" x2="{WIDTH - MARGIN_RIGHT}" y2="{plot_bottom}" stroke="#424242"/>',
        f'<line x1="{MARGIN_LEFT}" y1="{MARGIN_TOP}" x2="{MARGIN_LEFT}" y2="{plot_bottom}" stroke="#424242"/>',
        _text((MARGIN_LEFT + WIDTH - MARGIN_RIGHT) / 2, HEIGHT - 10, x_label),
        _text(16, (MARGIN_TOP + plot_bottom) / 2, y_label,
              extra=f' transform="rotate(-90 16 {(MARGIN_TOP + plot_bottom) / 2:.1f})"'),
    ]
    parts.extend(_legend(legend))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


LEGEND_CHARACTERS = 27  # what fits beside the plot at 11 px: names wrap at spaces onto lines this long


def legend_lines(name: str, width: int = LEGEND_CHARACTERS) -> list[str]:
    """A legend name wrapped at spaces into lines of at most `width` characters (a longer word is cut there)."""
    lines: list[str] = []
    for word in name.split():
        while len(word) > width:  # a word longer than a line (an id with no spaces) is broken, not dropped
            lines.append(word[:width])
            word = word[width:]
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _legend(names: Sequence[str]) -> list[str]:
    """The legend beside the plot: every name whole, wrapped; the rows shrink to fit the chart's height, and what
    still does not fit is counted on a last row instead of running off the chart."""
    wrapped = [legend_lines(name) for name in names]
    room = HEIGHT - MARGIN_TOP - 8
    size, line_px, gap_px = 11, 13, 6
    if sum(len(lines) * line_px + gap_px for lines in wrapped) > room:
        size, line_px, gap_px = 9, 10, 3
    parts, y, x = [], MARGIN_TOP + 8, WIDTH - MARGIN_RIGHT + 16
    for index, lines in enumerate(wrapped):
        needed = len(lines) * line_px + gap_px
        if y + needed > HEIGHT - line_px and index < len(wrapped) - 1:
            parts.append(_text(x, y + 1, f"+{len(wrapped) - index} more (see the evidence page)", anchor="start", size=size))
            break
        parts.append(f'<rect x="{x}" y="{y - size + 2}" width="{size}" height="{size}" fill="{PALETTE[index % len(PALETTE)]}"/>')
        for number, text in enumerate(lines):
            parts.append(_text(x + size + 6, y + 1 + number * line_px, text, anchor="start", size=size))
        y += needed
    return parts


def _y_grid(axis: Axis, base: int = 10) -> list[str]:
    lines = []
    for tick in axis.ticks(base):
        y = axis.to_px(tick)
        lines.append(f'<line x1="{MARGIN_LEFT}" y1="{y:.1f}" x2="{WIDTH - MARGIN_RIGHT}" y2="{y:.1f}" stroke="#e0e0e0"/>')
        lines.append(_text(MARGIN_LEFT - 6, y + 4, format_tick(tick), anchor="end", size=11))
    return lines


def _value_axis(values: Sequence[float], log: bool, start_px: float, end_px: float, y_max: float | None = None) -> Axis:
    if y_max is not None and not log and max(values, default=0.0) <= y_max * 1.001:
        return Axis(0.0, y_max, start_px, end_px)  # a natural ceiling (100%) the values keep to, rounding aside
    positive = [value for value in values if value > 0]
    if log and positive:
        low, high = min(positive), max(positive)
        return Axis(10 ** math.floor(math.log10(low)), 10 ** math.ceil(math.log10(high) + 1e-12), start_px, end_px, log=True)
    high = max(values, default=1.0)
    step = nice_step(high / 5 if high > 0 else 1.0)
    return Axis(0.0, step * math.ceil(high / step - 1e-9) if high > 0 else 1.0, start_px, end_px)


def bar_chart(title: str, y_label: str, series_names: Sequence[str], groups: Sequence[BarGroup], x_label: str = "",
              y_max: float | None = None) -> str:
    """Grouped vertical bars: one group per category, one bar per series, from zero (up to `y_max` when given)."""
    plot_bottom, plot_right = HEIGHT - MARGIN_BOTTOM, WIDTH - MARGIN_RIGHT
    values = [value for group in groups for value in group.values if value is not None]
    y_axis = _value_axis(values, log=False, start_px=plot_bottom, end_px=MARGIN_TOP, y_max=y_max)
    body = _y_grid(y_axis)
    slot = (plot_right - MARGIN_LEFT) / max(len(groups), 1)
    bar_width = slot * 0.8 / max(len(series_names), 1)
    for group_index, group in enumerate(groups):
        left = MARGIN_LEFT + group_index * slot + slot * 0.1
        for series_index, value in enumerate(group.values):
            if value is None:
                continue
            top = y_axis.to_px(value)
            colour = PALETTE[series_index % len(PALETTE)]
            body.append(
                f'<rect x="{left + series_index * bar_width:.1f}" y="{top:.1f}" width="{bar_width * 0.92:.1f}" '
                f'height="{plot_bottom - top:.1f}" fill="{colour}"><title>{escape(series_names[series_index])} '
                f"{escape(group.label)}: {value:.4g}</title></rect>"
            )
        for line_index, line in enumerate(group.label.split(" ", 1)):  # "512x512x512 prefill" on two lines
            body.append(_text(MARGIN_LEFT + (group_index + 0.5) * slot, plot_bottom + 16 + 12 * line_index, line[:22], size=10))
    return _frame(title, body, x_label, y_label, series_names)


def stacked_bar_chart(title: str, y_label: str, series_names: Sequence[str], groups: Sequence[BarGroup], x_label: str = "",
                      y_max: float | None = None) -> str:
    """One bar per category, its series stacked bottom-up (e.g. shares of time that add to 100%: `y_max` 100)."""
    plot_bottom, plot_right = HEIGHT - MARGIN_BOTTOM, WIDTH - MARGIN_RIGHT
    totals = [sum(value for value in group.values if value) for group in groups]
    y_axis = _value_axis(totals, log=False, start_px=plot_bottom, end_px=MARGIN_TOP, y_max=y_max)
    body = _y_grid(y_axis)
    slot = (plot_right - MARGIN_LEFT) / max(len(groups), 1)
    for group_index, group in enumerate(groups):
        left, running = MARGIN_LEFT + group_index * slot + slot * 0.2, 0.0
        for series_index, value in enumerate(group.values):
            if not value:
                continue
            bottom, top = y_axis.to_px(running), y_axis.to_px(running + value)
            running += value
            body.append(
                f'<rect x="{left:.1f}" y="{top:.1f}" width="{slot * 0.6:.1f}" height="{bottom - top:.1f}" '
                f'fill="{PALETTE[series_index % len(PALETTE)]}"><title>{escape(series_names[series_index])} '
                f"{escape(group.label)}: {value:.4g}</title></rect>"
            )
        for line_index, line in enumerate(group.label.split(" ", 1)):
            body.append(_text(MARGIN_LEFT + (group_index + 0.5) * slot, plot_bottom + 16 + 12 * line_index, line[:22], size=10))
    return _frame(title, body, x_label, y_label, series_names)


def line_chart(title: str, x_label: str, y_label: str, series: Sequence[Series], *, log_x: bool = True, log_y: bool = True,
               x_base: int = 2, x_format: Callable[[float], str] | None = None) -> str:
    """One polyline with markers per series; log axes by default (growth exponents read as slopes)."""
    plot_bottom, plot_right = HEIGHT - MARGIN_BOTTOM, WIDTH - MARGIN_RIGHT
    xs = [x for line in series for x, _ in line.points]
    ys = [y for line in series for _, y in line.points]
    if log_x and xs and min(xs) > 0:
        x_axis = Axis(min(xs), max(xs) if max(xs) > min(xs) else min(xs) * 2, MARGIN_LEFT + 10, plot_right - 10, log=True)
    else:
        x_axis = _value_axis(xs, log=False, start_px=MARGIN_LEFT + 10, end_px=plot_right - 10)
    y_axis = _value_axis(ys, log=log_y and all(y > 0 for y in ys), start_px=plot_bottom, end_px=MARGIN_TOP)
    body = _y_grid(y_axis)
    for tick in sorted({x for x in xs}) if x_axis.log else x_axis.ticks(x_base):
        body.append(_text(x_axis.to_px(tick), plot_bottom + 16, (x_format or format_tick)(tick), size=11))
    for index, line in enumerate(series):
        colour = PALETTE[index % len(PALETTE)]
        points = sorted(line.points)
        path = " ".join(f"{x_axis.to_px(x):.1f},{y_axis.to_px(y):.1f}" for x, y in points)
        body.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for x, y in points:
            body.append(f'<circle cx="{x_axis.to_px(x):.1f}" cy="{y_axis.to_px(y):.1f}" r="3.5" fill="{colour}">'
                        f"<title>{escape(line.name)} at {format_tick(x)}: {y:.4g}</title></circle>")
    return _frame(title, body, x_label, y_label, [line.name for line in series])


def scatter_chart(title: str, x_label: str, y_label: str, points: Sequence[LabelledPoint], *, log_x: bool = True,
                  reference_y: float | None = None) -> str:
    """Labelled points (e.g. speedup against error); an optional dashed reference line at `reference_y`."""
    plot_bottom, plot_right = HEIGHT - MARGIN_BOTTOM, WIDTH - MARGIN_RIGHT
    xs, ys = [point.x for point in points], [point.y for point in points]
    if reference_y is not None:
        ys.append(reference_y)
    x_axis = _value_axis(xs, log=log_x and all(x > 0 for x in xs), start_px=MARGIN_LEFT + 10, end_px=plot_right - 10)
    y_axis = _value_axis(ys, log=False, start_px=plot_bottom, end_px=MARGIN_TOP)
    body = _y_grid(y_axis)
    for tick in x_axis.ticks():
        body.append(_text(x_axis.to_px(tick), plot_bottom + 16, format_tick(tick), size=11))
    if reference_y is not None:
        y = y_axis.to_px(reference_y)
        body.append(f'<line x1="{MARGIN_LEFT}" y1="{y:.1f}" x2="{plot_right}" y2="{y:.1f}" stroke="#757575" stroke-dasharray="6 4"/>')
    for index, point in enumerate(points):
        colour = PALETTE[index % len(PALETTE)]
        body.append(f'<circle cx="{x_axis.to_px(point.x):.1f}" cy="{y_axis.to_px(point.y):.1f}" r="5" fill="{colour}">'
                    f"<title>{escape(point.label)}: {point.y:.3g} at {point.x:.3g}</title></circle>")
    return _frame(title, body, x_label, y_label, [point.label for point in points])
