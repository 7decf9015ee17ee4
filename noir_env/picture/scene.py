"""A picture as a tree of plain shapes, written as SVG text (`to_svg`); `raster.to_rgb`
draws the same tree into an RGB array. The board layouts build a `Scene` once, so the SVG
and the array always show the same thing.

Coordinates are integers in pixels, y downwards; a text's y is its baseline. Top-level
groups are the picture's *parts* (`svg_parts`): the replay viewer stores each distinct part
once and assembles a board from them (train/replay_html.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


@dataclass(frozen=True)
class Rect:
    """A rectangle; rx rounds its corners, dash draws its outline dashed (SVG only)."""

    x: int
    y: int
    w: int
    h: int
    fill: str = "none"
    stroke: str | None = None
    width: int = 1
    rx: int = 0
    dash: bool = False


@dataclass(frozen=True)
class Circle:
    """A disc of radius r centred on (x, y)."""

    x: int
    y: int
    r: int
    fill: str
    stroke: str | None = None


@dataclass(frozen=True)
class Text:
    """One line of text; anchor "start", "middle" or "end" aligns it on x."""

    x: int
    y: int
    text: str
    size: int = 12
    fill: str = "#222"
    anchor: str = "start"
    bold: bool = False


@dataclass
class Group:
    """Shapes drawn in order; `attrs` become SVG attributes (class, data-*), which tests
    and the replay viewer read in the page's DOM."""

    attrs: dict[str, str] = field(default_factory=dict)
    items: list[Rect | Circle | Text | Group] = field(default_factory=list)

    def add(self, *shapes: Rect | Circle | Text | Group) -> Group:
        self.items.extend(shapes)
        return self


@dataclass
class Scene:
    """A picture: its size, background and parts (top-level groups, keyed by name)."""

    width: int
    height: int
    background: str = "#f4efe6"
    parts: dict[str, Group] = field(default_factory=dict)

    def part(self, name: str, **attrs: str) -> Group:
        """A new top-level group called `name` (its SVG id is not set: one page may show
        several boards)."""
        g = Group({"data-part": name, **attrs})
        self.parts[name] = g
        return g


def _attrs(d: Mapping[str, object]) -> str:
    return "".join(f' {k}="{escape(str(v))}"' for k, v in d.items() if v is not None)


def _shape_svg(s: Rect | Circle | Text | Group) -> str:
    if isinstance(s, Group):
        return f"<g{_attrs(s.attrs)}>{''.join(_shape_svg(c) for c in s.items)}</g>"
    if isinstance(s, Rect):
        extra = {"stroke": s.stroke, "stroke-width": s.width if s.stroke else None,
                 "rx": s.rx or None, "stroke-dasharray": "4 3" if s.dash else None}  # fmt: skip
        return f'<rect x="{s.x}" y="{s.y}" width="{s.w}" height="{s.h}" fill="{s.fill}"' + (
            _attrs(extra) + "/>"
        )
    if isinstance(s, Circle):
        stroke = _attrs({"stroke": s.stroke})
        return f'<circle cx="{s.x}" cy="{s.y}" r="{s.r}" fill="{s.fill}"{stroke}/>'
    weight = ' font-weight="bold"' if s.bold else ""
    return (
        f'<text x="{s.x}" y="{s.y}" font-size="{s.size}" fill="{s.fill}" '
        f'text-anchor="{s.anchor}"{weight}>{escape(s.text)}</text>'
    )


def svg_parts(scene: Scene) -> dict[str, str]:
    """Each part of the scene as an SVG fragment (a `<g>` element)."""
    return {name: _shape_svg(g) for name, g in scene.parts.items()}


def svg_open(scene: Scene) -> str:
    """The `<svg>` element's opening and background: what precedes the parts."""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{scene.width}" '
        f'height="{scene.height}" viewBox="0 0 {scene.width} {scene.height}" '
        f'font-family="{FONT}"><rect width="100%" height="100%" fill="{scene.background}"/>'
    )


def to_svg(scene: Scene) -> str:
    """The whole scene as one SVG document."""
    return svg_open(scene) + "".join(svg_parts(scene).values()) + "</svg>"


def clip(text: str, width: int, size: int) -> str:
    """`text` cut to about `width` pixels at font size `size` (an average glyph is ~0.6
    of the size wide in the fonts used), with an ellipsis when cut."""
    room = max(1, int(width / (0.6 * size)))
    return text if len(text) <= room else text[: max(0, room - 1)] + "…"
