"""Drawing helpers every board renderer shares (Pillow only; no game knowledge).

- fonts: :func:`font` (DejaVu Sans, cached per size and thread; Pillow's default font if
  DejaVu is missing; the I of the word "AI" drawn with serifs, :data:`SERIF_I_FILES`)
- text: :func:`text_width`, :func:`fit_font`, :func:`fit_lines`, :func:`ellipsize`, :func:`wrap`,
  :func:`draw_text`, :func:`draw_text_in_box`, :func:`chip`
- truncation report: every text cut with "…" is noted (:func:`truncations`,
  :func:`reset_truncations`, :func:`note_truncation`) so tests can prove that whole games draw
  without cutting a word
- shapes: :func:`rounded_box`, :func:`hatch`, :func:`disc`, :func:`die`, :func:`progress_bar`,
  :func:`arrow`, :func:`icon` (key, sword, cross, magnifier, eye, lock, star, coin, card,
  hourglass, heart, flame, skull, snowflake, bolt, flask, moon, fist)
- colours: :data:`SEAT_COLOURS`, :func:`hex_rgb`, :func:`mix`, :func:`readable_on`
- caching: :func:`cached_layer` (static layers built once per key and size, handed out as
  copies so a render may draw on them; least recently used first out past
  :data:`LAYER_BUDGET`), :func:`memo_region` (a part of the picture drawn once and pasted
  while what it shows is unchanged: a room, a player's panel; within :data:`PART_BUDGETS`),
  :func:`clear_layer_cache`, :func:`cache_stats`, :func:`uncached`; every font is a
  :class:`GlyphRunFont`, which remembers the text runs it rendered and the widths it measured
  (per thread, bounded); :func:`try_fit_lines` remembers the fits it measured (per thread,
  :data:`FIT_BUDGET`) and :func:`rounded_box` pastes the boxes it drew before as stamps
  (:data:`BOX_BUDGET`)
- output: :func:`encode_png` (palette PNG under a byte budget; the palette is chosen from a
  sample of the picture, :func:`palette_of`; :func:`palette_png` writes it, deflated by ISA-L)

Issue #15 (CPU per board): a board costs its static layer's copy, the parts that changed since
they were last drawn, and the encoding; ``python -m bench`` measures it move by move.

All coordinates are pixels in the target image; boxes are ``(x0, y0, x1, y1)``.
Renderers run in worker threads (``asyncio.to_thread``), so the shared caches here are guarded
by locks and fonts are cached per thread.
"""

from __future__ import annotations

import importlib
import io
import math
import re
import struct
import threading
import zlib
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageDraw, ImageFont

__all__ = [
    "PNG_SIGNATURE",
    "SEAT_COLOURS",
    "Box",
    "Colour",
    "Font",
    "GlyphRunFont",
    "arrow",
    "cache_stats",
    "cached_layer",
    "cached_tall_layer",
    "chip",
    "clear_glyph_cache",
    "clear_layer_cache",
    "die",
    "disc",
    "distinct_initials",
    "draw_text",
    "draw_text_in_box",
    "ellipsize",
    "encode_png",
    "fit_font",
    "fit_lines",
    "font",
    "glyph_cache_stats",
    "hatch",
    "hex_rgb",
    "icon",
    "memo_region",
    "mix",
    "note_truncation",
    "palette_of",
    "palette_png",
    "pick_fitting",
    "progress_bar",
    "readable_on",
    "reset_truncations",
    "rounded_box",
    "text_width",
    "truncations",
    "try_fit_lines",
    "uncached",
    "wrap",
]

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

FONT_DIRS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts"),
    Path(__file__).parent / "fonts",
)
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
# The I of the word "AI" (an AI seat's name: "AI Moth") is drawn from DejaVu Sans Mono, whose I
# has serifs: DejaVu Sans's I is a bare bar, the very shape of its l, and "AI Moth" read "Al
# Moth" at 400 px (stop 66, tesseract). Every picture of every game draws names with `font`.
SERIF_I_FILES = {"DejaVuSans.ttf": "DejaVuSansMono.ttf",
                 "DejaVuSans-Bold.ttf": "DejaVuSansMono-Bold.ttf"}
AI_WORD = re.compile(r"(?<![A-Za-z])AI(?![A-Za-z])")

# Distinct, bright seat colours that read on a dark board (and black text reads on them).
SEAT_COLOURS: tuple[Colour, ...] = (
    (79, 195, 247),  # sky blue
    (255, 167, 77),  # amber
    (129, 214, 132),  # green
    (244, 110, 160),  # pink
    (255, 241, 118),  # yellow
    (77, 208, 200),  # teal
    (255, 138, 101),  # coral
    (186, 148, 255),  # lavender
)


# --------------------------------------------------------------------------- colours


def hex_rgb(value: str) -> Colour:
    """``"#aabbcc"`` -> ``(170, 187, 204)``."""
    v = value.lstrip("#")
    return (int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16))


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """Linear blend: ``t=0`` is ``a``, ``t=1`` is ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def readable_on(background: Colour) -> Colour:
    """Black or white, whichever contrasts more with ``background``."""
    r, g, b = background
    luminance = 0.299 * r + 0.587 * g + 0.114 * b
    return (15, 12, 20) if luminance > 140 else (250, 248, 240)


# --------------------------------------------------------------------------- fonts


@lru_cache(maxsize=8)
def _font_path(bold: bool) -> Path | None:
    for folder in FONT_DIRS:
        candidate = folder / FONT_FILES[bold]
        if candidate.is_file():
            return candidate
    return None


_FONTS = threading.local()


def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (Bold) at ``size`` px; Pillow's built-in font if DejaVu is not installed.

    Cached per thread: a FreeType face must not be used by two threads at once, and renders
    run in worker threads.
    """
    cache: dict[tuple[int, bool], Font] | None = getattr(_FONTS, "cache", None)
    if cache is None:
        cache = {}
        _FONTS.cache = cache
    key = (size, bold)
    fnt = cache.get(key)
    if fnt is None:
        fnt = _load_font(size, bold)
        cache[key] = fnt
    return fnt


def _load_font(size: int, bold: bool) -> Font:
    path = _font_path(bold)
    if path is not None:
        try:
            return GlyphRunFont(str(path), size)
        except OSError:
            pass
    return ImageFont.load_default(size=size)


GLYPH_RUN_BUDGET = 3 * 1024 * 1024
"""Bytes of rendered text masks a thread keeps (each render worker holds one such cache)."""
LENGTH_BUDGET = 512 * 1024
"""Bytes of measured advance widths a thread keeps, counted as `_length_bytes` estimates
each (the key tuple, its text, the float and the dictionary's entry: 200-300 bytes, so
about 2,000 widths; a board measures a few hundred, and a count of 16,384 let this grow to
~4 MiB)."""


FIT_BUDGET = 1024 * 1024
"""Bytes of remembered text fits (:func:`try_fit_lines`: the size and lines a text wraps
into) a thread keeps, counted as `_fit_bytes` estimates (~400 bytes each, so ~2,500 fits:
the event lines, prompts and labels of the cards of a few hundred games)."""


def _length_bytes(text: str | bytes) -> int:
    return 200 + len(text)


class _GlyphRuns:
    """One thread's least-recently-used caches of rendered text and measured widths, shared by
    every size of the face, bounded in bytes and in entries."""

    def __init__(self) -> None:
        self.masks: OrderedDict[Hashable, tuple[object, tuple[int, int], int]] = OrderedDict()
        self.mask_bytes = 0
        self.lengths: OrderedDict[tuple[Any, ...], float] = OrderedDict()
        self.length_bytes = 0
        self.fits: OrderedDict[tuple[Any, ...], tuple[int, tuple[str, ...]] | None] = (
            OrderedDict())
        self.fit_bytes = 0


