"""The blunder census of `python -m bench ai`: moves a watching player would call mistakes.

`census(game, history, result)` counts, over one whole game's history of
``(state before, seat, action, state after)``:

- ``back_and_forth``: a seat's pawn comes back, within one turn, to the place it left two of
  its moves ago, having done nothing but walk in between (Presence visitors; Exorcism
  investigators, each pawn of a Solo player on its own, a Move or a moving Plan a walk);
- ``idle_end_before_loss`` (Exorcism): a turn ended (``pass``) with Actions left and a useful
  one still legal (`_useful`: not the Foyer's switch, a Move only with an Action after it,
  a Trade only of a spare Tool a teammate's Task lacks),
  the investigators lost before that seat's next turn began, and one of those Actions would
  have changed the outcome (`_wins_instead`: played out on the real deal, the game is won):
  an idle end before a loss nothing the seat did could turn is not a blunder;
- ``repeated_invoke`` (The Presence): an Invoke aimed at a position where one already failed,
  with nothing beneath it since that could match;
- ``idle_with_invoke`` (The Presence): a late turn (round 7 on) ended with main actions left
  while the visitor could play its Invoke card at a secret worth trying;
- ``idle_rest`` (The Presence): a Rest the visitor chose (not one it must take) that let no
  card go and ended with the player's hand as it began, nothing drawn: a main action spent
  on nothing (a two-player visitor player resting its full hand of 7, P-2P-03);
- ``unused_spirit_card`` (The Presence): a spirit card played (its die declared) and put
  away without using either power (P-SPIRIT-11): the engine offers only a die that can pay
  one, and discarding the card for Increase Presence would at least have raised a die;
- ``give_into_full_hand`` (Fourth Wall): a Marble given to an Investigator whose hand was
  already at its Hand Limit.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules.core.types import Action, Result

Step = tuple[Any, str, Action, Any]


def _place(game: str, state: Any, seat: str) -> str | None:
    """Where the seat's own pawn stands, for the games where a seat walks one pawn."""
    if game == "presence":
        visitor = state.visitors.get(seat)
        return visitor.room if visitor else None
    if game == "exorcism":
        cells = [i.cell for i in state.investigators.values()
                 if i.seat == seat and i.role != "secondary" and not i.escaped]
        return cells[0] if len(cells) == 1 else None
    return None


def _turn(state: Any) -> str:
    return ".".join(str(getattr(state, f)) for f in ("round", "game_turn", "turn_index", "active")
                    if hasattr(state, f))


def _back_and_forth(game: str, history: Sequence[Step]) -> int:
    count = 0
    # per seat: the places its pawn stood after each of its moves in the current turn
    trail: dict[str, list[str | None]] = {}
    turn_of: dict[str, str] = {}
    for before, seat, _action, after in history:
        if game not in ("presence", "exorcism"):
            return 0
        turn = _turn(before)
        if turn_of.get(seat) != turn:
            turn_of[seat] = turn
            trail[seat] = [_place(game, before, seat)]
        here, there = _place(game, before, seat), _place(game, after, seat)
        if here == there:
            # anything other than a step (or a step that stayed) breaks the walk
            trail[seat] = [there]
            continue
        trail[seat].append(there)
        walk = trail[seat]
        if len(walk) >= 3 and walk[-1] == walk[-3] and walk[-1] is not None:
            count += 1
    return count


def _exorcism_back_and_forth(history: Sequence[Step]) -> int:
    """Per investigator (a Solo player walks two pawns): within one turn of its seat, a pawn
    that walks back to where it stood two walks ago, with nothing but walking in between. A
    walk is a Move, or a Plan that moved the pawn (Extra Move); any other action of the seat
    (a Purify, a prompt's answer ...) breaks the walk, as does the turn's end."""
    count = 0
    trail: dict[str, list[str | None]] = {}
    turn_of: dict[str, tuple[int, str | None]] = {}
    for before, seat, action, after in history:
        mine = [i for i in before.investigators.values() if i.seat == seat]
        if not mine:
            continue
        turn = (before.game_turn, before.active)
        walked = action.kind in ("move", "plan")
        for inv in mine:
            here = inv.cell
            there = after.investigators[inv.id].cell if inv.id in after.investigators else None
            if action.kind == "move" and action.params.get("to") is not None \
                    and action.params.get("who") in (None, inv.role):
                # Where the pawn stepped, not where `after` shows it: a Move that ends the
                # turn runs the Haunt phase too, which may Wound it there and put it (or the
                # Lookout taking over) in the Foyer — the game's move, not a walk back (seed
                # 390, core 3p under EX-GAP-17: foyer, Locked Room, Supply Room, Wounded).
                there = str(action.params["to"])
            if turn_of.get(inv.id) != turn or not walked or before.active != seat:
                turn_of[inv.id] = turn
                trail[inv.id] = [here]
            if not walked or here == there or there is None:
                trail[inv.id] = [there]
                continue
            walk = trail[inv.id]
            walk.append(there)
            if len(walk) >= 3 and walk[-1] == walk[-3]:
                count += 1
    return count


