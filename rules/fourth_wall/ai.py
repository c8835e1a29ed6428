"""The I Am the Fourth Wall AI: sensible legal moves for any seat in either mode.

`choose_action(state, seat)` always returns one of ``GAME.legal_actions(state, seat)``. It
never mutates the state and uses no randomness: the same state always gives the same answer.

How it thinks. Every candidate action is scored by a one-ply lookahead: the action is applied
with `GAME.apply` (on a copy), the seat's own follow-up prompts are answered by a cheap policy
(select Marbles to Close a Gate, attach to the best Horror), and the resulting state is scored
by `evaluate` from the seat's side. Actions whose outcome is a random draw (Search, Regroup,
Delve, ending a turn — which in Alliance runs the Presence deck) are not looked ahead: they
get a fixed estimate instead.

Fair by construction (issue #21): the game calls `choose_action` (as `choose_ai_action`) only on
a state resampled from the deciding seat's view (`Game.ai_action`, `rules.fourth_wall.resample`):
the Marble and Horror deck orders, the Wall card before An Eye Opens, the hands the seat may not
see, the Presence deck and the RNG there are dealt anew, so a look-ahead that draws, reveals or
runs the automatic Wall turn reads one plausible world, never the real one. Nothing here keeps
anything between calls (no cache, no state on the game object).

`evaluate` (Investigators' side; The Wall's side is its negation) counts: the game's end,
Open Gates, each Horror On the Streets and the Symbols still needed to Defeat it, The Scourge
blocking Gates, every Investigator's hand against its Hand Limit (a hand of one or none is
close to Insanity), Insane Investigators, whether a hand can Close a Gate (and how close the
best hand is), the Wall's hand and Doom, and the Turn Tracker. The Investigators' side reads
the team's hands (they share them, FW-SETUP-07); The Wall's side reads only hand counts and the
public board (it may not see hands, FW-VIS-06).

Trading (issue #23): a Trade is scored by `best_swap` — the swap of one Marble for one after
which a hand can Close a Gate though none could before — and its three prompts are answered with
that same swap; a Give is scored by its look-ahead, so a Marble handed into a full hand (and
discarded at once) scores as the loss it is.

The search levels (`FourthWallGame.ai_action`, `rules.core.search`) keep `choose_action` as the
root's blueprint and play their play-outs with `playout_action`, a rule-of-thumb policy with no
look-ahead; where a play-out stops, `win_chance` scores it (the Investigators by `evaluate`,
the Conflict Wall by a logistic of the public board fitted on the heuristic's own games,
`WALL_LOGIT`). `plans` names the moves the
search always weighs beside the blueprint (`Game.ai_plans`): the play-out policy's own pick
and, while The Scourge stands, the Intervene that goes furthest toward Defeating it and a
Search.

The Conflict Wall: Wrath unless Brood pays (a Horror to become The Scourge while a hand could
Close a Gate, or several Drained Horrors to wake), then spends its Doom on whatever scores best
(Manifest, Trigger, Destroy, its Unique Action), Delves with Doom that would otherwise be lost,
and always takes the Doom its cards offer. Its look-ahead follows a Loss it inflicts through
the Investigator's answer (`_settle_losses`), so a Trigger on a one-Marble hand scores as the
Insanity and Gate it is; it Unleashes The Scourge on the Horror hardest to Defeat, two Symbols
of a kind before two different ones (`scourge_hardness`).
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from rules.core.errors import IllegalAction
from rules.core.game import Game
from rules.core.rng import Rng
from rules.core.types import Action
from rules.fourth_wall import actions as K
from rules.fourth_wall.content import SYMBOLS
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.state import FourthWallState, InvestigatorState

WIN = 10_000.0
GATE = 60.0
HORROR = 10.0
HORROR_SYMBOL = 4.0
SCOURGE_BLOCK = 15.0
SCOURGE_SYMBOL = 8.0
"""Each Symbol still needed to Defeat The Scourge, on top of HORROR_SYMBOL: while it stands no
Gate closes (FW-SCOURGE-03), so a Scourge one Marble from falling is nearly a Gate closed, and a
Marble the Wall Destroys off it buys the Wall a turn."""
MARBLE = 3.0
LOW_HAND = {0: 12.0, 1: 8.0, 2: 3.0}
INSANE = 30.0
CAN_CLOSE = 12.0
COVER = 3.0
WALL_CARD = 3.0
DOOM = 2.0
RANK = 2.0
POOL_DOOM = 0.3
"""Doom in the Action Pool during a Wrath (lost at the end of the turn): nearly worthless."""

NO_LOOKAHEAD = frozenset({K.SEARCH, K.REGROUP, K.PASS, K.END_TURN, K.DELVE, K.WRATH,
                          K.BROOD, K.REGROUP_DRAW})
ROLLOUT_STEPS = 8
WORLDS = 1
"""The look-ahead of an action that may draw or reveal hidden cards (`DRAWING`) is averaged over
this many worlds: the state it is given (already resampled from the seat's view by
`Game.ai_action`) and others resampled from that view (#21). Measured over 100 games (Alliance
2p): 3 worlds won 93 % for the Investigators, 1 world 92 % (within noise) at half the time per
decision (p95 17 ms against 32 ms), so one world it is."""
DRAWING = frozenset({K.EXPLOIT, K.UTILISE, K.UNIQUE, K.WALL_UNIQUE, K.TRIGGER, K.MANIFEST,
                     K.REACT, K.DECLINE})
AI_CANCELS_PER_TURN = 3
"""The AI's own loop guard: after this many called-off Trades / Gate closings in one turn it
stops starting them (the engine offers them to players without limit)."""
AI_FREE_EXCHANGES = 6
"""The AI's own loop guard: it says "done" after this many free Gives/Trades in one window
(the engine lets players exchange freely, FW-AMB-11)."""


def _symbols_of(eng: Engine, marbles: list[str]) -> Counter[str]:
    c: Counter[str] = Counter()
    for m in marbles:
        c.update(eng.marble(m).symbols)
    return c


def _coverage(eng: Engine, hand: list[str]) -> float:
    """How close a hand is to a Close a Gate selection: 1.0 when it meets it."""
    need, extra = eng.gate_requirement()
    have = _symbols_of(eng, hand)
    got = sum(1 for s in SYMBOLS if have[s] > 0)
    short = max(0, need - got) + sum(max(0, n - (have[s] - 1)) for s, n in extra.items())
    return 1.0 if short == 0 and eng.meets(hand) else max(0.0, 1.0 - short / (need + 1))


def evaluate(state: FourthWallState, team_view: bool = True) -> float:
    """The state from the Investigators' side (higher is better for them). With
    ``team_view=False`` hand contents are not read (The Wall's knowledge)."""
    st = state
    if st.outcome == "investigators":
        return WIN - st.rank_index
    if st.outcome == "wall":
        return -WIN + st.rank_index
    eng = Engine(st)
    score = -GATE * len(st.gates)
    for h in st.streets:
        cost = eng.defeat_cost(h.id)
        att = eng.attached_symbols(h)
        left = sum(max(0, n - att[s]) for s, n in cost.items())
        score -= HORROR + HORROR_SYMBOL * left
        if h.id == st.scourge:
            score -= SCOURGE_SYMBOL * left
    if eng.scourge_blocks():
        score -= SCOURGE_BLOCK
    best_cover = 0.0
    for inv in st.investigators:
        if not inv.card:
            continue
        if inv.insane:
            score -= INSANE
            continue
        n = len(inv.hand)
        limit = eng.hand_limit(inv)
        score += MARBLE * min(n, limit) - LOW_HAND.get(n, 0.0)
        if team_view:
            best_cover = max(best_cover, _coverage(eng, inv.hand))
    if team_view:
        score += CAN_CLOSE if best_cover >= 1.0 else COVER * best_cover
    if st.wall_seat is not None:
        score -= WALL_CARD * len(st.wall_hand)
    pool = POOL_DOOM if st.phase == "wall" and st.wall_mode == "wrath" else DOOM
    score -= pool * st.doom + DOOM * st.doom_deferred
    score -= RANK * st.rank_index
    return score


def _side(state: FourthWallState, seat: str) -> float:
    return -1.0 if seat == state.wall_seat else 1.0


def _value(state: FourthWallState, seat: str) -> float:
    wall = seat == state.wall_seat
    return _side(state, seat) * evaluate(state, team_view=not wall)


VALUE_SCALE = GATE
"""Conflict's Investigators: one Open Gate's worth moves the search's estimate by about a
quarter near an even board."""

WALL_LOGIT = {"bias": -2.2, "gate": 3.3, "symbol": 0.75, "scourge_symbol": 0.55,
              "horror": -0.58, "marble": -0.62, "doom": 0.28, "time": 1.4, "revealed": 0.5}
"""Conflict: the chance that The Wall wins, as a logistic of the public board, fitted (plain
logistic regression, `rules.md` "AI balance") on 1,620 positions of 130 games of the heuristic
against itself (Conflict, 3 and 4 players): per Open Gate, per Symbol still needed to Defeat a
Horror On the Streets (and again on The Scourge, whose standing blocks every Close a Gate), per
Horror (a one-Symbol Horror is a Marble's work, not a threat), per Marble in the sane
Investigators' hands, per Doom, the Turn Tracker's progress (0 at the start, 1 when The Ancient
One Awakens) and An Eye Opens. It reads no hand's contents: The Wall may not see them
(FW-VIS-06), and it never steers by cards it only imagines. Only The Wall's search reads it
(`win_chance`)."""


def wall_logit(state: FourthWallState) -> float:
    """`WALL_LOGIT` summed over the public board (Conflict)."""
    st = state
    eng = Engine(st)
    w = WALL_LOGIT
    z = w["bias"] + w["gate"] * len(st.gates) + w["doom"] * (st.doom + st.doom_deferred)
    for h in st.streets:
        att = eng.attached_symbols(h)
        left = sum(max(0, n - att[s]) for s, n in eng.defeat_cost(h.id).items())
        z += w["horror"] + w["symbol"] * left
        if h.id == st.scourge:
            z += w["scourge_symbol"] * left
    z += w["marble"] * sum(len(i.hand) for i in st.investigators if i.card and not i.insane)
    ranks = max(1, len(eng.layout_ranks()) - 1)
    z += w["time"] * st.rank_index / ranks + (w["revealed"] if st.revealed else 0.0)
    return z


ALLIANCE_LOGIT = {"bias": 2.11, "gate": -0.59, "gate_time": -1.22, "time": 0.41,
                  "revealed": 0.27, "one_marble": -0.27, "two_marbles": -0.22,
                  "one_marble_at_the_brink": -0.95, "can_close": 0.19, "cover": 1.2,
                  "doom": -0.15}
"""Alliance: the chance that the Investigators win, as a logistic of the board, fitted (plain
logistic regression, `rules.md` "Stop 39") on 5,705 Investigator-turn starts of 400 games of
the heuristic on every seat (3 players, 5 Open Gates; seeds 1001-1400): per Open Gate, and
again per Open Gate times the Turn Tracker's progress (0 at the start, 1 when The Ancient One
Awakens: a Gate Open late costs three times one Open early), the progress itself, An Eye Opens,
per sane Investigator holding one or two Marbles (the next Loss drives them Insane, Opening a
Gate: most Gates Opened in these games were Opened that way, FW-INSANE-05), per hand that can
Close a Gate and the best hand's progress towards one (`_coverage`), and again per one-Marble
hand at the brink (An Eye Opened and four or more Gates Open, `AT_THE_BRINK`: one Insanity from
losing, FW-END-02; 3 won of 43 such turn starts against 55 of 220 without one; refitted at
stop 40 with that term, the others moved by at most 0.4). Doom was too rare at a
turn's start to fit; its weight is what one more Presence card costs in those games (about
0.12 Gates Opened, FW-ALLY-03) at a mid-game Gate's weight.

Why not `evaluate` squashed, as before: with four or five Gates Open it reads about -250,
where the squash is flat (4 Gates 0.018, 5 Gates 0.007), so the search's candidates differed
by less than its margin unless a play-out ended the game, and the normal level played the
heuristic's game (75 % against 68 %). The fit's chances spread over 0.1-0.9 from the first
turn. Features a move could game and the fit signs oddly (Horrors On the Streets, Insane
Investigators, who come back with a fresh hand) are left out: a fit says what goes with
winning, not what a move changes (stop 38).

Stop 46 tried a refit on the search's own games (`python -m bench.fourth_wall_value`, rules.md
"Stop 46"): on 2,315 turn starts of 203 games of the normal level these weights read every
position as less hopeful than it was (held-out log-loss 0.442 against the refit's 0.417), yet
the refit won 334 of the same 400 seeds these weights won 337 of (25 won only by it, 28 only by
these). Not kept: a better calibrated estimate did not play better."""


AT_THE_BRINK = 4
"""Open Gates after An Eye Opens at which one Investigator driven Insane loses the game
(the fifth Gate, FW-END-02 with the default five; FW-INSANE-05)."""


ALLIANCE_FEATURES = ("bias", "gate", "gate_time", "time", "revealed", "doom", "one_marble",
                     "one_marble_at_the_brink", "two_marbles", "can_close", "cover")
"""The terms of `ALLIANCE_LOGIT`, in the order `alliance_features` reads them (the fitter,
`bench.fourth_wall_value`, reads the same list)."""


def alliance_features(state: FourthWallState) -> list[float]:
    """The board as `ALLIANCE_LOGIT` reads it, one value per `ALLIANCE_FEATURES` name."""
    st = state
    eng = Engine(st)
    time = st.rank_index / max(1, len(eng.layout_ranks()) - 1)
    gates = len(st.gates)
    sane = [i for i in st.investigators if i.card and not i.insane]
    one_marble = sum(1 for i in sane if len(i.hand) == 1)
    at_the_brink = st.revealed and gates >= AT_THE_BRINK
    return [1.0, float(gates), gates * time, time, 1.0 if st.revealed else 0.0,
            float(st.doom + st.doom_deferred), float(one_marble),
            float(one_marble) if at_the_brink else 0.0,
            float(sum(1 for i in sane if len(i.hand) == 2)),
            float(sum(1 for i in sane if eng.meets(i.hand))),
            max((_coverage(eng, i.hand) for i in sane), default=0.0)]


def alliance_logit(state: FourthWallState) -> float:
    """`ALLIANCE_LOGIT` summed over the board (Alliance: every hand is the team's to read)."""
    return sum(ALLIANCE_LOGIT[n] * x
               for n, x in zip(ALLIANCE_FEATURES, alliance_features(state), strict=True))


def win_chance(state: FourthWallState, seat: str) -> float:
    """The chance that `seat`'s side wins, where the search AI's play-outs stop
    (`FourthWallGame.ai_value`): for The Wall in Conflict the fitted logistic of the public
    board (`WALL_LOGIT`); for the Investigators in Conflict a logistic of `evaluate` read
    with the team's hands (theirs to see, FW-SETUP-07); in Alliance the fitted logistic of the
    whole board (`ALLIANCE_LOGIT`: `evaluate` squashed was flat where Alliance is played).

    Why the Investigators do not read `WALL_LOGIT`: fitted on the heuristic's games, it weighs
    a Horror On the Streets *against* The Wall (its Symbols carry the threat, and the two are
    collinear), so Defeating a one-Symbol Horror (a Marble and a Symbol gone, a Horror gone)
    scored as a loss for the Investigators and Searching as a gain. Their search overruled the
    heuristic's Intervenes for Searches and Exploits, and lost Conflict deals the heuristic won
    (rules.md, "Stop 38"): a fit says what goes with winning, not what a move changes."""
    if state.outcome is not None:
        return 1.0 if (state.outcome == "wall") == (seat == state.wall_seat) else 0.0
    if state.mode == "conflict" and seat == state.wall_seat:
        return _squash(wall_logit(state))
    if state.mode == "alliance":
        return _squash(alliance_logit(state))
    return _squash(_value(state, seat) / VALUE_SCALE)


def _squash(z: float) -> float:
    """The logistic of `z`, clamped where `math.exp` would overflow."""
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + math.exp(-z))


