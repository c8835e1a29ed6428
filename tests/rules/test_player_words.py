"""Every text the engines hand a player, read over random playouts of every game, mode and
table size: the awaited seat's line (`doing_text`), the advice on the board post and in the
seat's own panel (`guide_text`), every legal action's label (`describe`), every event's
sentence, the status lines and each seat's summary DM (`private_summary`). None may hold what
`tests.e2e.words.raw_words` forbids (seat ids, rule ids in brackets, code values, "a" before a
vowel, a plural after 1, ...). The end-to-end scans read the messages of the games they play
through Discord; this reads the states those games never reach."""

from __future__ import annotations

import random
import re

import pytest

from rules.core.rulebook import one_line, player_text
from rules.registry import GAMES
from tests.e2e.words import raw_words
from tests.rules.cases import CASES, IDS

NAMES = ["Ada", "Bea", "Cy", "Dot", "Eve", "Flo", "Gus"]
STEPS = 3000
"""Past every game's length here (the longest, a 5-player Presence, ends within ~700)."""


VARIANTS: list[tuple[str, str, int, dict[str, object]]] = [
    ("presence", "session", 3, {"mystery": True}),
    ("presence", "session", 4, {"unknown_threat": True}),
    ("presence", "session", 4, {"dark_board": True, "true_horror": True}),
    ("presence", "session", 4, {"secret_chamber": True}),
    ("presence", "session", 2, {"two_players": True}),
    ("exorcism", "core", 3, {"first_game": True}),
    ("fourth_wall", "conflict", 4, {"first_game": True}),
]
"""The variants whose words differ (a face-down discard, a chosen threat, a chamber, a player
with two visitors, a learning game), one game each."""


PLAIN: list[tuple[str, str, int, dict[str, object]]] = [(g, m, n, {}) for g, m, n in CASES]


@pytest.mark.parametrize(("game", "mode", "n", "options"), PLAIN + VARIANTS,
                         ids=IDS + [f"{g}-{'-'.join(o)}" for g, _m, _n, o in VARIANTS])
def test_every_text_a_player_reads_is_in_the_games_words(game: str, mode: str, n: int,
                                                         options: dict[str, object]) -> None:
    g = GAMES[game]
    seats = [f"s{i + 1}" for i in range(n)]
    names = dict(zip(seats, NAMES, strict=False))
    found: dict[str, str] = {}
    read = 0

    def check(where: str, text: str | None) -> None:
        nonlocal read
        if text:
            read += 1
            for hit in raw_words(text):
                found.setdefault(f"{where}: {hit}", text[:200])

    state = g.setup(seats, g.options_model(mode=mode, **options), 1)
    rng = random.Random(1)
    for step in range(STEPS):  # a whole game: some words come only late (a lost marker)
        if g.result(state) is not None or not g.to_act(state):
            break
        if step % 10 == 0:  # the status lines and each seat's summary DM, now and then
            for reader in (None, *seats):
                for line in g.status_lines(state, reader, names):
                    check("status", line)
                if reader is not None:
                    check("summary", g.private_summary(state, reader))
        for seat in sorted(g.to_act(state)):
            check("doing", g.doing_text(state, seat, names))
            check("advice", g.guide_text(state, seat))
            check("own advice", g.guide_text(state, seat, private=True))
            for action in g.legal_actions(state, seat):
                check("label", g.describe(state, seat, action))
        seat = sorted(g.to_act(state))[0]
        legal = g.legal_actions(state, seat)
        action = g.ai_action(state, seat) if rng.random() < 0.7 else rng.choice(legal)
        applied = g.apply(state, seat, action)
        for event in applied.events:
            check("event", event.text)
        state = applied.state
    assert read > 100
    assert not found, found


NOTE_ID = re.compile(r"^(?:[A-Z]+-(?:GAP|AMB)-\d+|(?:A|G|PR|H)-[A-Z]?\d+)$")
"""The design notes' own entries (gaps, ambiguities, The Presence's rulings and notes): the
project's reasoning, kept as the spec writes it."""
QUOTES_THE_WORDS = {"EX-WORDS-01", "EX-WORDS-03", "FW-VIS-37", "FW-TURN-01"}
"""Rules about the words themselves, which quote what players never read ("no grid code
(`r2c3`)", "never 'Investigator 1'"), and the turn order the rulebook counts by number."""


def test_every_rule_a_player_looks_up_reads_in_the_games_words() -> None:
    """`/game rules`: every rule's text as a player reads it (in full and on one line, as an
    autocomplete choice) carries no design-note pointer ("(A-65)", "(P-TIME-07, PR-01)",
    "[D G-12: per-power flag]") and nothing else `raw_words` forbids in a rules answer."""
    found: dict[str, str] = {}
    for game in GAMES.values():
        for rid, text in game.rulebook().items():
            if NOTE_ID.match(rid) or rid in QUOTES_THE_WORDS:
                continue
            for shown in (player_text(text), one_line(text)):
                for hit in raw_words(shown, rules=True):
                    found.setdefault(rid, hit)
    assert not found, found
