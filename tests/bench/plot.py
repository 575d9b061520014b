"""The benchmark table as a picture: each ratio as a bar from 1x, its target as a tick.

Written by hand as SVG, so no plotting library is needed; a PNG as well when cairosvg can be
imported. The x axis is logarithmic (0.5x is as far left of 1x as 2x is right of it). A row
with an absolute target (`Row.limit`) gets the tick where its measured value would reach it:
limit / baseline.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

from . import Row

FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
COLOURS = {True: "#2e7d32", False: "#c62828", None: "#9e9e9e"}
LABEL_W, PLOT_W, VALUE_W = 470, 400, 200
TOP, ROW_H, BOTTOM = 74, 22, 44
LABEL_CHARS = 62
GRID = (0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000)


def target_ratio(row: Row) -> float | None:
    """The ratio at which the row stops meeting its target (the stricter of the two)."""
    ratios = [row.target] if row.target is not None else []
    if row.limit is not None:
        ratios.append(row.limit / row.baseline)
    return min(ratios) if ratios else None


def svg(rows: Sequence[Row], subtitle: str) -> str:
    targets = [target_ratio(row) for row in rows]
    values = [row.ratio for row in rows] + [t for t in targets if t is not None] + [1.0]
    low, high = min(values) / 1.25, max(values) * 1.25
    span = math.log10(high) - math.log10(low)

    def x(value: float) -> float:
        return LABEL_W + (math.log10(value) - math.log10(low)) / span * PLOT_W

    width, height = LABEL_W + PLOT_W + VALUE_W, TOP + ROW_H * len(rows) + BOTTOM
    bottom = TOP + ROW_H * len(rows)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        '<text x="10" y="22" font-size="16" font-weight="bold">hook-inspector benchmarks: '
        "measured / baseline, both in the same run</text>",
        f'<text x="10" y="42" fill="#555">{escape(subtitle)}</text>',
        f'<text x="10" y="60" fill="#555">bar: ratio from 1x (log scale); tick: the target; '
        f'<tspan fill="{COLOURS[True]}">met</tspan>, <tspan fill="{COLOURS[False]}">missed</tspan>'
        f', <tspan fill="{COLOURS[None]}">no target in the table</tspan></text>',
    ]
    for value in GRID:
        if low <= value <= high:
            colour = "#444" if value == 1 else "#ddd"
            out.append(_line(x(value), TOP - 4, x(value), bottom + 4, colour))
            out.append(
                f'<text x="{x(value):.1f}" y="{bottom + 18}" text-anchor="middle" '
                f'fill="#555">{value:g}x</text>'
            )
    for index, (row, target) in enumerate(zip(rows, targets, strict=True)):
        out += _bar(row, target, TOP + ROW_H * index, x)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _bar(row: Row, target: float | None, top: int, x: Callable[[float], float]) -> list[str]:
    middle = top + ROW_H / 2
    left, right = sorted((x(1.0), x(row.ratio)))
    name = row.name if len(row.name) <= LABEL_CHARS else row.name[: LABEL_CHARS - 1] + "…"
    value = f"{row.ratio:.2f}x" + (f" (target ≤ {target:.3g}x)" if target is not None else "")
    parts = [
        f'<text x="{LABEL_W - 8}" y="{middle + 4:.1f}" text-anchor="end">{escape(name)}</text>',
        f'<rect x="{left:.1f}" y="{top + 4}" width="{max(right - left, 1):.1f}" '
        f'height="{ROW_H - 8}" fill="{COLOURS[row.met]}"/>',
        f'<text x="{LABEL_W + PLOT_W + 8}" y="{middle + 4:.1f}">{escape(value)}</text>',
    ]
    if target is not None:
        parts.append(_line(x(target), top + 1, x(target), top + ROW_H - 1, "#000", 2))
    return parts


def _line(x1: float, y1: float, x2: float, y2: float, colour: str, width: int = 1) -> str:
    return (
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
        f'stroke="{colour}" stroke-width="{width}"/>'
    )


def write(rows: Sequence[Row], path: Path, subtitle: str) -> list[Path]:
    """Write the SVG to `path`, and a PNG next to it when cairosvg is there; the files written."""
    text = svg(rows, subtitle)
    path.write_text(text, encoding="utf-8")
    try:
        import cairosvg  # type: ignore[import-untyped]
    except (ImportError, OSError):  # optional (OSError: no libcairo): the SVG is the picture
        return [path]
    png = path.with_suffix(".png")
    cairosvg.svg2png(bytestring=text.encode(), write_to=str(png))
    return [path, png]
