"""What each seat may see of an I Am the Fourth Wall game (spec §5), as a JSON-ready dict.

`view(state, None)` is the public view, safe for the channel: it never holds an
Investigator's hand (counts only, FW-VIS-06), the Wall's hand of Horrors (count only,
FW-VIS-15), the Wall card before An Eye Opens (FW-VIS-12), which Wall cards are Gates
(FW-VIS-11), a peek (FW-VIS-28) or any deck order. Every Investigator seat's view adds the
whole team's hands (FW-SETUP-07) and the Investigator cards dealt at setup (FW-VIS-02); the
Wall seat's view (Conflict) adds the Wall card and its hand of Horrors. In Alliance the
Ancient One stays hidden from everyone until An Eye Opens.

The renderer draws the board ONLY from this dict; these keys are stable:

Top level
  game "fourth_wall"; mode "conflict"|"alliance"; pack (fingerprint); step (int);
  seat (viewing seat | None); viewer "public"|"wall"|"investigator"; over (bool);
  result ({winners, losers, reason} | None); round (1..); phase "setup"|"wall"|
  "investigator"|"over"; waiting_for [seat]; waiting_labels [str]; symbols ["clue",
  "force", "science"]; symbol_names {symbol: name}.
turn
  {active: investigator id | None (whose turn it is, or whose turn the Wall turn precedes),
   active_name, active_seat, wall_turn (bool: the Wall's turn now), wall_mode
   "wrath"|"brood"|None, wall_turns (taken so far), first_wall_turn (bool), wrath_gain
   (Doom a Wrath chosen now gains; None in Alliance), ap (AP left),
   ap_per_turn (2, or 3 in The Crescendo), costs ({action name (`ACTION_NAMES`): AP it costs
   the active Investigator, every modifier applied}; {} with none active), unique_used (bool),
   brood_allowed (bool),
   brood_blocked_because (str | None)}
tracker
  {investigators (layout size), ranks [{rank, stage, current (bool), passed (bool)}],
   rank (current number), stage "slumber"|"eye_opens"|"crescendo"|"awakens", stage_name,
   rounds_left (round ends before The Ancient One Awakens)}
gates
  {open (0..5), max (5), pentagram [bool ×5] (True = an Open Gate, in placement order),
   closing_blocked (bool: The Scourge is On the Streets), requirement {distinct, extra
   {symbol: n}}}
wall
  {seat | None, label, revealed (bool), name | None, text | None, uniques [{cost, text,
   opens_gate}] | None, aura | None (text), hand_count (Conflict; 0 in Alliance), doom (Action
   Pool),
   doom_deferred (for the next turn), unique_used (bool), presence_cards (Alliance: {n,
   this_turn}: the Presence cards still to come this Wall turn, or the next Wall turn's as
   things stand, `Engine.presence_cards`; None in Conflict)}
  — name/text/uniques/aura only once revealed (or in the Wall seat's own view).
horrors: Horrors On the Streets in placement order (Alliance: by Street)
  [{id, card, name, street (1..5 | None), manifest {doom, drain}, defeat_printed [symbol],
    defeat_cost [symbol] (effective, FW-HORROR-04), negated {symbol: n}, remaining
    {symbol: n}, attached [{id, card, name, symbols}], drained (bool), scourge (bool),
    trigger_cost, opens_gate (its Trigger Opens a Gate), text, aura_text, tell (Conflict:
    which of its name it is, in the log's words, "the older one", "the third to arrive", "The
    Scourge"; None without a twin)}]
streets (Alliance, else None): [{number, name, text, horror (id | None), aura_active}]
anchored [{id, card, name, symbols, text}]
scourge (Conflict, else None): {on: horror id | None, on_name: str | None}
target (Alliance: investigator id holding the Target Token | None); target_name
investigators [{id, seat, seat_label, card, name, sanity, hand_limit, hand_count, insane,
  regrouped, is_active, is_target, unique {cost, text, closes_with (the different Symbols
  its Close a Gate asks, or None)}, exploit {cost, text, removes_scourge}, text,
  hand [{id, card, name, symbols, text, utilise (bool), quick_use [window]}] | None (hidden),
  dealt [{card, name, sanity, text}] | None (setup choice; team only)}]
seats_info [{seat, label, role "wall"|"investigator", investigators [id]}]
decks {marble, marble_discard, horror, horror_discard, investigator, presence,
  presence_discard} (counts)
marble_discard [{id, name}] (public, newest last, FW-VIS-05); horror_discard [{id, name}]
revealed [{id "blitz1".., card, name, symbols}] (the last Blitz reveal, FW-VIS-24: a public
  record fixed when revealed; card kinds, never instance ids)
last_presence (Alliance: name of the last Presence card) | None
peek [{id, name}] (team views only while a peek is pending) | []
hand (the Wall seat's view only, Conflict): [{id, card, name, manifest {doom, drain}, defeat
  [symbol], trigger_cost, text}]; wall_card (same seat): {id, name, text, uniques, aura}
prompt {id, kind, text, seats, labels} | None (the public and Wall views read a neutral
  text where the full one names the team's cards: dealt Investigators, a Trade offer; a
  selection in progress — Close a Gate, the Marble an Intervene is about to Attach — is named
  only in the answering seat's own view)
log [str] — the last public events, oldest first
"""

