"""How a game of The Exorcism at the House of Monkton Falls ended, told for the game-over post
and its recap (issue #22): who won and who lost and why (EX-WIN-01/02, EX-LOSE-01..,
EX-TURN-04, EX-OVA-11/12), how many rounds and turns it lasted, its turning points (the
Ghosts exorcised, Ghosts entering the house, Wounds and Rescues, escapes, possessions) and each
player's part, from the public record only. Co-op and Solo tables win or lose together; in One
vs All the Ghost player wins what the investigators lose."""

from __future__ import annotations

import re
from collections.abc import Sequence

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

WEIGHTS = {"exorcised": 10, "wound": 7, "escape": 6, "possession": 6, "ghost": 6,
           "rescue": 5, "task": 4, "time_action": 3, "shroud": 3, "terror": 2}
"""How much each public event kind weighs as a turning point (0 or missing: never)."""

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

    def weight(m: Moment) -> int:
        return 5 if id(m) in thresholds else _weight(m)

    points = [_told_after(m, id(m) in thresholds, opts.haunt_level_win)
              for m in pick_turning_points(moments, weight, _skip)]
    # The engine's own count: a core game's first turn is announced by its setup, outside
    # any move (stop 64's recaps said 25 turns of a game whose thread reached Turn 26).
    turns = max(state.game_turn, sum(1 for m in moments if m.event.kind == "turn"))
    return Ending(headline=head, why=why, winners=list(result.winners),
                  losers=list(result.losers),
                  length=f"{count(state.round, 'round')}, {count(max(turns, 1), 'turn')}, "
                         f"{count(len(moves), 'move')}",
                  turning_points=points,
                  parts=parts(state, result, moments, dict(moves_by_seat(moves)), names))