def best_swap(state: FourthWallState, iid: str, partner: str,
              mine: str | None = None) -> tuple[str, str] | None:
    """The Trade (one of `iid`'s Marbles for one of `partner`'s) after which one of the two
    hands can Close a Gate though neither could before, keeping the most Symbols on the side
    that gets there; None when no Trade does that (then Trading only wastes an Action Point).
    With `mine` given, only swaps offering that Marble. The team reads both hands freely
    (FW-SETUP-07), so the Investigators' side may plan on them."""
    eng = Engine(state)
    a, b = eng.inv(iid), eng.inv(partner)
    if eng.meets(a.hand) or eng.meets(b.hand):
        return None
    best: tuple[str, str] | None = None
    best_key = (-1, -1)
    for m in ([mine] if mine is not None else eng.distinct(a.hand)):
        if m not in a.hand:
            continue
        for t in eng.distinct(b.hand):
            hand_a = list(a.hand)
            hand_a.remove(m)
            hand_a.append(t)
            hand_b = list(b.hand)
            hand_b.remove(t)
            hand_b.append(m)
            met = [h for h in (hand_a, hand_b) if eng.meets(h)]
            if not met:
                continue
            key = (len(met), -len(eng.marble(m).symbols) + len(eng.marble(t).symbols))
            if key > best_key:
                best, best_key = (m, t), key
    return best


