"""High Card: a tiny hidden-information game for platform tests only (never shipped).

Each seat holds a hidden hand. Every round the active seat sets the wager (a turn-based
decision), then all seats play a card at once (one prompt answered by several seats); the
highest card takes the wager. It exercises everything the platform must carry: turns,
simultaneous answers, hidden hands, public reveals and a result.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from rules.core import Action, Event, IllegalAction, Result, Rng
from rules.core.game import Game, GameOptions, GameState
from rules.core.types import act


class HighCardOptions(GameOptions):
    mode: Literal["standard"] = "standard"
    rounds: int = Field(default=3, ge=1, le=5, description="Rounds to play (1-5)")


class HighCardState(GameState):
    rng: Rng
    rounds: int
    round: int = 1
    phase: Literal["wager", "play", "over"] = "wager"
    active: int = 0
    wager: int = 0
    hands: dict[str, list[int]]
    played: dict[str, int] = Field(default_factory=dict)
    last_reveal: dict[str, int] = Field(default_factory=dict)
    scores: dict[str, int]


class HighCard(Game[HighCardOptions, HighCardState]):
    name: ClassVar[str] = "highcard"
    title: ClassVar[str] = "High Card (test game)"
    version: ClassVar[str] = "highcard-1"
    modes: ClassVar[tuple[str, ...]] = ("standard",)
    rule_prefix: ClassVar[str] = "HC"
    options_model = HighCardOptions
    state_model = HighCardState

    def player_counts(self, options: HighCardOptions) -> set[int]:
        return {2, 3, 4}

    def setup(self, seats: list[str], options: HighCardOptions, seed: int) -> HighCardState:
        if len(seats) not in self.player_counts(options):
            raise IllegalAction("High Card takes 2 to 4 players.", rule="HC-SETUP-01")
        rng = Rng.from_seed(seed)
        deck = rng.shuffled(list(range(1, 41)))
        hands = {s: sorted(deck[i * options.rounds : (i + 1) * options.rounds])
                 for i, s in enumerate(seats)}
        return HighCardState(seats=list(seats), rng=rng, rounds=options.rounds, hands=hands,
                             scores={s: 0 for s in seats})

    def to_act(self, state: HighCardState) -> set[str]:
        if state.phase == "wager":
            return {state.seats[state.active]}
        if state.phase == "play":
            return {s for s in state.seats if s not in state.played}
        return set()

    def legal_actions(self, state: HighCardState, seat: str) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase == "wager":
            return [act("wager", amount=n) for n in (1, 2, 3)]
        return [act("play", card=c) for c in state.hands[seat]]

    def _apply(self, state: HighCardState, seat: str, action: Action) -> list[Event]:
        if state.phase == "wager":
            amount = action.p("amount")
            if action.kind != "wager" or amount not in (1, 2, 3):
                raise IllegalAction("Set the wager: 1, 2 or 3.", rule="HC-WAGER-01")
            state.wager = amount
            state.phase = "play"
            return [Event(kind="wager", text=f"{seat} sets the wager at {amount}.")]
        card = action.p("card")
        if action.kind != "play" or card not in state.hands[seat]:
            raise IllegalAction("Play a card from your hand.", rule="HC-PLAY-01")
        state.hands[seat].remove(card)
        state.played[seat] = card
        events = [Event(kind="played", text=f"{seat} plays a card face down."),
                  Event(kind="played_private", text=f"You played {card}.", audience=[seat])]
        if len(state.played) == len(state.seats):
            winner = max(state.played, key=lambda s: state.played[s])
            state.scores[winner] += state.wager
            state.last_reveal = dict(state.played)
            shown = ", ".join(f"{s}: {c}" for s, c in state.played.items())
            text = f"Reveal — {shown}. {winner} takes {state.wager}."
            events.append(Event(kind="reveal", text=text))
            state.played = {}
            if state.round == state.rounds:
                state.phase = "over"
            else:
                state.round += 1
                state.active = (state.active + 1) % len(state.seats)
                state.phase = "wager"
        return events

    def view(self, state: HighCardState, seat: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.name, "round": state.round, "rounds": state.rounds,
            "phase": state.phase, "wager": state.wager, "scores": dict(state.scores),
            "waiting_for": sorted(self.to_act(state)), "played": sorted(state.played),
            "last_reveal": dict(state.last_reveal),
            "hand_sizes": {s: len(h) for s, h in state.hands.items()},
        }
        if seat is not None and seat in state.hands:
            out["hand"] = list(state.hands[seat])
        return out

    def result(self, state: HighCardState) -> Result | None:
        if state.phase != "over":
            return None
        best = max(state.scores.values())
        winners = [s for s in state.seats if state.scores[s] == best]
        return Result(winners=winners, losers=[s for s in state.seats if s not in winners],
                      reason=f"Highest score: {best}.")

    def describe(self, state: HighCardState, seat: str, action: Action) -> str:
        if action.kind == "wager":
            return f"Wager {action.p('amount')}"
        return f"Play {action.p('card')}"

    def decision_id(self, state: HighCardState, seat: str) -> str:
        # All seats answer the play prompt at once: one answer must not stale the others.
        return f"play-{state.round}" if state.phase == "play" else str(state.step)

    def public_choices(self, state: HighCardState, seat: str) -> bool:
        return state.phase != "play"  # the labels name cards in a hidden hand

    def private_summary(self, state: HighCardState, seat: str) -> str | None:
        hand = state.hands.get(seat)
        return "Your hand: " + ", ".join(map(str, hand)) if hand else None

    def public_secrets(self, state: HighCardState) -> list[str]:
        return [f'"hand": [{", ".join(str(c) for c in h)}' for h in state.hands.values() if h]

    def invariants(self, state: HighCardState) -> list[str]:
        held = sum(len(h) for h in state.hands.values()) + len(state.played)
        expected = len(state.seats) * (state.rounds - state.round + 1)
        if state.phase == "over":
            expected = 0
        return [] if held == expected else [f"cards held {held} != {expected}"]


GAME = HighCard()
