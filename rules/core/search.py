"""The search AI: today's heuristics looked ahead on worlds the seat cannot tell from the real one.

`search_action(game, state, seat, level)` is a determinized flat Monte Carlo search (the
"perfect-information Monte Carlo" of Ginsberg's GIB and OpenSpiel's determinized search,
with SPARTA's idea of searching on top of a blueprint policy):

- **Worlds.** Every simulation starts from ``game.resample(state, seat, rng)``: everything
  hidden from the seat (deck orders, other hands, face-down cards, the dice to come) dealt anew
  from what it may know, with an RNG seeded from the seat's view (`view_rng`). So the search
  reads no hidden card, and its choice is a function of the seat's view alone (fair by
  construction, as `Game.ai_action` is).
- **Candidates.** The seat's legal actions (at most `Level.width`: the heuristic's own pick,
  then the game's own plans (`Game.ai_plans`), then the rest in a view-seeded order),
  compared on the *same* worlds (common random numbers: a candidate's edge is measured world
  by world, not against the noise of different deals).
- **Play-out.** After a candidate, every seat, this one included, plays the game's heuristic
  (`choose_ai_action`, the blueprint) for `Level.horizon` decisions or to the end (with
  `Level.turns`, until that many of the game's turns are on, `Game.ai_turn`: every candidate's
  play-out then stops at the same point of the game, never one mid-turn and another a Clock
  pip later, which a cut-off estimate reads as an edge); a finished
  game scores 1 (the seat wins), 0 (loses) or 1/2, an unfinished one the game's estimate
  (`Game.ai_value`, in [0, 1]). Moves are applied in place on the world (`Game.apply_in_place`):
  one copy per simulation.
- **Budget.** Successive halving: the simulations are spent in rounds, each dropping the worse
  half of the candidates, so the close calls get the most worlds; the answer is the best of
  the last round's survivors (a dropped candidate's few early worlds never outrank them). The
  budget is a count of simulations (the same state always gets the same answer, as the engine
  contract asks), and `Level.cap_seconds` of the process's own CPU time stops a search that
  runs long (then, and only then, the answer may depend on the machine; a busy machine slows
  the answer, it does not change it). A game may size one decision's budget from what the
  seat may know (`Game.ai_budget`: The Presence gives a visitor's clue discards and reveals
  more worlds; Fourth Wall's Alliance the decisions at the brink of a fifth Gate; One vs All
  its last hours, played to dawn).
- **Prior.** The heuristic's pick is kept unless another candidate beats it by `Level.margin`
  on the shared worlds (and, with `Level.confidence`, by that many standard errors of the
  world-by-world differences): the search overrides the blueprint only where it sees a
  difference.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Protocol

from rules.core.errors import IllegalAction
from rules.core.rng import Rng
from rules.core.types import Action, Event, Result


@dataclass(frozen=True)
class Level:
    """How hard the AI tries: `simulations` play-outs per decision, each `horizon` decisions
    long at most, over at most `width` candidates; `cap_seconds` bounds a slow search."""

    name: str
    simulations: int
    horizon: int
    width: int = 8
    margin: float = 0.02
    cap_seconds: float = 2.0
    confidence: float = 0.0
    """Standard errors by which a candidate's edge over the heuristic's pick, measured world by
    world, must stand clear of noise before it overrides the pick (0: `margin` alone). A
    game whose play-outs are noisy (co-operative Exorcism: one worse override in twenty
    loses more than the overrides win) asks for 2."""
    turns: int = 0
    """When above 0, a play-out stops once the game's turn counter (`Game.ai_turn`) is this
    many turns past the searched decision's (or after `horizon` decisions, whichever comes
    first): the candidates are then scored at the same point of the game. 0: `horizon` alone."""


class Searchable(Protocol):
    """What the search needs of a game (`rules.core.game.Game` has it all)."""

    def legal_actions(self, state: Any, seat: str) -> list[Action]: ...
    def to_act(self, state: Any) -> set[str]: ...
    def result(self, state: Any) -> Result | None: ...
    def resample(self, state: Any, seat: str | None, rng: Rng) -> Any: ...
    def choose_ai_action(self, state: Any, seat: str) -> Action: ...
    def apply_in_place(self, state: Any, seat: str, action: Action) -> list[Event]: ...
    def ai_play_in_place(self, state: Any, seat: str) -> None: ...
    def ai_value(self, state: Any, seat: str) -> float: ...
    def ai_levels(self) -> dict[str, Level]: ...
    def ai_searchable(self, state: Any, seat: str, action: Action | None) -> bool: ...
    def ai_plans(self, state: Any, seat: str) -> list[Action]: ...
    def ai_turn(self, state: Any) -> int | None: ...


EASY = "easy"
LEVEL_NAMES = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


def level_of(game: Searchable, name: str) -> Level | None:
    """The game's search settings for a level name; None for the heuristic alone (easy)."""
    if name == EASY:
        return None
    levels = game.ai_levels()
    if name not in levels:
        raise ValueError(f"unknown AI level {name!r}: one of {', '.join(LEVEL_NAMES)}")
    return levels[name]