_RUNS = threading.local()
_UNCACHED = threading.local()


def _caching() -> bool:
    return not getattr(_UNCACHED, "on", False)


@contextmanager
def uncached() -> Iterator[None]:
    """Within this block, this thread draws everything afresh: no cached static layer, text
    run or width is used or stored (the tests compare cached pictures with these)."""
    before = getattr(_UNCACHED, "on", False)
    _UNCACHED.on = True
    try:
        yield
    finally:
        _UNCACHED.on = before


def _runs() -> _GlyphRuns:
    runs: _GlyphRuns | None = getattr(_RUNS, "runs", None)
    if runs is None:
        runs = _GlyphRuns()
        _RUNS.runs = runs
    return runs


Run = tuple[str, ImageFont.FreeTypeFont]


class GlyphRunFont(ImageFont.FreeTypeFont):
    """A FreeType face that remembers the text runs it rendered and the widths it measured.

    Boards draw the same words render after render (room names, labels, counters), and
    FreeType's shaping and rasterising was a third of a board's drawing time. A run is keyed by
    everything that changes its pixels — the text, the face and size, the mask mode, the
    anchor, the stroke and the sub-pixel start — so a cached run is the very mask FreeType
    would draw (tests compare whole games pixel for pixel against uncached renders).

    The I of the word "AI" is drawn with serifs, from the matching DejaVu Sans Mono face
    (:data:`SERIF_I_FILES`), measured and drawn alike, cached or not.
    """

    _serif_i: ImageFont.FreeTypeFont | None = None
    _serif_i_tried = False

    def _serif_face(self) -> ImageFont.FreeTypeFont | None:
        if not self._serif_i_tried:
            self._serif_i_tried = True
            path = Path(str(self.path))
            other = SERIF_I_FILES.get(path.name)
            if other is not None and (path.parent / other).is_file():
                self._serif_i = ImageFont.truetype(str(path.parent / other), self.size)
        return self._serif_i

    def serif_runs(self, text: str | bytes | bytearray) -> list[Run] | None:
        """`text` as runs of this face and the serif I of each word "AI", or None when it
        has no such word (or no serif face is installed)."""
        if not isinstance(text, str) or "AI" not in text:
            return None
        cuts = [m.start() + 1 for m in AI_WORD.finditer(text)]
        serif = self._serif_face() if cuts else None
        if serif is None:
            return None
        runs: list[Run] = []
        last = 0
        for i in cuts:
            if i > last:
                runs.append((text[last:i], self))
            runs.append(("I", serif))
            last = i + 1
        if last < len(text):
            runs.append((text[last:], self))
        return runs

    def _serif_layout(self, runs: list[Run], text: str, mode: str, stroke_width: float,
                      anchor: str | None, start: tuple[float, float]
                      ) -> tuple[list[tuple[str, ImageFont.FreeTypeFont, float, float]],
                                 tuple[int, int, int, int]]:
        """Where each run's pen starts (x, baseline y, from the integer anchor point) and the
        box of them all, for `anchor` as this face would place `text` whole."""
        anchor = anchor or "la"
        lengths = [f.getlength(seg, mode) for seg, f in runs]
        total = sum(lengths)
        x = start[0] - {"l": 0.0, "m": total / 2, "r": total}.get(anchor[0], 0.0)
        # The baseline where this face's own layout of `text` puts it for this anchor.
        plain = ImageFont.FreeTypeFont.getbbox
        base = (start[1]
                + plain(self, text, mode, None, None, None, stroke_width, "l" + anchor[1])[1]
                - plain(self, text, mode, None, None, None, stroke_width, "ls")[1])
        placed = []
        x0 = y0 = math.inf
        x1 = y1 = -math.inf
        for (seg, f), length in zip(runs, lengths, strict=True):
            b = plain(f, seg, mode, None, None, None, stroke_width, "ls")
            x0, y0 = min(x0, x + b[0]), min(y0, base + b[1])
            x1, y1 = max(x1, x + b[2]), max(y1, base + b[3])
            placed.append((seg, f, x, base))
            x += length
        return placed, (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))

    def _serif_bbox(self, runs: list[Run], text: str, mode: str, stroke_width: float,
                    anchor: str | None) -> tuple[int, int, int, int]:
        return self._serif_layout(runs, text, mode, stroke_width, anchor, (0.0, 0.0))[1]

    def _serif_mask(self, runs: list[Run], text: str, stroke_width: float, anchor: str | None,
                    start: tuple[float, float] | None
                    ) -> tuple[Image.core.ImagingCore, tuple[int, int]]:
        placed, (x0, y0, x1, y1) = self._serif_layout(runs, text, "L", stroke_width, anchor,
                                                      start or (0.0, 0.0))
        canvas = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
        d = ImageDraw.Draw(canvas)
        for seg, f, x, base in placed:
            d.text((x - x0, base - y0), seg, font=f, fill=255, anchor="ls",
                   stroke_width=stroke_width, stroke_fill=255)
        return canvas.im, (x0, y0)

    def getbbox(self, text: str | bytes | bytearray, mode: str = "",
                direction: str | None = None,
                features: list[str] | None = None, language: str | None = None,
                stroke_width: float = 0, anchor: str | None = None
                ) -> tuple[float, float, float, float]:
        serif = (self.serif_runs(text) if direction is None and features is None
                 and language is None else None)
        if serif is None:
            return super().getbbox(text, mode, direction, features, language, stroke_width,
                                   anchor)
        return self._serif_bbox(serif, str(text), mode, stroke_width, anchor)

    def getlength(self, text: str | bytes, mode: str = "", direction: str | None = None,
                  features: list[str] | None = None, language: str | None = None) -> float:
        if direction is None and features is None and language is None:
            serif = self.serif_runs(text)
            if serif is not None:
                return sum(f.getlength(seg, mode) for seg, f in serif)
        if (direction is not None or features is not None or language is not None
                or not _caching()):
            return super().getlength(text, mode, direction, features, language)
        runs = _runs()
        key = (self.path, self.size, text, mode)
        found = runs.lengths.get(key)
        if found is not None:
            runs.lengths.move_to_end(key)
            return found
        length = super().getlength(text, mode)
        runs.lengths[key] = length
        runs.length_bytes += _length_bytes(text)
        while runs.length_bytes > LENGTH_BUDGET and len(runs.lengths) > 1:
            dropped, _ = runs.lengths.popitem(last=False)
            runs.length_bytes -= _length_bytes(dropped[2])
        return length

    def getmask2(self, text: str | bytes, mode: str = "", direction: str | None = None,
                 features: list[str] | None = None, language: str | None = None,
                 stroke_width: float = 0, anchor: str | None = None, ink: int = 0,
                 start: tuple[float, float] | None = None, *args: object,
                 **kwargs: object) -> tuple[Image.core.ImagingCore, tuple[int, int]]:
        simple = (mode in ("L", "1") and direction is None and features is None
                  and language is None and not args and set(kwargs) <= {"stroke_filled"})
        serif = self.serif_runs(text) if simple and mode == "L" else None
        if not (simple and _caching()):  # colour glyphs, layout options: drawn as Pillow would
            if serif is not None:
                return self._serif_mask(serif, str(text), stroke_width, anchor, start)
            return super().getmask2(text, mode, direction, features, language, stroke_width,
                                    anchor, ink, start, *args, **kwargs)
        runs = _runs()
        key = (self.path, self.size, text, mode, stroke_width, anchor, start,
               bool(kwargs.get("stroke_filled", False)))
        found = runs.masks.get(key)
        if found is not None:
            runs.masks.move_to_end(key)
            return found[0], found[1]  # type: ignore[return-value]
        if serif is not None:
            mask, offset = self._serif_mask(serif, str(text), stroke_width, anchor, start)
        else:
            mask, offset = super().getmask2(text, mode, None, None, None, stroke_width, anchor,
                                            ink, start, **kwargs)
        size = mask.size[0] * mask.size[1] + 200
        if size <= GLYPH_RUN_BUDGET // 16:
            runs.masks[key] = (mask, offset, size)
            runs.mask_bytes += size
            while runs.mask_bytes > GLYPH_RUN_BUDGET:
                _, (_, _, dropped) = runs.masks.popitem(last=False)
                runs.mask_bytes -= dropped
        return mask, offset