from __future__ import annotations

from typing import Any

from rules.core import memo
from rules.fourth_wall.content import (
    ACTION_NAMES,
    SYMBOLS,
    CloseGate,
    Instruction,
    OpenGate,
    RemoveScourge,
)
from rules.fourth_wall.engine import STAGE_NAMES, SYMBOL_NAMES, Engine
from rules.fourth_wall.engine.investigators import card_text_for_mode
from rules.fourth_wall.result import result_of
from rules.fourth_wall.state import FourthWallState


def _ability(cost: int, text: str) -> dict[str, Any]:
    return {"cost": cost, "text": text}


def _closes_with(instruction: Instruction) -> int | None:
    """How many different Symbols an Instruction's Close a Gate asks of the hand (the
    Gatewright's Unique: 2), or None where it Closes none that way (public: the card is)."""
    return next((e.distinct_symbols for sentence in instruction for e in sentence
                 if isinstance(e, CloseGate) and e.cost == "marbles"), None)


def _opens_gate(instruction: Instruction) -> bool:
    """Whether an Instruction Opens a Gate (a Horror's Trigger, The Wall's Unique Action):
    with four Open after An Eye Opens, it wins The Wall the game (FW-GATE-07). Public: the
    card is."""
    return any(isinstance(e, OpenGate) for sentence in instruction for e in sentence)


def _removes_scourge(instruction: Instruction) -> bool:
    """Whether an Instruction removes The Scourge Token (the Rallier's Exploit the Rift,
    FW-SCOURGE-04). Public: the card is."""
    return any(isinstance(e, RemoveScourge) for sentence in instruction for e in sentence)


def _split_text(text: str, key: str) -> str:
    """The part of a card text after ``key`` up to the next ability (display only)."""
    if key not in text:
        return ""
    rest = text.split(key, 1)[1]
    for stop in (" Exploit the Rift:", " Aura:", " Unique"):
        if stop in rest and stop.strip() != key.strip():
            rest = rest.split(stop, 1)[0]
    return rest.strip(" :")


def remembered_view(state: FourthWallState, seat: str | None) -> dict[str, Any]:
    """`build_view(state, seat)`, built once per state while the bot holds it
    (`rules.core.memo`): for the words and summaries, which only read it. Never change it."""
    return memo.remembered(state, ("view", seat), lambda: build_view(state, seat))


