"""The One vs All Ghost player's summary DM says what its own buttons are (stop 70): its
question names the Haunt-card plays beside the board post's moves, and its hand list reads
each card as those buttons play it (EX-HAUNT-09, EX-VIS-11)."""

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


def test_EX_HAUNT_09_the_ghost_players_hand_list_reads_as_its_buttons_play_the_cards() -> None:
    """The hand list showed "Wraith up, Bull 3 spaces down, Devourer left" beside buttons
    showing "Wraith up" alone, the Bull and the Devourer not yet come: each card now reads
    as its buttons play it, the arrows they leave out marked as Ghosts not yet in the house."""
    st, ghost = _haunt_phase(bull=False, devourer=False)
    summary = GAME.private_summary(st, ghost)
    assert summary is not None
    hand = [line.removeprefix("• ") for line in summary.splitlines()[1:]]
    moves = [GAME.describe(st, ghost, a).removeprefix("Move the Ghosts: ")
             for a in GAME.legal_actions(st, ghost) if a.kind == "ghost_move"]
    assert hand and len(hand) == len(moves)
    for line, move in zip(hand, moves, strict=True):
        played, _, rest = line.partition(" (not in the house yet: ")
        assert played == move, (line, move)
        assert "Bull" not in played and "Devourer" not in played
        assert rest.startswith("Bull ") and "Devourer " in rest, line
    # with every Ghost in the house a card reads whole, as its buttons show it
    st, ghost = _haunt_phase(bull=True, devourer=True)
    summary = GAME.private_summary(st, ghost)
    assert summary is not None and "not in the house" not in summary
    assert all("Wraith" in line and "Bull" in line and "Devourer" in line
               for line in summary.splitlines()[1:])