def _useful(before: Any, action: Action) -> bool:
    """An Action that could have changed the game this turn: not ending it, not a Plan (free,
    and counted elsewhere), not the Foyer's switch (it changes no Darkness, no Tool, no
    point), and a Move only with an Action left after it to do something where it leads."""
    if action.kind in ("pass", "plan"):
        return False
    if action.kind == "room_action":
        who = action.params.get("who")
        pawns = [i for i in before.investigators.values()
                 if i.seat == before.active and (who is None or i.role == who)]
        return not all(i.cell == "foyer" for i in pawns)
    if action.kind == "move":
        return bool(before.actions_left >= 2)
    if action.kind == "trade":
        return _trade_helps(before, action)
    return True


def _trade_helps(before: Any, action: Action) -> bool:
    """A Trade could change the game only by moving a Tool to where a held Task lacks it: one
    of the two pawns holds more of a Tool type than its own seat's Tasks ask for, and the
    other's seat's Tasks need more of it than that pawn holds (a Trade of Tools no Task wants,
    or of a Tool its holder's own Task needs, only moves the lack)."""
    from rules.exorcism.engine import Engine

    pack = Engine(before).pack
    who = action.params.get("who")
    mine = [i for i in before.investigators.values()
            if i.seat == before.active and (who is None or i.id == who)]
    partner = before.investigators.get(str(action.params.get("with")))
    if not mine or partner is None:
        return False

    def need(inv: Any, tool: str) -> int:
        return sum(pack.task(t).cost().get(tool, 0) for t in before.players[inv.seat].tasks)

    def spares_what_other_lacks(giver: Any, taker: Any) -> bool:
        return any(n > need(giver, t) and need(taker, t) > taker.tools.get(t, 0)
                   for t, n in giver.tools.items())

    a, b = mine[0], partner
    return spares_what_other_lacks(a, b) or spares_what_other_lacks(b, a)


def _idle_end_before_loss(history: Sequence[Step], result: Result | None) -> int:
    """Exorcism: ``pass`` with Actions left and another main action legal, by a seat on the
    losing side, and no turn of that seat's began before the game ended."""
    if result is None or not history:
        return 0
    from rules.exorcism.engine import Engine

    count = 0
    for k, (before, seat, action, _after) in enumerate(history):
        if action.kind != "pass" or seat not in result.losers:
            continue
        if before.actions_left <= 0 or before.active != seat or before.phase != "actions":
            continue
        useful = [a for a in Engine(before).legal(seat) if _useful(before, a)]
        if not useful:
            continue  # nothing that could change the game was left to do
        if any(b.active == seat and b.game_turn != before.game_turn
               for b, _s, _a, _x in history[k + 1:]):
            continue  # that seat's next turn came before the loss
        if _wins_instead(before, seat, useful):
            count += 1  # an Action was left that would have won the game
    return count


AVERT_DECISIONS = 3000
"""How many decisions a counterfactual of `_wins_instead` plays at most (a whole One vs All
game is about 300)."""


def _wins_instead(before: Any, seat: str, useful: list[Action]) -> bool:
    """Whether some use of the Actions `seat` left when it ended its turn would have changed
    the outcome: the game, lost as played, won instead, on the real deal.

    The judge of the census, not an AI: it plays each alternative on the true state (the
    same Haunt deck, the same dice), the seat's first Action one of `useful`, after a Move
    also each Action at its end that is not another Move (a Purify, a Task, the Room's
    Action), then every seat as the easy AI plays, to the game's end. An idle turn end
    counts as a blunder only if one of them wins: a pawn waiting in the Foyer while dawn
    comes, a game that the next Haunt card loses whatever the pawn does, or a step out of
    the Foyer that only moves the Ghost player's Wound onto a teammate and the loss to the
    next turn (One vs All seed 40: 4 points at game turn 44) is not a blunder, the outcome
    was settled; a pawn that could have purified the Room that then takes the game's
    losing token, the game still winnable, is."""
    from rules.core.errors import IllegalAction
    from rules.exorcism.engine import Engine
    from rules.exorcism.game import GAME

    def survives(state: Any) -> bool:
        for _ in range(AVERT_DECISIONS):
            result = GAME.result(state)
            if result is not None:
                return seat in result.winners
            mover = sorted(GAME.to_act(state))[0]
            try:
                state = GAME.apply(state, mover, GAME.ai_action(state, mover)).state
            except IllegalAction:
                return False
        return False  # no end in sight: not shown to win

    def then(state: Any) -> list[Any]:
        """`state` as it stands (the heuristic goes on), and after each non-Move useful
        Action the seat could take next in this turn."""
        out = [state]
        if state.active != seat or state.phase != "actions" or state.prompts:
            return out
        for a in Engine(state).legal(seat):
            if a.kind != "move" and _useful(state, a):
                out.append(GAME.apply(state, seat, a).state)
        return out

    for first in useful:
        try:
            after = GAME.apply(before, seat, first).state
        except IllegalAction:
            continue
        lines = then(after) if first.kind == "move" else [after]
        if any(survives(line) for line in lines):
            return True
    return False