def score(game: Searchable, state: Any, seat: str) -> float:
    """A finished game's worth to `seat` (1 won, 0 lost, 1/2 otherwise), or the game's estimate."""
    result = game.result(state)
    if result is None:
        return min(1.0, max(0.0, game.ai_value(state, seat)))
    if seat in result.winners:
        return 1.0
    if seat in result.losers:
        return 0.0
    return 0.5


def play_out(game: Searchable, world: Any, horizon: int, until: int | None = None) -> None:
    """Every seat plays the heuristic on `world`, in place, for `horizon` decisions at most
    (and, with `until`, until the game's turn counter, `Game.ai_turn`, reaches it)."""
    for _ in range(horizon):
        if game.result(world) is not None:
            return
        if until is not None:
            turn = game.ai_turn(world)
            if turn is not None and turn >= until:
                return
        awaited = sorted(game.to_act(world))
        if not awaited:
            return
        mover = awaited[0]
        try:
            game.ai_play_in_place(world, mover)
        except IllegalAction:
            return  # a blueprint slip in an odd world: score what there is


def search_action(game: Searchable, state: Any, seat: str, level: Level,
                  rng: Rng) -> Action:
    """The search's choice for `seat` (see the module's docstring). `rng` must come from the
    seat's view (`view_rng`), never from the real state."""
    legal = game.legal_actions(state, seat)
    if not legal:
        raise IllegalAction("Nothing to do.", rule="CORE-TURN")
    unique = list({a.key(): a for a in legal}.values())
    seen = game.resample(state, seat, rng)
    blueprint = game.choose_ai_action(seen, seat)
    if len(unique) == 1:
        return unique[0]
    # Asked on the blueprint's resampled world: a game's test of a candidate may weigh it as
    # the heuristic would, and the heuristic reads only a world the seat cannot tell apart.
    others = [a for a in unique if a.key() != blueprint.key()
              and game.ai_searchable(seen, seat, a)]
    if not others:
        return blueprint
    rng.shuffle(others)
    # The game's own plans (read on the same resampled world as the blueprint) come first, so
    # `Level.width` never drops them in favour of a random legal action.
    planned = [a.key() for a in game.ai_plans(seen, seat)]
    others.sort(key=lambda a: planned.index(a.key()) if a.key() in planned else len(planned))
    candidates = [blueprint, *others][:max(2, level.width)]
    worlds_seed = rng.next_u64()
    now = game.ai_turn(state) if level.turns > 0 else None
    until = None if now is None else now + level.turns
    started = time.process_time()
    totals = [0.0] * len(candidates)
    counts = [0] * len(candidates)
    scores: list[dict[int, float]] = [{} for _ in candidates]  # world number -> score
    alive = list(range(len(candidates)))
    rounds = max(1, math.ceil(math.log2(len(candidates))))
    world_no = 0
    for r in range(rounds):
        per = max(1, level.simulations // (rounds * len(alive)))
        for _ in range(per):
            world_rng = Rng.from_seed(worlds_seed ^ (world_no * 0x9E3779B97F4A7C15 % 2**64))
            world_no += 1
            base = game.resample(state, seat, world_rng)
            for i in alive:
                world = base.model_copy(deep=True)
                try:
                    game.apply_in_place(world, seat, candidates[i])
                except IllegalAction:
                    totals[i] -= 1.0  # illegal in this world: never pick it on its strength
                    counts[i] += 1
                    scores[i][world_no] = -1.0
                    continue
                play_out(game, world, level.horizon, until)
                worth = score(game, world, seat)
                totals[i] += worth
                counts[i] += 1
                scores[i][world_no] = worth
            if time.process_time() - started > level.cap_seconds:
                break
        if time.process_time() - started > level.cap_seconds or r == rounds - 1:
            break
        alive.sort(key=lambda i: -totals[i] / max(1, counts[i]))
        keep = max(2, (len(alive) + 1) // 2)
        if 0 not in alive[:keep] and 0 in alive:
            alive = [*alive[:keep - 1], 0]  # the blueprint stays to be beaten on the same worlds
        else:
            alive = alive[:keep]
    # The answer comes from the last round's survivors, each measured on every world played so
    # far: a candidate dropped after one world keeps that one world's score, and a lucky one
    # (1.0 on its only world) would outrank the survivors, then fail the edge test against the
    # blueprint on too few shared worlds, and the blueprint stood however far a survivor beat
    # it (One vs All seed 8 at game turn 42, stop 44: a step out of the Foyer at 0.83 over six
    # worlds against 0.33 for ending the turn, set aside for one dropped after a world at 1.0).
    means = {i: totals[i] / counts[i] for i in alive if counts[i]}
    best = max(means, key=lambda i: (means[i], -i))
    if 0 in means and means[best] < means[0] + level.margin:
        return candidates[0]
    if best != 0 and level.confidence > 0 and not clear_edge(scores[best], scores[0], level):
        return candidates[0]
    return candidates[best]


def clear_edge(challenger: dict[int, float], blueprint: dict[int, float], level: Level) -> bool:
    """Whether `challenger` beats the blueprint on the worlds both were played on by at least
    `level.margin` and `level.confidence` standard errors of the paired differences."""
    diffs = [challenger[w] - blueprint[w] for w in challenger if w in blueprint]
    if len(diffs) < 2:
        return False
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean >= level.margin and mean >= level.confidence * math.sqrt(var / len(diffs))