def glyph_cache_stats() -> dict[str, int]:
    """This thread's text caches: runs kept, their bytes, widths kept, fits kept."""
    runs = _runs()
    return {"runs": len(runs.masks), "run_bytes": runs.mask_bytes,
            "widths": len(runs.lengths), "width_bytes": runs.length_bytes,
            "fits": len(runs.fits), "fit_bytes": runs.fit_bytes}


def clear_glyph_cache() -> None:
    """Forget this thread's rendered text runs and measured widths (tests)."""
    _RUNS.runs = _GlyphRuns()


def text_width(text: str, fnt: Font) -> float:
    """Advance width of ``text`` in ``fnt`` (of its widest line: Pillow refuses to measure a
    multi-line string, and a prompt text may carry a line break)."""
    if "\n" in text:
        return max(fnt.getlength(line) for line in text.split("\n"))
    return fnt.getlength(text)


def fit_font(
    text: str, max_width: float, size: int, min_size: int = 12, bold: bool = False
) -> Font:
    """The largest font from ``size`` down to ``min_size`` in which ``text`` fits the width."""
    for s in range(size, min_size - 1, -1):
        fnt = font(s, bold)
        if text_width(text, fnt) <= max_width:
            return fnt
    return font(min_size, bold)


# --------------------------------------------------------------------------- truncation report

# Texts cut with "…" since the last reset (the newest few; a worker renders for days, so the
# record is bounded) and how many there were. A cut word is a defect (issue #13): the test
# that plays whole games reads this after every picture.
_TRUNCATED: deque[str] = deque(maxlen=64)
_TRUNCATED_COUNT = [0]


def note_truncation(text: str) -> None:
    """Record that ``text`` was drawn cut (renderers that cut text themselves call this)."""
    _TRUNCATED.append(text)
    _TRUNCATED_COUNT[0] += 1


def truncations() -> list[str]:
    """The texts cut with "…" since :func:`reset_truncations` (the newest 64)."""
    return list(_TRUNCATED)


def reset_truncations() -> int:
    """Forget the recorded cuts; returns how many there were."""
    n = _TRUNCATED_COUNT[0]
    _TRUNCATED.clear()
    _TRUNCATED_COUNT[0] = 0
    return n


def _cut(text: str, fnt: Font, max_width: float) -> str:
    if text_width(text, fnt) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", fnt) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…" if lo else "…"


def ellipsize(text: str, fnt: Font, max_width: float) -> str:
    """``text``, cut with an ellipsis so it fits ``max_width`` (the cut is noted)."""
    out = _cut(text, fnt, max_width)
    if out != text:
        note_truncation(text)
    return out


def wrap(text: str, fnt: Font, max_width: float, max_lines: int | None = None) -> list[str]:
    """Greedy word wrap; over-long words are split; the last kept line gets an ellipsis
    (noted as a cut)."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            candidate = f"{current} {word}" if current else word
            if text_width(candidate, fnt) <= max_width:
                current = candidate
                continue
            if current:
                lines.append(current)
            current = word
            while text_width(current, fnt) > max_width and len(current) > 1:
                cut = len(current)
                while cut > 1 and text_width(current[:cut], fnt) > max_width:
                    cut -= 1
                lines.append(current[:cut])
                current = current[cut:]
        lines.append(current)
    if max_lines is not None and len(lines) > max_lines:
        note_truncation(text)
        kept = lines[:max_lines]
        kept[-1] = _cut(kept[-1] + " …", fnt, max_width)
        if not kept[-1].endswith("…"):
            kept[-1] = _cut(kept[-1] + "…", fnt, max_width)
        return kept
    return lines


def fit_lines(
    text: str,
    max_width: float,
    size: int,
    min_size: int = 12,
    bold: bool = False,
    max_lines: int | None = None,
) -> tuple[Font, list[str]]:
    """The largest font from ``size`` down to ``min_size`` in which ``text`` wraps into
    ``max_lines`` lines without splitting a word, and those lines. At ``min_size`` the words
    may split (and, past ``max_lines``, the text is cut and noted)."""
    fitted = try_fit_lines(text, max_width, size, min_size, bold, max_lines)
    if fitted is not None:
        return fitted
    fnt = font(min_size, bold)
    return fnt, wrap(text, fnt, max_width, max_lines=max_lines)


def try_fit_lines(
    text: str,
    max_width: float,
    size: int,
    min_size: int = 12,
    bold: bool = False,
    max_lines: int | None = None,
) -> tuple[Font, list[str]] | None:
    """As :func:`fit_lines`, but None when the text does not fit whole (nothing is cut)."""
    if not _caching():
        fresh = _try_fit_lines(text, max_width, size, min_size, bold, max_lines)
        return None if fresh is None else (fresh[1], fresh[2])
    # Remembered per thread (fonts are): a turn card wraps the same event lines, prompt and
    # names move after move, and measuring every word prefix at every size again was a
    # tenth of a card's CPU when many games' cards are drawn interleaved (issue #25). The
    # answer is a pure function of the key, and nothing here notes a cut.
    runs = _runs()
    key = (text, max_width, size, min_size, bold, max_lines)
    if key in runs.fits:
        runs.fits.move_to_end(key)
        found = runs.fits[key]
        if found is None:
            return None
        return font(found[0], bold), list(found[1])
    fitted = _try_fit_lines(text, max_width, size, min_size, bold, max_lines)
    runs.fits[key] = None if fitted is None else (fitted[0], tuple(fitted[2]))
    runs.fit_bytes += _fit_bytes(text)
    while runs.fit_bytes > FIT_BUDGET and len(runs.fits) > 1:
        dropped, _ = runs.fits.popitem(last=False)
        runs.fit_bytes -= _fit_bytes(dropped[0])
    return None if fitted is None else (fitted[1], fitted[2])


def _fit_bytes(text: str) -> int:
    """A remembered fit's rough size: the key, the text twice (it and its lines), the entry."""
    return 300 + 2 * len(text)


def _try_fit_lines(
    text: str,
    max_width: float,
    size: int,
    min_size: int,
    bold: bool,
    max_lines: int | None,
) -> tuple[int, Font, list[str]] | None:
    """The size, font and lines :func:`try_fit_lines` answers, measured afresh."""
    for s in range(size, min_size - 1, -1):
        fnt = font(s, bold)
        words_fit = all(text_width(w, fnt) <= max_width for w in text.split())
        lines = wrap(text, fnt, max_width) if words_fit else []
        if words_fit and (max_lines is None or len(lines) <= max_lines):
            return s, fnt, lines
    return None


def pick_fitting(candidates: Sequence[str], fnt: Font, max_width: float) -> str:
    """The first non-empty candidate that fits ``max_width`` in ``fnt`` shrunk as
    :func:`draw_text` would (to 70 %); the last one if none does. For a long text with
    shorter stand-ins (a name for a sentence, a count for a list)."""
    options = [c for c in candidates if c]
    for text in options:
        if text_width(text, _shrunk(text, fnt, max_width)) <= max_width:
            return text
    return options[-1] if options else ""


