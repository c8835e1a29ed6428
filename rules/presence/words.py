"""The Presence in words: the board, the tracks and whose move it is, as sentences.

For players who cannot see the picture (a screen reader, a phone in the sun): `/game status`,
`/game hand` and the alt text of every board picture read from here. Everything is built from
`build_view(state, seat)`, so the public lines hold exactly what the public view shows and a
seat's lines add only what that seat's view adds. Players are named by their display name and
their character ("Margaret (the Medium)"); in True Horror (P-HORROR) no emoji and no rule ids.
"""

from __future__ import annotations

import re
from typing import Any

from rules.core.game import join_words, plural, strip_rule_ids
from rules.core.types import Result
from rules.presence.engine import Engine
from rules.presence.engine.core import secret_title
from rules.presence.state import PresenceState
from rules.presence.view import remembered_view

_EMOJI = re.compile(
    "[\U0001F000-\U0001FAFF\u2300-\u23FF\u25A0-\u27BF\u2B00-\u2BFF\uFE0F\u200D]")


def plain(state: PresenceState, text: str) -> str:
    """True Horror's plain words: no emoji, no rule ids (P-HORROR)."""
    if not state.true_horror:
        return text
    return strip_rule_ids(_EMOJI.sub("", text)).strip()


def _the(label: str) -> str:
    return "the " + label[4:] if label.startswith("The ") else label


def seat_of(state: PresenceState, slot: str) -> str:
    """The player's seat of a character slot (P-2P: both slots -> the visitor player)."""
    return state.controller.get(slot, slot)


def character(state: PresenceState, slot: str) -> str:
    """A slot's character or role in words: "the Medium", "the spirit (the Shade)"."""
    eng = Engine(state)
    if slot == state.spirit_seat:
        sp = state.spirit.character
        return "the spirit" + (f", {_the(eng.pack.spirit(sp).name)}" if sp else "")
    v = state.visitors.get(slot)
    if v is None or not v.character:
        return "a visitor"
    return _the(eng.pack.visitor(v.character).name)


def who(state: PresenceState, slot: str, names: dict[str, str]) -> str:
    """ "Margaret (the Medium)": the player's display name, then the character it plays."""
    name = names.get(seat_of(state, slot))
    role = character(state, slot)
    if not name:
        return role[0].upper() + role[1:]
    return f"{name} ({role})"


def player(state: PresenceState, seat: str, names: dict[str, str]) -> str:
    """A seat: in a two-player game the visitor player names both characters (P-2P-01)."""
    slots = [s for s in state.visitor_seats if seat_of(state, s) == seat and s != seat]
    if not slots:
        return who(state, seat, names)
    each = [character(state, s) for s in [seat, *slots]]
    known = [c for c in each if c != "a visitor"]
    if not known:
        # Before the characters are chosen both are "a visitor": say so once.
        roles = "two visitors" if len(each) == 2 else join_words(each)
    elif len(known) < len(each):
        # The first chosen, the second not yet: "the Descendant and a visitor" read as if the
        # player had a character and something else besides (a demo's first DM).
        left = len(each) - len(known)
        rest = ("a second visitor not chosen yet" if left == 1
                else f"{left} more visitors not chosen yet")
        roles = join_words([*known, rest])
    else:
        roles = join_words(each)
    name = names.get(seat)
    return f"{name} ({roles})" if name else roles[0].upper() + roles[1:]


def _awaited_slots(state: PresenceState) -> list[str]:
    return sorted(Engine(state).to_act(), key=lambda s: (
        [*state.seats, *state.visitor_seats].index(s)
        if s in [*state.seats, *state.visitor_seats] else 99))


def doing_text(state: PresenceState, seat: str, names: dict[str, str]) -> str:
    """What the awaited `seat` must do now, public-safe: a private prompt is only "a choice"."""
    eng = Engine(state)
    slots = [s for s in _awaited_slots(state) if seat_of(state, s) == seat] or [seat]
    slot = slots[0]
    name = who(state, slot, names)
    if state.prompts and slot in state.prompts[-1].seats:
        top = state.prompts[-1]
        if top.data.get("private") or top.seats == [state.spirit_seat]:
            return plain(state, f"{name}: make a choice only they may see.")
        return plain(state, f"{name}: {top.text}")
    if state.phase == "visitor" and state.active == slot and slot in state.visitors:
        room = eng.room_name(state.visitors[slot].room)
        left = max(0, state.actions_left)
        if state.must_rest:
            return plain(state, f"{name}: Rest first (knocked out), in the {room}.")
        acts = f"take up to {left} more action{'' if left == 1 else 's'}" if left else \
            "take quick actions"
        return plain(state, f"{name}: {acts} in the {room}, or end the turn.")
    if state.phase == "spirit" and slot == state.spirit_seat:
        return plain(state, f"{name}: take the spirit's turn (move presence dice and the "
                            "pawn, play spirit cards), then end it.")
    if slot == state.spirit_seat:
        return plain(state, f"{name}: carry on the spirit's part of the upkeep.")
    return plain(state, f"{name}: make a choice.")


def _visitor_line(state: PresenceState, v: dict[str, Any], names: dict[str, str]) -> str:
    bits = [f"fear {v['fear']} of {v['fear_track']}",
            "candle lit" if v["candle_lit"] else "candle out",
            f"{v['hand_count']} card{'' if v['hand_count'] == 1 else 's'} in hand",
            f"{v['deck_count']} in deck"]
    if v["knocked_out"]:
        bits.insert(0, "knocked out")
    if v["succumbed"]:
        bits.insert(0, "succumbed")
    if v["alone"] and not v["succumbed"]:
        bits.append("alone")
    if v["bonded"]:
        bits.append("bonded to the spirit")
    if v["items"]:
        bits.append("items: " + ", ".join(i["name"] for i in v["items"]))
    if v["fear_cards"]:
        bits.append("fear cards: " + ", ".join(f["name"] for f in v["fear_cards"]))
    if v["discard"]:
        bits.append("discard: " + ", ".join(c["name"] for c in v["discard"]))
    return f"{who(state, v['seat'], names)} is in the {v['room_name']}: " + "; ".join(bits) + "."


def _room_line(state: PresenceState, r: dict[str, Any]) -> str | None:
    bits: list[str] = []
    spirit_tokens = sum(1 for t in r["tokens"] if t["kind"] == "spirit")
    small = len(r["tokens"]) - spirit_tokens
    if spirit_tokens:
        bits.append(f"{spirit_tokens} spirit clue{'' if spirit_tokens == 1 else 's'}")
    if small:
        bits.append(f"{small} small clue{'' if small == 1 else 's'}")
    if r["dice"]:
        bits.append("presence dice " + ", ".join(str(d["value"]) for d in r["dice"]))
    if r["pawn"]:
        bits.append("the spirit pawn")
    if r["drains"]:
        bits.append("drain: " + ", ".join(r["drains"]))
    if r["fireplace"]:
        bits.append("the fireplace, " + ("lit" if r["fireplace_lit"] else "unlit"))
    people = [character(state, s) for s in r["visitors"]]
    if people:
        bits.append(join_words(people))
    light = "lit" if r["lit"] else "dark"
    if not bits:
        return f"{r['name']}: {light}, empty."
    return f"{r['name']}: {light}; " + ", ".join(bits) + "."


def _track_line(v: dict[str, Any]) -> str:
    t = v["track"]
    hope = "lost" if t["hope"] is None else f"space {t['hope']}"
    nerve = "lost" if t["nerve"] is None else f"space {t['nerve']}"
    return (f"Round {v['round']} of {v['final_round']}. Hope Track side {t['side']}: time on "
            f"space {t['time']} of {t['spaces']}, hope on {hope}, nerve on {nerve}.")


def _secrets_line(v: dict[str, Any]) -> str:
    out = []
    for s in v["secrets"]:
        if s["revealed"]:
            text = f"{s['position']}: {secret_title(s['name'], s['trauma'])}, revealed"
            if s["matching"] is not None:
                text += f", {s['matching']} matching"
        else:
            text = f"{s['position']}: hidden"
        n = s["discard_count"]
        text += f", {n} clue card{'' if n == 1 else 's'} beneath"
        names = [c["name"] for c in s["discards"]]
        if names:
            text += " (" + ", ".join(names) + ")"
        out.append(text)
    return "Secrets — " + "; ".join(out) + "."


def _scripts_line(v: dict[str, Any]) -> str:
    sc = v["scripts"]
    shown = ", ".join(f"{s['name']} ({s['type']})" for s in sc["display"])
    if sc["revealed"] and sc["script"]:
        s = sc["script"]
        return (f"The spirit's script is revealed: {s['name']} ({s['type']}, {s['alignment']}). "
                f"Top: {s['top']} Bottom: {s['bottom']}")
    return f"Scripts on display: {shown or 'none'}; the spirit's script is still hidden."


def _spirit_line(state: PresenceState, v: dict[str, Any], names: dict[str, str]) -> str:
    sp = v["spirit"]
    bits = [f"{sp['hand_count']} spirit {plural(sp['hand_count'], 'card')} in hand",
            f"{sp['deck_count']} in deck", f"{sp['discard_count']} discarded face down",
            f"{v['supply']} presence {plural(v['supply'], 'die', 'dice')} in the supply"]
    if sp["pawn_room"]:
        bits.append("pawn in the " + Engine(state).room_name(sp["pawn_room"]))
    if sp["drains"]:
        bits.append("drains: " + ", ".join(
            f"{d['name']} in the {Engine(state).room_name(d['room'])}" for d in sp["drains"]))
    return who(state, state.spirit_seat, names) + ": " + "; ".join(bits) + "."


