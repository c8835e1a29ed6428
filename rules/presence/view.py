"""What each seat may see of a Presence game (spec Part 5), as a JSON-ready dict.

`view(state, None)` is the public view, safe for the channel. It never holds the drawn script
before it is revealed (H-07), the undrawn scripts (H-08), a secret card or its trauma before
it is revealed (H-10), removed clue cards (H-13/H-14), deck orders (H-15, H-19), any hand
(H-02, H-17, H-18), face-down clue token identities (H-24, H-27), spirit clues waiting for
placement (H-25), or the spirit's discard (H-04/H-06). The spirit's own view adds
``spirit_private``; a visitor's own view adds ``hand``; either adds ``inspected`` (what that
seat looked at).
The renderer draws ONLY from this dict; these keys are stable:

Top level
  game "presence"; mode "session"; pack (fingerprint); step (int); seat (viewer or None);
  role "spirit"|"visitor"|None; over (bool); result ({winners, losers, reason} | None);
  round (1..9); final_round; phase "setup"|"visitor"|"spirit"|"upkeep"|"over";
  active_seat; active_label; actions_left (visitor main actions left);
  waiting_for [seat]; waiting_labels [str]; n (characters incl. the spirit).
rooms: list, one per room in play:
  {id, name, floor, x, y, board, lit (bool), fireplace (bool: the fireplace room),
   fireplace_lit, tokens [{kind "spirit"|"small"}] (face down: kind only),
   dice [{id, value}], visitors [seat], pawn (bool: the spirit pawn is here),
   drains [card name]}
board_sides {board id: "A"|"B"} (P-DARK-01, A-57)
floors [{level, name}]
doors: list {id, rooms [a, b], open, locked, stairs, passage (the Secret Chamber's)}
variants {mystery, unknown_threat, dark_board, secret_chamber (bools), ut_scripts [id]}
chamber {room, cards (count), passage_room (room | None: sealed), searched [room: an Uncover
  found nothing], passage_may_be [room] | None (P-CHAMBER-04: once position 1 is revealed and
  until the passage is found, the rooms its trauma's face-up clue cards leave)} | None
Mystery Mode: secrets[].discards is empty and matching None for every seat but the spirit
  (counts stay public)
track {time, hope (int|None = lost), nerve (int|None), spaces, even_rounds, side}
scripts {display [{id, name, type, alignment?}] (alignment/texts of displayed scripts are
  public content), revealed (bool), script ({id, name, type, alignment, top, bottom} once
  revealed, else None)}
secrets: list of 4 {position, in_deck (printed count), remove (setup symbols),
  revealed (bool), name/trauma/tier (None until revealed), discards [{id, name, trauma,
  room}], discard_count, matching (int once revealed, else None)}
secret_board {low_max, high_min, low_max_at: the low tier per position, A-66}
clue_deck (count); clue_revealed [{id, name, kind "clue"|"fear", trauma?, room?}];
clue_trash (count); item_deck (count); cellar [{id, name}]
dice [{id, room (None = supply), value, moved}]; supply (count)
visitors: list in turn order {seat, label, character, name, room, room_name, fear,
  fear_track, candle_lit, knocked_out, succumbed, alone, hand_count, deck_count,
  discard [{id, name}], items [{id, name}], fear_cards [{id, name, text}], bonded, active}
spirit {seat, label, character, name, hand_count, deck_count, discard_count,
  pawn_room, pawn_actions, drains [{card, name, power, room}]}
bonded (seat | None)
table_talk {allowed, alone [seat], alone_labels, knocked_out [seat], succumbed [seat],
  speech {seat: "free"|"procedural_only"|"silent"}, why}
presets {two_players, first_game, open_communication, true_horror (bools), controller
  {character slot: seat} (two players: both slots -> the visitor player's seat),
  speech_grant {max_words, vocabulary} | None (the spirit may speak now, P-DISCORD-08)}
prompt {id, kind, text, seats, labels} | None — the text of a private prompt (one about a
  hidden card) is replaced for seats that do not answer it
log [str] — the last public events, oldest first
hand (a visitor's own view only): [{id, name, kind "action"|"clue", trauma?, room?,
  actions [{name, speed, text}]}]
laid_face_down (a visitor's own view, Mystery Mode only): {position: [card as in hand]} — the
  clue cards its player laid face down beneath each position (A-64)
spirit_private (the spirit's own view only): {script {id, name, type, alignment, top,
  bottom}, secrets [{position, id, name, trauma}], tokens {room: [clue name]},
  hand [{id, name, top, bottom}], discard [name], drawn_spirit_clues [name],
  removed_clues [name]; with the variants: clue_discards {position: [name]} (Mystery Mode),
  chamber {aside name, cards [name]} (H-35, H-36), unknown_threat {deck, clues, secrets
  [name]} (H-39)}
inspected [str] — what this seat inspected privately (last few)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core import memo
from rules.presence.content import Pack
from rules.presence.engine import Engine
from rules.presence.result import result_of
from rules.presence.state import PresenceState


@dataclass(frozen=True)
class _Tables:
    """Printed data of one pack that every view repeats, looked up once: a view is built for
    every board post and every DM, and a pack lookup costs a pydantic attribute access."""

    names: dict[str, str]
    """Card or item instance id -> printed name (action, clue, fear, spirit cards, items)."""
    cards: dict[str, dict[str, Any]]
    """Hand / revealed card id -> its view entry (copied before use: views are mutable)."""
    rooms: dict[str, dict[str, Any]]
    """Room id -> {id, name, floor, x, y, board}."""
    stairs: dict[str, bool]
    spirit_cards: dict[str, dict[str, Any]]
    """Spirit card id -> {id, name, top, bottom} for the spirit's hand."""


