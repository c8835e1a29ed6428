"""How a game of I Am the Fourth Wall ended, told for the game-over post and its recap (issue
#22): who won and who lost and why (FW-END-01..03), how many rounds it lasted, its turning
points (An Eye Opens, Gates opened and closed, Investigators driven Insane, Horrors Defeated)
and each player's part, from the public record only. The Wall's identity is named only once An
Eye Opens has revealed it (`words.player` keeps to that)."""

from __future__ import annotations

from collections import Counter
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
from rules.core.game import counted, join_words, strip_rule_ids
from rules.core.types import Event, Result
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.state import FourthWallState
from rules.fourth_wall.words import player

WEIGHTS = {"reveal": 9, "insane": 8, "gate_opened": 7, "gate_closed": 7, "sacrifice": 5,
           "defeat": 4, "scourge": 2, "replace": 3}
"""How much each public event kind weighs as a turning point (0 or missing: never)."""

WHY = {
    "every Gate is closed.": "the Investigators closed every Gate",
    "five Gates are Open after An Eye Opens.": "five Gates stood Open after An Eye Opens",
    "the fifth Gate opens after An Eye Opens.": "the fifth Gate opened after An Eye Opens",
    "five Gates are Open when An Eye Opens.": "five Gates stood Open when An Eye Opened",
    "The Ancient One Awakens.": "the Turn Tracker ran out and the Ancient One Awakened",
}
"""Each way the game ends (FW-END-01..03), as the story says it."""
AT_ROUND_END = frozenset({"The Ancient One Awakens.", "five Gates are Open when An Eye Opens."})
"""The ends the Turn Tracker's move at a round's end brings (FW-END-03, FW-TRACK-04): the
round that ended is the game's last; `state.round` already counts the next, never played."""


def rounds_played(state: FourthWallState) -> int:
    """The rounds the game lasted: the last is the one it ended in or at the end of."""
    return state.round - 1 if state.reason in AT_ROUND_END else state.round


class _Rounds:
    """Reads the round from the public record: round 1 at the start, one more at each
    "Round over" (the Turn Tracker moving, FW-TURN-05)."""

    def __init__(self) -> None:
        self.round = 1

    def __call__(self, event: Event) -> int | None:
        if event.kind == "tracker" and event.text.startswith("Round over"):
            self.round += 1
        return self.round


def _weight(m: Moment) -> int:
    return WEIGHTS.get(m.event.kind, 0)


def _skip(m: Moment) -> bool:
    return m.event.kind == "game_over"


def verdict(state: FourthWallState, result: Result, names: dict[str, str]) -> tuple[str, str]:
    """The headline (who won, who lost) and why, with the round it was decided in."""
    eng = Engine(state)
    reason = WHY.get(state.reason) or strip_rule_ids(state.reason).rstrip(".")
    # Stop 70's demo: "In round 10, the Turn Tracker ran out" after nine rounds played.
    when = (f"At the end of round {rounds_played(state)}" if state.reason in AT_ROUND_END
            else f"In round {state.round}")
    why = f"{when}, {reason}."
    won = [player(state, s, names) for s in result.winners]
    lost = [player(state, s, names) for s in result.losers]
    if won:
        head = (f"{join_words(won)} {'wins' if len(won) == 1 else 'win'}"
                + (f"; {join_words(lost)} {'loses' if len(lost) == 1 else 'lose'}." if lost
                   else "."))
    elif state.outcome == "investigators":
        head = "The Investigators win."
    else:
        # Alliance: the Wall is nobody's seat, so the whole table loses together.
        wall = f" ({eng.wall().name})" if state.wall_card and state.revealed else ""
        head = (f"The Wall{wall} wins; {join_words(lost)} "
                f"{'loses' if len(lost) == 1 else 'lose'}.")
    return head, why[0].upper() + why[1:]


def gates_closed(names: Sequence[str], moments: Sequence[Moment]) -> Counter[str]:
    """Gates each Investigator closed, whether a Close a Gate action, a Utilised Elder Sign or
    a Defeat's reward did it (counting only the action missed the others), keyed by its slot
    (`inv`: every card the slot carried, an Insane card's closes too, stop 63) or, for a game
    stored before the event named the slot, by the Investigator's name (`by`; "" for a Wall
    card's; older still: the latest event before it naming an Investigator)."""
    closed: Counter[str] = Counter()
    last: str | None = None
    for m in moments:
        if m.event.kind == "gate_closed":
            by = m.event.data.get("inv") or m.event.data.get("by", last)
            if by:
                closed[by] += 1
            continue
        last = next((n for n in names if m.event.text.startswith(n + " ")), last)
    return closed


def carried(moments: Sequence[Moment]) -> dict[str, list[str]]:
    """The cards each slot carried before its present one ("the Gatewright"), in order: one
    per time it was driven Insane and replaced (FW-INSANE-06)."""
    out: dict[str, list[str]] = {}
    for m in moments:
        if m.event.kind == "replace" and m.event.data.get("inv"):
            out.setdefault(m.event.data["inv"], []).append(str(m.event.data.get("was", "")))
    return out


def parts(state: FourthWallState, result: Result, moments: Sequence[Moment],
          made: dict[str, int], names: dict[str, str]) -> list[Part]:
    eng = Engine(state)
    closers = gates_closed([eng.inv_name(i) for i in state.investigators if i.card], moments)
    before = carried(moments)
    out: list[Part] = []
    for seat in state.seats:
        if seat == state.wall_seat:
            opened = sum(1 for m in moments if m.event.kind == "gate_opened")
            horrors = sum(1 for m in moments if m.event.kind == "manifest")
            line = (f"{counted(horrors, 'Horror')} put On the Streets, "
                    f"{counted(opened, 'Gate')} opened, {count(made.get(seat, 0), 'move')}.")
        else:
            bits = []
            for inv in eng.invs_of(seat):
                if not inv.card:
                    continue
                name = eng.inv_name(inv)
                earlier = before.get(inv.id, [])
                closed = closers[inv.id] + closers[name]
                who = f"{name}: " if len(eng.invs_of(seat)) > 1 else ""
                # Which cards went Insane, not "The Demolitionist: driven Insane 3 times"
                # of a card that never was (stop 64's recap: the place was).
                story = ""
                if earlier:
                    story = (f"; {', then '.join(earlier)} went Insane before {name} took "
                             "its place" + (f", and {name} went Insane too" if inv.insane
                                            else ""))
                elif inv.insane:
                    story = ", driven Insane"
                bits.append(f"{who}{counted(closed, 'Gate')} closed{story}")
            line = "; ".join(bits) + ("; " if bits else "") + \
                f"{count(made.get(seat, 0), 'move')}."
        out.append(Part(seat, player(state, seat, names), seat in result.winners, line))
    return out


def ending(state: FourthWallState, result: Result,
           moves: Sequence[tuple[str | None, Sequence[Event]]],
           names: dict[str, str]) -> Ending:
    """The story of a finished game of I Am the Fourth Wall."""
    moments = public_moments(moves, _Rounds())
    head, why = verdict(state, result, names)
    points = [moment_text(m) for m in pick_turning_points(moments, _weight, _skip)]
    return Ending(headline=head, why=why, winners=list(result.winners),
                  losers=list(result.losers),
                  length=f"{count(rounds_played(state), 'round')}, {count(len(moves), 'move')}",
                  turning_points=points,
                  parts=parts(state, result, moments, dict(moves_by_seat(moves)), names))