def _doors_line(state: PresenceState, v: dict[str, Any]) -> str:
    eng = Engine(state)

    def pair(d: dict[str, Any]) -> str:
        return f"{eng.room_name(d['rooms'][0])}–{eng.room_name(d['rooms'][1])}"

    opened = [pair(d) for d in v["doors"] if d["open"]]
    locked = [pair(d) for d in v["doors"] if d["locked"]]
    text = "Open doors: " + (", ".join(opened) or "none") + "."
    if locked:
        text += " Locked: " + ", ".join(locked) + "."
    return text


def _talk_line(v: dict[str, Any]) -> str:
    talk = v["table_talk"]
    return ("Table talk allowed. " if talk["allowed"] else "No table talk now. ") + talk["why"]


def status_lines(state: PresenceState, seat: str | None, names: dict[str, str],
                 result_line: str | None, private_summary: str | None = None) -> list[str]:
    """The status, as lines; `private_summary` is `seat`'s own hidden information (the game
    object's `private_summary`), closing the lines under "Only you know:"."""
    v = remembered_view(state, seat)
    lines: list[str] = []
    if result_line:
        lines.append(result_line)
    else:
        for slot in _awaited_slots(state):
            lines.append("Now: " + doing_text(state, seat_of(state, slot), names))
    lines.append(_track_line(v))
    lines.append(_secrets_line(v))
    lines.append(_scripts_line(v))
    for vis in v["visitors"]:
        lines.append(_visitor_line(state, vis, names))
    lines.append(_spirit_line(state, v, names))
    lines += [x for r in v["rooms"] if (x := _room_line(state, r))]
    lines.append(_doors_line(state, v))
    revealed = [c["name"] for c in v["clue_revealed"]]
    lines.append(f"Clue deck: {v['clue_deck']} {plural(v['clue_deck'], 'card')}; item deck: "
                 f"{v['item_deck']} {plural(v['item_deck'], 'card')}"
                 + (f"; face-up clue cards: {', '.join(revealed)}" if revealed else "")
                 + (f"; in the cellar: {', '.join(i['name'] for i in v['cellar'])}"
                    if v["cellar"] else "") + ".")
    if v["chamber"]:
        ch = v["chamber"]
        lines.append(f"Secret Chamber: {ch['cards']} {plural(ch['cards'], 'card')} inside; passage "
                     + (f"in the {Engine(state).room_name(ch['passage_room'])}."
                        if ch["passage_room"] else "not found yet."))
    if state.visitors and state.phase != "setup":
        lines.append(_talk_line(v))
    if seat is not None and private_summary:
        # What only `seat` knows: a visitor's hand, the spirit's secrets.
        lines += ["Only you know:", *(x for x in private_summary.splitlines() if x.strip())]
    return [plain(state, x) for x in lines]


def alt_lines(state: PresenceState, names: dict[str, str], result_line: str | None
              ) -> list[str]:
    """The public picture, most important first: the decision, the tracks, the secrets, who is
    where, then rooms with something in them."""
    v = remembered_view(state, None)
    lines: list[str] = []
    if result_line:
        lines.append(result_line)
    else:
        lines += ["Now: " + doing_text(state, seat_of(state, s), names)
                  for s in _awaited_slots(state)]
    lines.append(_track_line(v))
    lines.append(_secrets_line(v))
    for vis in v["visitors"]:
        lines.append(f"{who(state, vis['seat'], names)}: {vis['room_name']}, fear "
                     f"{vis['fear']}/{vis['fear_track']}"
                     + ("" if vis["candle_lit"] else ", candle out")
                     + (", knocked out" if vis["knocked_out"] else "")
                     + (", succumbed" if vis["succumbed"] else "") + ".")
    busy = [x for r in v["rooms"] if (x := _room_line(state, r)) and not x.endswith("empty.")]
    lines += busy
    return [plain(state, x) for x in lines]


def result_text(state: PresenceState, result: Result, names: dict[str, str]) -> str:
    """Who won and why (P-UPKEEP-02, P-WIN-06)."""
    eng = Engine(state)
    spirit_won = state.spirit_seat in result.winners
    visitors = [s for s in state.visitor_seats if s in result.winners]
    players = list(dict.fromkeys(seat_of(state, s) for s in visitors))
    script = eng.pack.script(state.script).name if state.script else ""
    parts: list[str] = []
    if visitors:
        parts.append(join_words([player(state, p, names) for p in players])
                     + (" wins" if len(players) == 1 else " win")
                     + ": every secret is revealed" + (" and the script's condition holds"
                                                       if state.script_revealed else ""))
    if spirit_won:
        parts.append(who(state, state.spirit_seat, names)
                     + " wins by its script" + (f", {script}" if script else ""))
    if not parts:
        text = ("Eternal Darkness: nobody reached their goal by the end of the final round; "
                "the only winner is Wrightwatch Manor")
    else:
        text = "; ".join(parts)
        text = text[0].upper() + text[1:]
    text += "."
    return plain(state, text)
