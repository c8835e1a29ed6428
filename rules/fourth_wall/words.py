"""I Am the Fourth Wall in words: the Turn Tracker, the Gates, the Horrors and whose move it is.

For players who cannot see the picture: `/game status`, `/game hand` and the alt text of every
board picture read from here. Everything comes from `build_view(state, seat)`, so the public
lines hold exactly what the public view shows (the Wall card stays secret until An Eye Opens,
FW-VIS-12; hands are counts, FW-VIS-06/15). Players are named by their display name and their
role or Investigators ("Margaret (the Steadfast)").
"""

from __future__ import annotations

from typing import Any

from rules.core.game import join_words, plural, strip_rule_ids
from rules.core.types import Result
from rules.fourth_wall.engine import Engine
from rules.fourth_wall.state import FourthWallState, InvestigatorState
from rules.fourth_wall.view import remembered_view


def _the(label: str) -> str:
    return "the " + label[4:] if label.startswith("The ") else label


def role(state: FourthWallState, seat: str) -> str:
    """A seat's role in words: "the Wall player", "the Fixer and the Steadfast"."""
    eng = Engine(state)
    if seat == state.wall_seat:
        return "the Wall player" + (f", {_the(eng.wall().name)}" if state.revealed else "")
    invs = [_the(eng.inv_name(i)) for i in eng.invs_of(seat) if i.card]
    return join_words(invs) if invs else "an Investigator player"


def player(state: FourthWallState, seat: str, names: dict[str, str]) -> str:
    name = names.get(seat)
    r = role(state, seat)
    return f"{name} ({r})" if name else r[0].upper() + r[1:]


def _inv_who(state: FourthWallState, inv: dict[str, Any], names: dict[str, str]) -> str:
    """An Investigator with its player: "The Steadfast (Margaret)"."""
    name = names.get(inv["seat"])
    return inv["name"] + (f" ({name})" if name else "")


def _symbols(v: dict[str, Any], syms: list[str]) -> str:
    return ", ".join(v["symbol_names"].get(s, s) for s in syms) or "nothing"


def _counted(v: dict[str, Any], counts: dict[str, int]) -> str:
    parts = [f"{n} {v['symbol_names'].get(s, s)}" + ("" if n == 1 else " Symbols")
             for s, n in counts.items() if n]
    return join_words(parts) or "nothing"


def _turn_menu(state: FourthWallState, eng: Engine, inv: InvestigatorState,
               ap: int) -> list[str]:
    """The turn's actions the AP left can pay for (FW-ACT-01..08, every cost modifier
    counted), named as their buttons name them (labels.py: Search draws a Marble, Intervene
    plays one on a Horror). Read from public things only, the AP, the costs, the Streets and
    The Scourge, never the hand: whether a hand can Close a Gate stays the team's."""
    def affords(name: str) -> bool:
        return eng.action_cost(name, inv) <= ap

    menu = []
    if affords("search"):
        menu.append("Search (draw a Marble)")
    if state.streets and affords("intervene"):
        menu.append("Intervene with a Marble")
    if affords("utilise"):
        menu.append("Utilise")
    if affords("give_or_trade"):
        menu.append("Give or Trade a Marble")
    if affords("regroup"):
        menu.append("Regroup")
    if state.gates and not eng.scourge_blocks() and affords("close_gate"):
        menu.append("Close a Gate")
    return menu


_ACTION_WORDS = {"search": "Search", "intervene": "Intervene", "utilise": "Utilise",
                 "give_or_trade": "Give or Trade", "regroup": "Regroup",
                 "close_gate": "Close a Gate"}


def _raised_costs(eng: Engine, inv: InvestigatorState, ap: int) -> str:
    """Why an action the rulebook's cost would let `ap` pay for is missing from the menu: an
    Aura or card raised it (stop 65's demo: with 1 AP left Give or Trade silently dropped out,
    Street 2's Aura unnamed). "" when none is."""
    said = []
    for name, word in _ACTION_WORDS.items():
        cost = eng.action_cost(name, inv)
        why = eng.cost_raised_by(name, inv)
        if why and cost > ap >= getattr(eng.opts.action_costs, name):
            said.append(f"{word} costs {cost} AP ({join_words(why)})")
    return f"; {join_words(said)}" if said else ""