LATE_ROUND = 7
"""The Presence: from this round on four secrets by round 9 leave no turn to waste."""


Failures = dict[int, int]
"""The Presence: position (1-based) -> how many clue cards lay beneath it at the latest
failed Invoke there, as the census saw in the history (not read from the engine's own
record, so the census also measures an engine that keeps none)."""


def _disproven(state: Any, position: int, failures: Failures) -> bool:
    """The Presence: an Invoke at `position` cannot succeed, as the table can see: an Invoke
    there already failed, and every clue card beneath now is of a trauma that lay beneath at
    that failure (the secret does not move, so the same evidence fails again). In Mystery
    Mode the discards lie face down: only "nothing added since" proves it."""
    from rules.presence.engine import Engine

    slot = state.secrets[position - 1]
    if slot.revealed or position not in failures:
        return False
    seen = failures[position]
    if len(slot.discards) <= seen:
        return True
    if state.mystery:
        return False
    pack = Engine(state).pack

    def traumas(cards: list[str]) -> set[str]:
        return {pack.clue_card(c).trauma for c in cards if not pack.is_fear_card(c)}
    return traumas(slot.discards) <= traumas(slot.discards[:seen])


def _invoke_position(before: Any, action: Action) -> int | None:
    """The position an answer names when it picks the secret an Invoke tries to reveal."""
    if action.kind != "choose" or not getattr(before, "prompts", None):
        return None
    if before.prompts[-1].data.get("then") != "reveal_secret":
        return None
    option = str(action.params.get("option", ""))
    return int(option) if option.isdigit() else None


def _invokes(history: Sequence[Step]) -> list[tuple[int, Failures]]:
    """Per step of `history`: the failures seen before it (a fresh dict at every change)."""
    failures: Failures = {}
    out: list[tuple[int, Failures]] = []
    for k, (before, _seat, action, after) in enumerate(history):
        out.append((k, failures))
        position = _invoke_position(before, action)
        if position is not None and not after.secrets[position - 1].revealed:
            failures = {**failures, position: len(before.secrets[position - 1].discards)}
    return out


def _repeated_invoke(history: Sequence[Step]) -> int:
    """The Presence: Invokes aimed at a position whose failure the table already saw, with
    nothing new beneath it that could match (`_disproven`)."""
    count = 0
    for k, failures in _invokes(history):
        before, _seat, action, _after = history[k]
        position = _invoke_position(before, action)
        if position is not None and _disproven(before, position, failures):
            count += 1
    return count


GIVE_KINDS = ("give", "free_give", "give_to")
"""Fourth Wall's ways to hand a Marble over (`rules.fourth_wall.actions`: GIVE, FREE_GIVE,
GIVE_OR_TRADE_GIVE), each naming the receiving Investigator by id in ``to``."""


def _invoke_worth_trying(state: Any, failures: Failures) -> bool:
    """Some unrevealed secret may match a clue card beneath it, as the table can tell: in
    some placing of the traumas not yet revealed on the unrevealed positions that every
    failure allows (a failed position holds none of the traumas beneath it then) and the
    face-up card counts allow (no more cards of a trauma than its position prints), a card
    of its trauma lies beneath it. Mystery Mode: a position with a card added since its
    last failure (nobody but the spirit can read them)."""
    from itertools import permutations

    from rules.presence.engine import Engine

    if state.mystery:
        return any(not s.revealed and len(s.discards) > failures.get(s.position, 0)
                   for s in state.secrets)
    pack = Engine(state).pack

    def traumas(cards: list[str]) -> set[str]:
        return {pack.clue_card(c).trauma for c in cards if not pack.is_fear_card(c)}
    hidden = [s for s in state.secrets if not s.revealed]
    left = {pack.secret(s.card).trauma for s in hidden}  # the revealed ones are known
    # a position's trauma has only so many clue cards (its printed count, P-SECRET-01)
    in_deck = [p.in_deck for p in pack.secret_board(state.n).positions]
    seen = Counter(pack.clue_card(c).trauma for c in
                   [*(c for s in state.secrets for c in s.discards), *state.clue_revealed]
                   if not pack.is_fear_card(c))
    for placing in permutations(sorted(left)):
        if any(t in traumas(s.discards[:failures[s.position]])
               for s, t in zip(hidden, placing, strict=True) if s.position in failures):
            continue
        if any(seen[t] > in_deck[s.position - 1]
               for s, t in zip(hidden, placing, strict=True)):
            continue
        if any(t in traumas(s.discards) for s, t in zip(hidden, placing, strict=True)):
            return True
    return False