def without_wasted_doom(state: FourthWallState, legal: list[Action]) -> list[Action]:
    """`legal` without ending a Wrath while Doom is left and a Delve is legal: the Doom left
    is lost (FW-WALL-10) and a Delve only adds a Horror to The Wall's hand (FW-WALL-05), so
    ending the turn there is never better. The normal search did it with 1–5 Doom left in 10
    of 241 Wall decisions (seeds 1–6, Conflict 4 players, `wrath_doom = 2`) where the heuristic
    Manifested or Delved: a few play-outs cannot tell a Horror held from none."""
    if not (state.phase == "wall" and state.wall_mode == "wrath" and state.doom > 0
            and not state.prompts and any(a.kind == K.DELVE for a in legal)):
        return legal
    return [a for a in legal if a.kind != K.END_TURN]


TRADES = frozenset({K.TRADE, K.FREE_TRADE, K.GIVE_OR_TRADE_TRADE})


def without_declined_trades(state: FourthWallState, legal: list[Action]) -> list[Action]:
    """`legal` without a Trade offered to a partner who declined one from the same
    Investigator this turn (`FourthWallState.declined_trades`; `legal` itself when nothing else
    is left). The same board asks the AI the same question, so it offered the refused Trade
    again and again: Alliance seed 103 at normal, six offers of one Marble for one in one free
    window, six declines — and a player declining would be asked as often."""
    if not state.declined_trades:
        return legal
    then = state.prompts[-1].data.get("then", {}) if state.prompts else {}
    offerer = str(then.get("args", {}).get("inv", "")) if isinstance(then, dict) else ""

    def refused(a: Action) -> bool:
        by = str(a.p("inv") or offerer)
        return a.kind in TRADES and f"{by}>{a.p('with')}" in state.declined_trades

    return [a for a in legal if not refused(a)] or legal


