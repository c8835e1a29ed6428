"""Secrets and winning: revealing secrets, the visitors' and the spirit's wins (P-WIN-*)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.presence.engine.core import secret_title, tier_text

if TYPE_CHECKING:
    from rules.presence.engine import Engine


class Secrets:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ secrets & winning
    def matching(self: Engine, position: int) -> int:
        slot = self.st.secrets[position - 1]
        trauma = self.pack.secret(slot.card).trauma
        return sum(1 for c in slot.discards
                   if not self.pack.is_fear_card(c) and self.pack.clue_card(c).trauma == trauma)

    def reveal_secret(self: Engine, position: int, revealer: str) -> None:
        """P-SECRET-03..05: the tier the matching clue cards beneath reach resolves."""
        st = self.st
        slot = st.secrets[position - 1]
        card = self.pack.secret(slot.card)
        tier = self.secret_board().tier(self.matching(position), position)
        slot.revealed = True
        slot.tier = tier
        # The tier's effect is said before its consequences (stop 65's demo: a knockout and
        # a lost marker followed "the low effect resolves" with no stated cause).
        # The printed "(your choice)" speaks to the revealer; the thread names them (stop
        # 67's demo: "…the middle effect resolves: hope +1 or nerve +1 (your choice).").
        said = tier_text(card.text, tier).replace(
            "(your choice)", f"({self.listed([revealer])}'s choice)")
        self.emit(f"{self.name(revealer)} reveals the secret at position {position}: "
                  f"{secret_title(card.name, card.trauma)}; the {tier} effect resolves"
                  + (f": {said}." if said else "."), "secret")
        effects = getattr(card.tiers, tier)
        self.later(self.effects_step(effects, self.visitor_ctx(revealer, f"secret {card.name}")))

    def win_test(self: Engine, test: Any, visitors_win: bool) -> bool:
        st = self.st
        t = test.test
        succumbed = [v for v in st.visitors.values() if v.succumbed]
        surv = self.surviving()
        if t == "visitors_win":
            return visitors_win
        if t == "succumbed_gte":
            return len(succumbed) >= test.n
        if t == "knocked_out_gte":
            return sum(1 for v in st.visitors.values() if v.knocked_out) >= test.n
        if t == "bonded_succumbed":
            # the bond returned at the moment of succumbing (P-SUCC-05): read who held it then
            return any(v.succumbed and (v.succumbed_bonded or v.seat == st.bonded)
                       for v in st.visitors.values())
        if t == "pawn_in_room":
            return st.spirit.pawn_room == test.room
        if t == "pawn_not_on_board":
            return st.spirit.pawn_room is None
        if t == "surviving_in_light":
            return all(self.lit(v.room) for v in surv)
        if t == "no_die_with_surviving_visitor":
            return not any(self.dice_in(v.room) for v in surv)
        if t == "fear_cards_each_lte":
            return all(len(v.fear_cards) <= test.n for v in surv)
        if t == "dice_on_board_lte":
            return sum(1 for d in st.dice if d.room is not None) <= test.n
        if t == "no_die_in_room":
            return not self.dice_in(test.room)
        if t == "surviving_visitor_in_room":
            return any(v.room == test.room for v in surv)
        return False  # pragma: no cover

    def visitors_win(self: Engine) -> bool:
        """P-WIN-01/02/03."""
        st = self.st
        if not self.surviving() or not all(s.revealed for s in st.secrets):
            return False
        if st.script_revealed:
            need = self.pack.script(st.script).bottom.visitors_also_need
            return all(self.win_test(t, False) for t in need)
        return True

    def spirit_wins(self: Engine, visitors_win: bool) -> bool:
        """P-WIN-04: the top half while hidden, the bottom half once revealed."""
        st = self.st
        script = self.pack.script(st.script)
        half = script.bottom if st.script_revealed else script.top
        return any(self.win_test(t, visitors_win) for t in half.spirit_wins_if)