def doing_text(state: FourthWallState, seat: str, names: dict[str, str]) -> str:
    """What the awaited `seat` must do now; public-safe (the public prompt text is neutral
    where the full one names the team's cards)."""
    eng = Engine(state)
    who = player(state, seat, names)
    if state.prompts and seat in state.prompts[-1].seats:
        prompt = remembered_view(state, None)["prompt"]
        text = prompt["text"] if prompt else "make a choice"
        return f"{who}: {text}"
    if state.phase == "investigator":
        inv = eng.active()
        if inv is not None and inv.seat == seat:
            v = remembered_view(state, None)["turn"]
            ap = v["ap"]
            menu = _turn_menu(state, eng, inv, ap)
            actions = (join_words(menu, "or") + " — or end the turn" if menu
                       else "end the turn")
            return (f"{who}: {ap} AP left for {_the(eng.inv_name(inv))} — {actions}"
                    f"{_raised_costs(eng, inv, ap)}.")
    if state.phase == "wall" and seat == state.wall_seat:
        t = remembered_view(state, None)["turn"]
        how = "Brood or Wrath" if t["brood_allowed"] else "Wrath"
        return f"{who}: take the Wall's turn ({how}), spending Doom from the Action Pool."
    return f"{who}: make a choice."


def _tracker_line(v: dict[str, Any]) -> str:
    t = v["tracker"]
    return (f"Round {v['round']}. Turn Tracker at {t['rank']} ({t['stage_name']}); "
            f"{t['rounds_left']} round{'' if t['rounds_left'] == 1 else 's'} before The "
            "Ancient One Awakens.")


def _gates_line(v: dict[str, Any]) -> str:
    g = v["gates"]
    req = g["requirement"]
    text = (f"Gates: {g['open']} of {g['max']} Open. Closing one takes {req['distinct']} "
            "different symbols")
    if any(req["extra"].values()):
        text += " plus " + _counted(v, req["extra"])
    text += "."
    if g["closing_blocked"]:
        text += " No Gate may close while The Scourge is On the Streets."
    return text


def _wall_line(state: FourthWallState, v: dict[str, Any], names: dict[str, str],
               short: bool = False) -> str:
    w = v["wall"]
    if state.mode == "conflict" and state.wall_seat:
        head = player(state, state.wall_seat, names) + ": "
    else:
        head = "The Wall: "
    bits = []
    if w["revealed"] and w["name"]:
        bits.append(f"{w['name']} is revealed" if short
                    else f"{w['name']} is revealed — {str(w['text']).rstrip('.')}")
    else:
        bits.append("the Wall card is still secret")
    if state.mode == "conflict":
        bits.append(f"{w['hand_count']} Horror{'' if w['hand_count'] == 1 else 's'} in hand")
    bits.append(f"{w['doom']} Doom in the Action Pool"
                + (f" ({w['doom_deferred']} more next turn)" if w["doom_deferred"] else ""))
    return head + "; ".join(bits) + "."


def _horror_line(v: dict[str, Any], h: dict[str, Any]) -> str:
    where = f" on Street {h['street']}" if h["street"] else ""
    aura = f" ({h['aura_text']})" if h.get("aura_text") else ""
    bits = [f"Manifest {h['manifest']['doom']}" + (" + Drain" if h["manifest"]["drain"] else ""),
            "defeat needs " + _counted(v, h["remaining"]) + aura]
    if h["attached"]:
        bits.append("attached: " + ", ".join(a["name"] for a in h["attached"]))
    if h["scourge"]:
        bits.append("The Scourge")
    if h["drained"]:
        bits.append("drained")
    return f"Horror {h['name']}{where}: " + "; ".join(bits) + "."


def _inv_line(state: FourthWallState, v: dict[str, Any], inv: dict[str, Any],
              names: dict[str, str]) -> str:
    bits = [f"Sanity {inv['sanity']}", f"hand limit {inv['hand_limit']}",
            f"{inv['hand_count']} Marble{'' if inv['hand_count'] == 1 else 's'} in hand"]
    if inv["insane"]:
        bits.append("Insane")
    if inv["regrouped"]:
        bits.append("Regrouped")
    if inv["is_active"]:
        bits.append("taking the turn")
    if inv["is_target"]:
        bits.append("holds the Target Token")
    if inv["hand"] is not None:
        bits.append("hand: " + (", ".join(
            f"{m['name']} ({_symbols(v, m['symbols'])})" for m in inv["hand"]) or "empty"))
    return _inv_who(state, inv, names) + ": " + "; ".join(bits) + "."


