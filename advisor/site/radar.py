"""The tier radar as SVG: rings are tiers (1 innermost, rejected outermost), sectors are knowledge-base layers.

Each option sits once, as a numbered dot in the innermost ring any live decision puts it in; the legend under the
rings names the numbers, layer by layer (the tier view's tables list every ring an option appears in). Names
never sit among the dots, so none can cover another: dots keep a gap between them and stay clear of the ring
names, and where a ring's sector cannot hold its dots the whole radar is drawn larger.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

WIDTH = 720  # about the width the site's article shows it at, so font sizes read as written
RING_RADII = (110.0, 160.0, 196.0, 230.0)  # at scale 1; tier 1's disk is the widest, it holds the most options
RING_FILLS = ("#c5cae9", "#d1e7dd", "#fff3cd", "#f8d7da")
SIDE_ROOM = 130.0  # left and right of the rings, for the sector names
TOP = 60.0  # above the rings, for the sector names at the top
SECTOR_FONT, RING_FONT, DOT_FONT, LEGEND_FONT = 13, 12, 10, 13
SECTOR_GAP, SECTOR_LINE = 12.0, 15.0  # sector names: distance from the rings, line height
SECTOR_WRAP = 12  # longer sector names break after a hyphen
DOT_RADIUS = 9.0
DOT_SPACING = 2 * DOT_RADIUS + 3  # centre to centre
LEGEND_COLUMNS, LEGEND_ROW = 3, 20.0
CHAR_WIDTH = 0.62  # of the font size: a generous average for Helvetica, Arial or DejaVu Sans
SCALES = tuple(1.0 + 0.15 * step for step in range(30))


def placements(rings: Sequence[tuple[str, Sequence[str]]]) -> dict[str, int]:
    """option -> index of the innermost ring that holds it."""
    placed: dict[str, int] = {}
    for index, (_, options) in enumerate(rings):
        for option in options:
            placed.setdefault(option, index)
    return placed


@dataclass(frozen=True)
class Box:
    """A rectangle dots keep clear of (a ring name)."""

    left: float
    top: float
    right: float
    bottom: float

    def near(self, x: float, y: float, distance: float) -> bool:
        nearest_x, nearest_y = min(max(x, self.left), self.right), min(max(y, self.top), self.bottom)
        return math.hypot(x - nearest_x, y - nearest_y) < distance


@dataclass(frozen=True)
class Geometry:
    """Where the rings are at one scale."""

    radii: tuple[float, ...]
    centre_x: float
    centre_y: float
    width: float

    @classmethod
    def at(cls, scale: float, rings: int) -> Geometry:
        radii = tuple(radius * scale for radius in RING_RADII[:rings])
        width = max(float(WIDTH), 2 * (radii[-1] + SIDE_ROOM))
        return cls(radii, width / 2, TOP + radii[-1], width)

    def inner(self, ring: int) -> float:
        return self.radii[ring - 1] if ring else 0.0

    def point(self, radius: float, angle: float) -> tuple[float, float]:
        return self.centre_x + radius * math.cos(angle), self.centre_y + radius * math.sin(angle)

    def cell_middle(self, sector: int, sector_angle: float, ring: int) -> tuple[float, float]:
        return self.point((self.inner(ring) + self.radii[ring]) / 2, (sector + 0.5) * sector_angle - math.pi / 2)

    def ring_label(self, ring: int) -> tuple[float, float]:
        """The baseline centre of a ring's name: in its band, on the upward axis."""
        return self.centre_x, self.centre_y - (self.inner(ring) + self.radii[ring]) / 2 + RING_FONT / 3

    def ring_label_box(self, ring: int, label: str) -> Box:
        x, y = self.ring_label(ring)
        half = len(label) * RING_FONT * CHAR_WIDTH / 2 + 3
        return Box(x - half, y - RING_FONT, x + half, y + 4)


def _slots(geometry: Geometry, sector: int, sector_angle: float, ring: int,
           keep_clear: Sequence[Box]) -> list[tuple[float, float]]:
    """Every place a dot may go in one ring of one sector: rows from the outside in, DOT_SPACING apart, and in a row
    places DOT_SPACING apart, clear of the sector lines and of the ring names."""
    start = sector * sector_angle - math.pi / 2
    slots = []
    radius = geometry.radii[ring] - DOT_RADIUS - 2
    while radius >= max(geometry.inner(ring) + DOT_RADIUS + 2, DOT_SPACING):
        margin = math.asin(min(1.0, (DOT_RADIUS + 2) / radius))  # the angle that keeps a dot off a sector line
        span = sector_angle - 2 * margin
        step = 2 * math.asin(min(1.0, DOT_SPACING / (2 * radius)))  # the angle between two dots DOT_SPACING apart
        if span >= 0:
            count = int(span / step) + 1
            for index in range(count):
                share = index / (count - 1) if count > 1 else 0.5
                x, y = geometry.point(radius, start + margin + share * span)
                if not any(box.near(x, y, DOT_RADIUS + 2) for box in keep_clear):
                    slots.append((x, y))
        radius -= DOT_SPACING
    return slots