_TABLES: dict[int, tuple[Pack, _Tables]] = {}


def _power(p: Any) -> dict[str, Any]:
    return {"requirement": p.requirement, "spend": p.spend, "drain": p.drain,
            "hindered_by_light": p.hindered_by_light, "text": p.text}


def _card_entry(pack: Pack, cid: str, fear: bool, action: bool) -> dict[str, Any]:
    if fear:
        f = pack.fear_card(cid)
        return {"id": cid, "name": f.name, "kind": "fear", "text": f.text}
    a: Any = pack.action_card(cid) if action else pack.clue_card(cid)
    extra: dict[str, Any] = {} if action else {"trauma": a.trauma, "room": a.room}
    return {"id": cid, "name": a.name, "kind": "action" if action else "clue", **extra,
            "actions": [{"name": x.name, "speed": x.speed, "text": x.text}
                        for x in a.actions]}


def _tables(pack: Pack) -> _Tables:
    hit = _TABLES.get(id(pack))
    if hit is not None and hit[0] is pack:
        return hit[1]
    names: dict[str, str] = {}
    # Engine.card_name's order: the first kind that knows an id names it.
    for group in (pack.spirit_cards, pack.fear_cards, pack.clue_cards, pack.action_cards):
        names.update({c.id: c.name for c in group})
    items = {i: pack.item_of(i).name for i in pack.item_instances()}
    names = {**items, **names}
    cards = {c.id: _card_entry(pack, c.id, False, False) for c in pack.clue_cards}
    cards.update({c.id: _card_entry(pack, c.id, False, True) for c in pack.action_cards})
    cards.update({c.id: _card_entry(pack, c.id, True, False) for c in pack.fear_cards})
    tables = _Tables(
        names=names, cards=cards,
        rooms={r.id: {"id": r.id, "name": r.name, "floor": r.floor, "x": r.x, "y": r.y,
                      "board": r.board} for r in pack.manor.rooms},
        stairs={d.id: d.stairs for d in pack.manor.doors},
        spirit_cards={c.id: {"id": c.id, "name": c.name, "top": _power(c.top),
                             "bottom": _power(c.bottom)} for c in pack.spirit_cards},
    )
    _TABLES[id(pack)] = (pack, tables)
    return tables


def _script(eng: Engine, sid: str) -> dict[str, Any]:
    s = eng.pack.script(sid)
    return {"id": s.id, "name": s.name, "type": s.type, "alignment": s.alignment,
            "top": s.top.text, "bottom": s.bottom.text}


def _card(t: _Tables, cid: str) -> dict[str, Any]:
    entry = t.cards[cid]
    if "actions" not in entry:
        return dict(entry)
    return {**entry, "actions": [dict(a) for a in entry["actions"]]}


def _passage_may_be(eng: Engine) -> list[str] | None:
    """P-CHAMBER-04: the rooms the sealed passage may be in, reckoned from what the whole
    table has seen (never a hand, nor Mystery Mode's face-down discards): known once the
    secret at position 1 is revealed (its trauma), until an Uncover finds the passage."""
    st = eng.st
    first = next((s for s in st.secrets if s.position == 1), None)
    if st.chamber is None or st.chamber.passage_room is not None or first is None \
            or not first.revealed:
        return None
    trauma = eng.pack.secret(first.card).trauma
    return eng.passage_rooms(trauma, eng.public_clue_cards())


def spirit_private(state: PresenceState) -> dict[str, Any]:
    """What only the spirit sees (H-02, H-04, H-07, H-10, H-13, H-24, H-25): its script, the
    secret card at each position, the identity of each face-down spirit clue by room, its
    hand and face-down discard, spirit clues waiting for placement, the removed clue cards."""
    eng = Engine(state)
    pack = eng.pack
    t = _tables(pack)
    st = state
    extra: dict[str, Any] = {}
    if st.mystery:  # P-MYST-02: only the spirit inspects the face-down discards
        extra["clue_discards"] = {s.position: [t.names[c] for c in s.discards]
                                  for s in st.secrets}
    if st.chamber is not None:  # H-35, H-36
        extra["chamber"] = {"aside": t.names[st.chamber.aside],
                            "cards": [t.names[c] for c in st.chamber.cards]}
    ut = st.unknown_threat
    if ut is not None:  # H-39: the spirit's own Unknown Threat choices
        extra["unknown_threat"] = {
            "deck": [t.spirit_cards[c]["name"] for c in ut.deck],
            "clues": [pack.spirit_clue(c).name for c in ut.clues],
            "secrets": [pack.secret(c).name for c in ut.secrets]}
    return {
        **extra,
        "script": _script(eng, st.script) if st.script else None,
        "secrets": [{"position": s.position, "id": s.card,
                     "name": pack.secret(s.card).name,
                     "trauma": pack.secret(s.card).trauma} for s in st.secrets],
        "tokens": {r: [pack.spirit_clue_of(x.id).name for x in toks if x.kind == "spirit"]
                   for r, toks in st.tokens.items()},
        "hand": [{**t.spirit_cards[c], "top": dict(t.spirit_cards[c]["top"]),
                  "bottom": dict(t.spirit_cards[c]["bottom"])} for c in st.spirit.hand],
        "discard": [t.spirit_cards[c]["name"] for c in st.spirit.discard],
        "drawn_spirit_clues": [pack.spirit_clue_of(c).name for c in st.drawn_spirit_clues],
        "removed_clues": [t.names[c] for c in st.clue_box if not pack.is_fear_card(c)],
    }


def visitor_hand(state: PresenceState, seat: str) -> list[dict[str, Any]]:
    """A visitor's own hand (H-17, H-18): action and clue cards with their actions."""
    eng = Engine(state)
    t = _tables(eng.pack)
    # P-2P-03: the visitor player's one hand, split by colour between its two characters
    return [_card(t, c) for c in eng.player_hand(seat)]


def remembered_view(state: PresenceState, seat: str | None) -> dict[str, Any]:
    """`build_view(state, seat)`, built once per state while the bot holds it
    (`rules.core.memo`): for the words and summaries, which only read it. Never change it."""
    return memo.remembered(state, ("view", seat), lambda: build_view(state, seat))