def _idle_with_invoke(history: Sequence[Step]) -> int:
    """The Presence: a visitor ended a late turn (round 7 on) with main actions left while
    it could play its Invoke card and a secret was worth trying."""
    from rules.presence.game import GAME

    count = 0
    for k, failures in _invokes(history):
        before, seat, action, _after = history[k]
        if action.kind != "end_turn" or getattr(before, "actions_left", 0) <= 0:
            continue
        if before.round < LATE_ROUND or not _invoke_worth_trying(before, failures):
            continue
        if any(a.kind == "play" and _is_invoke(before, str(a.params.get("card")),
                                               int(str(a.params.get("side", 0))))
               for a in GAME.legal_actions(before, seat)):
            count += 1
    return count


def _is_invoke(state: Any, card: str, index: int) -> bool:
    from rules.presence.engine import Engine

    eng = Engine(state)
    if not eng.is_action_card(card):
        return False
    actions = eng.pack.action_card(card).actions
    return any(e.op == "reveal_secret" for a in actions[index:index + 1] for e in a.effects)


def _give_into_full_hand(history: Sequence[Step]) -> int:
    """Gives whose receiving Investigator already held its Hand Limit (FW-HAND-01): the Marble
    is over the limit at once and one is discarded, so the team loses a Marble for an Action."""
    from rules.fourth_wall.engine import Engine

    count = 0
    for before, _seat, action, _after in history:
        if action.kind not in GIVE_KINDS:
            continue
        to = action.params.get("to")
        eng = Engine(before)
        for inv in before.investigators:
            if inv.id == to and len(inv.hand) >= eng.hand_limit(inv):
                count += 1
    return count


def _player_hand(state: Any, seat: str) -> list[str]:
    """The Presence: every card in the hands of the visitors `seat` plays (a two-player
    visitor player's two characters, P-2P-03)."""
    controller = getattr(state, "controller", {}) or {}
    return sorted(c for slot, v in state.visitors.items()
                  if controller.get(slot, slot) == seat for c in v.hand)


def _idle_rest(history: Sequence[Step]) -> int:
    """The Presence: chosen Rests (not a forced one, P-2P-07 / A-02) after which, once its
    discards are answered, the player's hand is what it was: nothing gained for the action."""
    count = 0
    resting: tuple[str, list[str]] | None = None
    discarded = False
    for before, seat, action, after in history:
        if action.kind == "rest" and not before.must_rest:
            resting, discarded = (seat, _player_hand(before, seat)), False
        if resting is None or resting[0] != seat:
            continue
        # A card let go is a try at new ones, even if the reshuffled deck deals it back.
        discarded = discarded or action.params.get("option") not in (None, "done")
        if after.prompts and after.prompts[-1].kind in ("rest_discard", "clue_discard"):
            continue  # still choosing what to discard, or beneath which secret (PR-03)
        if not discarded and _player_hand(after, seat) == resting[1]:
            count += 1
        resting = None
    return count


def _unused_spirit_card(history: Sequence[Step]) -> int:
    """The Presence: "No more powers" answered at a card's power menu before any power of it
    was used (the menu's ``used`` is empty)."""
    count = 0
    for before, _seat, action, _after in history:
        if action.params.get("option") != "done" or not before.prompts:
            continue
        prompt = before.prompts[-1]
        if prompt.data.get("then") == "power" and not prompt.data.get("used"):
            count += 1
    return count


def census(game: str, history: Sequence[Step], result: Result | None) -> Counter[str]:
    found: Counter[str] = Counter()
    if game == "exorcism":
        found["back_and_forth"] = _exorcism_back_and_forth(history)
        found["idle_end_before_loss"] = _idle_end_before_loss(history, result)
    else:
        found["back_and_forth"] = _back_and_forth(game, history)
    if game == "presence":
        found["repeated_invoke"] = _repeated_invoke(history)
        found["idle_with_invoke"] = _idle_with_invoke(history)
        found["idle_rest"] = _idle_rest(history)
        found["unused_spirit_card"] = _unused_spirit_card(history)
    if game == "fourth_wall":
        found["give_into_full_hand"] = _give_into_full_hand(history)
    return +found  # drop the zeros
