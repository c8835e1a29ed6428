"""Issue #12: what the bot sends stays within Discord's limits, and every error that quotes a
player's typing explains first and quotes only a short excerpt.

The emulator rejects anything over Discord's documented limits with 400 / 50035, as Discord
does, so an answer that is too long is an answer the player never sees.
"""

from __future__ import annotations

from typing import Any

from bot.limits import CHOICE_NAME, CHOICE_VALUE, CHOICES, CONTENT
from bot.options import parse_options
from rules.registry import GAMES
from tests.e2e.conftest import Table

PRESENCE_VARIANTS = ("strict_table_talk=yes table_channel=channel mystery=yes "
                     "unknown_threat=yes dark_board=yes secret_chamber=yes ")


def within_limits(choices: list[dict[str, Any]]) -> None:
    assert len(choices) <= CHOICES
    for choice in choices:
        assert 1 <= len(choice["name"]) <= CHOICE_NAME
        assert len(str(choice["value"])) <= CHOICE_VALUE


async def suggest(table: Table, game: str, typed: str) -> list[dict[str, Any]]:
    return await table.emu.autocomplete(table.alice, table.general, "game new",
                                        {"game": game, "options": typed}, focused="options")


# ---- 10: the options autocomplete with long typed text -------------------------------------

async def test_long_typed_options_still_get_suggestions(table: Table) -> None:
    typed = ("strict_table_talk=yes table_channel=thread mystery=yes hope_track=B fear=normal "
             "scripts=normal spirit_seat=0 secret_chamber=yes dark_board=no fe")
    assert len(typed) > 100
    choices = await suggest(table, "presence", typed)
    within_limits(choices)
    # What the player is typing (`fe…`) is completed, and picking it keeps every option
    # already typed that changes anything.
    fear = [c["value"] for c in choices if c["value"].split()[-1].startswith("fear=")]
    assert sorted(v.split()[-1] for v in fear) == ["fear=easy", "fear=hard", "fear=normal"]
    presence = GAMES["presence"]
    for value in fear:
        chosen = parse_options(presence, None, value)
        assert chosen["strict_table_talk"] and chosen["mystery"] and chosen["secret_chamber"]
    table.emu.assert_no_errors()


async def test_options_too_many_to_complete_still_get_suggestions_that_lose_nothing(
        table: Table) -> None:
    typed = PRESENCE_VARIANTS + "fe"
    choices = await suggest(table, "presence", typed)
    within_limits(choices)
    assert choices and any("fear" in c["name"] for c in choices)
    wanted = parse_options(GAMES["presence"], None, PRESENCE_VARIANTS)
    for choice in choices:
        assert parse_options(GAMES["presence"], None, choice["value"]) == wanted


async def test_options_suggestions_complete_the_word_being_typed(table: Table) -> None:
    choices = await suggest(table, "presence", "mystery=yes fe")
    within_limits(choices)
    assert {c["value"] for c in choices} == {
        "mystery=yes fear=easy", "mystery=yes fear=normal", "mystery=yes fear=hard"}
    values = await suggest(table, "presence", "fear=")
    assert {c["value"] for c in values} == {"fear=easy", "fear=normal", "fear=hard"}
    short = await suggest(table, "highcard", "")
    assert [c["value"] for c in short] == ["rounds=3"]


async def test_any_typed_text_gets_an_answer_within_limits(table: Table) -> None:
    for typed in ("x" * 99 + " ", "rounds=3 " * 40, "y" * 600, PRESENCE_VARIANTS * 3,
                  "mystery=yes " * 20 + "f"):
        within_limits(await suggest(table, "presence", typed))
        within_limits(await suggest(table, "highcard", typed))
    table.emu.assert_no_errors()


# ---- 12: errors that echo a player's typing -------------------------------------------------

def explained_first(text: str, explanation: str, junk: str) -> None:
    assert explanation in text, text
    assert text.index(explanation) < 120, text  # the explanation comes first, not last
    assert junk * 41 not in text  # at most a short excerpt of what was typed
    assert len(text) < CONTENT


async def test_long_malformed_options_token_is_explained(table: Table) -> None:
    res = await table.slash(table.alice, table.general, "game new", game="highcard",
                            options="y" * 2500)
    assert res.ephemeral
    explained_first(res.text, "is not key=value", "y")
    assert "rounds" in res.text  # the list of options shows
    res = await table.slash(table.alice, table.general, "game new", game="highcard",
                            options="z" * 2500 + "=1")
    explained_first(res.text, "no option", "z")
    assert "rounds" in res.text
    res = await table.slash(table.alice, table.general, "game new", game="highcard",
                            mode="q" * 900)
    explained_first(res.text, "no mode", "q")
    assert "standard" in res.text
    res = await table.slash(table.alice, table.general, "game new", game="highcard",
                            options="rounds=" + "7" * 900)
    assert len(res.text) < CONTENT and "7" * 41 not in res.text and "rounds" in res.text
    assert table.emu.threads_of(table.general) == []


async def test_other_errors_quoting_typing_are_short_and_explain(table: Table) -> None:
    res = await table.slash(table.alice, table.general, "game new", game="g" * 3000)
    explained_first(res.text, "don't know the game", "g")
    assert "highcard" in res.text
    res = await table.slash(table.alice, table.general, "game rules", rule="R" * 3000,
                            game="exorcism")
    explained_first(res.text, "no rule", "R")
    res = await table.slash(table.alice, table.general, "game quiet", start="9" * 3000,
                            end="7")
    explained_first(res.text, "isn't a time of day", "9")
    res = await table.slash(table.alice, table.general, "game quiet", start="22", end="7",
                            tz="+" + "5" * 3000)
    explained_first(res.text, "isn't a UTC offset", "5")
    table.emu.assert_no_errors()
