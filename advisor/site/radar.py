"""The tier radar as SVG: rings are tiers (1 innermost, rejected outermost), sectors are knowledge-base layers.

Each option sits once, in the innermost ring any live decision puts it in; the tier view's tables
list every ring an option appears in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

SIZE = 760
WIDTH = 960  # room for the sector names left and right of the rings
CENTRE = SIZE / 2
CENTRE_X = WIDTH / 2
RING_RADII = (110.0, 190.0, 270.0, 340.0)
RING_FILLS = ("#c5cae9", "#d1e7dd", "#fff3cd", "#f8d7da")


def placements(rings: Sequence[tuple[str, Sequence[str]]]) -> dict[str, int]:
    """option -> index of the innermost ring that holds it."""
    placed: dict[str, int] = {}
    for index, (_, options) in enumerate(rings):
        for option in options:
            placed.setdefault(option, index)
    return placed


def radar_svg(rings: Sequence[tuple[str, Sequence[str]]], layer_of: Mapping[str, str], layers: Sequence[str]) -> str:
    """Rings (label, option ids) from the centre out; sectors by `layer_of[option]` ('other' when unknown)."""
    placed = placements(rings)
    sectors = [*layers, "other"] if any(layer_of.get(option) not in layers for option in placed) else list(layers)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {SIZE}" width="{WIDTH}" height="{SIZE}" '
        'role="img" aria-label="Tier radar" font-family="Helvetica, Arial, sans-serif" fill="#212121">',
        "<title>Tier radar</title>", f'<rect width="{WIDTH}" height="{SIZE}" fill="#ffffff"/>',
    ]  # fmt: skip
    for index in reversed(range(len(rings))):
        parts.append(f'<circle cx="{CENTRE_X}" cy="{CENTRE}" r="{RING_RADII[index]}" fill="{RING_FILLS[index]}" stroke="#9e9e9e"/>')
    for index, (label, _) in enumerate(rings):
        inner = RING_RADII[index - 1] if index else 0.0
        parts.append(f'<text x="{CENTRE_X}" y="{CENTRE - (inner + RING_RADII[index]) / 2 + 4:.1f}" text-anchor="middle" '
                     f'font-size="11" fill="#616161">{escape(label)}</text>')  # fmt: skip
    sector_angle = 2 * math.pi / len(sectors)
    for index, sector in enumerate(sectors):
        angle = index * sector_angle - math.pi / 2
        x, y = CENTRE_X + RING_RADII[-1] * math.cos(angle), CENTRE + RING_RADII[-1] * math.sin(angle)
        parts.append(f'<line x1="{CENTRE_X}" y1="{CENTRE}" x2="{x:.1f}" y2="{y:.1f}" stroke="#bdbdbd"/>')
        middle = angle + sector_angle / 2
        lx, ly = CENTRE_X + (RING_RADII[-1] + 14) * math.cos(middle), CENTRE + (RING_RADII[-1] + 14) * math.sin(middle)
        anchor = "start" if math.cos(middle) > 0.2 else "end" if math.cos(middle) < -0.2 else "middle"
        parts.append(f'<text x="{lx:.1f}" y="{ly + 4:.1f}" text-anchor="{anchor}" font-size="12" font-weight="bold">'
                     f"{escape(sector)}</text>")  # fmt: skip
    cells: dict[tuple[int, int], list[str]] = {}
    for option, ring in sorted(placed.items()):
        layer = layer_of.get(option)
        slot_sector = sectors.index(layer) if layer in sectors else len(sectors) - 1
        cells.setdefault((slot_sector, ring), []).append(option)
    for (slot_sector, ring), options in sorted(cells.items()):
        inner = RING_RADII[ring - 1] if ring else 24.0
        for slot, option in enumerate(options):
            share = (slot + 1) / (len(options) + 1)
            angle = (slot_sector + share) * sector_angle - math.pi / 2
            radius = inner + (RING_RADII[ring] - inner) * (0.35 + 0.3 * (slot % 2))
            x, y = CENTRE_X + radius * math.cos(angle), CENTRE + radius * math.sin(angle)
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="5" fill="#37474f"><title>{escape(option)}</title></circle>')
            parts.append(f'<text x="{x + 7:.1f}" y="{y + 4:.1f}" font-size="11">{escape(option)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