def build_view(state: PresenceState, seat: str | None) -> dict[str, Any]:
    eng = Engine(state)
    pack = eng.pack
    t = _tables(pack)
    st = state
    to_act = sorted(eng.to_act())
    board = eng.secret_board()
    fire_room = pack.manor.fireplace_room
    rooms = []
    for rid in st.rooms:
        rooms.append({
            **t.rooms[rid], "lit": eng.lit(rid),
            "fireplace": rid == fire_room,
            "fireplace_lit": st.fireplace_lit and rid == fire_room,
            "tokens": [{"kind": x.kind} for x in st.tokens.get(rid, [])],
            "dice": [{"id": d.id, "value": d.value} for d in st.dice if d.room == rid],
            "visitors": [v.seat for v in st.visitors.values() if v.room == rid],
            "pawn": st.spirit.pawn_room == rid,
            "drains": [t.spirit_cards[d.card]["name"] for d in st.drains if d.room == rid],
        })
    secrets = []
    # P-MYST-02 / A-58: in Mystery Mode the discards and matching counts are the spirit's
    face_down = st.mystery and seat != st.spirit_seat
    chamber_def = pack.manor.chamber
    chamber_room = (chamber_def.room if chamber_def is not None
                    and chamber_def.room in st.rooms else None)
    for slot, pos in zip(st.secrets, board.positions, strict=False):
        card = pack.secret(slot.card) if slot.revealed else None
        secrets.append({
            "position": slot.position, "in_deck": pos.in_deck, "remove": pos.remove,
            "revealed": slot.revealed,
            "name": card.name if card else None,
            "trauma": card.trauma if card else None,
            "tier": slot.tier,
            "discards": [] if face_down else [_card(t, c) for c in slot.discards],
            "discard_count": len(slot.discards),
            "failed_invokes": list(slot.failed),
            "matching": eng.matching(slot.position) if slot.revealed and not face_down
            else None,
        })
    talk = eng.table_talk() if st.visitors and st.phase != "setup" else {
        "allowed": True, "alone": [], "alone_labels": [], "knocked_out": [],
        "succumbed": [], "speech": {}, "why": "Setup."}
    labels = {s: eng.seat_label(s) for s in [*st.seats, *st.controller]}  # + P-2P slots
    visitors = []
    for s in st.visitor_seats:
        v = st.visitors.get(s)
        if v is None:
            continue
        ch = pack.visitor(v.character)
        visitors.append({
            "seat": s, "label": labels[s], "character": v.character, "name": ch.name,
            "room": v.room, "room_name": t.rooms[v.room]["name"], "fear": v.fear,
            "fear_track": ch.fear_track, "candle_lit": v.candle_lit,
            "knocked_out": v.knocked_out, "succumbed": v.succumbed,
            "alone": eng.alone(s),
            "hand_count": len(v.hand), "deck_count": len(v.deck),
            "discard": [{"id": c, "name": t.names.get(c, c)} for c in v.discard],
            "items": [{"id": i, "name": t.names.get(i, i)} for i in v.items],
            "fear_cards": [{"id": c, "name": t.cards[c]["name"], "text": t.cards[c]["text"]}
                           for c in v.fear_cards],
            "bonded": st.bonded == s, "active": st.active == s,
        })
    sp = st.spirit
    prompt = None
    if st.prompts:
        top = st.prompts[-1]
        hidden = bool(top.data.get("private")) or top.seats == [st.spirit_seat]
        mine = seat is not None and seat in top.seats
        prompt = {
            "id": top.id, "kind": top.kind,
            "text": top.text if mine or not hidden else
            f"{', '.join(eng.seat_label(x) for x in top.seats)} is making a choice.",
            "seats": list(top.seats),
            "labels": [eng.seat_label(x) for x in top.seats],
            # What the prompt is for (the guide explains it): hidden like its text.
            "purpose": str(top.data.get("then") or "") if mine or not hidden else "",
        }
    result = None
    if st.outcome is not None:
        res = result_of(st)
        result = res.model_dump() if res else None
    out: dict[str, Any] = {
        "game": "presence", "mode": "session", "pack": st.pack, "step": st.step,
        "seat": seat,
        "role": None if seat is None else ("spirit" if seat == st.spirit_seat else "visitor"),
        "over": st.outcome is not None, "result": result, "round": st.round,
        "final_round": pack.hope_track.final_round, "phase": st.phase,
        "active_seat": st.active,
        "active_label": eng.seat_label(st.active) if st.active else None,
        "actions_left": max(0, st.actions_left) if st.phase == "visitor" else 0,
        "waiting_for": to_act, "waiting_labels": [eng.seat_label(s) for s in to_act],
        "n": st.n,
        "rooms": rooms,
        "floors": [{"level": f.level, "name": f.name} for f in pack.manor.floors],
        "doors": [{"id": d.id, "rooms": list(d.rooms), "open": d.open, "locked": d.locked,
                   "stairs": t.stairs.get(d.id, False),
                   # the Secret Chamber's passage token, a door that cannot be locked
                   "passage": d.id not in t.stairs} for d in st.doors.values()],
        "track": {"time": st.time, "hope": st.hope, "nerve": st.nerve,
                  "spaces": pack.hope_track.spaces,
                  "even_rounds": list(pack.hope_track.even_rounds), "side": st.track_side},
        "scripts": {
            "display": [{"id": s, "name": pack.script(s).name, "type": pack.script(s).type}
                        for s in st.display_scripts],
            "revealed": st.script_revealed,
            "script": _script(eng, st.script) if st.script_revealed else None,
        },
        "secrets": secrets,
        "secret_board": {"low_max": board.low_max, "high_min": board.high_min,
                         "low_max_at": [board.low_max_at(k) for k in range(1, 5)]},
        "clue_deck": len(st.clue_deck),
        "clue_revealed": [_card(t, c) for c in st.clue_revealed],
        "clue_trash": len(st.clue_trash),
        "item_deck": len(st.item_deck),
        "cellar": [{"id": i, "name": t.names.get(i, i)} for i in st.cellar],
        "dice": [{"id": d.id, "room": d.room, "value": d.value, "moved": d.moved}
                 for d in st.dice],
        "supply": len(eng.supply()),
        "visitors": visitors,
        "spirit": {
            "seat": st.spirit_seat, "label": labels[st.spirit_seat],
            "character": sp.character,
            "name": pack.spirit(sp.character).name if sp.character else None,
            "hand_count": len(sp.hand), "deck_count": len(sp.deck),
            "discard_count": len(sp.discard), "pawn_room": sp.pawn_room,
            "pawn_actions": sp.pawn_actions,
            "drains": [{"card": d.card, "name": t.spirit_cards[d.card]["name"],
                        "power": d.power, "room": d.room} for d in st.drains],
        },
        "bonded": st.bonded,
        "variants": {"mystery": st.mystery, "unknown_threat": st.unknown_threat is not None,
                     "dark_board": st.board_side == "B",
                     "secret_chamber": chamber_room is not None,
                     "ut_scripts": list(st.unknown_threat.scripts)
                     if st.unknown_threat else []},
        # P-CHAMBER: what is public of the chamber — how many cards lie there, the passage
        # (in play from the start; its cards are dealt in setup step 9, P-SETUP-24)
        "chamber": None if chamber_room is None else {
            "room": chamber_room, "cards": len(st.chamber.cards) if st.chamber else 0,
            "passage_room": st.chamber.passage_room if st.chamber else None,
            "searched": list(st.chamber.searched) if st.chamber else [],
            "passage_may_be": _passage_may_be(eng)},
        "board_sides": {b.id: ("B" if (st.basement_side if b.id == "basement"
                                       else st.board_side) == "B" else "A")
                        for b in pack.manor.boards},
        "table_talk": talk,
        # P-2P, P-FIRST, P-OPEN, P-HORROR; the spirit's granted speech (P-DISCORD-08)
        "presets": {"two_players": bool(st.controller), "first_game": st.first_game,
                    "open_communication": st.open_communication,
                    "true_horror": st.true_horror,
                    "controller": dict(st.controller),
                    "speech_grant": st.speech_grant},
        "prompt": prompt,
        "log": list(st.log),
        "inspected": list(st.private_seen.get(seat, [])) if seat else [],
    }
    if seat is not None and seat in st.visitors:
        out["hand"] = visitor_hand(st, seat)
        if st.mystery:  # the cards this player laid face down, where they lie
            laid = eng.player_laid(seat)
            out["laid_face_down"] = {s.position: [_card(t, c) for c in s.discards if c in laid]
                                     for s in st.secrets}
    if seat is not None and seat == st.spirit_seat:
        out["spirit_private"] = spirit_private(st)
    return out
