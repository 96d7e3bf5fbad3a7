"""SVG pictures as RGB arrays: the frames of the adapters' ``render_mode="rgb_array"``.

The rasterizer is resvg (the ``resvg-py`` wheel: a compiled Rust library, no system library to
install), behind the ``render`` extra: ``pip install "dimsum-games[render]"``. Chosen over
skia-python (a 15 MB wheel, about 10x faster per frame, but its SVG binding takes no font manager,
so every label of the picture is dropped) and cairosvg (needs the system's libcairo, so not
wheel-only, and no faster); docs/TRAINING.md has the timings.

A frame has a fixed shape whatever the picture's size (the pictures grow with the seats and with
what is on the table): the picture is scaled to fit ``FRAME_SHAPE`` and the rest is the paper's
colour. A video (Gymnasium's RecordVideo) needs every frame of an episode the same size, and its
codec even sides.
"""

from __future__ import annotations

import io
import re
from typing import Any, Optional, Tuple

import numpy as np

from .svg import PAPER

FRAME_SHAPE: Tuple[int, int] = (720, 960)  # (height, width): even sides, 4:3

_SIZE = re.compile(r'<svg[^>]*?\bwidth="([\d.]+)"[^>]*?\bheight="([\d.]+)"')


def _libraries() -> Tuple[Any, Any]:
    """resvg_py and PIL.Image, or a MissingExtraError (an ImportError) naming the extra."""
    from .._extras import needs_extra

    with needs_extra("render", "rgb_array frames (dimsum.render.raster)"):
        import resvg_py
        from PIL import Image
    return resvg_py, Image


def svg_size(svg: str) -> Tuple[float, float]:
    """(width, height) of an SVG picture as dimsum.render writes it; ValueError otherwise."""
    match = _SIZE.search(svg)
    if match is None:
        raise ValueError("not an SVG picture with width and height attributes")
    return float(match[1]), float(match[2])


def _paper_rgb() -> np.ndarray:
    text = PAPER.lstrip("#")
    return np.array([int(text[i:i + 2], 16) for i in (0, 2, 4)], np.uint8)


def svg_to_rgb(svg: str, shape: Optional[Tuple[int, int]] = FRAME_SHAPE) -> np.ndarray:
    """The picture as an ``(H, W, 3) uint8`` array. ``shape=(H, W)``: scaled to fit, centred
    horizontally, at the top, on the paper's colour; ``shape=None``: the picture's own size."""
    resvg_py, Image = _libraries()
    width, height = svg_size(svg)
    zoom = 1.0 if shape is None else min(shape[0] / height, shape[1] / width)
    png = resvg_py.svg_to_bytes(svg_string=svg, zoom=zoom)
    picture = np.asarray(Image.open(io.BytesIO(bytes(png))).convert("RGB"))
    if shape is None:
        return picture
    frame = np.empty((shape[0], shape[1], 3), np.uint8)
    frame[...] = _paper_rgb()
    h, w = min(picture.shape[0], shape[0]), min(picture.shape[1], shape[1])  # resvg rounds sizes
    left = (shape[1] - w) // 2
    frame[:h, left:left + w] = picture[:h, :w]
    return frame


def state_to_rgb(state: Any, player: Optional[int] = None,
                 shape: Optional[Tuple[int, int]] = FRAME_SHAPE) -> np.ndarray:
    """``state.to_svg(player)`` as an RGB array (see ``svg_to_rgb``): seat ``player``'s view, or
    the whole table for None."""
    return svg_to_rgb(state.to_svg(player), shape)
