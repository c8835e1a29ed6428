"""The recap picture of a finished game (issue #22): `render_recap(game, view) -> PNG bytes`,
the inline image of the game-over post, sized for a phone's chat column (800 px wide, no type
under 28 px, like the turn card).

From top to bottom: the title bar with the game's length, GAME OVER and the result headline,
why it ended so, the final board (the game's phone map when `renders/<game>_phone.py` exists,
else its full board scaled down), each player's part and the turning points.

Its view is the public view at game over plus `view["ending"]` (`rules.core.ending.Ending.as_view`:
headline, why, length, turning_points, parts [{name, won, line}]) — all told from public events,
so the picture shows nothing the table has not read.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from renders.common import (
    as_dict,
    as_list,
    as_str,
    encode_png,
    fit_font,
    font,
    rounded_box,
    text_width,
)
from renders.turncard import (
    MIN_TYPE,
    MODES,
    PAD,
    TITLES,
    WIDTH,
    _Block,
    _block,
    _clean,
    _palette,
    phone_legend,
    phone_map,
    true_horror,
)

MAX_BYTES = 400_000
"""The recap is posted once per game: room for a board, still far under Discord's limit."""
BOARD_MAX_H = 900
"""A scaled full board taller than this is cropped to its top (the phone column scrolls)."""
POINTS_MAX = 5


def final_board(game: str, view: Mapping[str, Any], width: int) -> Image.Image | None:
    """The final public board `width` px wide: the game's phone map, else its full board
    scaled down (None: the game has no picture)."""
    board = phone_map(game, view, width)
    if board is not None:
        return board
    try:
        module = importlib.import_module(f"renders.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"renders.{game}":
            raise
        return None
    data: bytes = module.render_board(dict(view))
    full = Image.open(io.BytesIO(data)).convert("RGB")
    height = max(1, round(full.height * width / full.width))
    board = full.resize((width, height), Image.Resampling.LANCZOS)
    if board.height > BOARD_MAX_H:
        board = board.crop((0, 0, width, BOARD_MAX_H))
    return board


def render_recap_image(game: str, view: Mapping[str, Any]) -> Image.Image:
    quiet = true_horror(view)
    pal = _palette(game, quiet)
    ending = as_dict(view.get("ending"))
    inner = WIDTH - 2 * PAD
    head_h = 72
    headline = _clean(as_str(ending.get("headline")), quiet)
    why = _clean(as_str(ending.get("why")), quiet)
    length = _clean(as_str(ending.get("length")), quiet)

    top: list[tuple[str, _Block]] = [
        ("label", _block("GAME OVER", inner, 30, pal.muted, bold=True)),
        ("big", _block(headline, inner, 40, pal.accent, bold=True, min_size=32)),
    ]
    if why:
        top.append(("text", _block(why, inner, 30, pal.text)))
    if length:
        # Its own line: beside the title it would shrink below the phone's legible size.
        top.append(("text", _block(f"The game lasted {length}.", inner, 28, pal.muted)))
    top_h = sum(b.height for _, b in top) + 8 * len(top)

    board = final_board(game, view, inner)
    # The phone map's key, as the turn cards draw it under the same map (stop 68: the last
    # picture of a game was the only one whose glyphs had no key); none for a game without
    # a phone map, whose scaled full board is drawn instead.
    legend = phone_legend(game, view, inner) if board is not None else None
    board_h = board.height + PAD if board is not None else 0
    if legend is not None:
        board_h += legend.height + 8

    part_blocks: list[tuple[bool, _Block, _Block]] = []
    for p in as_list(ending.get("parts")):
        p = as_dict(p)
        won = bool(p.get("won"))
        name = _clean(as_str(p.get("name")), quiet)
        mark = "won" if won else "lost"
        part_blocks.append((won, _block(f"{name} — {mark}", inner - 32, 30,
                                        pal.accent if won else pal.text, bold=True),
                            _block(_clean(as_str(p.get("line")), quiet), inner - 32, 28,
                                   pal.muted)))
    parts_h = (56 + sum(a.height + b.height + 14 for _, a, b in part_blocks) + 8
               if part_blocks else 0)

    points = [_block(_clean(as_str(t), quiet), inner - 32, 28, pal.text, indent=28, bullet=True)
              for t in as_list(ending.get("turning_points"))[:POINTS_MAX]]
    points_h = (56 + sum(b.height + 8 for b in points) + 8) if points else 0

    height = (head_h + PAD + top_h + PAD + board_h + (parts_h + PAD if parts_h else 0)
              + (points_h + PAD if points_h else 0))

    img = Image.new("RGB", (WIDTH, height), pal.bg)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, WIDTH, head_h), fill=pal.bar)
    d.line((0, head_h, WIDTH, head_h), fill=pal.edge, width=2)
    title = TITLES.get(game, game.replace("_", " ").upper())
    mode = MODES.get(as_str(view.get("mode")), "")
    left = f"{title} · {mode}" if mode else title
    lf = fit_font(left, inner, 28, min_size=MIN_TYPE, bold=True)
    if text_width(left, lf) > inner:
        left, lf = title, fit_font(title, inner, 28, min_size=20, bold=True)
    d.text((PAD, head_h / 2), left, font=lf, fill=pal.muted, anchor="lm")

    y = head_h + PAD
    for _, blk in top:
        for line in blk.lines:
            d.text((PAD, y), line, font=blk.fnt, fill=blk.colour, anchor="la")
            y += blk.line_h
        y += 8
    y = head_h + PAD + top_h + PAD
    if board is not None:
        img.paste(board, (PAD, y))
        if legend is not None:
            img.paste(legend, (PAD, y + board.height + 8))
        y += board_h

    def panel(title: str, h: int) -> float:
        rounded_box(d, (PAD, y, WIDTH - PAD, y + h), 14, fill=pal.panel, outline=pal.edge,
                    width=2)
        d.text((PAD + 16, y + 12), title, font=font(28, True), fill=pal.muted, anchor="la")
        return y + 56

    if part_blocks:
        py = panel("EACH PLAYER'S PART", parts_h)
        for _, name_blk, line_blk in part_blocks:
            for blk in (name_blk, line_blk):
                for line in blk.lines:
                    d.text((PAD + 16, py), line, font=blk.fnt, fill=blk.colour, anchor="la")
                    py += blk.line_h
            py += 14
        y += parts_h + PAD
    if points:
        py = panel("TURNING POINTS", points_h)
        for blk in points:
            for k, line in enumerate(blk.lines):
                if k == 0:
                    bx, by = PAD + 16 + 8, py + blk.line_h / 2 - 2
                    d.ellipse((bx - 5, by - 5, bx + 5, by + 5), fill=pal.muted)
                d.text((PAD + 16 + blk.indent, py), line, font=blk.fnt, fill=blk.colour,
                       anchor="la")
                py += blk.line_h
            py += 8
    return img


def render_recap(game: str, view: dict[str, Any]) -> bytes:
    """The recap as PNG bytes (800 px wide, palette-quantised)."""
    return encode_png(render_recap_image(game, view), max_bytes=MAX_BYTES, colours=(128, 64))
