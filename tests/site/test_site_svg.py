"""SVG charts: well-formed, escaped, values placed where the axes say."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from site_records import crowded_radar

from advisor.site.svg import Axis, BarGroup, LabelledPoint, Series, bar_chart, format_tick, line_chart, nice_step, scatter_chart

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_bar_heights_are_proportional_to_values():
    root = _parse(bar_chart("t", "TFLOP/s", ["fp32", "bf16"], [BarGroup("a", (1.0, 2.0)), BarGroup("b", (4.0, None))]))
    bars = [rect for rect in root.iter(f"{SVG}rect") if rect.find(f"{SVG}title") is not None]
    heights = [float(rect.get("height")) for rect in bars]
    assert len(bars) == 3  # the missing value draws no bar
    assert abs(heights[1] / heights[0] - 2.0) < 1e-3 and abs(heights[2] / heights[0] - 4.0) < 1e-3


def test_labels_are_escaped_and_nothing_executable():
    hostile = '<script>alert(1)</script>" onload="x'
    charts = [
        bar_chart(hostile, hostile, [hostile], [BarGroup(hostile, (1.0,))]),
        line_chart(hostile, hostile, hostile, [Series(hostile, ((1.0, 2.0), (2.0, 8.0)))]),
        scatter_chart(hostile, hostile, hostile, [LabelledPoint(hostile, 0.5, 2.0)], reference_y=1.0),
    ]
    for svg in charts:
        root = _parse(svg)  # still well-formed XML
        assert not list(root.iter(f"{SVG}script")) and not list(root.iter("script"))
        assert "<script>" not in svg and all("onload" not in attribute for element in root.iter() for attribute in element.attrib)


def test_log_axis_puts_powers_on_their_decades():
    axis = Axis(0.01, 10.0, 300.0, 0.0, log=True)
    assert axis.ticks() == [0.01, 0.1, 1.0, 10.0]
    assert abs(axis.to_px(0.1) - 200.0) < 1e-9 and abs(axis.to_px(1.0) - 100.0) < 1e-9


def test_line_chart_growth_reads_as_slope():
    quadratic = Series("naive", tuple((float(n), float(n * n)) for n in (128, 256, 512)))
    root = _parse(line_chart("t", "seq", "ms", [quadratic]))
    points = [(float(c.get("cx")), float(c.get("cy"))) for c in root.iter(f"{SVG}circle")]
    (x0, y0), (x1, y1), (x2, y2) = sorted(points)
    # equal steps on a log x axis, and twice that step upwards on a log y axis spanning the same decades
    assert abs((x1 - x0) - (x2 - x1)) < 0.2
    assert abs((y0 - y1) - (y1 - y2)) < 0.2


def test_nice_steps_and_ticks():
    assert [nice_step(value) for value in (0.7, 1.3, 3.0, 42.0)] == [1.0, 2.0, 5.0, 50.0]
    assert [format_tick(value) for value in (0, 0.5, 12, 1500, 20000, 2e6, 1e-5)] == ["0", "0.5", "12", "1.5k", "20k", "2M", "1e-05"]


def test_radar_dots_keep_apart_inside_the_rings():
    # (The labels' rendered boxes are checked in a browser: test_site_browser.py.)
    from advisor.site.radar import DOT_RADIUS

    svg, options = crowded_radar()
    assert svg == crowded_radar()[0]  # same data, same bytes
    root = _parse(svg)
    outer = root.find(f"{SVG}circle")  # the rings are drawn outermost first
    centre, radius = (float(outer.get("cx")), float(outer.get("cy"))), float(outer.get("r"))
    dots = [(float(circle.get("cx")), float(circle.get("cy"))) for group in root.iter(f"{SVG}g") for circle in group.iter(f"{SVG}circle")]
    on_radar = [dot for dot in dots if math.dist(dot, centre) < radius]  # the others number the legend
    assert len(on_radar) == len(dots) / 2 == len(options)  # every option once on the radar, once in the legend
    assert all(math.dist(one, other) >= 2 * DOT_RADIUS for index, one in enumerate(on_radar) for other in on_radar[index + 1 :])
    assert "<b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg
