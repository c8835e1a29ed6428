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
floors [{level, name}]
doors: list {id, rooms [a, b], open, locked, stairs}
track {time, hope (int|None = lost), nerve (int|None), spaces, even_rounds, side}
scripts {display [{id, name, type, alignment?}] (alignment/texts of displayed scripts are
  public content), revealed (bool), script ({id, name, type, alignment, top, bottom} once
  revealed, else None)}
secrets: list of 4 {position, in_deck (printed count), remove (setup symbols),
  revealed (bool), name/trauma/tier (None until revealed), discards [{id, name, trauma,
  room}], discard_count, matching (int once revealed, else None)}
secret_board {low_max, high_min}
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
  speech {seat: "free"|"procedural_only"}, why}
prompt {id, kind, text, seats, labels} | None — the text of a private prompt (one about a
  hidden card) is replaced for seats that do not answer it
log [str] — the last public events, oldest first
hand (a visitor's own view only): [{id, name, kind "action"|"clue", trauma?, room?,
  actions [{name, speed, text}]}]
spirit_private (the spirit's own view only): {script {id, name, type, alignment, top,
  bottom}, secrets [{position, id, name, trauma}], tokens {room: [clue name]},
  hand [{id, name, top, bottom}], discard [name], drawn_spirit_clues [name],
  removed_clues [name]}
inspected [str] — what this seat inspected privately (last few)
"""

from __future__ import annotations

from typing import Any

from rules.presence.engine import Engine
from rules.presence.state import PresenceState


def _power(p: Any) -> dict[str, Any]:
    return {"requirement": p.requirement, "spend": p.spend, "drain": p.drain,
            "hindered_by_light": p.hindered_by_light, "text": p.text}


def _script(eng: Engine, sid: str) -> dict[str, Any]:
    s = eng.pack.script(sid)
    return {"id": s.id, "name": s.name, "type": s.type, "alignment": s.alignment,
            "top": s.top.text, "bottom": s.bottom.text}


def _card(eng: Engine, cid: str) -> dict[str, Any]:
    pack = eng.pack
    if pack.is_fear_card(cid):
        f = pack.fear_card(cid)
        return {"id": cid, "name": f.name, "kind": "fear", "text": f.text}
    if eng.is_action_card(cid):
        a: Any = pack.action_card(cid)
        kind = "action"
        extra: dict[str, Any] = {}
    else:
        a = pack.clue_card(cid)
        kind = "clue"
        extra = {"trauma": a.trauma, "room": a.room}
    return {"id": cid, "name": a.name, "kind": kind, **extra,
            "actions": [{"name": x.name, "speed": x.speed, "text": x.text}
                        for x in a.actions]}


def build_view(state: PresenceState, seat: str | None) -> dict[str, Any]:
    eng = Engine(state)
    pack = eng.pack
    st = state
    to_act = sorted(eng.to_act())
    board = pack.secret_board(st.n)
    rooms = []
    for rid in st.rooms:
        r = pack.room(rid)
        rooms.append({
            "id": rid, "name": r.name, "floor": r.floor, "x": r.x, "y": r.y,
            "board": r.board, "lit": eng.lit(rid),
            "fireplace": rid == pack.manor.fireplace_room,
            "fireplace_lit": st.fireplace_lit and rid == pack.manor.fireplace_room,
            "tokens": [{"kind": t.kind} for t in st.tokens.get(rid, [])],
            "dice": [{"id": d.id, "value": d.value} for d in st.dice if d.room == rid],
            "visitors": [v.seat for v in st.visitors.values() if v.room == rid],
            "pawn": st.spirit.pawn_room == rid,
            "drains": [pack.spirit_card(d.card).name for d in st.drains if d.room == rid],
        })
    secrets = []
    for slot, pos in zip(st.secrets, board.positions, strict=False):
        card = pack.secret(slot.card) if slot.revealed else None
        secrets.append({
            "position": slot.position, "in_deck": pos.in_deck, "remove": pos.remove,
            "revealed": slot.revealed,
            "name": card.name if card else None,
            "trauma": card.trauma if card else None,
            "tier": slot.tier,
            "discards": [_card(eng, c) for c in slot.discards],
            "discard_count": len(slot.discards),
            "matching": eng.matching(slot.position) if slot.revealed else None,
        })
    talk = eng.table_talk() if st.visitors and st.phase != "setup" else {
        "allowed": True, "alone": [], "alone_labels": [], "knocked_out": [],
        "succumbed": [], "speech": {}, "why": "Setup."}
    visitors = []
    for s in st.visitor_seats:
        v = st.visitors.get(s)
        if v is None:
            continue
        ch = pack.visitor(v.character)
        visitors.append({
            "seat": s, "label": eng.seat_label(s), "character": v.character, "name": ch.name,
            "room": v.room, "room_name": eng.room_name(v.room), "fear": v.fear,
            "fear_track": ch.fear_track, "candle_lit": v.candle_lit,
            "knocked_out": v.knocked_out, "succumbed": v.succumbed,
            "alone": eng.alone(s), "hand_count": len(v.hand), "deck_count": len(v.deck),
            "discard": [{"id": c, "name": eng.card_name(c)} for c in v.discard],
            "items": [{"id": i, "name": eng.card_name(i)} for i in v.items],
            "fear_cards": [{"id": c, "name": pack.fear_card(c).name,
                            "text": pack.fear_card(c).text} for c in v.fear_cards],
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
        }
    result = None
    if st.outcome is not None:
        from rules.presence.game import result_of

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
                   "stairs": pack.door(d.id).stairs} for d in st.doors.values()],
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
        "secret_board": {"low_max": board.low_max, "high_min": board.high_min},
        "clue_deck": len(st.clue_deck),
        "clue_revealed": [_card(eng, c) for c in st.clue_revealed],
        "clue_trash": len(st.clue_trash),
        "item_deck": len(st.item_deck),
        "cellar": [{"id": i, "name": eng.card_name(i)} for i in st.cellar],
        "dice": [{"id": d.id, "room": d.room, "value": d.value, "moved": d.moved}
                 for d in st.dice],
        "supply": len(eng.supply()),
        "visitors": visitors,
        "spirit": {
            "seat": st.spirit_seat, "label": eng.seat_label(st.spirit_seat),
            "character": sp.character,
            "name": pack.spirit(sp.character).name if sp.character else None,
            "hand_count": len(sp.hand), "deck_count": len(sp.deck),
            "discard_count": len(sp.discard), "pawn_room": sp.pawn_room,
            "pawn_actions": sp.pawn_actions,
            "drains": [{"card": d.card, "name": pack.spirit_card(d.card).name,
                        "power": d.power, "room": d.room} for d in st.drains],
        },
        "bonded": st.bonded,
        "table_talk": talk,
        "prompt": prompt,
        "log": list(st.log),
        "inspected": list(st.private_seen.get(seat, [])) if seat else [],
    }
    if seat is not None and seat in st.visitors:
        out["hand"] = [_card(eng, c) for c in st.visitors[seat].hand]
    if seat is not None and seat == st.spirit_seat:
        out["spirit_private"] = {
            "script": _script(eng, st.script) if st.script else None,
            "secrets": [{"position": s.position, "id": s.card,
                         "name": pack.secret(s.card).name,
                         "trauma": pack.secret(s.card).trauma} for s in st.secrets],
            "tokens": {r: [pack.spirit_clue_of(t.id).name for t in toks if t.kind == "spirit"]
                       for r, toks in st.tokens.items()},
            "hand": [{"id": c, "name": pack.spirit_card(c).name,
                      "top": _power(pack.spirit_card(c).top),
                      "bottom": _power(pack.spirit_card(c).bottom)} for c in sp.hand],
            "discard": [pack.spirit_card(c).name for c in sp.discard],
            "drawn_spirit_clues": [pack.spirit_clue_of(c).name
                                   for c in st.drawn_spirit_clues],
            "removed_clues": [eng.card_name(c) for c in st.clue_box
                              if not pack.is_fear_card(c)],
        }
    return out
