"""How a game of The Exorcism at the House of Monkton Falls ended, told for the game-over post
and its recap (issue #22): who won and who lost and why (EX-WIN-01/02, EX-LOSE-01..,
EX-TURN-04, EX-OVA-11/12), how many rounds and turns it lasted, its turning points (the
Ghosts exorcised, the last Lookout taken, a possession that cost a Wound, the last points of a
game lost, the Darkness supply near empty, the Haunt Level near the Ghost player's win) and each
player's part, from the public record only. Co-op and Solo tables win or lose together; in One
vs All the Ghost player wins what the investigators lose."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rules.core.ending import (
    Ending,
    Moment,
    Part,
    count,
    moment_text,
    moves_by_seat,
    pick_turning_points,
    public_moments,
)
from rules.core.game import counted, join_words, score_of, strip_rule_ids
from rules.core.types import Event, Result
from rules.exorcism.engine import Engine
from rules.exorcism.state import ExorcismState
from rules.exorcism.words import player

TERROR_CAUSED = "The Ghost player causes Terror"
"""How each Terror's own line begins (`rules.exorcism.engine.ghost`)."""

WEIGHTS = {"exorcised": 10, "points": 4, "time_action": 3, "shroud": 3, "ghost": 3,
           "escape": 2, "wound": 2, "possession": 2, "terror": 2, "rescue": 1}
"""How much each public event kind weighs as a turning point (0 or missing: never). A routine
Wound, Rescue or possession is colour (stop 66: a recap's turning points were three lines of
one round's Wound, Rescue and Wound); `_mattered` weighs the ones that decided the game. A
Task completed is told by its points line, which says the total too."""

MATTERED = 8
"""A moment that decided the game (`_mattered`): the last Lookout gone to a Rescue, the
possession that walked a pawn into its Wound, the last points scored in a game lost, the
Darkness supply at its lowest, the Haunt Level nearest the Ghost player's win."""
NEAR_EMPTY = 3
"""Darkness Tokens left in the supply at or below which its lowest point is a turning point
(core and Solo: the next Token that cannot be placed loses, EX-LOSE-01)."""
NEAR_LEVEL = 4
"""The Haunt Level at most this far below the Ghost player's win is a near-loss (One vs All)."""

_ROUND = re.compile(r"\(round (\d+)\)")


def round_of(event: Event) -> int | None:
    if event.kind == "turn" and (m := _ROUND.search(event.text)):
        return int(m.group(1))
    return None


_TOTAL = re.compile(r"total (\d+)")
_LEVEL = re.compile(r"Haunt Level to (\d+)")


def _halfway(moments: Sequence[Moment], kind: str, number: re.Pattern[str],
             goal: int) -> Moment | None:
    """The first `kind` moment whose number reaches half of `goal` (a threshold the story
    tells: the Exorcism points half-way to the exorcism, the Haunt Level half-way to the
    Ghost player's win)."""
    for m in moments:
        if m.event.kind == kind and (found := number.search(m.event.text)) \
                and int(found.group(1)) * 2 >= goal:
            return m
    return None


def _told_after(m: Moment, threshold: bool, level_win: int) -> str:
    """A turning point as the recap tells it, after the game: without the live call to
    action ("Now escape through the Foyer!"), and a half-way Haunt Level says why it is one
    (stop 64's recap)."""
    text = moment_text(m).replace(" Now escape through the Foyer!", "")
    if threshold and m.event.kind == "haunt_level":
        text = text.rstrip(".") + f", past half of the {level_win} that wins."
    return text


def _weight(m: Moment) -> int:
    return WEIGHTS.get(m.event.kind, 0)


def _name_in(text: str, before: str, after: str) -> str | None:
    """The name between `before` and `after` in `text` ("The Ghost player possesses ", ".")."""
    if text.startswith(before) and text.endswith(after):
        return text[len(before):len(text) - len(after)] or None
    return None


def _then(sentence: str) -> Callable[[str], str]:
    return lambda text: f"{text} {sentence}"


def _clause(words: str) -> Callable[[str], str]:
    return lambda text: text.rstrip(".") + f", {words}."