def gives_into_full_hand(state: FourthWallState, a: Action) -> bool:
    """Whether `a` hands a Marble to an Investigator already at its Hand Limit (a Give, a free
    Give, a card's Give or Trade): the Marble is discarded at once (FW-HAND-02). Hand sizes
    are public, so any seat may ask."""
    if a.kind not in (K.GIVE, K.FREE_GIVE, K.GIVE_OR_TRADE_GIVE):
        return False
    eng = Engine(state)
    to = str(a.p("to"))
    if not eng.has_inv(to):
        return False
    receiver = eng.inv(to)
    return len(receiver.hand) >= eng.hand_limit(receiver)


def _close_pick(eng: Engine, legal: list[Action]) -> Action:
    """Close a Gate selection: confirm when met, else the Marble adding the most missing
    Symbols (single-Symbol Marbles first, to keep the rest)."""
    for a in legal:
        if a.kind == K.CONFIRM:
            return a
    st = eng.st
    p = st.prompts[-1]
    chosen = [str(m) for m in p.data.get("then", {}).get("args", {}).get("selected", [])]
    have = _symbols_of(eng, chosen)
    _, extra = eng.gate_requirement()

    def gain(a: Action) -> tuple[int, int]:
        syms = eng.marble(str(a.p("marble"))).symbols
        new = sum(1 for s in set(syms) if have[s] == 0)
        ext = sum(1 for s in syms if extra[s] and have[s] <= extra[s])
        return (new + ext, -len(syms))

    sel = [a for a in legal if a.kind == K.SELECT]
    if sel:
        return max(sel, key=gain)
    return legal[0]


def _quick_policy(game: Game[Any, Any], state: FourthWallState, seat: str,
                  legal: list[Action]) -> Action:
    """A cheap answer for follow-up prompts inside a lookahead."""
    eng = Engine(state)
    kind = state.prompts[-1].kind if state.prompts else ""
    if kind == "close_select":
        return _close_pick(eng, legal)
    if kind in ("choose_horror", "blitz_card", "choose_marble", "choose_target") \
            and len(legal) <= 6:
        return _greedy(game, state, seat, legal)
    default = game.default_action(state, seat)
    return default if default is not None and default in legal else legal[0]


def _greedy(game: Game[Any, Any], state: FourthWallState, seat: str,
            legal: list[Action]) -> Action:
    best, best_v = legal[0], -1e18
    for a in legal:
        try:
            v = _value(_settle_losses(game, game.apply(state, seat, a).state, seat), seat)
        except IllegalAction:  # pragma: no cover - legal actions apply
            continue
        if v > best_v:
            best, best_v = a, v
    return best


def _rollout(game: Game[Any, Any], state: FourthWallState, seat: str) -> FourthWallState:
    """Answer `seat`'s own follow-up prompts with the quick policy (and, for The Wall, the
    Investigators' answers to the losses it inflicts, `_settle_losses`)."""
    for _ in range(ROLLOUT_STEPS):
        if game.result(state) is not None or not state.prompts:
            break
        if game.to_act(state) != {seat}:
            break
        legal = game.legal_actions(state, seat)
        if not legal:
            break
        # In place: `state` is the look-ahead's own copy (`apply`'s copy per step was a
        # third of the heuristic's CPU).
        game.apply_in_place(state, seat, _quick_policy(game, state, seat, legal))
    return _settle_losses(game, state, seat)


LOSS_PROMPTS = frozenset({"lose_choice", "holy_window"})


def _settle_losses(game: Game[Any, Any], state: FourthWallState,
                   seat: str) -> FourthWallState:
    """The Wall's look-ahead, past the Investigators' answer to a Loss it inflicted: a
    Trigger or Unique Action whose Target "Loses a Marble" (own choice) stops at that
    Investigator's prompt, so without this the look-ahead scored the Loss as nothing, the
    Target as any (the first offered), and an Investigator holding one Marble — Insane at
    the end of the Action, a Gate Opened (FW-INSANE-01, FW-INSANE-05) — no differently.
    The Investigator answers as the play-outs do (a quick-use Marble to ignore the Loss when
    it holds one, else the Marble with the fewest Symbols). Fair: `state` is a world
    resampled from The Wall's view (`Game.ai_action`), its hands dealt anew, and
    `evaluate` reads only their sizes for The Wall. The Investigators' own look-ahead is
    unchanged."""
    if seat != state.wall_seat or state.mode != "conflict":
        return state
    for _ in range(ROLLOUT_STEPS):
        if game.result(state) is not None or not state.prompts:
            break
        p = state.prompts[-1]
        if p.kind not in LOSS_PROMPTS or len(p.seats) != 1 or p.seats[0] == seat:
            break
        who = p.seats[0]
        legal = game.legal_actions(state, who)
        if not legal:
            break
        eng = Engine(state)
        react = [a for a in legal if a.kind == K.REACT]
        marbles = [a for a in legal if a.kind == K.CHOOSE_MARBLE]
        pick = react[0] if react else min(
            marbles, key=lambda a: len(eng.marble(str(a.p("marble"))).symbols)
        ) if marbles else next((a for a in legal if a.kind == K.DECLINE), legal[0])
        game.apply_in_place(state, who, pick)  # the look-ahead's own copy, as in `_rollout`
    return state