def _spread(slots: list[tuple[float, float]], count: int, centre: tuple[float, float]) -> list[tuple[float, float]]:
    """`count` of the slots, spread over the cell but kept near its middle (slots are already far enough apart)."""
    chosen: list[tuple[float, float]] = []
    for _ in range(count):
        def score(slot: tuple[float, float]) -> float:
            apart = min((math.dist(slot, other) for other in chosen), default=0.0)
            return min(apart, 2.5 * DOT_SPACING) - 0.1 * math.dist(slot, centre)

        chosen.append(max((slot for slot in slots if slot not in chosen), key=score))
    return chosen


def _place(geometry: Geometry, cells: Mapping[tuple[int, int], Sequence[str]], sector_angle: float,
           keep_clear: Sequence[Box]) -> dict[str, tuple[float, float]] | None:
    """option -> dot centre, or None where some cell has too few slots at this scale."""
    where: dict[str, tuple[float, float]] = {}
    for (sector, ring), options in cells.items():
        slots = _slots(geometry, sector, sector_angle, ring, keep_clear)
        if len(slots) < len(options):
            return None
        where.update(zip(options, _spread(slots, len(options), geometry.cell_middle(sector, sector_angle, ring))))
    return where


def _wrap(name: str) -> list[str]:
    """A sector name on one line, or two where it is long and has a hyphen to break after."""
    if len(name) <= SECTOR_WRAP or "-" not in name:
        return [name]
    breaks = [index + 1 for index, character in enumerate(name) if character == "-"]
    cut = min(breaks, key=lambda index: abs(index - len(name) / 2))
    return [name[:cut], name[cut:]]


def _sector_label(geometry: Geometry, name: str, angle: float) -> str:
    """A sector's name outside the rings, growing away from them."""
    x, y = geometry.point(geometry.radii[-1] + SECTOR_GAP, angle)
    cos, sin = math.cos(angle), math.sin(angle)
    anchor = "start" if cos > 0.2 else "end" if cos < -0.2 else "middle"
    lines = _wrap(name)
    if sin < -0.5:  # above the rings: the last line ends just above the point
        first = y - (len(lines) - 1) * SECTOR_LINE - 2
    elif sin > 0.5:  # below: the first line hangs under it
        first = y + SECTOR_FONT
    else:
        first = y + SECTOR_FONT / 3 - (len(lines) - 1) * SECTOR_LINE / 2
    spans = "".join(f'<tspan x="{x:.1f}" y="{first + index * SECTOR_LINE:.1f}">{escape(line)}</tspan>'
                    for index, line in enumerate(lines))
    return f'<text text-anchor="{anchor}" font-size="{SECTOR_FONT}" font-weight="bold">{spans}</text>'


def _dot(x: float, y: float, number: int, tooltip: str, radius: float = DOT_RADIUS) -> str:
    return (f'<g><title>{escape(tooltip)}</title><circle cx="{x:.1f}" cy="{y:.1f}" r="{radius:.1f}" fill="#37474f"/>'
            f'<text x="{x:.1f}" y="{y + DOT_FONT / 3 + 0.5:.1f}" text-anchor="middle" font-size="{DOT_FONT}" '
            f'font-weight="bold" fill="#ffffff">{number}</text></g>')