def _mattered(state: ExorcismState, moments: Sequence[Moment]
              ) -> dict[int, Callable[[str], str]]:
    """The moments (by position) that decided the game, each with how the recap tells it, to
    say why it mattered: from the public record and the final state only."""
    eng = Engine(state)
    out: dict[int, Callable[[str], str]] = {}
    # Each Rescue takes a Lookout, each heal gives one back (a Foyer switch trades one for
    # one): counted back from the Lookouts the game ended with.
    left = len(state.lookouts)
    for i in range(len(moments) - 1, -1, -1):
        kind = moments[i].event.kind
        if kind == "rescue":
            if left == 0:
                out[i] = _then("No Lookout is left.")
            left += 1
        elif kind == "heal":
            left = max(0, left - 1)
    # A possession that walked its pawn into a Wound before the turn was out.
    for i, m in enumerate(moments):
        if m.event.kind != "possession":
            continue
        name = _name_in(m.event.text, "The Ghost player possesses ", ".")
        for later in moments[i + 1:]:
            if later.event.kind == "turn":
                break
            if name and later.event.kind == "wound" and later.event.text.startswith(
                    name + " is "):
                out[i] = _clause("who is Wounded before the turn is out")
                break
    # The last points scored, in a game that ended short of the exorcism.
    if not state.exorcised:
        last = next((i for i in range(len(moments) - 1, -1, -1)
                     if moments[i].event.kind == "points"), None)
        if last is not None:
            out[last] = _then("No more points were scored.")
    # The Darkness supply at its lowest (the first time), when it came near empty.
    if not eng.ova:
        low: tuple[int, int] | None = None
        for i, m in enumerate(moments):
            supply = m.event.data.get("supply") if m.event.kind == "darkness_placed" else None
            if isinstance(supply, int) and (low is None or supply < low[1]):
                low = (i, supply)
        if low is not None and low[1] <= NEAR_EMPTY:
            out[low[0]] = _then(
                "The Darkness supply is empty." if low[1] == 0 else
                f"{counted(low[1], 'Darkness Token')} {'is' if low[1] == 1 else 'are'} left "
                "in the supply.")
    # The Haunt Level nearest the Ghost player's win, in a game it did not win by it.
    else:
        win = eng.opts.haunt_level_win
        high: tuple[int, int] | None = None
        for i, m in enumerate(moments):
            found = _LEVEL.search(m.event.text) if m.event.kind == "haunt_level" else None
            if found and (high is None or int(found.group(1)) > high[1]):
                high = (i, int(found.group(1)))
        if high is not None and win - NEAR_LEVEL <= high[1] < win:
            out[high[0]] = _clause(f"{win - high[1]} short of the {win} that wins")
    return out


def _skip(m: Moment) -> bool:
    return m.event.kind == "game_over"


def verdict(state: ExorcismState, result: Result, names: dict[str, str]) -> tuple[str, str]:
    """The headline (who won, who lost) and why, with the round it was decided in."""
    target = Engine(state).opts.exorcism_target
    reason = strip_rule_ids(state.reason).rstrip(".")
    investigators = [s for s in state.seats if s != state.ghost_seat]
    team = join_words([player(state, s, names) for s in investigators])
    lose = "loses" if len(investigators) == 1 else "lose"
    win = "wins" if len(investigators) == 1 else "win"
    if state.outcome == "won":
        head = (f"{team} {win}" + (f"; {player(state, state.ghost_seat, names)} loses."
                                   if state.ghost_seat else "."))
        # A win has at least the target: "31 of 30" reads as a slip, so the target follows.
        why = (f"In round {state.round}, with {state.points} Exorcism points ({target} "
               f"needed), {reason}.")
    else:
        head = (f"{player(state, state.ghost_seat, names)} wins; {team} {lose}."
                if state.ghost_seat else
                f"{'Everyone loses' if len(investigators) > 1 else team + ' ' + lose}: "
                + ("the Ghosts were exorcised, but not everyone escaped the house."
                   if state.exorcised else "the house keeps its Ghosts."))
        # Dawn comes after the last turn played (EX-TURN-04): no turn of a new round began.
        when = (f"After round {state.round}" if reason.startswith("dawn")
                else f"In round {state.round}")
        why = (f"{when}, {reason}, with "
               f"{score_of(state.points, target, 'Exorcism point')} scored.")
    return head, why


