"""Issue #22.1, as a player scrolling the thread on a phone sees it: whole games through the
real bot and the emulator, every board post's inline picture (each version of it, as edits
replace it) shrunk to a 400 px chat column and read back by tesseract. At least three quarters
of them must show the awaited player's name and at least four places of the board (room names;
Gate numbers in Fourth Wall). Long (whole games and OCR): under ``-m soak``; the default suite
checks the same on the renderer's own cards (tests/renders/test_*_phone.py)."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from demo import AutoTable
from emulator.records import MessageRecord
from rules.registry import GAMES
from tests.e2e.conftest import Table

TESSERACT = shutil.which("tesseract")

pytestmark = [
    pytest.mark.soak,
    pytest.mark.skipif(TESSERACT is None, reason="tesseract is not installed "
                       "(apt-get install -y tesseract-ocr; .ci/run installs it)"),
]

GAMES_TO_PLAY = [("presence", "session", 3), ("exorcism", "core", 3),
                 ("fourth_wall", "conflict", 3)]
SAMPLED = 12


def _ocr(data: bytes, tmp: Path) -> str:
    img = Image.open(io.BytesIO(data)).convert("RGB")
    small = img.resize((400, round(img.height * 400 / img.width)), Image.Resampling.LANCZOS)
    path = tmp / "post.png"
    small.save(path)
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    out = subprocess.run([TESSERACT or "tesseract", str(path), "stdout", "--psm", "11"],
                         capture_output=True, text=True, timeout=120, check=True, env=env)
    return re.sub(r"\s+", " ", out.stdout).casefold()


def _places(game: str, view: dict[str, Any]) -> list[list[str]]:
    """Each place of the board as the words any of which names it on the picture."""
    if game == "fourth_wall":
        return [[f"gate {n}"] for n in range(1, 6)]
    rooms = view.get("rooms") or view.get("cells") or []
    items = rooms.values() if isinstance(rooms, dict) else rooms
    out = []
    for room in items:
        name = str(room.get("name") or room.get("id") or "") if isinstance(room, dict) else ""
        if name:
            longest = max(name.split(), key=len)
            out.append([name.casefold(), longest.casefold()])
    return out


def _versions(message: MessageRecord) -> list[tuple[str, bytes]]:
    """(content, picture) of every version of a board post that carried a picture."""
    out = [(s.content, a.data) for s in message.history for a in s.attachments
           if a.filename == "turn.png"]
    out += [(message.content, a.data) for a in message.attachments if a.filename == "turn.png"]
    return out


@pytest.mark.parametrize(("game", "mode", "n"), GAMES_TO_PLAY, ids=[g for g, _, _ in GAMES_TO_PLAY])
async def test_board_posts_read_on_a_phone(table: Table, game: str, mode: str, n: int,
                                           tmp_path: Path) -> None:
    assert table.bot is not None
    users = [table.alice, table.bob, table.carol][:n]
    auto = AutoTable(table.emu, table.bot, table.general, users)
    await auto.open(game, mode)
    await auto.play_to_end()
    names = {u.id: u.global_name or u.name for u in users}
    posts = [v for m in table.emu.messages_in(auto.thread()) for v in _versions(m)]
    assert posts, "board posts carry their picture"
    step = max(1, len(posts) // SAMPLED)
    sampled = posts[::step][:SAMPLED]
    state = await table.bot.tables.state(auto.game_id)
    places = _places(game, GAMES[game].view(state, None))
    assert len(places) >= 4, places
    good = 0
    misses = []
    for content, data in sampled:
        awaited = [names[m] for m in re.findall(r"<@!?(\d+)>", content) if m in names]
        text = _ocr(data, tmp_path)
        squeezed = text.replace(" ", "")  # OCR may drop a space ("gate4")
        read = sum(any(w.replace(" ", "") in squeezed for w in words) for words in places)
        name_ok = not awaited or any(a.casefold() in text for a in awaited)
        if name_ok and read >= 4:
            good += 1
        else:
            misses.append((awaited, read, text[:200]))
    assert good >= 0.75 * len(sampled), (good, len(sampled), misses[:3])
