"""The Presence: the engine object the registry imports (`GAME`).

Mode (option ``mode``): ``session`` (3-5 players; one spirit, the rest visitors). Variants
(2-player, Dark Board, Secret Chamber, Mystery Mode, Unknown Threat, Open Communication, True
Horror, first-game preset) are later work; the options model leaves room for them. The rules
live in `rules.presence.engine`; setup in `rules.presence.setup`; redaction in
`rules.presence.view`; action kinds in `rules.presence.actions`.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from rules.core.errors import IllegalAction
from rules.core.game import Game, GameOptions
from rules.core.types import Action, Event, Result
from rules.presence import actions as K
from rules.presence.content import default_pack, pack_fingerprint
from rules.presence.engine import Engine, pack_for
from rules.presence.setup import setup_game
from rules.presence.state import PresenceState
from rules.presence.view import build_view


class PresenceOptions(GameOptions):
    """Setup options (P-SETUP-01)."""

    mode: Literal["session"] = Field(default="session",
                                     description="session: the standard game (P-SESSION-01).")
    spirit_seat: int = Field(default=0, ge=0, le=4,
                             description="Which seat, in table order, plays the spirit.")
    scripts: Literal["cooperative", "normal", "competitive", "advanced", "expert"] = Field(
        default="normal", description="Script deck preset (P-SESSION-03).")
    fear: Literal["easy", "normal", "hard"] = Field(
        default="normal", description="Fear cards per visitor (P-SESSION-04).")
    hope_track: Literal["A", "B"] = Field(
        default="B", description="Hope Track side: A reduces difficulty (P-SESSION-05).")
    pack_path: str | None = Field(
        default=None, description="Folder of a content pack; empty for the shipped pack.",
        json_schema_extra={"lobby": False})


def result_of(state: PresenceState) -> Result | None:
    if state.outcome is None:
        return None
    losers = [s for s in state.seats if s not in state.winners]
    return Result(winners=list(state.winners), losers=losers, reason=state.reason)


class Presence(Game[PresenceOptions, PresenceState]):
    name: ClassVar[str] = "presence"
    title: ClassVar[str] = "The Presence"
    version: ClassVar[str] = "presence-1+" + pack_fingerprint(default_pack())
    modes: ClassVar[tuple[str, ...]] = ("session",)
    rule_prefix: ClassVar[str] = "P"
    options_model = PresenceOptions
    state_model = PresenceState

    def player_counts(self, options: PresenceOptions) -> set[int]:
        return {3, 4, 5}  # P-COMP-04 (the 2-player variant is not built yet)

    def setup(self, seats: list[str], options: PresenceOptions, seed: int) -> PresenceState:
        if len(seats) not in self.player_counts(options):
            raise IllegalAction(f"The Presence takes 3 to 5 players, not {len(seats)}.",
                                rule="P-COMP-04")
        if options.spirit_seat >= len(seats):
            raise IllegalAction("The spirit must be one of the seats.", rule="P-SETUP-07")
        return setup_game(list(seats), seed, options.spirit_seat, options.scripts,
                          options.fear, options.hope_track, options.pack_path)

    def to_act(self, state: PresenceState) -> set[str]:
        return Engine(state).to_act()

    def may_act(self, state: PresenceState, seat: str) -> bool:
        eng = Engine(state)
        return seat in eng.to_act() or bool(eng.quick_actions(seat))

    def legal_actions(self, state: PresenceState, seat: str) -> list[Action]:
        return Engine(state).legal(seat)

    def _apply(self, state: PresenceState, seat: str, action: Action) -> list[Event]:
        return Engine(state).apply(seat, action)

    def view(self, state: PresenceState, seat: str | None) -> dict[str, Any]:
        return build_view(state, seat)

    def result(self, state: PresenceState) -> Result | None:
        return result_of(state)

    # ---- optional hooks
    def seat_label(self, state: PresenceState, seat: str) -> str:
        return Engine(state).seat_label(seat)

    def describe(self, state: PresenceState, seat: str, action: Action) -> str:
        return K.describe_action(Engine(state), seat, action)

    def decision_id(self, state: PresenceState, seat: str) -> str:
        return str(state.step)

    def public_choices(self, state: PresenceState, seat: str) -> bool:
        """False when a label would name a hidden card: the spirit's hand and secret board,
        a visitor's hand (H-02, H-17), a private prompt."""
        if seat == state.spirit_seat:
            return False
        if state.prompts:
            return not state.prompts[-1].data.get("private", False)
        return not any(a.kind == K.PLAY for a in Engine(state).legal(seat))

    def prompt_text(self, state: PresenceState, seat: str) -> str | None:
        if state.prompts and seat in state.prompts[-1].seats:
            return state.prompts[-1].text
        return None

    def default_action(self, state: PresenceState, seat: str) -> Action | None:
        eng = Engine(state)
        if seat not in eng.to_act():
            return None
        legal = eng.legal(seat)
        for a in legal:
            if a.kind in (K.END_TURN, K.END_SPIRIT) or a.p("option") in (
                    "stop", "done", "no", "release", "cancel"):
                return a
        return legal[0] if legal else None

    def private_summary(self, state: PresenceState, seat: str) -> str | None:
        v = build_view(state, seat)
        if seat == state.spirit_seat:
            sp = v.get("spirit_private")
            if not sp:
                return None
            lines = []
            if sp["script"]:
                s = sp["script"]
                lines.append(f"Your script: {s['name']} ({s['type']}, {s['alignment']}). "
                             f"Hidden: {s['top']} Revealed: {s['bottom']}")
            lines += [f"Secret {x['position']}: {x['name']} ({x['trauma']})"
                      for x in sp["secrets"]]
            lines.append("Hand: " + (", ".join(c["name"] for c in sp["hand"]) or "empty"))
            clues = [f"{r}: {', '.join(n)}" for r, n in sp["tokens"].items() if n]
            if clues:
                lines.append("Spirit clues on the board: " + "; ".join(clues))
            return "\n".join(lines)
        hand = v.get("hand")
        if hand is None:
            return None
        eng = Engine(state)
        cards = [c["name"] + (f" ({c['trauma']}, {eng.room_name(c['room'])})"
                              if c["kind"] == "clue" else "") for c in hand]
        text = "Your hand: " + (", ".join(cards) or "empty")
        if v["inspected"]:
            text += "\nYou inspected: " + " ".join(v["inspected"])
        return text

    def board_caption(self, state: PresenceState) -> str | None:
        # Every board post says who is alone and whether table talk is allowed (P-COMM).
        if not state.visitors or state.phase == "setup":
            return None
        talk = Engine(state).table_talk()
        head = "🗣️ Table talk allowed." if talk["allowed"] else "🤫 No table talk now."
        return f"{head} {talk['why']}"

    def summary(self) -> str:
        return (
            "The Presence — one player is a spirit, good or evil by its secret script; the "
            "others are visitors in Wrightwatch Manor.\n"
            "Visitors take 3 main actions (Rest, Walk, cards, items, room actions) plus quick "
            "actions, investigate clues, draw clue cards and discard them beneath the four "
            "secret cards; then the spirit moves and grows its presence dice and plays spirit "
            "cards; upkeep adds spirit clues on even rounds and moves time up the Hope Track.\n"
            "Visitors win when all four secrets are revealed (and the revealed script's "
            "condition holds); the spirit wins by its script; after round 9, Eternal Darkness."
        )

    def invariants(self, state: PresenceState) -> list[str]:
        bad: list[str] = []
        pack = pack_for(state.pack_path)
        if state.phase == "setup" and not state.secrets:
            return bad
        # clue deck cards conserved
        eligible = {c.id for c in pack.clue_cards_for(state.n)} | {f.id for f in pack.fear_cards}
        held = (list(state.clue_deck) + state.clue_revealed + state.clue_trash + state.clue_box
                + [c for s in state.secrets for c in s.discards]
                + [c for v in state.visitors.values() for c in v.hand
                   if not _is_action(pack, c)]
                + [c for v in state.visitors.values() for c in v.fear_cards])
        if sorted(held) != sorted(eligible):
            bad.append(f"clue/fear cards not conserved: {len(held)} != {len(eligible)}")
        items = (len(state.item_deck) + len(state.cellar) + state.item_box_count
                 + sum(len(v.items) for v in state.visitors.values()))
        if items != len(pack.item_instances()):
            bad.append(f"items not conserved: {items}")
        for v in state.visitors.values():
            track = pack.visitor(v.character).fear_track
            if not 0 <= v.fear <= track:
                bad.append(f"{v.seat} fear out of range")
            if len(v.items) > pack.options.item_limit and not state.prompts \
                    and not state.queue:
                bad.append(f"{v.seat} holds too many items")
            acts = len(v.deck) + len(v.discard) + sum(1 for c in v.hand if _is_action(pack, c))
            if acts != len(pack.action_deck(v.character)):
                bad.append(f"{v.seat} action cards not conserved: {acts}")
        sp = state.spirit
        if sp.character:
            cards = (len(sp.hand) + len(sp.deck) + len(sp.discard)
                     + len({d.card for d in state.drains}))
            in_play = 1 if sp.playing and sp.playing not in {d.card for d in state.drains} else 0
            if cards + in_play != len(pack.spirit_deck(sp.character)):
                bad.append(f"spirit cards not conserved: {cards}+{in_play}")
        for d in state.dice:
            if d.room is not None and not 1 <= d.value <= pack.options.max_presence:
                bad.append(f"die {d.id} value {d.value} out of range")
        for m in (state.hope, state.nerve):
            if m is not None and not state.time < m <= pack.hope_track.spaces:
                bad.append("hope/nerve marker out of range")
        if not 1 <= state.round <= pack.hope_track.final_round:
            bad.append("round out of range")
        if len(state.drains) > pack.options.drain_markers:
            bad.append("too many drain markers")
        return bad

    def public_secrets(self, state: PresenceState) -> list[str]:
        """Hidden now (H-L1): hands, unrevealed secrets, face-down token ids, the script,
        removed clue cards, the clue deck's cards."""
        pack = pack_for(state.pack_path)
        out: list[str] = []
        for v in state.visitors.values():
            out += [f'"{c}"' for c in v.hand]
        out += [f'"{c}"' for c in state.spirit.hand]
        for s in state.secrets:
            if not s.revealed:
                out += [f'"{s.card}"', pack.secret(s.card).name]
        for toks in state.tokens.values():
            out += [f'"{t.id}"' for t in toks]
        if state.script and not state.script_revealed:
            sc = pack.script(state.script)
            out += [t for t in (sc.top.text, sc.bottom.text) if t]
        out += [f'"{c}"' for c in state.clue_box]
        out += [f'"{c}"' for c in state.clue_deck]
        return out


def _is_action(pack: Any, card: str) -> bool:
    try:
        pack.action_card(card)
        return True
    except KeyError:
        return False


GAME = Presence()

__all__ = ["GAME", "Presence", "PresenceOptions"]