def _shrunk(text: str, fnt: Font, max_width: float) -> Font:
    """``fnt`` or a smaller size of the same face (not below 70 %, nor 11 px) in which
    ``text`` fits ``max_width``; the smallest tried if none does."""
    if not isinstance(fnt, ImageFont.FreeTypeFont) or text_width(text, fnt) <= max_width:
        return fnt
    size = int(fnt.size)
    bold = "Bold" in str(getattr(fnt, "path", ""))
    floor = max(11, int(size * 0.7))
    out: Font = fnt
    for s in range(size - 1, floor - 1, -1):
        out = font(s, bold)
        if text_width(text, out) <= max_width:
            return out
    return out


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: Font,
    fill: Colour,
    anchor: str = "la",
    max_width: float | None = None,
    stroke: Colour | None = None,
    stroke_width: int = 0,
) -> float:
    """Draw one line; returns its width. Given ``max_width``, a line too wide is drawn in a
    smaller size of its font (down to 70 %), and only then cut with an ellipsis (noted)."""
    if max_width is not None:
        fnt = _shrunk(text, fnt, max_width)
        text = ellipsize(text, fnt, max_width)
    draw.text(
        xy,
        text,
        font=fnt,
        fill=fill,
        anchor=anchor,
        stroke_width=stroke_width if stroke else 0,
        stroke_fill=stroke,
    )
    return text_width(text, fnt)