def parts(state: ExorcismState, result: Result, moments: Sequence[Moment],
          made: dict[str, int], names: dict[str, str]) -> list[Part]:
    eng = Engine(state)
    out: list[Part] = []
    for seat in state.seats:
        if seat == state.ghost_seat:
            # A Terror's own line, not its after-effects' (Amnesia, a Cold Spot, a Tool
            # appearing share its kind for the recap's turning points).
            terror = sum(1 for m in moments if m.event.kind == "terror"
                         and m.event.text.startswith(TERROR_CAUSED))
            possessed = sum(1 for m in moments if m.event.kind == "possession")
            line = (f"{counted(terror, 'Terror')} caused, {counted(possessed, 'possession')}, "
                    f"{count(made.get(seat, 0), 'move')}.")
        else:
            bits = []
            for inv in eng.invs_of(seat):
                char = inv.character or inv.last_character
                if not char:
                    continue
                name = eng.char_name(char)
                if state.counts_kept:  # the slot's own counts, over every Character it carried
                    tasks, wounds = inv.tasks_done, inv.wounds
                else:  # a game stored before the counts: by the Character's name
                    tasks = sum(1 for m in moments if m.event.kind == "task"
                                and m.event.text.startswith(name + " "))
                    wounds = sum(1 for m in moments if m.event.kind == "wound"
                                 and m.event.text.startswith(name + " "))
                # The Characters this place carried, in turn: its counts are theirs together
                # (stop 64's Solo recap gave the Photographer two others' Tasks and Wounds).
                chain: list[str] = []
                for m in moments:
                    data = m.event.data
                    if m.event.kind in ("rescue", "switch") and data.get("inv") == inv.id:
                        if not chain and data.get("was"):
                            chain.append(eng.char_name(str(data["was"])))
                        chain.append(eng.char_name(str(data.get("char"))))
                called = " → ".join(chain) if len(chain) > 1 and chain[-1] == name else name
                who = (f"{called}: " if len(eng.invs_of(seat)) > 1 or called != name else "")
                bits.append(f"{who}{counted(tasks, 'Task')} completed"
                            + (f", Wounded {'once' if wounds == 1 else f'{wounds} times'}"
                               if wounds else "")
                            + (", escaped the house" if inv.escaped else ""))
            line = "; ".join(bits) + ("; " if bits else "") + \
                f"{count(made.get(seat, 0), 'move')}."
        out.append(Part(seat, player(state, seat, names), seat in result.winners, line))
    return out


def ending(state: ExorcismState, result: Result,
           moves: Sequence[tuple[str | None, Sequence[Event]]],
           names: dict[str, str]) -> Ending:
    """The story of a finished game of the Exorcism."""
    moments = public_moments(moves, round_of)
    head, why = verdict(state, result, names)
    opts = Engine(state).opts
    thresholds = {id(m) for m in (_halfway(moments, "points", _TOTAL, opts.exorcism_target),
                                  _halfway(moments, "haunt_level", _LEVEL,
                                           opts.haunt_level_win)) if m is not None}

    mattered = {id(moments[i]): why for i, why in _mattered(state, moments).items()}
    # A Time Action's tokens count only once a Room is unlocked (EX-TIME-02, EX-ACT-07): one
    # with no points after it changed nothing (stop 68's demo: the last turning point of a
    # game lost to the empty supply was the Time Action of its last turn).
    last_points = max((i for i, m in enumerate(moments) if m.event.kind == "points"),
                      default=-1)
    idle = {id(m) for i, m in enumerate(moments)
            if m.event.kind == "time_action" and i > last_points}

    def weight(m: Moment) -> int:
        if id(m) in mattered:
            return MATTERED
        if id(m) in idle:
            return 0
        return 5 if id(m) in thresholds else _weight(m)

    def told(m: Moment) -> str:
        text = _told_after(m, id(m) in thresholds and id(m) not in mattered,
                           opts.haunt_level_win)
        retell = mattered.get(id(m))
        return retell(text) if retell is not None else text

    points = [told(m) for m in pick_turning_points(moments, weight, _skip)]
    # The engine's own count: a core game's first turn is announced by its setup, outside
    # any move (stop 64's recaps said 25 turns of a game whose thread reached Turn 26).
    turns = max(state.game_turn, sum(1 for m in moments if m.event.kind == "turn"))
    return Ending(headline=head, why=why, winners=list(result.winners),
                  losers=list(result.losers),
                  length=f"{count(state.round, 'round')}, {count(max(turns, 1), 'turn')}, "
                         f"{count(len(moves), 'move')}",
                  turning_points=points,
                  parts=parts(state, result, moments, dict(moves_by_seat(moves)), names))
