"""The games in words (issue #13): status lines, what the awaited player must do, alt text and
the game-over sentence, checked over random playouts of every game, mode and player count.

A player who cannot see the picture reads these lines, so they must: name players by their
display name (never a seat id), hold no internal id, Python value or spec marker, keep every
public secret out of the public lines, fit the alt text in Discord's 1,024 characters, and name
every awaited player. True Horror (P-HORROR) reads no rule ids.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules.core.game import ALT_TEXT_LIMIT, Game, fit_words, strip_rule_ids
from rules.core.rng import Rng
from rules.registry import GAMES
from tests.tinygame import GAME as HIGHCARD

NAMES = ["Margaret", "Theo", "Ines", "Kwame", "Yuki", "Olaf", "Priya"]

FORBIDDEN = {
    "a seat id": re.compile(r"\b[sp]\d+(?:\.\d+)?\b"),
    "a Python value": re.compile(r"\b(?:True(?! Horror)|False|None)\b|\{'|\['"),
    "a spec marker": re.compile(r"\[[TRD]\]"),
    "an internal id": re.compile(
        r"\b[a-z]+_[a-z_]+\b|\b[a-z]+\.\d+\b|\br\dc\d\b|\bi\d\b|#\d"
        # a card id such as H-BREAKER or INV-12 (a rule id in brackets is allowed)
        r"|(?<![(\w-])[A-Z]+-[A-Z0-9]+\b(?![\w-]*\))"),
}
RULE_ID = re.compile(r"\b[A-Z]{1,3}-[A-Z0-9]+(?:-[A-Z0-9]+)*\b")
EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF]")


def _cases() -> list[tuple[str, str, int, dict[str, Any]]]:
    out: list[tuple[str, str, int, dict[str, Any]]] = []
    games: dict[str, Game[Any, Any]] = {**GAMES, HIGHCARD.name: HIGHCARD}
    for name, game in sorted(games.items()):
        for mode in game.modes:
            counts = sorted(game.player_counts(game.options_model(mode=mode)))
            for n in sorted({counts[0], counts[-1]}):
                out.append((name, mode, n, {}))
    for extra in ({"two_players": True}, {"true_horror": True}, {"mystery": True},
                  {"unknown_threat": True}, {"secret_chamber": True},
                  {"two_players": True, "true_horror": True}):
        n = 2 if extra.get("two_players") else 4
        out.append(("presence", "session", n, extra))
    return out


CASES = _cases()
IDS = [f"{g}-{m}-{n}p" + "".join(f"-{k}" for k in x) for g, m, n, x in CASES]


def _game(name: str) -> Game[Any, Any]:
    return HIGHCARD if name == HIGHCARD.name else GAMES[name]


def _clean(text: str, where: str, plain: bool) -> None:
    for what, pattern in FORBIDDEN.items():
        hit = pattern.search(text)
        assert hit is None, f"{where} shows {what} {hit.group(0)!r}: {text!r}"
    if plain:
        hit = RULE_ID.search(text)
        assert hit is None, f"{where}: True Horror reads a rule id {hit.group(0)!r}: {text!r}"
        assert not EMOJI.search(text), f"{where}: True Horror reads an emoji: {text!r}"


def _check(game: Game[Any, Any], state: Any, names: dict[str, str], where: str) -> None:
    plain = game.plain_words(state)
    public = game.status_lines(state, None, names)
    alt = game.alt_text(state, names)
    public_text = "\n".join(public)
    assert public and all(line.strip() for line in public), where
    assert len(alt) <= ALT_TEXT_LIMIT, f"{where}: alt text {len(alt)} characters"
    assert alt, where
    secrets = [s.strip('"') for s in game.public_secrets(state)]
    awaited = sorted(game.to_act(state))
    doing = {s: game.doing_text(state, s, names) for s in awaited}
    for text, label in ((public_text, "public status"), (alt, "alt text"),
                        *((d, f"doing text of {s}") for s, d in doing.items())):
        _clean(text, f"{where} {label}", plain)
        for secret in secrets:
            assert not re.search(rf"(?<![\w-]){re.escape(secret)}(?![\w-])", text), \
                f"{where} {label} leaks {secret!r}: {text!r}"
    for seat in awaited:
        name = names[seat]
        assert name in doing[seat], f"{where}: doing text omits {name}: {doing[seat]!r}"
        assert name in public_text, f"{where}: public status omits awaited {name}"
        assert name in alt, f"{where}: alt text omits awaited {name}: {alt!r}"
    for seat in state.seats:
        mine = "\n".join(game.status_lines(state, seat, names))
        _clean(mine, f"{where} status of {seat}", plain)
    result = game.result(state)
    if result is not None:
        text = game.result_text(state, result, names)
        _clean(text, f"{where} result", plain)
        for seat in result.winners:
            assert names[seat] in text, f"{where}: result omits winner {names[seat]}: {text!r}"
        assert text in public_text and alt.startswith(text[:40]), where
        assert "Winners: nobody" not in text


@pytest.mark.parametrize(("name", "mode", "n", "extra"), CASES, ids=IDS)
def test_words_name_players_hide_secrets_and_fit(name: str, mode: str, n: int,
                                                 extra: dict[str, Any]) -> None:
    game = _game(name)
    options = game.options_model(mode=mode, **extra)
    seats = [f"s{i}" for i in range(1, n + 1)]
    names = dict(zip(seats, NAMES, strict=False))
    for seed in (1, 2):
        state = game.setup(seats, options, seed)
        rng = Rng.from_seed(seed + 77)
        every = 13 if name == "presence" else 8
        for step in range(20_000):
            if step % every == 0 or game.result(state) is not None:
                _check(game, state, names, f"{name}/{mode}/{n}p seed {seed} step {step}")
            if game.result(state) is not None:
                break
            seat = rng.choice(sorted(game.to_act(state)))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state


def test_fit_words_keeps_whole_sentences_and_drops_what_does_not_fit() -> None:
    """#22: alt text was cut mid-sentence at 1,024 characters; now a part that does not fit
    is left out whole, and a shorter part after it may still fill the room."""
    lines = ["Now: Margaret (the Medium) must act.", "word " * 400,
             "Time: 3 hours left. Doom: 4.", "Row 1: the Hall. " * 80]
    text = fit_words(lines, ALT_TEXT_LIMIT)
    assert len(text) <= ALT_TEXT_LIMIT
    assert text.startswith(lines[0]) and "word word" not in text
    assert "Time: 3 hours left. Doom: 4." in text and text.endswith("Row 1: the Hall.")
    assert "…" not in text
    # A line without a full stop gets one; nothing ever ends mid-sentence.
    assert fit_words(["Lookouts: Ada, Bo"], 100) == "Lookouts: Ada, Bo."
    assert fit_words(["One sentence. Two sentences here."], 20) == "One sentence."


def test_strip_rule_ids_leaves_plain_words() -> None:
    assert strip_rule_ids("The spirit wins (P-UPKEEP-02).") == "The spirit wins."
    assert strip_rule_ids("Every Gate is closed (FW-END-01); well done") == \
        "Every Gate is closed; well done"


def test_default_words_of_a_game_without_overrides_name_players() -> None:
    """The generic hooks (High Card overrides none): display names, the awaited player and
    the result, never a seat id."""
    seats = ["s1", "s2"]
    names = {"s1": "Margaret", "s2": "Theo"}
    state = HIGHCARD.setup(seats, HIGHCARD.options_model(), 3)
    assert HIGHCARD.doing_text(state, "s1", names) == "Margaret: make your choice."
    lines = HIGHCARD.status_lines(state, None, names)
    assert "Players: Margaret, Theo." in lines
    assert any(line.startswith("Waiting for Margaret") for line in lines)


@pytest.mark.parametrize(("name", "mode", "players", "roles"), [
    ("fourth_wall", "conflict", 3, ["the Wall player", "an Investigator player"]),
    ("exorcism", "one_vs_all", 3, ["the Ghost player", "the Architect"]),
    ("presence", "session", 3, ["the spirit", "a visitor"]),
])
def test_role_words_read_after_you_are_as_every_post_names_the_role(
        name: str, mode: str, players: int, roles: list[str]) -> None:
    """ "You are the Wall player." — never "You are Wall player." nor a seat id (#14)."""
    game = GAMES[name]
    seats = [f"s{i + 1}" for i in range(players)]
    state = game.setup(seats, game.options_model(mode=mode), 1)
    words = [game.role_words(state, s) for s in seats]
    assert words[:2] == roles
    for seat, role in zip(seats, words, strict=True):
        assert f"Ada ({role})" == game.player_name(state, seat, {seat: "Ada"})
    hc = HIGHCARD.setup(["s1", "s2"], HIGHCARD.options_model(), 1)
    assert HIGHCARD.role_words(hc, "s1") == HIGHCARD.seat_label(hc, "s1")