def draw_text_in_box(
    draw: ImageDraw.ImageDraw,
    box: Box,
    text: str,
    size: int,
    fill: Colour,
    bold: bool = False,
    min_size: int = 14,
    align: str = "left",
    valign: str = "top",
    line_gap: int = 2,
    max_lines: int | None = None,
) -> int:
    """Wrap ``text`` into ``box``, shrinking the font (not below ``min_size``) until it fits.

    Returns the number of lines drawn.
    """
    x0, y0, x1, y1 = box
    width, height = x1 - x0, y1 - y0
    lines: list[str] = []
    fnt = font(size, bold)
    line_h = size + line_gap
    for s in range(size, min_size - 1, -1):
        fnt = font(s, bold)
        line_h = s + line_gap
        fit_lines = max(1, int((height + line_gap) // line_h))
        limit = fit_lines if max_lines is None else min(fit_lines, max_lines)
        lines = wrap(text, fnt, width)
        if len(lines) <= limit:
            break
    else:
        fit_lines = max(1, int((height + line_gap) // line_h))
        limit = fit_lines if max_lines is None else min(fit_lines, max_lines)
        lines = wrap(text, fnt, width, max_lines=limit)
    total = len(lines) * line_h - line_gap
    y = y0
    if valign == "middle":
        y = y0 + (height - total) / 2
    elif valign == "bottom":
        y = y1 - total
    for line in lines:
        if align == "center":
            draw.text(((x0 + x1) / 2, y), line, font=fnt, fill=fill, anchor="ma")
        elif align == "right":
            draw.text((x1, y), line, font=fnt, fill=fill, anchor="ra")
        else:
            draw.text((x0, y), line, font=fnt, fill=fill, anchor="la")
        y += line_h
    return len(lines)


def chip(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: Font,
    fill: Colour,
    text_fill: Colour | None = None,
    pad: int = 6,
    height: int | None = None,
    outline: Colour | None = None,
) -> float:
    """A rounded label whose top-left corner is ``xy``; returns its width."""
    x, y = xy
    w = text_width(text, fnt) + 2 * pad
    if height is None:
        top, bottom = fnt.getbbox("Hg")[1::2]
        height = int(bottom - top) + 2 * pad
    h = height
    rounded_box(draw, (x, y, x + w, y + h), h / 2, fill=fill, outline=outline)
    draw.text(
        (x + w / 2, y + h / 2),
        text,
        font=fnt,
        fill=text_fill or readable_on(fill),
        anchor="mm",
    )
    return w


# --------------------------------------------------------------------------- pawn labels


def flow_rows(widths: Sequence[float], width: float, gap: float = 24) -> list[list[int]]:
    """Indices of items `widths` wide, flowed left to right into rows of at most `width`
    (an item wider than a row gets a row of its own): a legend's key under a map."""
    rows: list[list[int]] = [[]]
    x = 0.0
    for k, w in enumerate(widths):
        if rows[-1] and x + w > width:
            rows.append([])
            x = 0.0
        rows[-1].append(k)
        x += w + gap
    return rows


def pack_rows(widths: Sequence[float], width: float, gap: float = 24) -> list[list[int]]:
    """`flow_rows`, each item in the first row with room for it: a key's short entry after a
    long one fills the row above (The Presence's one wide doors entry, a Fourth Wall Symbol
    after its change key), so the key takes fewer rows than flowing in order."""
    rows: list[list[int]] = []
    used: list[float] = []
    for k, w in enumerate(widths):
        at = next((r for r, x in enumerate(used) if x + w <= width), None)
        if at is None:
            rows.append([])
            used.append(0.0)
            at = len(rows) - 1
        rows[at].append(k)
        used[at] += w + gap
    return rows


def telling_words(names: Mapping[str, str]) -> dict[str, str]:
    """Each key's name by its first word that tells it from the others': the first word,
    unless another name begins with the same words, then the word after them. The bot's AI
    players are "AI Moth" and "AI Shade": their pawns read Moth and Shade, where both once
    read "AI" and only colour told them apart; "Ada Lovelace" beside them is still Ada. An
    AI player's "AI" is never the word, even alone at the table (stop 64: one AI seat's pawn
    read "AI" while the thread called it AI Shade)."""
    split = {k: (n.split()[1:] if n.split()[:1] == ["AI"] and len(n.split()) > 1
                 else n.split()) for k, n in names.items()}
    out: dict[str, str] = {}
    for key, words in split.items():
        k = 0
        while k < len(words) - 1 and any(
                other != key and theirs[:k + 1] == words[:k + 1]
                for other, theirs in split.items()):
            k += 1
        out[key] = words[k] if words else ""
    return out


def distinct_initials(names: Iterable[str], initials: Callable[[str], str]) -> dict[str, str]:
    """A short label per name, ``initials(name)`` unless another name shares it; then each of
    those names takes the shared first letter and its first later letter that makes a label
    nobody else has ("The Descendant" Ds, "The Detective" Dt, not both "De"), so colour is
    never the only difference between two pawns."""
    unique = list(dict.fromkeys(n for n in names if n))
    out = {n: initials(n) for n in unique}
    counts: dict[str, int] = {}
    for label in out.values():
        counts[label] = counts.get(label, 0) + 1
    taken = {label for label, k in counts.items() if k == 1}
    for name in unique:
        shared = out[name]
        if counts[shared] < 2:
            continue
        words = name.split()
        start = next((k for k, w in enumerate(words) if w[:1].upper() == shared[:1].upper()), 0)
        letters = [c for c in "".join(words[start:]) if c.isalnum()]
        for c in letters[1:]:
            label = shared[0] + c.lower()
            if label != shared and label not in taken:
                out[name] = label
                taken.add(label)
                break
    return out


# --------------------------------------------------------------------------- shapes


def rounded_box(
    draw: ImageDraw.ImageDraw,
    box: Box,
    radius: float,
    fill: Colour | None = None,
    outline: Colour | None = None,
    width: int = 1,
) -> None:
    """A rounded rectangle (radius clamped to the box)."""
    x0, y0, x1, y1 = box
    if x1 <= x0 or y1 <= y0:
        return
    r = max(0.0, min(radius, (x1 - x0) / 2, (y1 - y0) / 2))
    width = width if outline else 0
    if _stamp_box(draw, (x0, y0, x1, y1), r, fill, outline, width):
        return
    draw.rounded_rectangle((x0, y0, x1, y1), radius=r, fill=fill, outline=outline, width=width)


_BOX_LOCK = threading.Lock()
_BOXES: OrderedDict[Hashable, tuple[Image.Image, Image.Image]] = OrderedDict()
_BOX_BYTES = [0]
_BOXES_SEEN: OrderedDict[Hashable, None] = OrderedDict()
BOX_SEEN = 2048
"""Shapes remembered as drawn once (their keys only, ~100 bytes each)."""
BOX_BUDGET = 3 * 1024 * 1024
"""Bytes of drawn rounded boxes (:func:`rounded_box`) a process keeps as stamps, least
recently used first out. A card draws ~40 (stat panels, rooms, dice faces) and Pillow's
rounded rectangle spends 30-45 us on each in Python, three times what pasting the same
pixels through a mask costs; the 50 most drawn shapes of the three games are 85 % of all
(issue #25, interleaved cards)."""
_STAMP_MARGIN = 2


def _stamp_box(draw: ImageDraw.ImageDraw, box: Box, r: float, fill: Colour | None,
               outline: Colour | None, width: int) -> bool:
    """Paste the rounded box Pillow would draw at ``box`` from a stored stamp; False (nothing
    drawn) where a stamp could differ from Pillow's drawing or caching is off.

    Pillow rounds the box's corners to whole pixels and draws every part from them and from
    ``d`` (the corners' diameter, from the unrounded box), so the same (width, height, d,
    inks) draws the same pixels wherever the box lies: the stamp is those pixels and a mask
    of the ones drawn (drawn on black and on white, kept where both agree). Left to Pillow:
    other modes and blending, no fill, boxes whose corners join (drawn as an ellipse from the
    unrounded box), boxes reaching past the top or left edge and a ``d`` within rounding of a
    whole number (Pillow truncates the corners' float boxes toward zero: a negative corner, or
    a near-whole ``d`` at another position, could fall the other side).
    """
    if (draw.mode != "RGB" or draw.im.mode != "RGB" or fill is None or not _caching()
            or type(fill) is not tuple or (outline is not None and type(outline) is not tuple)):
        return False
    x0, y0, x1, y1 = box
    d = min(x1 - x0, y1 - y0, r * 2)
    ix0, iy0 = round(x0), round(y0)
    w, h = round(x1) - ix0, round(y1) - iy0
    if (ix0 < 0 or iy0 < 0 or d <= 0 or d >= w - 1 or d >= h - 1
            or (d != int(d) and abs(d - round(d)) < 1e-6)):
        return False
    if (w + 2 * _STAMP_MARGIN + 1) * (h + 2 * _STAMP_MARGIN + 1) * 4 > BOX_BUDGET // 16:
        return False  # a panel as wide as the card: kept, it would push out a dozen others
    key = (w, h, d, fill, outline, width)
    with _BOX_LOCK:
        found = _BOXES.get(key)
        if found is not None:
            _BOXES.move_to_end(key)
        elif key not in _BOXES_SEEN:
            # A stamp costs three drawings: made on a shape's second drawing, not for the
            # one-off sizes (a panel as tall as its text) that would never be pasted.
            _BOXES_SEEN[key] = None
            while len(_BOXES_SEEN) > BOX_SEEN:
                _BOXES_SEEN.popitem(last=False)
            return False
    if found is None:
        found = _box_stamp(w, h, d, fill, outline, width)
        size = _layer_bytes(found[0]) + _layer_bytes(found[1])
        with _BOX_LOCK:
            if key not in _BOXES:
                _BOXES[key] = found
                _BOX_BYTES[0] += size
            while _BOX_BYTES[0] > BOX_BUDGET and _BOXES:
                _, (tile, mask) = _BOXES.popitem(last=False)
                _BOX_BYTES[0] -= _layer_bytes(tile) + _layer_bytes(mask)
    tile, mask = found
    left, top = ix0 - _STAMP_MARGIN, iy0 - _STAMP_MARGIN
    draw.im.paste(tile.im, (left, top, left + tile.width, top + tile.height), mask.im)
    return True


def _box_stamp(w: int, h: int, d: float, fill: Colour, outline: Colour | None,
               width: int) -> tuple[Image.Image, Image.Image]:
    """The pixels Pillow draws for a rounded box ``w`` x ``h`` with corners ``d`` across, at
    (:data:`_STAMP_MARGIN`, :data:`_STAMP_MARGIN`), and the mask of those it drew."""
    m = _STAMP_MARGIN
    size = (w + 2 * m + 1, h + 2 * m + 1)
    xy = (m, m, m + w, m + h)
    on_black = Image.new("RGB", size, (0, 0, 0))
    ImageDraw.Draw(on_black).rounded_rectangle(xy, radius=d / 2, fill=fill, outline=outline,
                                               width=width)
    on_white = Image.new("RGB", size, (255, 255, 255))
    ImageDraw.Draw(on_white).rounded_rectangle(xy, radius=d / 2, fill=fill, outline=outline,
                                               width=width)
    undrawn = ImageChops.difference(on_black, on_white).convert("L")
    mask = undrawn.point(lambda v: 0 if v else 255).convert("1", dither=Image.Dither.NONE)
    return on_black, mask


def disc(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    radius: float,
    fill: Colour,
    outline: Colour | None = None,
    width: int = 2,
    label: str = "",
    label_size: int | None = None,
    label_fill: Colour | None = None,
    bold: bool = True,
) -> None:
    """A filled circle with an optional centred label (a pawn, a token)."""
    cx, cy = centre
    draw.ellipse(
        (cx - radius, cy - radius, cx + radius, cy + radius),
        fill=fill,
        outline=outline,
        width=width if outline else 0,
    )
    if label:
        size = label_size or max(10, int(radius * 0.95))
        fnt = fit_font(label, radius * 1.8, size, min_size=9, bold=bold)
        draw.text((cx, cy), label, font=fnt, fill=label_fill or readable_on(fill), anchor="mm")


_PIP_LAYOUT: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)),
}


def die(
    draw: ImageDraw.ImageDraw,
    box: Box,
    pips: int,
    face: Colour = (245, 240, 228),
    pip: Colour = (20, 16, 24),
    outline: Colour | None = (60, 50, 60),
    width: int = 2,
    numeral: bool = False,
    numeral_size: float = 0.8,
) -> None:
    """A die face showing ``pips`` (1..6); other values draw a blank face with the number.
    ``numeral``: the number, never pips — for a die drawn small (a phone's column), where
    pips shrink to dots no one can count; ``numeral_size``: its type, a share of the face."""
    x0, y0, x1, y1 = box
    size = min(x1 - x0, y1 - y0)
    rounded_box(draw, box, size * 0.18, fill=face, outline=outline, width=width)
    layout = None if numeral else _PIP_LAYOUT.get(pips)
    if layout is None:
        if pips:
            fnt = font(max(10, int(size * (numeral_size if numeral else 0.6))), True)
            draw.text(((x0 + x1) / 2, (y0 + y1) / 2), str(pips), font=fnt, fill=pip, anchor="mm")
        return
    r = max(1.5, size * 0.09)
    for fx, fy in layout:
        cx, cy = x0 + fx * (x1 - x0), y0 + fy * (y1 - y0)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pip)


def progress_bar(
    draw: ImageDraw.ImageDraw,
    box: Box,
    value: float,
    maximum: float,
    fill: Colour,
    back: Colour = (40, 34, 48),
    outline: Colour | None = (120, 110, 130),
    ticks: Iterable[float] = (),
    tick_colour: Colour = (200, 190, 210),
) -> None:
    """A horizontal bar filled to ``value / maximum``; ``ticks`` are marks at given values."""
    x0, y0, x1, y1 = box
    h = y1 - y0
    rounded_box(draw, box, h / 2, fill=back)
    frac = 0.0 if maximum <= 0 else max(0.0, min(1.0, value / maximum))
    if frac > 0:
        rounded_box(draw, (x0, y0, x0 + max(h, (x1 - x0) * frac), y1), h / 2, fill=fill)
    for t in ticks:
        if maximum > 0 and 0 < t < maximum:
            tx = x0 + (x1 - x0) * t / maximum
            draw.line((tx, y0 + 2, tx, y1 - 2), fill=tick_colour, width=2)
    if outline:
        rounded_box(draw, box, h / 2, outline=outline, width=2)


