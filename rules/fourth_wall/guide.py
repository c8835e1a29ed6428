"""Guided play (`guided` option): what the awaited seat can do now and why it matters.

Presentation only: the engine never reads this. `advice` reads a view and nothing else: the
board post's advice comes from the public view, so it never names a Marble in a hidden hand or
a Horror in The Wall's hand; an Investigator's own view (its **My choices**) adds what its hand
lacks for Closing a Gate. A prompt's advice explains its kind; a turn's advice counts the AP
and names the most pressing thing on the table. The rulebook's first-game advice (take out The
Street Magician, three Open Gates) is the `first_game` option and the default `gates`.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from rules.core.game import plural
from rules.fourth_wall.engine.board import gate_needs_text

PROMPTS: dict[str, str] = {
    "keep_investigator": (
        "Keep one of your two Investigator cards; the other goes back. Talk it over with the "
        "team: a mix of Unique Actions (finding, fighting, closing) covers more of the game."),
    "scourge": (
        "Choose the Horror that becomes The Scourge. It stays On the Streets and keeps "
        "hurting the Investigators, so pick the one they will find hardest to Defeat."),
    "gate_doom": (
        "Five Gates are already Open: take a Doom Token for your next turn instead of opening "
        "another. Doom is what pays for your Wrath actions."),
    "wall_doom": (
        "An Investigator failed an Instruction: you may take a Doom Token for your next turn. "
        "More Doom means more actions when your turn comes."),
    "discard_excess": (
        "Over the Hand Limit: discard a Marble. Keep a spread of Clue, Force and Science "
        "Symbols — Closing a Gate needs all three — and any quick-use Marble."),
    "elect": (
        "The team elects an Investigator for this effect. Choose together: usually the one it "
        "helps most or hurts least (a full hand for a loss, an empty one for a gain)."),
    "choose_target": (
        "You choose the Target Investigator: the one closest to Closing a Gate, or the one "
        "with the fewest Marbles, whom a loss could drive Insane."),
    "choose_investigator": (
        "Choose the Investigator this effect applies to — whoever it helps most now."),
    "choose_horror": (
        "Choose the Horror for this effect. Investigators: focus on the Horror nearest to "
        "being Defeated. The Wall: pick the one that hurts them most."),
    "choose_marble": (
        "Choose the Marble for this effect. Marbles are both your tools and your Sanity: "
        "keep the Symbols you need for Closing a Gate."),
    "choose_name": (
        "Name the card to Find: the one your team needs next (a Symbol you lack for "
        "Closing a Gate, or an answer to the Horror On the Streets)."),
    "give_marble": (
        "Give a Marble to another Investigator: pass on the Symbol they need to Close a Gate, "
        "or a Marble to keep an empty hand from going Insane."),
    "give_or_trade": (
        "A free Give or Trade: use it to gather Clue, Force and Science on the Investigator "
        "who will Close the next Gate."),
    "blitz_window": (
        "Blitz: before the cards are revealed you may discard a quick-use Marble (an "
        "Adrenaline) to reveal one more; every revealed Marble sharing a Symbol with the Blitz "
        "must Intervene. Continue if you hold none."),
    "blitz_card": (
        "Blitz: choose the next revealed card to Intervene with — the one that does the most "
        "against the Horror it meets."),
    "close_select": (
        "Close a Gate: select Marbles that together show a Clue, a Force and a Science. "
        "Closing every Gate is how the Investigators win."),
    "destroy_tie": (
        "Several Marbles tie for the most Symbols: the team chooses which is Destroyed. Lose "
        "the Symbol you have the most of."),
    "peek_take": (
        "You see the top cards: take the one that helps your team most into your hand."),
    "peek_order": (
        "Put the cards back in the order you want them drawn: the helpful ones first, the "
        "dangerous ones last."),
    "lose_choice": (
        "You must Lose a Marble. Give up the Symbol you can best spare; a quick-use Marble "
        "may let you ignore the loss. An empty hand means Insanity and an Open Gate."),
    "holy_window": (
        # Asked whether or not the hand holds one (who holds a Holy Symbol stays hidden), so
        # the hint must read true either way (stop 64's demo: "(You hold none: continue.)"
        # beside "Saving Sanity now keeps a Gate from opening.").
        "If you hold a quick-use Marble you may discard it to ignore this loss; if not, "
        "continue. A hand emptied by losses means Insanity and an Open Gate."),
    "wall_choice": (
        "You choose which Marble the Investigator loses: take the Symbol they need most to "
        "Close a Gate."),
    "regroup_offer": (
        "You may Regroup for free: draw Marbles back toward a full hand. Accept unless your "
        "hand is already what you need."),
    "regroup_draw": (
        "Regroup: draw the stated number of Marbles, or draw up to the Hand Limit — whichever "
        "gives you more."),
    "free_trade": (
        "After Regrouping you may freely Give and Trade with other Regrouped Investigators. "
        "Gather a Clue, a Force and a Science in one hand for Closing a Gate."),
    "trade_mine": (
        "Trade: choose the Marble you offer. Offer a Symbol you hold twice."),
    "trade_theirs": (
        "Trade: choose the Marble you ask for — the Symbol you lack for Closing a Gate."),
    "trade_consent": (
        "Another Investigator offers a Trade: accept if it gets the team closer to Closing a "
        "Gate, decline if you'd lose a Symbol you need."),
    "granted": (
        "You were granted Action Points outside your turn: use them now (Search, Intervene, "
        "Close a Gate…) or pass."),
}
"""Each prompt kind of the engine → its hint (tests check every kind the engine can ask)."""

WALL_MARBLE = (
    "Choose the Marble On the Streets: Destroy the one that does the Investigators most good "
    "— one Attached to a Horror near its Defeat keeps that Horror On the Streets, one "
    "Anchored to the Streets ends its Instructions.")
"""The Wall's Marble choice (a Trigger's Destroy a Marble): "choose_marble" is worded for the
Investigators, whose Marbles are their Sanity (stop 69's demo told The Wall so)."""



def _symbols(counts: dict[str, int], names: dict[str, str]) -> str:
    """"2 Force Symbols and a Clue" from {"force": 2, "clue": 1} (stop 65's demo: "still
    needs 2 Clue")."""
    words = [f"{n} {names.get(k, k)} Symbols" if n > 1 else f"a {names.get(k, k)}"
             for k, n in counts.items() if n > 0]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _gate_lacking(hand: list[dict[str, Any]], view: dict[str, Any]) -> list[str]:
    """What `hand` lacks to Close a Gate (FW-ACT-01 a, g), as the engine's `meets` reads it:
    a Symbol of each kind, and each Aura extra on top ("another Clue" under The Breaker of
    Trinkets). Empty when it meets the requirement."""
    names = view["symbol_names"]
    extra: dict[str, int] = view["gates"]["requirement"]["extra"]
    have: Counter[str] = Counter(sym for m in hand for sym in m["symbols"])
    lacking = []
    for sym in view["symbols"]:  # the Gates ask one of each of the three (`distinct` 3)
        name = names.get(sym, sym)
        short = 1 + extra.get(sym, 0) - have[sym]
        if short <= 0:
            continue
        if have[sym] == 0:
            lacking.append(name if short == 1 else f"{short} {name} Symbols")
        else:
            lacking.append(f"another {name}" if short == 1 else f"{short} more {name} Symbols")
    return lacking


def _unique_closes(me: dict[str, Any], hand: list[dict[str, Any]], view: dict[str, Any]
                   ) -> int | None:
    """How many different Symbols the active Investigator's Unique Action Closes a Gate with
    (the view's `closes_with`), when its hand shows them (each Aura extra first, as the
    engine's `meets` counts), the AP pay for it and it is unused this turn; else None."""
    turn = view["turn"]
    unique = me.get("unique") or {}
    need, cost = unique.get("closes_with"), unique.get("cost")
    if turn.get("unique_used"):
        return None
    if need is None or cost is None or turn["ap"] < cost:
        return None
    have: Counter[str] = Counter(sym for m in hand for sym in m["symbols"])
    for sym, n in view["gates"]["requirement"]["extra"].items():
        have[sym] -= n
        if have[sym] < 0:
            return None
    return need if sum(1 for n in have.values() if n > 0) >= need else None


def _investigator_turn(view: dict[str, Any], seat: str) -> str:
    """An Investigator player's turn: the AP left, and the most pressing thing on the table;
    with the seat's own view (its hand) also whether it can Close a Gate, now or, short of
    the AP it costs, next turn."""
    turn, gates = view["turn"], view["gates"]
    names = view["symbol_names"]
    me = next((i for i in view["investigators"] if i["id"] == turn["active"]), None)
    who = turn["active_name"] or "Your Investigator"
    lead = f"{who} has {turn['ap']} of {turn['ap_per_turn']} AP; {_gates_open(gates)}."
    hand = me.get("hand") if me else None
    spent = f"{lead} Nothing is left to spend this turn: end the turn."
    unique_cost = turn.get("costs", {}).get("unique")
    if (me is not None and not turn.get("unique_used") and unique_cost is not None
            and unique_cost <= turn["ap"] <= 0):  # the Fixer's free Give or Trade (stop 65)
        spent = (f"{lead} {who}'s Unique Action costs no AP and is unused this turn: use it "
                 "if it helps the team, else end the turn.")
    if hand is not None and not gates["closing_blocked"]:
        lacking = _gate_lacking(hand, view)
        if lacking and turn["ap"] <= 0:  # no "you still lack Clue" at 0 AP (stop 64)
            return spent
        if not lacking:
            shows = f"Your hand shows {_gate_needs(view)}"
            cost = turn.get("costs", {}).get("close_gate")
            if cost is not None and turn["ap"] < cost:
                return (f"{lead} {shows}, but Close a Gate costs {cost} AP: keep those "
                        "Marbles and Close a Gate on your next turn.")
            return f"{lead} {shows}: Close a Gate now."
        unique = _unique_closes(me, hand, view) if me else None
        if unique:  # the Gatewright's way (stop 63's demo: "you still lack Science", then it did)
            return (f"{lead} Your hand lacks {' and '.join(lacking)} for Close a Gate, but "
                    f"your Unique Action Closes one with any {unique} different Symbols: "
                    "use it now.")
        # Named with a move toward it (a stop 65 demo: the gap alone, with 1 AP left).
        search = turn.get("costs", {}).get("search")
        move = (f": Search draws a Marble ({search} AP)"
                if search is not None and search <= turn["ap"] else "")
        return f"{lead} To Close a Gate you still lack {' and '.join(lacking)}{move}."
    if turn["ap"] <= 0:  # nothing to pay for an Intervene (stop 64's demos)
        return spent
    if view["horrors"]:
        worst = min(view["horrors"], key=lambda h: sum(h["remaining"].values()))
        # "still needs a Science to be Defeated", not "needs a Science more".
        # A Street's Aura's extra Symbol is said: the card does not print it.
        aura = f" ({worst['aura_text']})" if worst.get("aura_text") else ""
        scourge = next((h for h in view["horrors"] if h.get("scourge")), None)
        if scourge is not None and gates["closing_blocked"]:
            # The Scourge first: it blocks every Gate (stop 65's demo sent a player to a
            # Cultist that blocked nothing, FW-SCOURGE-03).
            aura = f" ({scourge['aura_text']})" if scourge.get("aura_text") else ""
            blocks = (f"{lead} The {scourge['name']} bears The Scourge: no Gate may close "
                      "while it is On the Streets.")
            exploit = (me or {}).get("exploit") or {}
            cost = turn.get("costs", {}).get("exploit")
            if exploit.get("removes_scourge") and cost is not None and cost <= turn["ap"]:
                # The Rallier's answer to it (stop 68's demo: sent to Intervene with no Force).
                return (f"{blocks} Your Exploit the Rift ({cost} AP) removes The Scourge "
                        "Token: use it first.")
            return (f"{lead} The {scourge['name']} bears The Scourge: no Gate may close while "
                    f"it is On the Streets. It still needs "
                    f"{_symbols(scourge['remaining'], names)} to be Defeated{aura}: Intervene "
                    "on it first.")
        horror = (f"The {worst['name']} On the Streets still needs "
                  f"{_symbols(worst['remaining'], names)} to be Defeated{aura}: Intervene "
                  "before The Wall Triggers it.")
        close = turn.get("costs", {}).get("close_gate")
        if (hand is None and me is not None and me["hand_count"] > 0
                and not gates["closing_blocked"] and close is not None
                and close <= turn["ap"]):
            # The board post cannot see the hand (stop 68's demo: the Horror alone, to a
            # guided player whose hand could Close a Gate, and did): both ways, as ifs.
            return (f"{lead} If your hand shows {_gate_needs(view)}, Close a Gate (closing "
                    f"every Gate wins); if not, {horror[0].lower()}{horror[1:]}")
        return f"{lead} {horror}"
    if me is not None and me["hand_count"] <= 2:
        costs = turn.get("costs", {})
        draws = [word for name, word in (("search", "Search"), ("regroup", "Regroup"))
                 if costs.get(name, 0) <= turn["ap"]]
        if draws:
            return (f"{lead} {who} holds {me['hand_count']} "
                    f"{plural(me['hand_count'], 'Marble')}: {' or '.join(draws)} before a loss "
                    "empties the hand (Insanity opens a Gate).")
    takes = f"{lead} Closing a Gate takes {_gate_needs(view)} in one hand"
    give = turn.get("costs", {}).get("give_or_trade")
    if give is not None and give > turn["ap"]:  # an Aura raised it (stop 65's demo)
        why = [f"Street {s['number']}'s Aura" for s in view.get("streets") or []
               if s["aura_active"] and "Give or Trade" in s["text"]]
        because = f" ({' and '.join(why)})" if why else ""
        return (f"{takes}, but Give or Trade costs {give} AP now{because}: gather them on "
                "your next turn.")
    return f"{takes}: Give or Trade to gather them on one Investigator."


def _gates_open(gates: dict[str, Any]) -> str:
    """"1 of 5 Gates is Open", "3 of 5 Gates are Open": the verb agrees with the count."""
    return f"{gates['open']} of {gates['max']} Gates {'is' if gates['open'] == 1 else 'are'} Open"


def _wall_turn(view: dict[str, Any]) -> str:
    """The Wall's turn: on the board post from what the table sees of it; in the Wall's own
    panel also from its hand's Manifest costs. Choosing the turn (FW-WALL-03, FW-WALL-11) it
    is told what a Wrath would strike at where the Doom held and the Wrath's pay for it, else
    to Brood; spending Doom, never to pay for what its Doom cannot buy."""
    wall, gates = view["wall"], view["gates"]
    doom = wall["doom"]
    lead = (f"You hold {doom} Doom and {wall['hand_count']} Horror "
            f"{plural(wall['hand_count'], 'card')}; {_gates_open(gates)}.")
    near = min((h for h in view["horrors"] if not h["drained"]),  # a Drained one waits
               key=lambda h: h["trigger_cost"], default=None)
    if view["turn"]["wall_mode"] is None:  # Wrath or Brood
        brood = view["turn"]["brood_allowed"]
        if doom == 0 and near is None and brood:
            return f"{lead} With no Doom, Brood to gather it for your next Wrath."
        gain = view["turn"].get("wrath_gain") or 0
        win = _fifth_gate(view, doom + gain)
        if win:
            return f"{lead} Wrath, then {win}: {FIFTH_GATE}"
        if near is not None and near["trigger_cost"] <= doom + gain:
            return (f"{lead} Wrath, then strike: the {near['name']} On the Streets Triggers "
                    f"for {near['trigger_cost']} Doom before the Investigators Defeat it.")
        if near is not None and brood:
            # Stop 68's demo advised the strike with 0 Doom held and a Wrath's 1 (FW-WALL-03).
            scourge = "" if any(h.get("scourge") for h in view["horrors"]) else (
                " and unleashes The Scourge: no Gate may close while it is On the Streets")
            return (f"{lead} A Wrath's {gain} Doom cannot pay the {near['name']}'s Trigger "
                    f"({near['trigger_cost']} Doom): Brood keeps its Doom for your next "
                    f"Wrath{scourge}.")
        return (f"{lead} Wrath, then Manifest a Horror On the Streets: each one left there "
                "presses the team.")
    if doom == 0:
        return f"{lead} Your Doom is spent: end the turn."
    win = _fifth_gate(view, doom)
    if win:
        return f"{lead} {win[0].upper()}{win[1:]}: {FIFTH_GATE}"
    keep = _destroy_advice(view, lead, scourge_only=True)
    if keep:  # stop 65's demo: the one Destroy that kept the last Gate open, never advised
        return keep
    if near is not None and near["trigger_cost"] <= doom:
        return (f"{lead} The {near['name']} On the Streets Triggers for {near['trigger_cost']} "
                "Doom: strike before the Investigators Defeat it.")
    keep = _destroy_advice(view, lead, scourge_only=False)
    if keep:
        return keep
    hand = view.get("hand")  # the Wall's own view only
    cheapest = min((h["manifest"]["doom"] for h in hand or []), default=0)
    if cheapest > doom:
        return (f"{lead} The cheapest Horror in your hand needs {cheapest} Doom to Manifest: "
                "spend the Doom another way, or end the turn.")
    return f"{lead} Manifest a Horror On the Streets: each one left there presses the team."


FIFTH_GATE = ("it opens the fifth Gate, and a fifth Open Gate after An Eye Opens wins the "
              "game.")


def _fifth_gate(view: dict[str, Any], doom: int) -> str | None:
    """What opens the fifth Gate with `doom` once An Eye has Opened (FW-GATE-07: The Wall
    wins), said as its button is: The Wall's Unique Action, else a Horror's Trigger; None when
    nothing does (stop 68's demo sent the guided Wall to strike a Ghoul, where its Unique won
    the game)."""
    wall, gates = view["wall"], view["gates"]
    if not wall.get("revealed") or gates["open"] != gates["max"] - 1:
        return None
    if not wall.get("unique_used"):
        for k, unique in enumerate(wall.get("uniques") or []):
            if unique.get("opens_gate") and unique["cost"] <= doom:
                return f"use Unique Action {k + 1} ({unique['cost']} Doom)"
    for h in view["horrors"]:
        if h.get("opens_gate") and not h["drained"] and h["trigger_cost"] <= doom:
            return f"Trigger the {h['name']} ({h['trigger_cost']} Doom)"
    return None


def _gate_needs(view: dict[str, Any], distinct: int = 3) -> str:
    """What Close a Gate asks, Aura extras included, from the view's `gates.requirement`
    (the engine's own `gate_requirement`, so words and enforcement agree)."""
    return gate_needs_text(distinct, _extra(view))


def _extra(view: dict[str, Any]) -> dict[str, int]:
    """The Aura extras of Close a Gate's requirement ({} in a view without its Gates)."""
    extra: dict[str, int] = ((view.get("gates") or {}).get("requirement") or {}).get(
        "extra") or {}
    return extra


def _destroy_advice(view: dict[str, Any], lead: str, scourge_only: bool) -> str | None:
    """Destroy a Marble Attached to the Horror bearing The Scourge (while it blocks every Gate,
    FW-SCOURGE-03, FW-WALL-07), or, with `scourge_only` False, to a Horror a single Symbol
    from Defeat: a Marble that negates part of its Defeat Cost, named from the public view.
    None when there is none to Destroy."""
    names = view["symbol_names"]
    for h in view["horrors"]:
        blocking = h.get("scourge") and view["gates"]["closing_blocked"]
        if scourge_only and not blocking:
            continue
        if not scourge_only and sum(h["remaining"].values()) > 1:
            continue
        negated = {s for s, n in h["negated"].items() if n > 0}
        marble = next((m for m in h["attached"] if negated & set(m["symbols"])), None)
        if marble is None:
            continue
        needs = _symbols(h["remaining"], names) if h["remaining"] else "nothing more"
        if blocking:
            return (f"{lead} The {h['name']} bears The Scourge, so no Gate may close, and it "
                    f"still needs {needs} to be Defeated: Destroy the {marble['name']} "
                    "Attached to it to keep it On the Streets.")
        return (f"{lead} The {h['name']} On the Streets still needs only {needs} to be "
                f"Defeated: Destroy the {marble['name']} Attached to it to keep it there.")
    return None


def _close_select(text: str, view: dict[str, Any]) -> str:
    """Close a Gate's selection, by what this one asks: a Unique may need fewer different
    Symbols than the usual three (stop 63's demo: the Gatewright's "at least 2 different
    Symbols" under advice naming all three), and an Aura may ask more (stop 65's demo: The
    Breaker of Trinkets' second Clue, FW-ACT-01 g)."""
    found = re.search(r"at least (\d+) different Symbols", text)
    need = int(found.group(1)) if found else 3
    if need >= 3 and not any(_extra(view).values()):
        return PROMPTS["close_select"]
    return (f"Close a Gate: select Marbles that together show {_gate_needs(view, need)}. "
            "Closing every Gate is how the Investigators win.")


def advice(view: dict[str, Any], seat: str) -> str | None:
    """Advice for `seat`'s decision, from `view` alone (public or that seat's)."""
    prompt = view.get("prompt")
    if prompt and seat in prompt["seats"]:
        if prompt["kind"] == "close_select":
            return _close_select(str(prompt.get("text") or ""), view)
        if prompt["kind"] == "choose_marble" and (view.get("wall") or {}).get("seat") == seat:
            return WALL_MARBLE
        return PROMPTS.get(prompt["kind"])
    if view["phase"] == "wall" and (view.get("wall") or {}).get("seat") == seat:
        return _wall_turn(view)
    if view["phase"] == "investigator" and view["turn"]["active_seat"] == seat:
        return _investigator_turn(view, seat)
    return None
