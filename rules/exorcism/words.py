"""The Exorcism at the House of Monkton Falls in words: the Clock, the Darkness, the house and
whose move it is, as sentences.

For players who cannot see the picture: `/game status`, `/game hand` and the alt text of every
board picture read from here. Everything comes from `build_view(state, seat)`, so the public
lines hold exactly what the public view shows (face-down Locked Rooms stay "Locked Room", the
Ghost player's hand is a count, EX-VIS-11). Players are named by their display name and their
characters ("Margaret (the Journalist)"); a room by its name and its place in the house.
"""

from __future__ import annotations

from typing import Any

from rules.core.game import join_words, plural, score_of, strip_rule_ids, the_name
from rules.core.types import Result
from rules.exorcism.engine import Engine
from rules.exorcism.state import ExorcismState
from rules.exorcism.view import remembered_view


def role(state: ExorcismState, seat: str) -> str:
    """A seat's role in words: "the Ghost player", "the Doctor and the Detective"."""
    eng = Engine(state)
    if seat == state.ghost_seat:
        return "the Ghost player"
    # Between a Wound and the Rescue, and after a Wound that lost the game, the seat is the
    # Character it last played: "an investigator" read as if it had never played one.
    # While the game goes on, an escaped Investigator is out of it (EX-FOYER-03): the role is
    # the Characters still in the house. Once it is over, the role as it was: every Character
    # the seat played won or lost with it.
    invs = eng.invs_of(seat)
    if state.outcome is None:
        invs = [i for i in invs if not i.escaped] or invs
    chars = ["the " + eng.char_name(c) for c in (i.character or i.last_character
                                                 for i in invs) if c]
    return join_words(chars) if chars else "an investigator"


def player(state: ExorcismState, seat: str, names: dict[str, str]) -> str:
    name = names.get(seat)
    r = role(state, seat)
    return f"{name} ({r})" if name else r[0].upper() + r[1:]


def _place(cell: dict[str, Any]) -> str:
    """A cell as players find it on the board: the view's label, its name alone, with row and
    column only where several cells show that name (EX-WORDS-01; stop 69's demo: "the Key
    Room (row 3, column 2)" on a board with one Key Room)."""
    return the_name(cell["label"])


def _cells(v: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in v["cells"]}


def doing_text(state: ExorcismState, seat: str, names: dict[str, str]) -> str:
    """What the awaited `seat` must do now; public-safe (the public prompt text leaves out
    what only the prompted seat may see)."""
    who = player(state, seat, names)
    v = remembered_view(state, None)
    if state.prompts and seat in state.prompts[-1].seats:
        text = v["prompt"]["text"] if v["prompt"] else "make a choice"
        return f"{who}: {text}"
    if state.phase == "actions" and state.active == seat:
        cells = _cells(v)
        mine = [i for i in v["investigators"]
                if i["seat"] == seat and i["cell"] in cells and not i["escaped"]]
        left = v["actions_left"]
        if len(mine) > 1:
            # Solo's two pawns: who stands where (stop 63's demo: "in the Supply Room (…) and
            # the Key Room (…)" said neither, nor once when both share a Room).
            rooms = {i["cell"] for i in mine}
            pawns = [f"the {i['name']}" for i in mine]
            at = (f" with {join_words(pawns)} both in {_place(cells[mine[0]['cell']])}"
                  if len(rooms) == 1 else
                  " with " + join_words([f"{pawn} in {_place(cells[i['cell']])}"
                                         for pawn, i in zip(pawns, mine, strict=True)]))
        else:
            at = f" in {_place(cells[mine[0]['cell']])}" if mine else ""
        return (f"{who}: take up to {left} more action{'' if left == 1 else 's'}{at}, "
                "or end the turn.")
    if state.phase == "ghost" and seat == state.ghost_seat:
        # the rulebook's words, and the Action it takes most (stop 64's demo)
        return (f"{who}: play Haunt cards, raise the Haunt Level or cause Terror, then end the "
                "Haunt phase.")
    return f"{who}: make a choice."


