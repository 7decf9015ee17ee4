"""A `Scene` drawn into an RGB array with Pillow (the `render` extra): the rasterizer of
`render_mode="rgb_array"`. Pillow draws the scene's shapes itself, so no SVG library or
system library (cairo) is needed; text uses DejaVu Sans where the system has it, else
Pillow's own scalable font."""

from __future__ import annotations

import functools

import numpy as np

from .scene import Circle, Group, Rect, Scene, Text

_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}  # Pillow's: left/middle/right, baseline


def _pil():
    try:
        from PIL import Image, ImageDraw
    except ImportError:
        raise ImportError(
            "render_mode='rgb_array' and board pictures as arrays need Pillow: "
            "pip install 'noir_env[render]'"
        ) from None
    return Image, ImageDraw


@functools.cache
def _font(size: int, bold: bool):
    from PIL import ImageFont

    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:  # Pillow finds a bare file name in the system's font folders
        return ImageFont.truetype(name, size)
    except OSError:
        return ImageFont.load_default(size)


def _draw(d, s: Rect | Circle | Text | Group) -> None:
    if isinstance(s, Group):
        for c in s.items:
            _draw(d, c)
    elif isinstance(s, Rect):
        fill = None if s.fill == "none" else s.fill
        box = (s.x, s.y, s.x + s.w, s.y + s.h)
        d.rounded_rectangle(box, radius=s.rx, fill=fill, outline=s.stroke,
                            width=s.width if s.stroke else 0)  # fmt: skip
    elif isinstance(s, Circle):
        box = (s.x - s.r, s.y - s.r, s.x + s.r, s.y + s.r)
        d.ellipse(box, fill=s.fill, outline=s.stroke)
    else:
        d.text((s.x, s.y), s.text, fill=s.fill, font=_font(s.size, s.bold),
               anchor=_ANCHORS[s.anchor])  # fmt: skip


def to_rgb(scene: Scene) -> np.ndarray:
    """uint8 [height, width, 3]: the scene drawn (raises ImportError naming the extra
    without Pillow)."""
    image_mod, draw_mod = _pil()
    img = image_mod.new("RGB", (scene.width, scene.height), scene.background)
    d = draw_mod.Draw(img)
    for g in scene.parts.values():
        _draw(d, g)
    return np.asarray(img, dtype=np.uint8)