def _legend(entries: Sequence[tuple[str, list[tuple[int, str, str]]]], top: float, width: float) -> tuple[list[str], float]:
    """Sector blocks (name, then each dot's number, option and ring) flowed into columns; the parts and the bottom."""
    column_width = width / LEGEND_COLUMNS
    heights = [top] * LEGEND_COLUMNS
    parts = []
    max_chars = int((column_width - 34) / (LEGEND_FONT * CHAR_WIDTH))
    for sector, options in entries:
        column = heights.index(min(heights))
        left, y = column * column_width + 12, heights[column]
        parts.append(f'<text x="{left:.1f}" y="{y + LEGEND_FONT:.1f}" font-size="{LEGEND_FONT}" font-weight="bold">'
                     f"{escape(sector)}</text>")
        y += LEGEND_ROW + 2
        for number, option, ring in options:
            label, note = _clip(option, max_chars), f" ({ring})"
            if len(label) + len(note) > max_chars:
                note = ""
            parts.append(_dot(left + 9, y + LEGEND_FONT / 2, number, f"{option}: {ring}", radius=DOT_RADIUS))
            parts.append(f'<text x="{left + 24:.1f}" y="{y + LEGEND_FONT - 1:.1f}" font-size="{LEGEND_FONT}">{escape(label)}'
                         f'<tspan fill="#616161">{escape(note)}</tspan></text>')
            y += LEGEND_ROW
        heights[column] = y + 10
    return parts, max(heights)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _layout(cells: Mapping[tuple[int, int], Sequence[str]], rings: Sequence[tuple[str, Sequence[str]]],
            sector_angle: float) -> tuple[Geometry, dict[str, tuple[float, float]]]:
    """The smallest scale at which every cell holds its dots, and where each dot goes."""
    for scale in SCALES:
        geometry = Geometry.at(scale, len(rings))
        keep_clear = [geometry.ring_label_box(index, label) for index, (label, _) in enumerate(rings)]
        where = _place(geometry, cells, sector_angle, keep_clear)
        if where is not None:
            return geometry, where
    # Past any real knowledge base (hundreds of options in one cell): every dot still drawn, in its cell's middle.
    return geometry, {option: geometry.cell_middle(sector, sector_angle, ring)
                      for (sector, ring), options in cells.items() for option in options}


def _rings(geometry: Geometry, rings: Sequence[tuple[str, Sequence[str]]], sectors: Sequence[str]) -> list[str]:
    """The coloured rings with their names, the sector lines and the sector names."""
    parts = [f'<circle cx="{geometry.centre_x:.1f}" cy="{geometry.centre_y:.1f}" r="{geometry.radii[index]:.1f}" '
             f'fill="{RING_FILLS[index]}" stroke="#9e9e9e"/>' for index in reversed(range(len(rings)))]
    sector_angle = 2 * math.pi / len(sectors)
    for index, sector in enumerate(sectors):
        angle = index * sector_angle - math.pi / 2
        x, y = geometry.point(geometry.radii[-1], angle)
        parts.append(f'<line x1="{geometry.centre_x:.1f}" y1="{geometry.centre_y:.1f}" x2="{x:.1f}" y2="{y:.1f}" stroke="#bdbdbd"/>')
        parts.append(_sector_label(geometry, sector, angle + sector_angle / 2))
    for index, (label, _) in enumerate(rings):
        box, (x, y) = geometry.ring_label_box(index, label), geometry.ring_label(index)
        parts.append(f'<rect x="{box.left:.1f}" y="{box.top:.1f}" width="{box.right - box.left:.1f}" '
                     f'height="{box.bottom - box.top:.1f}" rx="3" fill="{RING_FILLS[index]}"/>')
        parts.append(f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="middle" font-size="{RING_FONT}" fill="#424242">'
                     f"{escape(label)}</text>")
    return parts


def radar_svg(rings: Sequence[tuple[str, Sequence[str]]], layer_of: Mapping[str, str], layers: Sequence[str]) -> str:
    """Rings (label, option ids) from the centre out; sectors by `layer_of[option]` ('other' when unknown)."""
    placed = placements(rings)
    sectors = [*layers, "other"] if any(layer_of.get(option) not in layers for option in placed) else list(layers)
    sector_of = {option: sectors.index(layer) if (layer := layer_of.get(option)) in sectors else len(sectors) - 1
                 for option in placed}
    order = sorted(placed, key=lambda option: (sector_of[option], placed[option], option))  # numbered in this order
    numbers = {option: index + 1 for index, option in enumerate(order)}
    cells: dict[tuple[int, int], list[str]] = {}
    for option in order:
        cells.setdefault((sector_of[option], placed[option]), []).append(option)
    geometry, where = _layout(cells, rings, 2 * math.pi / len(sectors))
    legend_top = geometry.centre_y + geometry.radii[-1] + SECTOR_GAP + 2 * SECTOR_LINE + 24
    entries = [(sector, [(numbers[option], option, rings[placed[option]][0]) for option in order if sector_of[option] == index])
               for index, sector in enumerate(sectors)]
    legend, bottom = _legend([(sector, options) for sector, options in entries if options], legend_top, geometry.width)
    width, height = geometry.width, bottom + 8
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" '
        f'height="{height:.0f}" role="img" aria-label="Tier radar" font-family="Helvetica, Arial, sans-serif" fill="#212121">',
        "<title>Tier radar</title>", f'<rect width="{width:.0f}" height="{height:.0f}" fill="#ffffff"/>',
        *_rings(geometry, rings, sectors),
        *(_dot(*where[option], numbers[option], f"{option}: {rings[placed[option]][0]}") for option in order),
        *legend, "</svg>",
    ]
    return "\n".join(parts) + "\n"