def _estimate(state: FourthWallState, seat: str, a: Action, base: float) -> float:
    """Actions whose result is a random draw or the end of a turn: a fixed estimate."""
    eng = Engine(state)
    inv = eng.inv(str(a.p("inv"))) if a.p("inv") and eng.has_inv(str(a.p("inv"))) else \
        eng.active()
    if a.kind == K.SEARCH and inv is not None:
        n, limit = len(inv.hand), eng.hand_limit(inv)
        if n >= limit:
            return base + 0.3
        return base + MARBLE + LOW_HAND.get(n, 0.0) - LOW_HAND.get(n + 1, 0.0) + 1.0
    if a.kind == K.REGROUP and inv is not None:
        n, limit = len(inv.hand), eng.hand_limit(inv)
        gain = min(max(2, limit - n), max(0, limit - n))
        return base + (MARBLE + 0.5) * gain + LOW_HAND.get(n, 0.0) - 7.5
    if a.kind == K.DELVE:
        return base + WALL_CARD - 0.5 + POOL_DOOM * 0  # Doom left is lost anyway
    if a.kind in (K.PASS, K.END_TURN):
        return base - 0.1
    return base


def _trade_value(state: FourthWallState, seat: str, a: Action, base: float) -> float:
    """A Trade is worth the state after the best swap (`best_swap`), when one lets a hand
    Close a Gate; otherwise it only spends an Action Point. Scored without the engine's three
    prompts (which Marble, which of theirs, the partner's consent), which `_prompt_choice`
    answers with the same swap."""
    swap = best_swap(state, str(a.p("inv")), str(a.p("with")))
    if swap is None:
        return base - 1.0
    after = state.model_copy(deep=True)
    eng = Engine(after)
    me, partner = eng.inv(str(a.p("inv"))), eng.inv(str(a.p("with")))
    me.hand.remove(swap[0])
    partner.hand.remove(swap[1])
    me.hand.append(swap[1])
    partner.hand.append(swap[0])
    return _value(after, seat)


def _brood_pays(state: FourthWallState) -> bool:
    """Brood (wake Drained Horrors, unleash The Scourge, keep the Doom) when The Scourge would
    block a hand ready to Close a Gate, or when several Horrors wait Drained."""
    eng = Engine(state)
    st = state
    if not st.streets:
        return False
    drained = sum(1 for h in st.streets if h.drained)
    hands_ready = any(len(i.hand) >= 3 for i in st.investigators if not i.insane)
    scourge_useful = st.scourge is None and hands_ready and len(st.gates) <= 3
    if st.scourge is None:
        return True
    return (scourge_useful and drained >= 1) or drained >= 2 or (
        scourge_useful and not st.wall_hand and st.doom == 0) or (
        eng.stage() == "slumber" and scourge_useful and len(st.gates) <= 2)


def _prompt_choice(game: Game[Any, Any], state: FourthWallState, seat: str,
                   legal: list[Action]) -> Action | None:
    """Prompt answers settled by a rule of thumb (or None: score them)."""
    eng = Engine(state)
    p = state.prompts[-1]
    kinds = {a.kind: a for a in legal}
    if p.kind == "keep_investigator":
        return max(legal, key=lambda a: (
            eng.investigator_card(str(a.p("card"))).sanity, -legal.index(a)))
    if p.kind == "close_select":
        return _close_pick(eng, legal)
    if p.kind in ("wall_doom", "gate_doom") and K.TAKE_DOOM in kinds:
        return kinds[K.TAKE_DOOM]
    if p.kind in ("holy_window", "blitz_window") and K.REACT in kinds:
        return kinds[K.REACT]
    if p.kind == "free_trade" and K.DONE in kinds and int(
            p.data.get("then", {}).get("args", {}).get("count", 0)) >= AI_FREE_EXCHANGES:
        return kinds[K.DONE]
    if p.kind in ("trade_mine", "trade_theirs"):  # the Trade planned in `choose_action`
        args = p.data.get("then", {}).get("args", {})
        iid, partner = str(args.get("inv", "")), str(args.get("with", ""))
        if eng.has_inv(iid) and eng.has_inv(partner):
            mine = str(args["mine"]) if p.kind == "trade_theirs" and "mine" in args else None
            swap = best_swap(state, iid, partner, mine)
            want = None if swap is None else swap[0] if p.kind == "trade_mine" else swap[1]
            pick = next((a for a in legal if a.kind == K.CHOOSE_MARBLE
                         and a.p("marble") == want), None)
            if pick is not None:
                return pick
    if p.kind == "regroup_offer":
        return kinds.get(K.ACCEPT, legal[0])
    if p.kind == "regroup_draw":
        n_draw, n_limit = int(p.data.get("n_draw", 0)), int(p.data.get("n_limit", 0))
        want = "limit" if n_limit > n_draw else "n"
        return next((a for a in legal if a.p("mode") == want), legal[0])
    if p.kind == "wall_choice":  # the Marble with the most Symbols (The Wall sees this hand)
        return max(legal, key=lambda a: (len(eng.marble(str(a.p("marble"))).symbols),
                                         -legal.index(a)))
    if p.kind == "scourge":  # the Horror hardest to Defeat (`scourge_hardness`)
        sc = [a for a in legal if a.kind == K.SCOURGE]
        if sc:
            def hardness(a: Action) -> tuple[int, int]:
                hid = str(a.p("horror"))
                h = next(x for x in state.streets if x.id == hid)
                return scourge_hardness(_left(eng, h))
            return max(sc, key=lambda a: (hardness(a), -legal.index(a)))
    if p.kind == "discard_excess" or p.kind == "lose_choice":
        return _greedy(game, state, seat, legal)
    return None


