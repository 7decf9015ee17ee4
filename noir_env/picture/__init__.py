"""The board as a picture: any NOIR or District Noir game drawn from one viewpoint, as SVG
or as an RGB array.

    from noir_env import core
    from noir_env.picture import board

    state = core.init(1, num_players=4, seeds=0)
    pic = board(state, viewpoint=2)  # seat 2's view: its hand, the others' as card backs
    pic.svg                          # SVG text; in a notebook the object shows as the image
    pic.rgb()                        # uint8 [720, 1280, 3] (needs Pillow: the render extra)

A viewpoint is a seat or None, the spectator, who sees every hand. A seat's picture is
drawn from that seat's observation (`core.observe`), so it shows exactly what the seat may
know (docs/viewer.md).
"""

from __future__ import annotations

import numpy as np

from ..core.state import GAME_DTYPE as NOIR_DTYPE
from ..district.state import GAME_DTYPE as DISTRICT_DTYPE
from .district_board import district_scene
from .district_view import view as district_view
from .noir_board import noir_scene
from .noir_view import SPECTATOR
from .noir_view import view as noir_view
from .raster import to_rgb
from .scene import Scene, svg_parts, to_svg

__all__ = ["SPECTATOR", "Board", "board", "scene"]


class Board:
    """One picture of a board: `svg` (text), `rgb()` (an array), `_repr_svg_` (Jupyter
    shows the picture)."""

    def __init__(self, picture: Scene):
        self.scene = picture

    @property
    def svg(self) -> str:
        """The picture as an SVG document."""
        return to_svg(self.scene)

    def parts(self) -> dict[str, str]:
        """The picture's parts as SVG fragments (`scene.svg_parts`)."""
        return svg_parts(self.scene)

    def rgb(self) -> np.ndarray:
        """uint8 [height, width, 3]; ImportError naming the `render` extra without Pillow."""
        return to_rgb(self.scene)

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str) -> None:
        """Write the SVG (a path ending in .svg) or a PNG (.png, needs Pillow)."""
        if str(path).endswith(".png"):
            pixels = self.rgb()  # first: without Pillow, the error that names the extra
            from PIL import Image

            Image.fromarray(pixels).save(path)
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(self.svg)


def scene(state, i: int = 0, viewpoint: int | None = SPECTATOR,
          names: list[str] | None = None, rules_name: str = "") -> Scene:  # fmt: skip
    """The `Scene` of game i of a NOIR or District Noir state from `viewpoint` (a seat, or
    None: the spectator). Raises ValueError for another kind of state or a bad seat."""
    dtype = getattr(state, "dtype", None)
    if dtype == NOIR_DTYPE:
        table, hands = noir_view(state, i, viewpoint)
        return noir_scene(table, hands, viewpoint, names, rules_name)
    if dtype == DISTRICT_DTYPE:
        line, district_hands = district_view(state, i, viewpoint)
        return district_scene(line, district_hands, viewpoint, names)
    raise ValueError(f"board pictures are drawn of NOIR and District Noir states, got {dtype}")


def board(state, i: int = 0, viewpoint: int | None = SPECTATOR,
          names: list[str] | None = None, rules_name: str = "") -> Board:  # fmt: skip
    """The picture of game i of a NOIR or District Noir state (module docstring)."""
    return Board(scene(state, i, viewpoint, names, rules_name))
