"""Unknown Threat: the visitors pick the scripts, the spirit builds its deck (P-UNK-*)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules.core.game import join_words
from rules.core.types import Prompt
from rules.presence.engine.board import (
    UT_CLUES,
    UT_HOPE,
    UT_NERVE,
)
from rules.presence.engine.core import secret_title
from rules.presence.state import (
    Step,
)

if TYPE_CHECKING:
    from rules.presence.engine import Engine


# How the deck choice writes a power's cost, said once in its question.
UT_COSTS = "Costs read needs/spends presence."
UT_PAGE_TEXT = 1100
"""Characters of cards in full one page of the deck's question holds: with the DM's head, the
spirit's summary and a guided table's hint it fits one message (2,000)."""
UT_PAGE = "page:"
"""The deck question's option that turns to another page of cards (`UT_PAGE` + its index)."""


class UnknownThreat:
    """The part of `Engine` this module holds (see the module's docstring)."""

    # ------------------------------------------------------------------ Unknown Threat
    def ut_ask_script(self: Engine) -> None:
        """P-UNK-01 (PR-24): the visitors pick 2 hope, then 3 nerve scripts, one per prompt;
        any visitor may answer and each pick is public (H-09). Then the visitors choose their
        characters, the spirit builds its deck (`step_ut_spirit`) and only then draws its
        script in secret as usual (P-UNK-05, `ut_draw_script`)."""
        st = self.st
        ut = st.unknown_threat
        assert ut is not None
        hope = sum(1 for s in ut.scripts if self.pack.script(s).type == "hope")
        kind = "hope" if hope < UT_HOPE else "nerve" \
            if len(ut.scripts) < UT_HOPE + UT_NERVE else None
        if kind is None:
            st.display_scripts = sorted(ut.scripts)
            # Shuffled now, drawn once the deck is built (`ut_draw_script`): the RNG is read
            # where it always was, so a game's replay deals as it did.
            st.script_pool = st.rng.shuffled(ut.scripts)
            # A list, not a run of commas: "…: Script A1, Script A2 and Script B4".
            self.emit("The visitors have chosen their scripts: " + join_words(
                [self.pack.script(s).name for s in st.display_scripts])
                + "; the spirit draws one of them in secret once its deck is built.", "setup")
            self.ask_visitor(0)
            return
        # the chamber's room is in play from the start; its state is dealt later (P-CHAMBER-01)
        chamber = self.pack.manor.chamber is not None and self.pack.manor.chamber.room in st.rooms
        opts = [(s, f"{self.pack.script(s).name} ({self.pack.script(s).alignment}): "
                 f"{self.pack.script(s).text or self.pack.script(s).top.text}")
                for s in self.pack.scripts_of(kind, chamber=chamber) if s not in ut.scripts]
        self.ask("setup", st.visitor_seats[0], f"Unknown Threat: choose a {kind} script "
                 f"({len(ut.scripts) + 1} of {UT_HOPE + UT_NERVE}).", opts,
                 "ut_script")
        st.prompts[-1].seats = list(st.visitor_seats)  # any visitor may answer

    def on_ut_script(self: Engine, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        ut.scripts.append(option)
        sc = self.pack.script(option)
        self.emit(f"The visitors choose the {sc.type} script {sc.name}.", "setup")
        self.ut_ask_script()

    def step_ut_spirit(self: Engine) -> None:
        """P-UNK-03/04 (PR-24): the spirit builds a 12-card deck from all spirit cards (a
        spirit, then one of its cards, per pick), then picks 5 spirit clues and one secret
        card per trauma (A-47). Private prompts (H-39)."""
        st = self.st
        ut = st.unknown_threat
        if ut is None:
            return
        pack = self.pack
        size = len(pack.spirit_deck(st.spirit.character))
        if len(ut.deck) < size:
            left = [c for sp in pack.spirits for c in pack.spirit_deck(sp.id)
                    if c not in ut.deck]
            alike = self.ut_alike(left, self.ut_card_kind, lambda c: pack.spirit_deck(
                pack.spirit_card(c).spirit).index(c))
            if len(alike) <= size:
                # Whose card it is changes nothing where the spirits hold cards alike (the
                # shipped set: the same 12 each): each card is offered once, straight away,
                # and "from whose cards?" is not asked 12 times (stop 66's demo).
                self.later(Step(op="ut_spirit"))
                self.ut_ask_cards([ids[0] for ids in alike.values()], 0)
                return
            opts = []
            for sp in pack.spirits:
                left = [c for c in pack.spirit_deck(sp.id) if c not in ut.deck]
                if left:
                    opts.append((sp.id, f"A card of {sp.name} ({len(left)} left)"))
            self.later(Step(op="ut_spirit"))
            self.ask("setup", st.spirit_seat, f"Unknown Threat: build your spirit deck, card "
                     f"{len(ut.deck) + 1} of {size} — from whose cards?", opts,
                     "ut_group", private=True)
            return
        if len(ut.clues) < UT_CLUES:
            own = [c.id for c in pack.spirit_clues if c.spirit is not None
                   and c.id not in ut.clues]
            # Clues alike (the same name and effect for every spirit) are offered once, by
            # name alone, not "Wail (Spirit I)" … "Wail (Spirit V)" (stop 66)
            alike = self.ut_alike(own, self.ut_clue_kind, lambda c: [
                x.id for x in pack.spirit_clues
                if x.spirit == pack.spirit_clue_of(c).spirit].index(c))
            opts = []
            for ids in alike.values():
                c = pack.spirit_clue_of(ids[0])
                whose = "" if len(alike) == len({pack.spirit_clue_of(i).name for i in own}) \
                    else f" ({pack.spirit(str(c.spirit)).name})"
                opts.append((c.id, f"{c.name}{whose}: {c.text}"))
            self.later(Step(op="ut_spirit"))
            self.ask("setup", st.spirit_seat, f"Unknown Threat: choose spirit clue "
                     f"{len(ut.clues) + 1} of {UT_CLUES} for the bag.", opts,
                     "ut_clue", private=True)
            return
        have = {pack.secret(s).trauma for s in ut.secrets}
        trauma = next((s.trauma for s in pack.secrets if s.trauma not in have), None)
        if trauma is not None:
            # Named as players read them, never by set id (stop 65's demo: "(set
            # spirit_1)"), with what each tier does: the spirit chooses by effect (P-UNK-04).
            opts = [(s.id, self.ut_secret_words(s.id)) for s in pack.secrets
                    if s.trauma == trauma]
            self.later(Step(op="ut_spirit"))
            self.ask("setup", st.spirit_seat, f"Unknown Threat: choose your {trauma} secret "
                     "card (one per trauma). Its tier is set by the matching clue cards "
                     "beneath it when revealed.", opts, "ut_secret", private=True)
            return
        self.emit("The spirit has built its deck and chosen its spirit clues and secret "
                  "cards, and draws its script in secret.", "setup")
        self.ut_draw_script()

    def ut_card_pages(self: Engine, cards: list[str]) -> list[list[str]]:
        """`cards` in order, in as few pages of even size (6 and 6, not 5 and 7) as hold
        their words within `UT_PAGE_TEXT` each (a card a page at the least)."""
        size = {c: len(self.ut_card_words(c)) + len(" • ") for c in cards}
        for n in range(1, len(cards) + 1):
            per = -(-len(cards) // n)
            pages = [cards[k:k + per] for k in range(0, len(cards), per)]
            if all(sum(size[c] for c in p) <= UT_PAGE_TEXT for p in pages):
                return pages
        return [[c] for c in cards]

    def ut_ask_cards(self: Engine, cards: list[str], page: int, spirit: str = "") -> None:
        """P-UNK-03: one deck card, offered by name, each card's both powers in full in the
        question. Twelve cards in full (about 1,900 characters) and the DM's own words did
        not fit one message, and the list's tail was cut (stop 66's demo): the cards come in
        pages, each whole, with a choice to turn to the next."""
        st = self.st
        ut = st.unknown_threat
        assert ut is not None
        size = len(self.pack.spirit_deck(st.spirit.character))
        pages = self.ut_card_pages(cards)
        page %= len(pages)
        shown = pages[page]
        first = sum(len(p) for p in pages[:page]) + 1
        where = "" if len(pages) == 1 else (
            f" Cards {first}–{first + len(shown) - 1} of {len(cards)}:")
        opts = [(c, self.card_name(c)) for c in shown]
        if len(pages) > 1:
            nxt = (page + 1) % len(pages)
            start = sum(len(p) for p in pages[:nxt]) + 1
            opts.append((f"{UT_PAGE}{nxt}", f"See cards {start}–{start + len(pages[nxt]) - 1} "
                         f"of {len(cards)}"))
        whose = (f"a card of {self.pack.spirit(spirit).name}" if spirit
                 else self.ut_alike_words())
        self.ask("setup", st.spirit_seat, f"Unknown Threat: deck card {len(ut.deck) + 1} of "
                 f"{size} ({whose}). {UT_COSTS}{where} "
                 + " • ".join(self.ut_card_words(c) for c in shown), opts, "ut_card",
                 private=True, cards=cards, spirit=spirit)

    def ut_card_kind(self: Engine, card: str) -> str:
        """What a spirit card is in play (its name and powers), whoever's it is: two cards
        of one kind are the same card to the spirit building its deck."""
        return self.pack.spirit_card(card).model_dump_json(
            include={"name", "top", "bottom", "text"})

    def ut_clue_kind(self: Engine, clue: str) -> str:
        """What a spirit clue is in play (its name, copies and effect), whoever's it is."""
        return self.pack.spirit_clue_of(clue).model_dump_json(
            include={"name", "copies", "effects", "text"})

    @staticmethod
    def ut_alike(ids: list[str], kind: Callable[[str], str],
                 place: Callable[[str], int]) -> dict[str, list[str]]:
        """`ids` grouped by `kind`: one choice per group, the groups in the order of their
        first id's `place` on its own spirit's list, so a choice keeps its place in the menu
        when one of its copies is taken (stop 66: it moved to the end)."""
        out: dict[str, list[str]] = {}
        for i in ids:
            out.setdefault(kind(i), []).append(i)
        return dict(sorted(out.items(), key=lambda kv: place(kv[1][0])))

    def ut_alike_words(self: Engine) -> str:
        """How the spirit may take a card again, said in the deck's question."""
        decks = [sorted(self.ut_card_kind(c) for c in self.pack.spirit_deck(sp.id))
                 for sp in self.pack.spirits]
        if all(d == decks[0] for d in decks):
            return f"every spirit holds these: each up to {len(decks)} times"
        return "a card several spirits hold is offered once, and again while one holds it"

    def ut_draw_script(self: Engine) -> None:
        """P-UNK-05: "Setup the game normally. The spirit then draws their script": after its
        deck, clues and secrets are chosen, so none of them is built for a script it holds
        (stop 63's demo: the script was in its DM from the first pick of its deck). The deck
        of five was shuffled at the visitors' last pick, where the RNG was always read, so a
        game's replay draws the script it drew before this change, and a game stored mid-setup
        before it (its script already drawn) keeps it."""
        st = self.st
        if st.script:
            return
        st.script = st.script_pool.pop()  # P-SETUP-25

    def on_ut_group(self: Engine, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        # The whole card, both powers and what each needs and spends: the spirit picks its
        # deck from cards it holds in its hands (P-UNK-03), never from a top power alone.
        self.ut_ask_cards([c for c in self.pack.spirit_deck(option) if c not in ut.deck], 0,
                          option)

    def ut_card_words(self: Engine, card: str) -> str:
        """A spirit card as the spirit reads it while building its deck, both powers with
        what each needs and spends (`UT_COSTS` says how to read "2/1"): "Echo — Top 2/1:
        Drain 1. … Bottom 3/2: Reveal the top card of the clue deck." (the question of the
        deck's pick holds it, `ut_ask_cards`; its button reads the name)."""
        sc = self.pack.spirit_card(card)
        halves = []
        for which, p in (("Top", sc.top), ("Bottom", sc.bottom)):
            cost = f"{p.requirement}/{p.spend}" + (f", drain {p.drain}" if p.drain else "")
            text = (p.text or self.effects_text(p.effects)).strip()
            halves.append(f"{which} {cost}: {text}" + ("" if text.endswith(".") else "."))
        return f"{self.card_name(card)} — " + " ".join(halves)

    def ut_secret_words(self: Engine, secret: str) -> str:
        """A secret card as the spirit reads it while choosing one per trauma: its name and
        each tier's effect ("Betrayal (Spirit I) — High: hope +1 and nerve +1. Middle: …")."""
        sc = self.pack.secret(secret)
        text = sc.text.strip() or " ".join(
            f"{tier.capitalize()}: {self.effects_text(getattr(sc.tiers, tier)).strip()}"
            for tier in ("high", "middle", "low"))
        return f"{secret_title(sc.name, sc.trauma)} — {text}"

    def on_ut_card(self: Engine, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        if option.startswith(UT_PAGE):  # the deck's question turns to its next page
            self.ut_ask_cards(list(prompt.data["cards"]), int(option.removeprefix(UT_PAGE)),
                              str(prompt.data.get("spirit", "")))
            return
        ut.deck.append(option)

    def on_ut_clue(self: Engine, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        ut.clues.append(option)

    def on_ut_secret(self: Engine, option: str, prompt: Prompt) -> None:
        ut = self.st.unknown_threat
        assert ut is not None
        ut.secrets.append(option)