def choose_action(state: FourthWallState, seat: str, game: Game[Any, Any]) -> Action:
    """The AI's action for `seat` (one of `game`'s legal actions). The game object is handed
    in by `Game.ai_action`, so the AI plays by the game's contract without importing it."""
    legal: list[Action] = without_declined_trades(state, game.legal_actions(state, seat))
    if not legal:
        raise IllegalAction("Nothing to do.", rule="CORE-TURN")
    if len(legal) == 1:
        return legal[0]
    if state.prompts and seat in state.prompts[-1].seats:
        picked = _prompt_choice(game, state, seat, legal)
        if picked is not None:
            return picked
    if state.phase == "wall" and not state.prompts:
        kinds = {a.kind: a for a in legal}
        if K.WRATH in kinds and K.BROOD in kinds:
            return kinds[K.BROOD] if _brood_pays(state) else kinds[K.WRATH]
    if state.refunds >= AI_CANCELS_PER_TURN and not state.prompts:
        kept = [a for a in legal if a.kind not in (K.TRADE, K.CLOSE_GATE)]
        legal = kept or legal
    # A Give into a full hand costs the team a Marble (issue #23's blunder): a Trade does the
    # same work without the discard (`best_swap`).
    legal = [a for a in legal if not gives_into_full_hand(state, a)] or legal
    base = _value(state, seat)
    worlds: list[FourthWallState] = []
    best, best_v = legal[0], -1e18
    for a in legal:
        if a.kind in NO_LOOKAHEAD:
            v = _estimate(state, seat, a, base)
        elif a.kind == K.TRADE:
            v = _trade_value(state, seat, a, base)
        elif a.kind == K.FREE_TRADE and state.prompts:
            # A free Trade after Regrouping (FW-ACT-08 d) is worth its best swap too: one
            # letting no hand Close only churns Marbles (stop 68's demo: the Bruiser and the
            # Scrounger traded six times in one window, twelve lines in the thread).
            inv = str(state.prompts[-1].data.get("then", {}).get("args", {}).get("inv", ""))
            if best_swap(state, inv, str(a.p("with"))) is None:
                continue  # Done (or a Give) is as good, and says less
            v = _trade_value(state, seat, Action(kind=K.TRADE, params={
                "inv": inv, "with": a.p("with")}), base)
        else:
            if a.kind in DRAWING and not worlds:
                worlds = _worlds(game, state, seat)
            values = []
            for world in worlds if a.kind in DRAWING else [state]:
                try:
                    after = game.apply(world, seat, a).state
                except IllegalAction:  # pragma: no cover - legal in every world
                    continue
                values.append(_value(_rollout(game, after, seat), seat))
            if not values:  # pragma: no cover
                continue
            v = sum(values) / len(values)
            if a.kind == K.CANCEL:
                v -= 0.5
        if v > best_v + 1e-9:
            best, best_v = a, v
    return best


def _left(eng: Engine, h: Any) -> Counter[str]:
    """The Symbols a Horror On the Streets still needs to be Defeated."""
    att = eng.attached_symbols(h)
    return Counter({s: n - att[s] for s, n in eng.defeat_cost(h.id).items() if n > att[s]})


def scourge_hardness(left: Counter[str]) -> tuple[int, int]:
    """How hard a Horror still needing `left` is to Defeat as The Scourge: the Symbols it
    needs, then the most of any one kind (a Ghoul's Force, Force before a Restless Spirit's
    Clue, Science). An Investigator breaking The Scourge must hold (or be given) every one of
    them, and two of a kind are rarer in a hand than one each of two. Read off the easy
    Wall's Conflict games (4 players, seeds 1-100, every Investigator turn begun under The
    Scourge): with two Symbols still needed, a Breaker (Clue, Clue) stood through 115 of
    171 such turns (67 %) and a Ghoul (Force, Force) 132 of 223 (59 %), a Restless Spirit
    (Clue, Science) 25 of 64 (39 %) and a Cult Leader (Clue, Force) 5 of 10; each turn it
    stands is a Gate not Closed (FW-SCOURGE-03)."""
    return sum(left.values()), max(left.values(), default=0)


def _scourge_needs(eng: Engine) -> Counter[str]:
    st = eng.st
    h = next((x for x in st.streets if x.id == st.scourge), None)
    return _left(eng, h) if h is not None else Counter()


def playout_action(state: FourthWallState, seat: str, game: Game[Any, Any],
                   legal: list[Action] | None = None) -> Action:
    """A cheap stand-in for `choose_action` inside the search's play-outs (`FourthWallGame`
    searches with it): rules of thumb, no look-ahead, no copy of the state. It plays the plans
    that decide Conflict games — Investigators Close a Gate when they can and otherwise break
    The Scourge (Intervening on it only when the turn Defeats it or puts two Symbols on it,
    else Giving its missing Symbols to the teammate who holds the rest, `scourge_pays`); The
    Wall keeps The Scourge standing (Destroys what is Attached to it, Broods
    to place it again) and spends the rest of its Doom on Horrors; in Alliance an Investigator
    who cannot Close Trades first when a swap lets one of the two hands Close (`best_swap`) —
    so a play-out of a few turns costs about what one `choose_action` does. `legal`, when given, is
    `game.legal_actions(state, seat)` already computed by the caller; the pick is one of its
    elements."""
    if legal is None:
        legal = game.legal_actions(state, seat)
    if not legal:
        raise IllegalAction("Nothing to do.", rule="CORE-TURN")
    if len(legal) == 1:
        return legal[0]
    eng = Engine(state)
    by_kind: dict[str, list[Action]] = {}
    for a in legal:
        by_kind.setdefault(a.kind, []).append(a)
    if state.prompts and seat in state.prompts[-1].seats:
        return _playout_prompt(game, eng, state, seat, legal, by_kind)
    if state.phase == "wall":
        return _playout_wall(eng, state, by_kind, legal)
    return _playout_investigator(eng, state, by_kind, legal)