def _clock_line(v: dict[str, Any]) -> str:
    c = v["clock"]
    current = next((d for d in c["dice"] if d["current"]), None)
    now = (f"the hour {current['hour']} Time Die shows {current['pips']}" if current
           else "no Time Die is in use")
    return (f"Round {v['round']}, game turn {v['turn']}. Clock: {now}; {c['dice_left']} Time "
            f"{plural(c['dice_left'], 'Die', 'Dice')} left, {c['turns_left']} "
            f"{plural(c['turns_left'], 'turn')} before dawn.")


def _darkness_line(v: dict[str, Any]) -> str:
    d = v["darkness_track"]
    ex = v["exorcism"]
    # The value said as what it does (EX-DARK-01; One vs All: the Ghost player's Actions).
    does = plural(int(d["value"]), "Ghost Action" if v.get("ova") else "Haunt card")
    return (f"Exorcism: {score_of(ex['points'], ex['target'], 'point')}"
            + (", the Ghosts are exorcised" if ex["exorcised"] else "")
            + f". Darkness Track at space {d['position'] + 1} ({d['value']} {does} a turn); "
            f"{v['darkness_supply']} of {v['darkness_total']} Darkness Tokens left; "
            f"{v['shrouds_left']} of {v['shrouds_total']} Shrouds left.")


def _ghosts_line(v: dict[str, Any]) -> str:
    cells = _cells(v)
    parts = []
    for g, cell in v["ghosts"].items():
        name = v["ghost_names"].get(g, g.title())
        parts.append(f"the {name} in {_place(cells[cell])}" if cell in cells
                     else f"the {name} not in play")
    return "Ghosts: " + join_words(parts) + "."


def _tools(v: dict[str, Any], tools: dict[str, int]) -> str:
    return join_words([f"{n} {plural(n, v['tool_names'].get(t, t))}"
                       for t, n in tools.items() if n]) or "no tools"


def _inv_line(state: ExorcismState, v: dict[str, Any], inv: dict[str, Any],
              names: dict[str, str]) -> str:
    cells = _cells(v)
    name = names.get(inv["seat"])
    head = f"{name} (the {inv['name']})" if name else f"The {inv['name']}"
    if inv["escaped"]:
        where = "has escaped the house"
    elif inv["cell"] in cells:
        where = "is in " + _place(cells[inv["cell"]])
    else:
        where = "is out of the house"
    bits = [_tools(v, inv["tools"])]
    if inv["awaiting_rescue"]:
        bits.append("Wounded, awaiting rescue")
    return f"{head} {where}: " + "; ".join(bits) + "."


def _seat_line(state: ExorcismState, v: dict[str, Any], info: dict[str, Any],
               names: dict[str, str]) -> str | None:
    if info["role"] == "ghost":
        return None
    bits = []
    if info["tasks"]:
        bits.append("Tasks: " + ", ".join(t["name"] for t in info["tasks"]))
    if info["plans"] is not None and info["plans"]:
        bits.append("Plans: " + ", ".join(p["name"] for p in info["plans"]))
    elif info["plan_count"]:
        bits.append(f"{info['plan_count']} Plan card{'' if info['plan_count'] == 1 else 's'}")
    if info["ongoing"]:
        bits.append("ongoing: " + ", ".join(t["name"] for t in info["ongoing"]))
    if info["out"]:
        bits.append("out of the game")
    if not bits:
        return None
    return player(state, info["seat"], names) + " holds " + "; ".join(bits) + "."


def _house_lines(v: dict[str, Any]) -> list[str]:
    rows: dict[int, list[str]] = {}
    for c in v["cells"]:
        if c["kind"] != "house":
            continue
        text = c["name"] + (f" ({c['location']})" if c["location"] else "")
        bits = []
        if c["shrouded"]:
            bits.append("Shrouded")
        if c["darkness"]:
            bits.append(f"{c['darkness']} Darkness")
        if c["exorcism_tokens"]:
            bits.append(f"{c['exorcism_tokens']} Exorcism token"
                        + ("" if c["exorcism_tokens"] == 1 else "s"))
        if c["dropped"]:
            bits.append("dropped " + _tools(v, c["dropped"]))
        if c["cold_spot"]:
            bits.append("a Cold Spot")
        rows.setdefault(c["row"], []).append(text + (": " + ", ".join(bits) if bits else ""))
    return [f"Row {r}: " + "; ".join(cells) + "." for r, cells in sorted(rows.items())]