def _lines(state: FourthWallState, v: dict[str, Any], names: dict[str, str],
           result_line: str | None, short: bool) -> list[str]:
    lines: list[str] = []
    if result_line:
        lines.append(result_line)
    else:
        lines += ["Now: " + doing_text(state, s, names)
                  for s in sorted(Engine(state).to_act(), key=state.seats.index)]
    lines.append(_gates_line(v))
    lines.append(_tracker_line(v))
    lines.append(_wall_line(state, v, names, short))
    lines += [_horror_line(v, h) for h in v["horrors"]] or ["No Horror is On the Streets."]
    for inv in v["investigators"]:
        if inv["card"] is None:
            continue
        lines.append(_inv_line(state, v, inv, names) if not short else
                     f"{_inv_who(state, inv, names)}: Sanity {inv['sanity']}, "
                     f"{inv['hand_count']} {plural(inv['hand_count'], 'Marble')}"
                     + (", Insane" if inv["insane"] else "")
                     + ".")
    if short:
        return lines
    if v["streets"]:
        lines += [(f"Street {s['number']}" if s["name"] == f"Street {s['number']}" else
                   f"Street {s['number']}, {s['name']}") + f": {s['text']}"
                  for s in v["streets"]]
    if v["anchored"]:
        lines.append("Marbles Anchored to the Streets: "
                     + ", ".join(f"{a['name']} ({_symbols(v, a['symbols'])})"
                                 for a in v["anchored"]) + ".")
    d = v["decks"]
    lines.append(f"Marble bag: {d['marble']}, discard {d['marble_discard']}; Horror deck: "
                 f"{d['horror']}, discard {d['horror_discard']}"
                 + (f"; Presence deck: {d['presence']}" if state.mode == "alliance" else "")
                 + ".")
    if v["revealed"]:
        lines.append("Last Blitz revealed: " + ", ".join(
            f"{r['name']} ({_symbols(v, r['symbols'])})" for r in v["revealed"]) + ".")
    if v.get("last_presence"):
        lines.append(f"Last Presence card: {v['last_presence']}.")
    return lines


def status_lines(state: FourthWallState, seat: str | None, names: dict[str, str],
                 result_line: str | None) -> list[str]:
    v = remembered_view(state, seat)
    lines = _lines(state, v, names, result_line, short=False)
    if seat is not None:
        if v.get("wall_card"):
            wc = v["wall_card"]
            lines.append(f"Only you know: you are {wc['name']}. {wc['text']}")
        if v.get("hand"):
            lines.append("Your hand of Horrors: " + ", ".join(
                f"{h['name']} (Manifest {h['manifest']['doom']}"
                + (" + Drain" if h["manifest"]["drain"] else "")
                + f", Trigger {h['trigger_cost']})" for h in v["hand"]) + ".")
        if v.get("peek"):
            lines.append("Peeked: " + ", ".join(p["name"] for p in v["peek"]) + ".")
        for inv in v["investigators"]:
            if inv.get("dealt") and inv["seat"] == seat:
                dealt = join_words([d["name"] for d in inv["dealt"]], "or")
                lines.append(f"Only you know: choose {dealt}.")
    return lines


def alt_lines(state: FourthWallState, names: dict[str, str], result_line: str | None
              ) -> list[str]:
    return _lines(state, remembered_view(state, None), names, result_line, short=True)


def result_text(state: FourthWallState, result: Result, names: dict[str, str]) -> str:
    """Who won and why (FW-END-01..03), naming the players and their roles."""
    winners = [player(state, s, names) for s in result.winners]
    # Games stored before #14 kept the rule id in the reason; players read words only.
    reason = strip_rule_ids(result.reason).rstrip(".")
    reason = reason[0].lower() + reason[1:] if reason else "the game is over"
    if winners:
        head = join_words(winners) + (" wins" if len(winners) == 1 else " win")
    elif state.outcome == "investigators":
        head = "The Investigators win"
    else:  # Alliance: the Wall is nobody's seat, so the whole table loses
        wall = f" ({_the(Engine(state).wall().name)})" if state.wall_card else ""
        head = f"The Wall{wall} wins and every Investigator loses"
    return f"{head}: {reason}."