def _playout_prompt(game: Game[Any, Any], eng: Engine, state: FourthWallState, seat: str,
                    legal: list[Action], by_kind: dict[str, list[Action]]) -> Action:
    p = state.prompts[-1]
    if p.kind == "choose_target" and K.CHOOSE_INVESTIGATOR in by_kind:
        # The Wall's Target: the smallest hand (public), where a Loss drives an Investigator
        # Insane and Opens a Gate soonest (FW-INSANE-05; `_settle_losses`). Never an empty
        # hand: that Loss fails the card and gives the Investigators an Elected Regroup
        # (FW-INSTR-05; stop 69's demo: Restless Spirit's second Loss on the Bruiser its
        # first had emptied).
        def hand(a: Action) -> int:
            return len(eng.inv(str(a.p("inv"))).hand)
        return min(by_kind[K.CHOOSE_INVESTIGATOR], key=lambda a: (hand(a) == 0, hand(a)))
    if p.kind in ("discard_excess", "lose_choice"):  # keep the Marbles with the most Symbols
        marbles = by_kind.get(K.CHOOSE_MARBLE)
        if marbles:
            return min(marbles, key=lambda a: len(eng.marble(str(a.p("marble"))).symbols))
    if p.kind != "free_trade":
        picked = _prompt_choice(game, state, seat, legal) if p.kind not in (
            "discard_excess", "lose_choice") else None
        if picked is not None:
            return picked
    if K.CHOOSE_HORROR in by_kind:  # Attach to The Scourge, else the Horror nearest its end
        def rank(a: Action) -> tuple[bool, int]:
            h = next((x for x in state.streets if x.id == str(a.p("horror"))), None)
            return (h is not None and h.id == state.scourge,
                    -sum(_left(eng, h).values()) if h is not None else -99)
        return max(by_kind[K.CHOOSE_HORROR], key=rank)
    needs = _scourge_needs(eng)
    if K.CHOOSE_MARBLE in by_kind and p.kind == "give_marble" and needs:
        # The Give `_pool_for_scourge` planned: the Marble The Scourge needs most.
        return max(by_kind[K.CHOOSE_MARBLE],
                   key=lambda a: _useful(eng, str(a.p("marble")), needs))
    if K.CHOOSE_MARBLE in by_kind and p.kind in ("give_pick", "trade_mine", "trade_theirs"):
        return by_kind[K.CHOOSE_MARBLE][0]
    for pref in (K.DONE, K.TAKE_DOOM, K.ACCEPT, K.CONFIRM, K.KEEP_SCOURGE, K.DECLINE, K.STOP):
        if pref in by_kind:
            return by_kind[pref][0]
    default = game.default_action(state, seat)
    return default if default is not None and default in legal else legal[0]


def _playout_wall(eng: Engine, state: FourthWallState, by_kind: dict[str, list[Action]],
                  legal: list[Action]) -> Action:
    if K.WRATH in by_kind and K.BROOD in by_kind:
        return by_kind[K.BROOD][0] if _brood_pays(state) else by_kind[K.WRATH][0]
    if K.DESTROY in by_kind and state.scourge is not None:
        h = next((x for x in state.streets if x.id == state.scourge), None)
        on_scourge = [a for a in by_kind[K.DESTROY] if h is not None
                      and str(a.p("marble")) in h.attached]
        if on_scourge:
            return on_scourge[0]
    for kind in (K.WALL_UNIQUE, K.TRIGGER):
        if kind in by_kind:
            return by_kind[kind][0]
    if K.MANIFEST in by_kind:  # the Horror hardest to Defeat: the next Scourge
        return max(by_kind[K.MANIFEST],
                   key=lambda a: sum(eng.defeat_cost(str(a.p("horror"))).values()))
    if K.DELVE in by_kind:
        return by_kind[K.DELVE][0]
    return by_kind.get(K.END_TURN, legal)[0]


def _useful(eng: Engine, marble: str, needs: Counter[str]) -> int:
    """How many of `needs` (Symbols a Horror still lacks) one Marble Attached would meet."""
    have: Counter[str] = Counter(eng.marble(marble).symbols)
    return sum(min(n, have[s]) for s, n in needs.items())


def scourge_attack(eng: Engine, hand: list[str], ap: int) -> tuple[list[str], int]:
    """The Marbles of `hand` (at most `ap`, one Intervene each) that, Attached to The Scourge
    this turn, leave it the fewest Symbols short, most useful first; and how many Symbols it
    would still lack (0: Defeated this turn). ([], 0) with no Scourge On the Streets."""
    needs = _scourge_needs(eng)
    picked: list[str] = []
    for _ in range(max(0, ap)):
        rest = [m for m in hand if m not in picked]
        if not rest or not needs:
            break
        best = max(rest, key=lambda m: (_useful(eng, m, needs), -len(eng.marble(m).symbols)))
        if _useful(eng, best, needs) == 0:
            break
        picked.append(best)
        needs = needs - Counter[str](eng.marble(best).symbols)
    return picked, sum(needs.values())


def scourge_pays(eng: Engine, hand: list[str], ap: int) -> bool:
    """Whether Intervening on The Scourge this turn gets anywhere: it is Defeated this turn, or
    at least two Symbols go on it. A lone Marble on a Scourge it cannot Defeat is Destroyed at
    The Wall's next Wrath (FW-WALL-07, 1 Doom, what a Wrath gains): the Marble is lost and The
    Scourge stands as before — the easy AI's habit in the Conflict games it loses (seeds 32,
    46, 51, 56: The Scourge standing for five rounds while single Clues went on it and off)."""
    picked, short = scourge_attack(eng, hand, ap)
    attached = sum(_useful(eng, m, _scourge_needs(eng)) for m in picked)
    return bool(picked) and (short == 0 or attached >= 2)


