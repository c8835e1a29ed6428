"""What happens is said in full (stop 66's QA read of three demos): a drawn fear card's text,
a revealed secret's tier effect, the script's reveal effect, a move that stops early, the
Professor's ability, a failed Invoke's reason. Each line is public only where the spec's
hidden-information map says so."""

from __future__ import annotations

from rules.presence.engine import Engine
from tests.presence.helpers import edit, new_game


def test_H_22_a_drawn_fear_card_is_announced_with_its_text() -> None:
    """Stop 66's demos: "The Descendant draws the fear card Fear of Whispers and places it
    face up in front of them." never said what the card does (H-22: announced in full)."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    fear = next(c for c in st.clue_deck if eng.pack.is_fear_card(c))
    st.clue_deck.remove(fear)
    st.clue_deck.append(fear)  # the top of the deck
    st.clue_revealed = []
    eng.draw_clue(seat)
    text = eng.pack.fear_card(fear).text
    line = next(e for e in eng.events if "fear card" in e.text)
    assert line.public
    assert line.text == (f"{eng.name(seat)} draws the fear card {eng.card_name(fear)} and "
                         f"places it face up in front of them: {text}")


def test_P_SECRET_05_a_revealed_secret_says_its_tiers_effect_and_a_lost_marker_why() -> None:
    """Stop 66's demos: "…reveals the secret at position 4: Suffering (General); the low
    effect resolves." then "The nerve marker meets the time marker and is lost!" with the
    tier's effect ("Low: hope -1 and nerve -1") never said, nor the reduction."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    slot = st.secrets[3]
    slot.discards = []  # no matching clue beneath: the low tier
    st.hope, st.nerve = st.time + 3, st.time + 1
    eng.reveal_secret(4, seat)
    eng.run()
    texts = [e.text for e in eng.events]
    card = eng.pack.secret(slot.card)
    assert slot.tier == "low"
    assert texts[0] == (f"{eng.name(seat)} reveals the secret at position 4: "
                        f"{card.name}; the low effect resolves: hope -1 and nerve -1."), texts
    assert f"Hope is reduced to {st.time + 2}." in texts
    assert "Nerve is reduced by 1: the nerve marker meets the time marker and is lost!" \
        in texts
    assert st.nerve is None


def test_P_SCRIPT_02_the_scripts_reveal_effect_is_said_when_it_is_revealed() -> None:
    """Stop 66's demos: "The spirit's script is revealed: Script B2 (good). …" then
    "Targeted: the Descendant, …" and discards, with the script's "Reveal: each visitor
    discards 1 card." never said."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    st.script = next(s.id for s in eng.pack.scripts if s.reveal and "Reveal:" in s.text)
    script = eng.pack.script(st.script)
    eng.reveal_script()
    clause = script.text.partition("Reveal:")[2].strip()
    assert clause and [e.text for e in eng.events][1] == f"The script's reveal effect: {clause}"
    assert all(e.public for e in eng.events)