def _ova_line(state: ExorcismState, v: dict[str, Any], names: dict[str, str]) -> str | None:
    o = v["ova"]
    if not o:
        return None
    unlocked = [t["name"] for t in o["terror"] if t["unlocked"]]
    nxt = next((t for t in o["terror"] if not t["unlocked"]), None)
    text = (f"{player(state, o['ghost_seat'], names)}: Haunt Level {o['haunt_level']} of "
            f"{o['haunt_level_win']}; {o['hand_count']} Haunt card"
            + ("" if o["hand_count"] == 1 else "s") + " in hand; Terror unlocked: "
            + (", ".join(unlocked) or "none"))
    if nxt:
        text += f" (next: {nxt['name']} at {nxt['threshold']})"
    return text + "."


def _lines(state: ExorcismState, v: dict[str, Any], names: dict[str, str],
           result_line: str | None, short: bool) -> list[str]:
    lines: list[str] = []
    if result_line:
        lines.append(result_line)
    else:
        lines += ["Now: " + doing_text(state, s, names)
                  for s in sorted(Engine(state).to_act(), key=state.seats.index)]
    lines.append(_clock_line(v))
    lines.append(_darkness_line(v))
    if (o := _ova_line(state, v, names)):
        lines.append(o)
    lines.append(_ghosts_line(v))
    lines += [_inv_line(state, v, i, names) for i in v["investigators"] if i["character"]]
    if short:
        lines += _house_lines(v)
        return lines
    lines += [x for info in v["seats_info"] if (x := _seat_line(state, v, info, names))]
    lines += _house_lines(v)
    if v["available_tasks"]:
        lines.append("Available Tasks: " + "; ".join(
            f"{t['name']} needs {', '.join(v['tool_names'].get(x, x) for x in t['to_complete'])}"
            f" for {t['points']} points" for t in v["available_tasks"]) + ".")
    ch = v["characters"]
    for key, label in (("lookouts", "Lookouts"), ("wounded", "Wounded"),
                       ("devoured", "Devoured"), ("escaped", "Escaped")):
        if ch[key]:
            lines.append(f"{label}: " + ", ".join(c["name"] for c in ch[key]) + ".")
    d = v["decks"]
    lines.append(f"Haunt deck: {d['haunt']}, discard {d['haunt_discard']}; Task deck: "
                 f"{d['task']}; Plan deck: {d['plan']}.")
    if v["last_haunt"]:
        # "Haunt card" is the card's own name, capitalised as everywhere else (stop 69's status
        # read "Last haunt card (Location 2): ...").
        lines.append(f"Last {v['last_haunt']}.")
    return lines


def status_lines(state: ExorcismState, seat: str | None, names: dict[str, str],
                 result_line: str | None, private: str | None) -> list[str]:
    v = remembered_view(state, seat)
    lines = _lines(state, v, names, result_line, short=False)
    if seat is not None:
        if v.get("peek"):
            lines.append("You see the top of the Haunt deck: "
                         + "; ".join(p["text"] for p in v["peek"]) + ".")
        if private:
            lines += [x.lstrip("• ") for x in private.splitlines() if x.strip()]
    return lines


def alt_lines(state: ExorcismState, names: dict[str, str], result_line: str | None
              ) -> list[str]:
    return _lines(state, remembered_view(state, None), names, result_line, short=True)


def result_text(state: ExorcismState, result: Result, names: dict[str, str]) -> str:
    """Who won and why (EX-LOSE-01, EX-TURN-04, EX-OVA-11/12), naming players and roles."""
    # Games stored before #14 kept the rule id in the reason; players read words only.
    reason = strip_rule_ids(result.reason).rstrip(".")
    investigators = [s for s in state.seats if s != state.ghost_seat]
    team = join_words([player(state, s, names) for s in investigators])
    if state.outcome == "won":
        verb = "wins" if len(investigators) == 1 else "win"
        return f"{team} {verb}: {reason}."
    if state.ghost_seat:
        return (f"{player(state, state.ghost_seat, names)} wins and {team} "
                f"{'loses' if len(investigators) == 1 else 'lose'}: {reason}.")
    return f"{team} {'loses' if len(investigators) == 1 else 'lose'}: {reason}."