def _pool_for_scourge(eng: Engine, state: FourthWallState, inv: InvestigatorState,
                      by_kind: dict[str, list[Action]]) -> Action | None:
    """A Give that gathers The Scourge's missing Symbols in one teammate's hand (one with
    room, FW-HAND-02), so that teammate can put two or more on it in one turn."""
    needs = _scourge_needs(eng)
    if not needs or not any(_useful(eng, m, needs) for m in inv.hand):
        return None
    best: tuple[int, Action] | None = None
    for a in by_kind.get(K.GIVE, []):
        to = str(a.p("to"))
        if not eng.has_inv(to):
            continue
        mate = eng.inv(to)
        if mate.insane or len(mate.hand) >= eng.hand_limit(mate):
            continue
        held = sum(_useful(eng, m, needs) for m in mate.hand)
        if held and (best is None or held > best[0]):
            best = (held, a)
    return best[1] if best is not None else None


def brink_give(eng: Engine, state: FourthWallState, inv: InvestigatorState,
               by_kind: dict[str, list[Action]]) -> Action | None:
    """At the brink (An Eye Opened, `AT_THE_BRINK` or more Gates Open): a Give from a hand of
    three or more Marbles to a sane teammate holding one, the first the Target Token reaches
    (it passes anticlockwise, FW-TARGET-03): that teammate's next Loss drives them Insane and
    Opens the last Gate (FW-INSANE-05, FW-END-02). Three in four of the normal level's Alliance
    losses were that (rules.md, "Stop 46"), and the play-outs never padded such a hand, so the
    search could not see the Give pay. Hand sizes and the Token are public."""
    st = state
    if not st.revealed or len(st.gates) < AT_THE_BRINK or len(inv.hand) < 3 \
            or K.GIVE not in by_kind or st.target is None or not eng.has_inv(st.target):
        return None
    order: list[str] = []
    at: str | None = st.target
    for _ in st.investigators:
        if at is None or at in order:
            break
        order.append(at)
        at = eng.next_sane_anticlockwise(at)
    for iid in order:
        mate = eng.inv(iid)
        if iid == inv.id or mate.insane or len(mate.hand) > 1:
            continue
        give = next((a for a in by_kind[K.GIVE] if a.p("to") == iid), None)
        if give is not None:
            return give
    return None


def _playout_investigator(eng: Engine, state: FourthWallState,
                          by_kind: dict[str, list[Action]], legal: list[Action]) -> Action:
    if K.CLOSE_GATE in by_kind and state.ap >= 2:
        return by_kind[K.CLOSE_GATE][0]
    inv = eng.active()
    needs = _scourge_needs(eng)
    if needs and K.INTERVENE in by_kind and inv is not None:
        picked, _ = scourge_attack(eng, inv.hand, state.ap)
        scourge = next((h for h in state.streets if h.id == state.scourge), None)
        # With an Action Point left and a Marble already on it, a second one still gains
        # more than the one Destroy The Wall's next Wrath can take back.
        followup = picked and state.ap < 2 and scourge is not None and bool(scourge.attached)
        if scourge_pays(eng, inv.hand, state.ap) or followup:
            want = picked[0]
            pick = next((a for a in by_kind[K.INTERVENE] if a.p("marble") == want), None)
            if pick is not None:
                return pick
        pool = _pool_for_scourge(eng, state, inv, by_kind)
        if pool is not None:
            return pool
    if state.mode == "alliance" and inv is not None:
        pad = brink_give(eng, state, inv, by_kind)
        if pad is not None:
            return pad
        # The team reads every hand (FW-SETUP-07): a Trade after which one of the two hands
        # can Close a Gate (`best_swap`; the Trade's prompts answer with the same swap).
        swap = next((a for a in by_kind.get(K.TRADE, [])
                     if best_swap(state, inv.id, str(a.p("with"))) is not None), None)
        if swap is not None:
            return swap
    if inv is not None and K.SEARCH in by_kind and len(inv.hand) < eng.hand_limit(inv):
        return by_kind[K.SEARCH][0]
    if K.REGROUP in by_kind and inv is not None and len(inv.hand) <= 1:
        return by_kind[K.REGROUP][0]
    for kind in (K.PASS, K.END_TURN):
        if kind in by_kind:
            return by_kind[kind][0]
    return legal[0]


def plans(state: FourthWallState, seat: str, game: Game[Any, Any]) -> list[Action]:
    """The moves the search must weigh at a decision, whatever its width leaves out
    (`FourthWall.ai_plans`): the play-out policy's own pick and, on an Investigator's turn
    while The Scourge stands, Intervening with the Marble that meets most of what it lacks
    (followed through by the play-outs) and Searching for the Symbols it needs. Without
    them a random eight of 15–25 legal actions often held neither, and the search could only
    keep the heuristic's single Marble on The Scourge."""
    legal = game.legal_actions(state, seat)
    if len(legal) <= 1:
        return legal
    out = [playout_action(state, seat, game)]
    eng = Engine(state)
    inv = eng.active()
    if state.phase == "investigator" and not state.prompts and inv is not None \
            and state.scourge is not None:
        picked, _ = scourge_attack(eng, inv.hand, state.ap)
        out += [a for a in legal if a.kind == K.INTERVENE and picked
                and a.p("marble") == picked[0]][:1]
        out += [a for a in legal if a.kind == K.SEARCH][:1]
    return out


def _worlds(game: Game[Any, Any], state: FourthWallState, seat: str) -> list[FourthWallState]:
    """`state` and `WORLDS - 1` states resampled from `seat`'s view of it, with an RNG seeded
    from that view: what is hidden from the seat cannot change which worlds are drawn."""
    from rules.core.hidden import view_rng

    rng = view_rng(game, state, seat, "fourth_wall-ai-worlds")
    return [state, *(game.resample(state, seat, Rng.from_seed(rng.next_u64()))
                     for _ in range(WORLDS - 1))]


__all__ = ["best_swap", "choose_action", "evaluate", "gives_into_full_hand", "plans",
           "playout_action", "scourge_attack", "scourge_pays", "win_chance",
           "without_declined_trades", "without_wasted_doom"]
