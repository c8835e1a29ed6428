"""The One vs All Ghost player's summary DM says what its own buttons are (stop 70): its
question names the Haunt-card plays beside the board post's moves (EX-VIS-11)."""

from __future__ import annotations

from bot.storage import GameRecord, GameSettings
from cogs.utils.table.summaries import PANEL_MARK, summary_dm
from rules.exorcism.game import GAME
from rules.exorcism.state import ExorcismState
from tests.exorcism.helpers import new_game


def _record() -> GameRecord:
    return GameRecord(id=4242, guild_id=1, channel_id=1, thread_id=None, game="exorcism",
                      options={"mode": "one_vs_all", "guided": False}, status="active",
                      state_json=None, version=0, seed=1, created_by=1, engine_version="1",
                      settings=GameSettings(), board_message_id=None, created_at=0.0,
                      updated_at=0.0, next_reminder_at=None, reminder_stage=0,
                      awaited_since=None)


def _haunt_phase(*, bull: bool, devourer: bool) -> tuple[ExorcismState, str]:
    """The Ghost player's Haunt phase with one Ghost Action, the Bull and the Devourer come
    or not."""
    st = new_game("one_vs_all", n=3, seed=1)
    st.phase = "ghost"
    st.active = st.ghost_seat
    st.ghost_budget = 1
    st.ghosts["bull"] = "attic" if bull else None
    st.ghosts["devourer"] = "attic" if devourer else None
    ghost = st.ghost_seat or "s1"
    assert GAME.to_act(st) == {ghost}
    return st, ghost


def test_EX_VIS_11_the_ghost_players_dm_question_names_its_haunt_card_buttons() -> None:
    """It read "choose below, or on the board post …: **Raise the Haunt Level to 2** or **End
    the Haunt phase**." over buttons that were all Haunt cards, named nowhere."""
    st, ghost = _haunt_phase(bull=True, devourer=True)
    now = summary_dm(_record(), GAME, st, ghost, mine="</game mine:1>")
    assert now is not None and now.actions
    assert {a.kind for a in now.actions} == {"ghost_move", "ghost_darkness"}
    question = now.text.split(PANEL_MARK, 1)[1].split("\n")[0]
    below, board = question.split(", or on the board post", 1)
    assert "**Move the Ghosts**" in below and "**Add Darkness**" in below, question
    assert "Haunt card" in below, question
    assert "**End the Haunt phase**" in board, question
    # the investigators' DMs hold no such words (they have no choices now)
    for seat in st.seats:
        if seat != ghost:
            theirs = summary_dm(_record(), GAME, st, seat, mine="</game mine:1>")
            assert theirs is None or "Move the Ghosts" not in theirs.text