def build_view(state: FourthWallState, seat: str | None) -> dict[str, Any]:
    eng = Engine(state).freeze()
    st = state
    pack = eng.pack
    wall_view = seat is not None and seat == st.wall_seat
    team = seat is not None and seat in st.seats and not wall_view
    to_act = sorted(eng.to_act())
    act_inv = eng.active()

    def marble_dict(mid: str) -> dict[str, Any]:
        m = eng.marble(mid)
        return {"id": mid, "card": m.id, "name": m.name, "symbols": list(m.symbols),
                "text": m.text, "utilise": bool(m.utilise),
                "quick_use": [r.window for r in m.reactions]}

    horrors = []
    for h in st.streets:
        hcard = eng.horror(h.id)
        cost = eng.defeat_cost(h.id)
        att = eng.attached_symbols(h)
        horrors.append({
            "id": h.id,
            "card": hcard.id,
            "name": hcard.name,
            "street": h.street,
            "manifest": {"doom": hcard.manifest.doom, "drain": hcard.manifest.drain},
            "defeat_printed": list(hcard.defeat),
            "defeat_cost": [s for s in SYMBOLS for _ in range(cost[s])],
            "negated": {s: min(att[s], cost[s]) for s in SYMBOLS if cost[s]},
            "remaining": {s: cost[s] - att[s] for s in SYMBOLS if cost[s] > att[s]},
            "attached": [{"id": m, "card": eng.marble(m).id, "name": eng.marble(m).name,
                          "symbols": list(eng.marble(m).symbols)} for m in h.attached],
            "drained": h.drained,
            "scourge": st.scourge == h.id,
            "trigger_cost": hcard.trigger_cost,
            "opens_gate": _opens_gate(hcard.trigger),
            "text": hcard.text,
            # Words (WORDS_KEYS): what a Street's Aura adds to its Defeat Cost, or "".
            "aura_text": eng.street_aura_cost_text(h.id),
            # Words (WORDS_KEYS): which of its name it is, as the log says (Conflict), or None.
            "tell": eng.horror_tell(h.id),
        })

    streets = None
    if eng.alliance:
        streets = []
        for s in pack.streets:
            here = next((h.id for h in st.streets if h.street == s.number), None)
            streets.append({"number": s.number, "name": s.name, "text": s.text,
                            "horror": here, "aura_active": here is not None})

    investigators = []
    for inv in st.investigators:
        card = eng.investigator_card(inv.card) if inv.card else None
        shown = card_text_for_mode(card.text, eng.conflict) if card else ""
        investigators.append({
            "id": inv.id,
            "seat": inv.seat,
            "seat_label": eng.seat_label(inv.seat),
            "card": inv.card,
            "name": eng.inv_name(inv),
            "sanity": card.sanity if card else None,
            "hand_limit": eng.hand_limit(inv) if card else None,
            "hand_count": len(inv.hand),
            "insane": inv.insane,
            "regrouped": inv.regrouped,
            "is_active": act_inv is not None and inv.id == act_inv.id,
            "is_target": st.target == inv.id,
            # The card as it holds in this mode, its abilities too (stop 69: Alliance's
            # Rallier read a Scourge it never meets, FW-AMB-18).
            "unique": {**_ability(card.unique.cost, _split_text(shown, "Unique")),
                       "closes_with": _closes_with(card.unique.instruction)}
            if card else None,
            "exploit": {**_ability(card.exploit.cost,
                                   _split_text(shown, "Exploit the Rift")),
                        "removes_scourge": _removes_scourge(card.exploit.instruction)}
            if card else None,
            "text": shown,
            "hand": [marble_dict(m) for m in inv.hand] if team else None,
            "dealt": [{"card": c, "name": pack.investigator(c).name,
                       "sanity": pack.investigator(c).sanity,
                       "text": card_text_for_mode(pack.investigator(c).text, eng.conflict)}
                      for c in inv.dealt]
            if team else None,
        })

    ranks = eng.layout_ranks()
    tracker = {
        "investigators": st.tracker_size,
        "ranks": [{"rank": r, "stage": s, "current": k == st.rank_index,
                   "passed": k < st.rank_index} for k, (r, s) in enumerate(ranks)],
        "rank": ranks[st.rank_index][0],
        "stage": eng.stage(),
        "stage_name": STAGE_NAMES[eng.stage()],
        "rounds_left": len(ranks) - 1 - st.rank_index,
    }

    distinct, extra = eng.gate_requirement()
    gates = {
        "open": len(st.gates),
        "max": eng.max_gates,
        "pentagram": [k < len(st.gates) for k in range(eng.max_gates)],
        "closing_blocked": eng.scourge_blocks(),
        "requirement": {"distinct": distinct, "extra": dict(extra)},
    }

    # At the game's end the card is turned over, as a table would (stop 64's recap still
    # read "The Wall: hidden" of the Ancient One the Investigators had just beaten).
    show_wall = st.revealed or wall_view or st.outcome is not None
    w = eng.wall() if st.wall_card else None
    wall = {
        "seat": st.wall_seat,
        "label": "Wall player" if st.wall_seat else "The Presence (AI)",
        "revealed": st.revealed,
        "name": w.name if w and show_wall else None,
        "text": w.text if w and show_wall else None,
        "uniques": [{"cost": u.cost, "text": f"Unique Action {k + 1}",
                     "opens_gate": _opens_gate(u.instruction)}
                    for k, u in enumerate(w.uniques)] if w and show_wall else None,
        "aura": _split_text(w.text, "Aura") if w and show_wall else None,
        "hand_count": len(st.wall_hand),
        "doom": st.doom,
        "doom_deferred": st.doom_deferred,
        "unique_used": st.wall_unique_used,
        # Worked out from the facts above (DERIVED_KEYS): the tile's number in Alliance.
        "presence_cards": ({"n": cards[0], "this_turn": cards[1]}
                           if (cards := eng.presence_cards()) is not None else None),
    }

    brood_block = eng.brood_legal() if eng.conflict else "Alliance has no Brood"
    turn = {
        "active": act_inv.id if act_inv else None,
        "active_name": eng.inv_name(act_inv) if act_inv else None,
        "active_seat": act_inv.seat if act_inv else None,
        "wall_turn": st.phase == "wall",
        "wall_mode": st.wall_mode,
        "wall_turns": st.wall_turns,
        "first_wall_turn": st.wall_turns == 1,
        "wrath_gain": eng.wrath_gain() if eng.conflict else None,
        "ap": st.ap if st.phase == "investigator" else 0,
        "ap_per_turn": eng.opts.action_points + (
            eng.opts.crescendo_extra_ap if eng.stage_at_least("crescendo") else 0),
        "costs": ({name: eng.action_cost(name, act_inv) for name in ACTION_NAMES}
                  if act_inv else {}),
        "unique_used": act_inv is not None and act_inv.id in st.uniques_used,
        "brood_allowed": brood_block is None,
        "brood_blocked_because": brood_block,
    }

    prompt = None
    if st.prompts:
        top = st.prompts[-1]
        # A prompt whose text names the team's secrets carries a neutral public text; a
        # selection in progress (``seat_only``) is read in full by the selecting seat only.
        mine = seat is not None and seat in top.seats
        full = mine or (team and not top.data.get("seat_only"))
        text = top.text if full else str(top.data.get("public_text") or top.text)
        prompt = {"id": top.id, "kind": top.kind, "text": text, "seats": list(top.seats),
                  "labels": [eng.seat_label(x) for x in top.seats]}

    peek = []
    if st.peek and team:
        name = eng.marble_name if st.peek_deck == "marble" else eng.horror_name
        peek = [{"id": c, "name": name(c)} for c in st.peek]

    out: dict[str, Any] = {
        "game": "fourth_wall",
        "mode": st.mode,
        "pack": st.pack,
        "step": st.step,
        "seat": seat,
        "viewer": "wall" if wall_view else ("investigator" if team else "public"),
        "over": st.outcome is not None,
        "result": None,
        "round": st.round,
        "phase": st.phase,
        "waiting_for": to_act,
        "waiting_labels": [eng.seat_label(s) for s in to_act],
        "symbols": list(SYMBOLS),
        "symbol_names": dict(SYMBOL_NAMES),
        "turn": turn,
        "tracker": tracker,
        "gates": gates,
        "wall": wall,
        "horrors": horrors,
        "streets": streets,
        "anchored": [marble_dict(m) for m in st.anchored],
        "scourge": ({"on": st.scourge,
                     "on_name": eng.horror_name(st.scourge) if st.scourge else None}
                    if eng.conflict else None),
        "target": st.target,
        "target_name": eng.inv_name(eng.inv(st.target)) if st.target else None,
        "investigators": investigators,
        "seats_info": [{"seat": s, "label": eng.seat_label(s),
                        "role": "wall" if s == st.wall_seat else "investigator",
                        "investigators": [i.id for i in eng.invs_of(s)]} for s in st.seats],
        "decks": {"marble": len(st.marble_deck), "marble_discard": len(st.marble_discard),
                  "horror": len(st.horror_deck), "horror_discard": len(st.horror_discard),
                  "investigator": len(st.investigator_deck),
                  "presence": len(st.presence_deck),
                  "presence_discard": len(st.presence_discard)},
        "marble_discard": [{"id": m, "name": eng.marble_name(m)} for m in st.marble_discard],
        "horror_discard": [{"id": h, "name": eng.horror_name(h)} for h in st.horror_discard],
        # The public record of the last Blitz reveal, as revealed (FW-VIS-24): card kinds,
        # not instance ids, so it never depends on (or points into) a hand.
        "revealed": [{"id": f"blitz{k + 1}", "card": eng.marble(m).id,
                      "name": eng.marble_name(m), "symbols": list(eng.marble(m).symbols)}
                     for k, m in enumerate(st.revealed_cards)],
        "last_presence": st.last_presence,
        "peek": peek,
        "prompt": prompt,
        "log": list(st.log),
    }
    if st.outcome is not None:
        res = result_of(st)
        if res is not None:
            out["result"] = res.model_dump()
    if wall_view and w is not None:
        out["hand"] = [{"id": h, "card": eng.horror(h).id, "name": eng.horror(h).name,
                        "manifest": {"doom": eng.horror(h).manifest.doom,
                                     "drain": eng.horror(h).manifest.drain},
                        "defeat": list(eng.horror(h).defeat),
                        "trigger_cost": eng.horror(h).trigger_cost,
                        "text": eng.horror(h).text} for h in st.wall_hand]
        out["wall_card"] = {"id": w.id, "name": w.name, "text": w.text,
                            "uniques": [{"cost": u.cost} for u in w.uniques],
                            "aura": _split_text(w.text, "Aura")}
    return out