_DIR_ANGLE = {"N": -90.0, "E": 0.0, "S": 90.0, "W": 180.0}


def arrow(
    draw: ImageDraw.ImageDraw,
    box: Box,
    direction: str,
    fill: Colour,
    outline: Colour | None = None,
    width: int = 2,
) -> None:
    """A block arrow pointing N, E, S or W (or NE/SE/... at 45°) filling ``box``."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    r = min(x1 - x0, y1 - y0) / 2
    if direction in _DIR_ANGLE:
        angle = _DIR_ANGLE[direction]
    else:
        angle = math.degrees(
            math.atan2(
                sum(_unit(d)[1] for d in direction),
                sum(_unit(d)[0] for d in direction),
            )
        )
    # An arrow pointing east, in units of r, then rotated.
    shape = (
        (1.0, 0.0),
        (0.05, -0.85),
        (0.05, -0.35),
        (-0.95, -0.35),
        (-0.95, 0.35),
        (0.05, 0.35),
        (0.05, 0.85),
    )
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    pts = [(cx + r * (px * ca - py * sa), cy + r * (px * sa + py * ca)) for px, py in shape]
    draw.polygon(pts, fill=fill, outline=outline, width=width if outline else 0)


def _unit(d: str) -> tuple[float, float]:
    return {"N": (0.0, -1.0), "E": (1.0, 0.0), "S": (0.0, 1.0), "W": (-1.0, 0.0)}.get(d, (0.0, 0.0))


def _star_points(
    cx: float, cy: float, r_out: float, r_in: float, n: int = 5
) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = -math.pi / 2 + i * math.pi / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def icon(
    draw: ImageDraw.ImageDraw,
    name: str,
    box: Box,
    colour: Colour,
    back: Colour | None = None,
) -> None:
    """A small pictogram drawn with primitives. Unknown names draw a filled circle.

    Names: key, sword, cross, magnifier, eye, lock, star, coin, card, hourglass, heart,
    flame, skull, snowflake, bolt, flask, moon, fist. ``back`` is the colour behind the icon
    (for cut-outs).
    """
    bx0, by0, bx1, by1 = box
    s = min(bx1 - bx0, by1 - by0)
    ox, oy = (bx0 + bx1 - s) / 2, (by0 + by1 - s) / 2
    bg = back or (0, 0, 0)
    lw = max(2, round(s / 9))

    def p(fx: float, fy: float) -> tuple[float, float]:
        return (ox + s * fx, oy + s * fy)

    def rect(fx0: float, fy0: float, fx1: float, fy1: float) -> tuple[float, float, float, float]:
        return (ox + s * fx0, oy + s * fy0, ox + s * fx1, oy + s * fy1)

    if name == "key":
        draw.ellipse(rect(0.06, 0.28, 0.5, 0.72), outline=colour, width=lw)
        draw.line((*p(0.5, 0.5), *p(0.95, 0.5)), fill=colour, width=lw)
        draw.line((*p(0.88, 0.5), *p(0.88, 0.72)), fill=colour, width=lw)
        draw.line((*p(0.7, 0.5), *p(0.7, 0.68)), fill=colour, width=lw)
    elif name == "sword":
        draw.line((*p(0.2, 0.8), *p(0.92, 0.08)), fill=colour, width=lw + 1)
        draw.line((*p(0.12, 0.58), *p(0.42, 0.88)), fill=colour, width=lw)
        draw.line((*p(0.06, 0.94), *p(0.24, 0.76)), fill=colour, width=lw + 1)
    elif name == "cross":
        draw.rectangle(rect(0.4, 0.04, 0.6, 0.96), fill=colour)
        draw.rectangle(rect(0.16, 0.26, 0.84, 0.46), fill=colour)
    elif name == "magnifier":
        draw.ellipse(rect(0.1, 0.1, 0.68, 0.68), outline=colour, width=lw)
        draw.line((*p(0.6, 0.6), *p(0.93, 0.93)), fill=colour, width=lw + 1)
    elif name == "eye":
        draw.ellipse(rect(0.02, 0.24, 0.98, 0.76), fill=colour)
        draw.ellipse(rect(0.32, 0.32, 0.68, 0.68), fill=bg)
        draw.ellipse(rect(0.43, 0.43, 0.57, 0.57), fill=colour)
    elif name == "lock":
        draw.arc(rect(0.26, 0.06, 0.74, 0.62), 180, 360, fill=colour, width=lw)
        draw.line((*p(0.26, 0.33), *p(0.26, 0.46)), fill=colour, width=lw)
        draw.line((*p(0.74, 0.33), *p(0.74, 0.46)), fill=colour, width=lw)
        rounded_box(draw, rect(0.14, 0.42, 0.86, 0.96), s * 0.08, fill=colour)
        draw.ellipse(rect(0.43, 0.56, 0.57, 0.7), fill=bg)
    elif name == "star":
        draw.polygon(_star_points(*p(0.5, 0.5), s * 0.5, s * 0.21), fill=colour)
    elif name == "coin":
        dark = mix(colour, (0, 0, 0), 0.45)
        draw.ellipse(rect(0, 0, 1, 1), fill=colour, outline=dark, width=lw)
        draw.polygon(_star_points(*p(0.5, 0.5), s * 0.3, s * 0.13), fill=dark)
    elif name == "card":
        rounded_box(draw, rect(0.18, 0.04, 0.82, 0.96), s * 0.08, fill=colour)
        for k in range(3):
            draw.line((*p(0.3, 0.3 + 0.17 * k), *p(0.7, 0.3 + 0.17 * k)), fill=bg, width=lw - 1)
    elif name == "hourglass":
        pts = [p(0.18, 0.06), p(0.82, 0.06), p(0.5, 0.5), p(0.82, 0.94), p(0.18, 0.94), p(0.5, 0.5)]
        draw.polygon(pts, fill=colour)
    elif name == "heart":
        draw.ellipse(rect(0.02, 0.1, 0.52, 0.6), fill=colour)
        draw.ellipse(rect(0.48, 0.1, 0.98, 0.6), fill=colour)
        draw.polygon([p(0.05, 0.45), p(0.95, 0.45), p(0.5, 0.94)], fill=colour)
    elif name == "flame":
        draw.ellipse(rect(0.2, 0.45, 0.8, 0.96), fill=colour)
        draw.polygon([p(0.21, 0.64), p(0.5, 0.02), p(0.79, 0.64)], fill=colour)
    elif name == "skull":
        draw.ellipse(rect(0.12, 0.04, 0.88, 0.74), fill=colour)
        draw.rectangle(rect(0.3, 0.6, 0.7, 0.94), fill=colour)
        draw.ellipse(rect(0.24, 0.28, 0.44, 0.48), fill=bg)
        draw.ellipse(rect(0.56, 0.28, 0.76, 0.48), fill=bg)
    elif name == "snowflake":
        for k in range(3):
            a = math.pi * k / 3
            dx, dy = 0.46 * math.cos(a), 0.46 * math.sin(a)
            draw.line((*p(0.5 - dx, 0.5 - dy), *p(0.5 + dx, 0.5 + dy)), fill=colour, width=lw)
        draw.ellipse(rect(0.38, 0.38, 0.62, 0.62), fill=colour)
    elif name == "bolt":
        pts = [p(0.6, 0.0), p(0.2, 0.56), p(0.5, 0.56), p(0.4, 1.0), p(0.8, 0.44), p(0.5, 0.44)]
        draw.polygon(pts, fill=colour)
    elif name == "flask":
        draw.rectangle(rect(0.38, 0.04, 0.62, 0.42), fill=colour)
        draw.rectangle(rect(0.3, 0.02, 0.7, 0.1), fill=colour)
        draw.polygon([p(0.38, 0.38), p(0.62, 0.38), p(0.94, 0.92), p(0.06, 0.92)], fill=colour)
        rounded_box(draw, rect(0.04, 0.8, 0.96, 0.98), s * 0.06, fill=colour)
        draw.ellipse(rect(0.4, 0.62, 0.52, 0.74), fill=bg)
        draw.ellipse(rect(0.56, 0.72, 0.64, 0.8), fill=bg)
    elif name == "moon":
        draw.ellipse(rect(0.06, 0.06, 0.94, 0.94), fill=colour)
        draw.ellipse(rect(0.3, -0.04, 1.08, 0.74), fill=bg)
    elif name == "fist":
        rounded_box(draw, rect(0.12, 0.3, 0.88, 0.86), s * 0.14, fill=colour)
        for k in range(4):
            fx = 0.14 + 0.185 * k
            rounded_box(draw, rect(fx, 0.14, fx + 0.17, 0.5), s * 0.07, fill=colour)
        for k in range(1, 4):
            fx = 0.14 + 0.185 * k - 0.008
            draw.line((*p(fx, 0.2), *p(fx, 0.44)), fill=bg, width=max(1, lw - 1))
        draw.rectangle(rect(0.3, 0.86, 0.76, 0.98), fill=colour)
    else:
        draw.ellipse(rect(0.1, 0.1, 0.9, 0.9), fill=colour)


# --------------------------------------------------------------------------- caching

_LAYER_LOCK = threading.Lock()
_LAYERS: OrderedDict[Hashable, Image.Image] = OrderedDict()
LAYER_BUDGET = 14 * 1024 * 1024
"""Bytes of static layers a process keeps (a 1600 x 1000 board layer is 6.1 MiB): the least
recently used layout goes first, so a worker serving every game stays bounded (issues #15,
#25). One layer serves a board layout at every height (`cached_tall_layer`: a game's public
board and its seats' taller ones), so this holds two games' board layers and the turn cards'
small ones; a worker that meets a third game's board rebuilds its layer (3-5 ms). At 24 MiB,
with a layer per height, it filled over a bot's first games (a Fourth Wall game alone
needed three)."""


def _layer_bytes(img: Image.Image) -> int:
    return img.width * img.height * (4 if img.mode in ("RGB", "RGBA") else len(img.mode))


def cached_layer(key: Hashable, builder: Callable[[], Image.Image]) -> Image.Image:
    """A copy of the static layer stored under ``key``, built by ``builder`` on first use.

    Include the image size in ``key``. The stored image is never handed out itself, so the
    caller may draw on what it gets. Layers are kept least-recently-used within
    :data:`LAYER_BUDGET` bytes.
    """
    if not _caching():
        return builder()
    return _stored_layer(key, builder).copy()


def _stored_layer(key: Hashable, builder: Callable[[], Image.Image]) -> Image.Image:
    """The stored layer itself (never drawn on: callers copy or crop it)."""
    with _LAYER_LOCK:
        layer = _LAYERS.get(key)
        if layer is None:
            layer = builder()
            _LAYERS[key] = layer
            while len(_LAYERS) > 1 and sum(map(_layer_bytes, _LAYERS.values())) > LAYER_BUDGET:
                _LAYERS.popitem(last=False)
        else:
            _LAYERS.move_to_end(key)
        return layer


def cached_tall_layer(key: Hashable, base_height: int, height: int,
                      builder: Callable[[int], Image.Image],
                      extend: Callable[[Image.Image], None]) -> Image.Image:
    """The static layer ``builder(height)`` for a board ``height`` tall, from the one layer
    stored for ``base_height`` (under ``key``, which names neither height).

    A seat's board is the public board with a private strip below it: one stored layer serves
    every height (a Fourth Wall game's public board, the Wall's and the team's were three
    layers of 6-8 MiB). A taller one is the stored layer cut to ``height`` (the rows below
    it come out black) and finished by ``extend(img)``, which draws what ``builder(height)``
    draws differently from ``builder(base_height)`` — the frame's bottom, the strip — so the
    result is the very layer ``builder(height)`` builds (tests compare them pixel for pixel).
    Cutting costs what the copy of a stored layer costs.
    """
    if not _caching():
        return builder(height)
    base = _stored_layer(key, lambda: builder(base_height))
    if height == base_height:
        return base.copy()
    img = base.crop((0, 0, base.width, height))
    extend(img)
    return img


_TILE_LOCK = threading.Lock()
PART_BUDGETS: dict[str, int] = {"card": 3 * 1024 * 1024, "board": 5 * 1024 * 1024}
"""Bytes of drawn parts (a room with its pieces, a player's panel) a process keeps, per kind of
picture, least recently used first out: the turn card's map (a game's cells, 2.4 MiB for an
Exorcism card) and the full boards' (a public board's and a seat's share the parts above the
seat's strip). Apart, so the boards a player asks for now and then do not push out the parts
of the card every move draws; each holds the game a worker drew last, pasted at its next move.
A pasted part saves ~0.1 ms of drawing: with more games at once than a budget holds, parts
are drawn again, so a bigger budget buys little more than memory (issue #25: the 8 MiB
shared before filled over a bot's first games)."""
_TILES: dict[str, OrderedDict[Hashable, tuple[Image.Image, tuple[str, ...]]]] = {
    pool: OrderedDict() for pool in PART_BUDGETS}
_TILE_BYTES: dict[str, int] = dict.fromkeys(PART_BUDGETS, 0)


def memo_region(img: Image.Image, box: Box, key: Hashable, draw: Callable[[], None],
                pool: str = "board") -> None:
    """Draw a part of the picture with ``draw()`` or, when the same part was drawn before,
    paste the pixels it drew then.

    ``draw`` must draw only inside ``box`` (its rounded edges included), onto a ``img`` that
    holds only the static layer there, and ``key`` must name everything ``draw`` reads: the
    part's own data and the static layer under it. A room whose pieces have not moved is then
    one paste instead of dozens of shapes and words. Texts the part cut with "…" are noted
    again on every paste, so the cut report stays whole. Parts are kept least recently used
    first out within ``pool``'s budget (:data:`PART_BUDGETS`: "card" or "board").
    """
    if not _caching():
        draw()
        return
    x0, y0, x1, y1 = box
    region = (max(0, math.floor(x0)), max(0, math.floor(y0)),
              min(img.width, math.ceil(x1) + 1), min(img.height, math.ceil(y1) + 1))
    full = (key, region, img.mode)
    tiles = _TILES[pool]
    with _TILE_LOCK:
        found = tiles.get(full)
        if found is not None:
            tiles.move_to_end(full)
    if found is not None:
        tile, cuts = found
        img.paste(tile, region[:2])
        for text in cuts:
            note_truncation(text)
        return
    before = _TRUNCATED_COUNT[0]
    draw()
    added = _TRUNCATED_COUNT[0] - before
    cuts = tuple(list(_TRUNCATED)[-added:]) if added > 0 else ()
    tile = img.crop(region)
    size = _layer_bytes(tile)
    budget = PART_BUDGETS[pool]
    if size > budget // 8:
        return
    with _TILE_LOCK:
        if full not in tiles:
            tiles[full] = (tile, cuts)
            _TILE_BYTES[pool] += size
        while _TILE_BYTES[pool] > budget and tiles:
            _, (dropped, _) = tiles.popitem(last=False)
            _TILE_BYTES[pool] -= _layer_bytes(dropped)


def clear_layer_cache() -> None:
    """Forget every cached static layer (tests; a content pack reload)."""
    with _LAYER_LOCK:
        _LAYERS.clear()
    with _HATCH_LOCK:
        _HATCHES.clear()
    with _BOX_LOCK:
        _BOXES.clear()
        _BOXES_SEEN.clear()
        _BOX_BYTES[0] = 0
    with _TILE_LOCK:
        for pool, tiles in _TILES.items():
            tiles.clear()
            _TILE_BYTES[pool] = 0


def cache_stats() -> dict[str, int]:
    """What this process's render caches hold: static layers, hatch tiles, drawn parts,
    rounded-box stamps and this thread's text runs, widths and fits (count and bytes), for
    ``python -m bench``."""
    with _LAYER_LOCK:
        layers = len(_LAYERS)
        layer_bytes = sum(map(_layer_bytes, _LAYERS.values()))
    with _HATCH_LOCK:
        hatches = len(_HATCHES)
        hatch_bytes = sum(_hatch_bytes(t) for t, _ in _HATCHES.values())
    with _TILE_LOCK:
        tiles = sum(map(len, _TILES.values()))
        tile_bytes = sum(_TILE_BYTES.values())
    with _BOX_LOCK:
        boxes, box_bytes = len(_BOXES), _BOX_BYTES[0]
    return {"layers": layers, "layer_bytes": layer_bytes, "hatches": hatches,
            "hatch_bytes": hatch_bytes, "parts": tiles, "part_bytes": tile_bytes,
            "boxes": boxes, "box_bytes": box_bytes, **glyph_cache_stats()}


# --------------------------------------------------------------------------- output


PALETTE_SAMPLE_STEP = 6
"""The palette is chosen from every sixth pixel of every sixth row (a 36th of the picture):
boards are flat fills and type, so the sample sees every colour that matters (measured against
the whole-picture palette: as close to the drawn picture or closer), and choosing a palette
from the whole picture was a third of a board's CPU (issue #15)."""


def encode_png(
    img: Image.Image,
    max_bytes: int = 300_000,
    colours: Sequence[int] = (256, 128, 64),
    compress_level: int = 3,
) -> bytes:
    """PNG bytes of ``img`` quantised to a palette, under ``max_bytes`` if at all possible.

    Tries each palette size in ``colours``, then the smallest with ``optimize``, then shrinks
    the picture by 15 % steps (keeping its aspect) until it fits or gets too small.
    ``compress_level`` (zlib 0..9) applies to the first tries; a lower one is faster and a
    little bigger (the fallbacks always use 6). ``python -m bench`` compares the encoders by
    time and bytes.
    """
    rgb = img.convert("RGB") if img.mode != "RGB" else img
    data = b""
    for n in colours:
        data = _png(rgb, n, optimize=False, compress_level=compress_level)
        if len(data) <= max_bytes:
            return data
    data = _png(rgb, colours[-1], optimize=True)
    scaled = rgb
    while len(data) > max_bytes and scaled.width > 480:
        scaled = scaled.resize(
            (int(scaled.width * 0.85), int(scaled.height * 0.85)), Image.Resampling.LANCZOS
        )
        data = _png(scaled, colours[-1], optimize=True)
    return data


def palette_of(rgb: Image.Image, n: int, step: int = PALETTE_SAMPLE_STEP) -> Image.Image:
    """A palette image of ``n`` colours chosen from a sample of ``rgb`` (every ``step``-th
    pixel of every ``step``-th row)."""
    sample = rgb
    if step > 1 and rgb.width >= 8 * step and rgb.height >= 8 * step:
        sample = rgb.resize((rgb.width // step, rgb.height // step), Image.Resampling.NEAREST)
    return sample.quantize(colors=n, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _png(rgb: Image.Image, n: int, optimize: bool, compress_level: int = 6) -> bytes:
    pal = rgb.quantize(palette=palette_of(rgb, n), dither=Image.Dither.NONE)
    if not optimize:
        return palette_png(pal, compress_level)
    buf = io.BytesIO()
    pal.save(buf, format="PNG", optimize=optimize, compress_level=compress_level)
    return buf.getvalue()


def _deflater() -> tuple[str, Callable[[bytes, int], bytes]]:
    """ISA-L's deflate when the ``isal`` package is installed (a board's 1.6 MB of palette
    indices in under a millisecond, where zlib took four to five), else zlib's."""
    try:
        module = importlib.import_module("isal.isal_zlib")
    except ImportError:
        return "zlib", zlib.compress
    compress: Callable[[bytes, int], bytes] = module.compress
    return "isal", compress


DEFLATE_NAME, _DEFLATE = _deflater()


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def palette_png(pal: Image.Image, level: int = 3) -> bytes:
    """A palette image as PNG bytes: 8 bits per pixel, no row filter (palette indices gain
    nothing from one), deflated by ISA-L when installed (``level`` 0..2) or zlib (0..9)."""
    w, h = pal.size
    rows = Image.new("P", (w + 1, h), 0)  # column 0 is each row's filter byte: 0, none
    rows.paste(pal, (1, 0))
    colours = pal.getpalette() or [0, 0, 0]
    if DEFLATE_NAME == "isal":  # ISA-L's 3 is several times slower for a few % fewer bytes
        level = min(level, 2)
    return b"".join((
        PNG_SIGNATURE,
        _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", bytes(colours[: 3 * 256])),
        _chunk(b"IDAT", _DEFLATE(rows.tobytes(), level)),
        _chunk(b"IEND", b""),
    ))


_HATCH_LOCK = threading.Lock()
_HATCHES: OrderedDict[tuple[int, int, Colour, int, int, int],
                      tuple[Image.Image, Image.Image]] = OrderedDict()
HATCH_BUDGET = 1024 * 1024
"""Bytes of hatch tiles kept (a tile and its mask, 5 bytes a pixel), least recently used
first out: tiles are box-sized, so a count of them bounded nothing (64 panel-sized tiles
would be tens of MiB); a board uses a handful of 20-150 KB."""


def _hatch_bytes(tile: Image.Image) -> int:
    return tile.width * tile.height * 5


def hatch(
    img: Image.Image,
    box: Box,
    colour: Colour,
    spacing: int = 16,
    width: int = 2,
    radius: int = 10,
) -> None:
    """Diagonal hatching over ``box`` (clipped to its rounded corners); tiles are cached."""
    x0, y0, x1, y1 = (round(v) for v in box)
    w, h = x1 - x0, y1 - y0
    if w <= 0 or h <= 0:
        return
    key = (w, h, colour, spacing, width, radius)
    with _HATCH_LOCK:
        cached = _HATCHES.get(key) if _caching() else None
        if cached is not None:
            _HATCHES.move_to_end(key)
        else:
            tile = Image.new("RGB", (w, h), colour)
            mask = Image.new("L", (w, h), 0)
            md = ImageDraw.Draw(mask)
            for k in range(-h, w + h, spacing):
                md.line((k, 0, k - h, h), fill=255, width=width)
            clip = Image.new("L", (w, h), 0)
            ImageDraw.Draw(clip).rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=255)
            cached = (tile, ImageChops.multiply(mask, clip))
            if _caching():
                _HATCHES[key] = cached
            while (len(_HATCHES) > 1
                   and sum(_hatch_bytes(t) for t, _ in _HATCHES.values()) > HATCH_BUDGET):
                _HATCHES.popitem(last=False)
    tile, mask = cached
    img.paste(tile, (x0, y0), mask)


# ---- reading a view: a view is JSON, so a field may be missing or of another type ------------


def as_int(value: Any, default: int = 0) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value)
    return default


def as_str(value: Any, default: str = "") -> str:
    return value if isinstance(value, str) else default


def as_dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, (list, tuple)) else []
