"""Each action's label in the game's words (`Engine.label`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.core.types import Action
from rules.presence import actions as K
from rules.presence.state import (
    Step,
    VisitorState,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class ActionLabels:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ labels
    def label(self: Engine, seat: str, action: Action) -> str:
        st = self.st
        k = action.kind
        p = action.params
        if k == K.CHOOSE and st.prompts:
            for oid, lab in st.prompts[-1].data["options"]:
                if oid == p.get("option"):
                    return str(lab)
        if k == K.REST:
            return (f"Rest: discard any, draw up to {self.hand_size()}"
                    + (" and rise" if st.must_rest else ""))
        if k == K.WALK:
            return "Walk (movement)"
        if k in (K.PLAY, K.USE_ITEM, K.ROOM_ACTION, K.ABILITY, K.UNCOVER):
            seat_v = self.vis(seat)
            try:
                a, _, _ = self._peek_action(seat_v, action)
            except (KeyError, IndexError, AssertionError):
                return k
            speed = " (quick)" if a.speed == "quick" else ""
            return f"{self.action_source(action, a.name)}{speed}"
        if k == K.TRADE:
            return f"Trade with {self.name(str(p.get('to')))} (quick)"
        if k == K.SMOTHER:
            return "Smother your candle (quick)"
        if k == K.PICK_UP:
            return f"Pick up {self.card_name(str(p.get('item')))} (quick)"
        if k == K.END_TURN:
            return "End your turn"
        if k == K.MOVE_DIE:
            return f"Move {self.die_label(int(str(p.get('die'))))} to the " \
                   f"{self.room_name(str(p.get('to')))}"
        if k == K.INCREASE:
            return f"Increase Presence by discarding {self.card_name(str(p.get('card')))}"
        if k == K.PLAY_SPIRIT:
            return f"Play {self.card_name(str(p.get('card')))}"
        if k == K.PAWN:
            ma = self.pack.manifest_action(str(p.get("action")))
            return f"Pawn: {ma.name} (cost {ma.cost})"
        if k == K.END_SPIRIT:
            return "End the spirit turn (draw up)"
        if k == K.WHISPER:
            # Not "Whisper: …" beside the spirit card Whisper's own buttons (stop 63's demo).
            return "Say aloud (True Horror): " + dict(self.pack.presets.horror_lines_by_id()).get(
                str(p.get("line")), str(p.get("line")))
        return k

    def _peek_action(self: Engine, v: VisitorState, action: Action) -> tuple[Any, str, list[Step]]:
        k = action.kind
        if k == K.UNCOVER:
            ch = self.pack.manor.chamber
            assert ch is not None
            return ch.uncover, "uncover", []
        if k == K.PLAY:
            card = str(action.p("card"))
            defn: Any = (self.pack.action_card(card) if self.is_action_card(card)
                         else self.pack.clue_card(card))
            return defn.actions[int(action.p("side"))], card, []
        if k == K.USE_ITEM:
            a = self.pack.item_of(str(action.p("item"))).action
            assert a is not None
            return a, "", []
        if k == K.ROOM_ACTION:
            return self.pack.room(v.room).actions(self.side_of(v.room))[
                int(action.p("index"))], "", []
        return self.pack.visitor(v.character).abilities[int(action.p("index"))], "", []
