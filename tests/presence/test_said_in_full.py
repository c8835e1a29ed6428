"""What happens is said in full (stop 65's QA read of three demos): a drawn fear card's text,
a revealed secret's tier effect, the script's reveal effect, a move that stops early, the
Professor's ability, a failed Invoke's reason. Each line is public only where the spec's
hidden-information map says so."""

from __future__ import annotations

from rules.core.types import Prompt, act
from rules.presence import actions as K
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import SPIRIT, choose, edit, new_game, options, to_spirit_turn


def test_H_22_a_drawn_fear_card_is_announced_with_its_text() -> None:
    """Stop 65's demos: "The Descendant draws the fear card Fear of Whispers and places it
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
    """Stop 65's demos: "…reveals the secret at position 4: Suffering (General); the low
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
    # The reduction and the value it leaves, as the lost marker's line says its reduction
    assert f"Hope is reduced by 1, to {st.time + 2}." in texts
    assert "Nerve is reduced by 1: the nerve marker meets the time marker and is lost!" \
        in texts
    assert st.nerve is None


def test_P_SCRIPT_02_the_scripts_reveal_effect_is_said_when_it_is_revealed() -> None:
    """Stop 65's demos: "The spirit's script is revealed: Script B2 (good). …" then
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


def _texts(st: PresenceState, seat: str, option: str) -> list[str]:
    out = GAME.apply(st, seat, choose(option))
    return [e.text for e in out.events]


def test_P_MOVE_01_PR_09_a_walk_stopped_at_once_or_early_says_so() -> None:
    """Stop 65's demos: "The Detective walks." then the end of the turn, and "The Orphan
    plays Hide / Move 2 for Move 2." then nothing: a move that did nothing said nothing."""
    st = new_game(3, seed=2)
    seat = st.active
    st = GAME.apply(st, seat, act(K.WALK)).state
    room = Engine(st).room_name(st.visitors[seat].room)
    name = Engine(st).name(seat)
    assert f"{name} stays in the {room}: the movement is not used." in _texts(st, seat, "stop")
    # one point used, then a stop: what was left is said
    st = edit(st)
    eng = Engine(st)
    st.prompts.clear()
    did = eng.doors_of(st.visitors[seat].room)[0]
    st.doors[did].open = True
    eng.step_movement(seat, 2)
    st = GAME.apply(st, seat, choose(f"go:{did}")).state
    st = settle_others(st, seat)
    room = Engine(st).room_name(st.visitors[seat].room)
    assert f"{name} stops in the {room}, leaving 1 movement point unused." \
        in _texts(st, seat, "stop")


def settle_others(st: PresenceState, seat: str) -> PresenceState:
    """Answer any prompt a step triggered (a reaction) until `seat`'s movement asks again."""
    for _ in range(20):
        if st.prompts and st.prompts[-1].data.get("then") == "movement":
            return st
        who = st.prompts[-1].seats[0]
        st = GAME.apply(st, who, GAME.legal_actions(st, who)[0]).state
    raise AssertionError("the movement did not ask again")


def test_P_SPIRIT_07_a_die_move_stopped_or_impossible_says_so() -> None:
    """Stop 65's demos: Drift's "Move this die up to 2 rooms" stopped with no word, and
    Broken Form's die paid to 0 could not move, also with no word."""
    st = to_spirit_turn(new_game(3, seed=2))
    eng = Engine(st)
    d = next(d for d in st.dice if d.room is not None)
    room = eng.room_name(d.room)
    eng.step_die_step(d.id, 2, True, False)
    texts = _texts(st, SPIRIT, "stop")
    assert f"The presence die showing {d.value} in the {room} does not move." in texts
    # moved one room, then a stop
    st = to_spirit_turn(new_game(3, seed=2))
    eng = Engine(st)
    d = next(d for d in st.dice if d.room is not None)
    eng.step_die_step(d.id, 2, True, False)
    st = GAME.apply(st, SPIRIT, choose(options(st)[0])).state
    while st.prompts and st.prompts[-1].data.get("then") != "die_step":
        who = st.prompts[-1].seats[0]
        st = GAME.apply(st, who, GAME.legal_actions(st, who)[0]).state
    label = Engine(st).die_label(d.id)
    assert f"{label[0].upper()}{label[1:]} moves no further (1 room of the move unused)." \
        in _texts(st, SPIRIT, "stop")
    # a die paid to 0 before its move: it faded
    st = to_spirit_turn(new_game(3, seed=2))
    eng = Engine(st)
    d = next(d for d in st.dice if d.room is not None)
    ctx = eng.spirit_ctx(d.id, d.room, "Broken Form")
    eng.set_die(d.id, 0)
    eng.events.clear()
    eng.pick_die("this", ctx, "die_steps", steps=1, up_to=False, penalty=False)
    assert [e.text for e in eng.events] == ["The die cannot move: it faded."]


def test_P_MANI_04_a_glide_stopped_says_where_the_pawn_stays() -> None:
    """Stop 65's demo: "The spirit pawn acts: Glide." and then nothing, the pawn still in
    the Gallery."""
    st = to_spirit_turn(new_game(3, seed=2))
    eng = Engine(st)
    room = next(iter(st.rooms))
    st.spirit.pawn_room = room
    eng.step_pawn_step(1, 0)
    assert f"The spirit pawn stays in the {eng.room_name(room)}." in _texts(st, SPIRIT, "stop")


def test_H_29_two_dice_fed_alike_read_as_two_dice_said_once() -> None:
    """Stop 65's demo: "The spirit feeds on the fear: the presence die in the Salon now shows
    2 (2 times)." where two dice in the Salon each went from 1 to 2: told once, the line read
    as one die showing 2 twice. The line now names the change and which kind of die."""
    from cogs.utils.table.words import told_once
    from tests.presence.helpers import put_die, quiet

    st = to_spirit_turn(quiet(new_game(3, seed=2)))
    eng = Engine(st)
    a = put_die(st, "salon", 1)
    b = put_die(st, "salon", 1)
    for d in (a, b):
        eng.on_fear_bonus(str(d), Prompt(id="x", kind="fear_bonus", seats=[], text=""))
    lines = [e.text for e in eng.events]
    assert told_once(lines) == [("The spirit feeds on the fear: a presence die in the Salon "
                                 "goes from 1 to 2 (2 times).", 2)]
    st = to_spirit_turn(quiet(new_game(3, seed=2)))
    eng = Engine(st)
    c = put_die(st, "salon", 2)
    eng.on_fear_bonus(str(c), Prompt(id="x", kind="fear_bonus", seats=[], text=""))
    assert [e.text for e in eng.events] == [
        "The spirit feeds on the fear: the presence die in the Salon goes from 2 to 3."]


def test_P_TIME_09_H_13_the_professors_look_is_said_and_its_card_stays_out_of_the_game() -> None:
    """Stop 65's demo: "The Professor's ability takes effect." and nothing more in the
    thread; the DM said "You inspected earlier (it may have moved since): A clue card removed
    in setup: Death: Gallery." of a card that lies in the box for good."""
    from types import SimpleNamespace

    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    eng.eff_inspect(SimpleNamespace(what="removed_clue", n=1), {"owner": seat, "self": seat})
    public = [e.text for e in eng.events if e.public]
    assert public == [f"{eng.name(seat)} looks at a clue card removed in setup."]
    private = next(e.text for e in eng.events if not e.public)
    seen = private.removeprefix("A clue card removed in setup: ")
    assert seen != private and seen not in " ".join(public)  # H-13: the card stays private
    summary = GAME.private_summary(st, seat) or ""
    assert ("You looked at a clue card removed in setup (it stays out of the game): " + seen
            in summary), summary
    assert "may have moved" not in summary


def test_P_UPKEEP_05_the_spirit_clue_prompt_says_each_clue_to_a_different_room() -> None:
    """Stop 65's demo: "(one clue a room; …)" with a room that already held a clue offered:
    the rule is "Each room must be different" among this upkeep's clues."""
    st = to_spirit_turn(new_game(3, seed=2))
    eng = Engine(st)
    st.drawn_spirit_clues = st.spirit_clue_bag[:1]
    eng.step_place_drawn_clue([], False)
    text = st.prompts[-1].text
    assert "each clue to a different room, which may already hold clue tokens" in text, text
    assert "one clue a room" not in text


def test_P_2P_04_a_discard_effect_says_why_and_whose_card() -> None:
    """Stop 65's demo: "Discard a card (1 to go)." after Piece Together, and in a two-player
    game "Discard Move 2 / Comfort" did not say whose card, though both decks hold one."""
    from tests.presence.test_variant_two_players import PLAYER, SECOND, two_player_game

    st = edit(two_player_game())
    eng = Engine(st)
    ctx = eng.visitor_ctx(SECOND, "Piece Together")
    eng.eff_discard(SimpleDiscard(), ctx)
    eng.run()
    prompt = st.prompts[-1]
    who = eng.listed([SECOND])
    assert prompt.text == f"Piece Together: {who} discards a card (1 to go).", prompt.text
    labels = dict(prompt.data["options"])
    own = [c for c in st.visitors[SECOND].hand if eng.is_action_card(c)]
    assert own and all(labels[c] == f"Discard {who}'s {eng.card_name(c)}" for c in own)
    theirs = {c for c in st.visitors[PLAYER].hand if eng.is_action_card(c)}
    assert theirs and not set(labels) & theirs  # P-2P-04: never the other's action cards
    clues = [c for c in st.visitors[PLAYER].hand if not eng.is_action_card(c)]
    assert all(labels[c] == f"Discard the clue card {eng.card_name(c)}" for c in clues)


class SimpleDiscard:
    """A discard effect as the content reads it: 1 card of any kind."""

    cards = "any"
    up_to = False
    n = 1
    who = "self"


def test_H_38_a_failed_invoke_says_why_outside_mystery_mode_only() -> None:
    """Stop 65's demos: "…tries to reveal the secret at position 1: nothing happens." with
    no reason; outside Mystery Mode the clue cards beneath lie face up (H-38)."""
    for mystery, said in ((False, ", as no clue card of its trauma lies beneath it."),
                          (True, ".")):
        st = edit(new_game(3, seed=2))
        st.mystery = mystery
        eng = Engine(st)
        seat = st.visitor_seats[0]
        st.secrets[0].discards = []
        eng.on_reveal_secret("1", Prompt(id="x", kind="target", seats=[seat], text="", data={
            "min": 1, "success": [], "fail": [], "ctx": eng.visitor_ctx(seat, "Invoke"),
            "owner": seat}))
        assert [e.text for e in eng.events] == [
            f"{eng.name(seat)} tries to reveal the secret at position 1: nothing happens{said}"]
        trauma = eng.pack.secret(st.secrets[0].card).trauma
        assert trauma not in eng.events[0].text.lower()


def test_PR_05_H_29_the_spirit_declining_to_feed_on_fear_is_said() -> None:
    """Stop 65's demo: a visitor suffered fear beside a die showing 1 and no line followed;
    die values are public (H-29), so the spirit's pass is said."""
    from tests.presence.helpers import put_die, quiet

    st = to_spirit_turn(quiet(new_game(3, seed=2)))
    eng = Engine(st)
    put_die(st, "salon", 1)
    eng.step_fear_bonus("salon")
    assert _texts(st, SPIRIT, "no") == ["The spirit does not feed on the fear in the Salon."]


def test_PR_05_two_fear_bonuses_let_pass_read_naturally_said_as_one_run() -> None:
    """Stop 66's demo: two points of fear in one room, both bonuses declined, posted as
    "The spirit lets it pass: no presence die in the Salon grows (2 times)." — the line a
    post says once for a run must read true with its count."""
    from cogs.utils.table.words import told_once
    from tests.presence.helpers import put_die, quiet

    st = to_spirit_turn(quiet(new_game(3, seed=2)))
    eng = Engine(st)
    put_die(st, "salon", 1)
    eng.step_fear_bonus("salon")
    st = eng.st
    lines = _texts(st, SPIRIT, "no")
    eng = Engine(st)
    eng.step_fear_bonus("salon")
    lines += _texts(eng.st, SPIRIT, "no")
    assert [line for line, _ in told_once(lines)] == [
        "The spirit does not feed on the fear in the Salon (2 times)."]


def _two_points_of_fear_in_the_salon() -> PresenceState:
    """A visitor in the Salon beside a die showing 1 suffers 2 fear on the spirit's turn:
    two fear bonuses (PR-05, one per point, A-14), the first asked now."""
    from tests.presence.helpers import put_die, quiet

    st = to_spirit_turn(quiet(new_game(3, seed=2)))
    seat = st.visitor_seats[0]
    st.visitors[seat].room = "salon"
    put_die(st, "salon", 1)
    eng = Engine(st)
    eng.suffer_fear(seat, 2)
    eng.run()
    assert st.prompts and st.prompts[-1].kind == "fear_bonus"
    return st


def test_PR_05_two_bonuses_of_one_fear_let_pass_are_said_once() -> None:
    """Stop 68's demo: "The spirit does not feed on the fear in the Salon." ended one board
    post and began the next: the two passes of one fear were said one at a time, and a post
    could fall between them. They are said as one line, with the second pass; a pass then a
    feed says the pass just before the feed."""
    st = _two_points_of_fear_in_the_salon()
    out = GAME.apply(st, SPIRIT, choose("no"))
    assert not any("feed" in e.text for e in out.events)
    assert out.state.prompts and out.state.prompts[-1].kind == "fear_bonus"
    said = [e.text for e in GAME.apply(out.state, SPIRIT, choose("no")).events
            if "feed" in e.text]
    assert said == ["The spirit does not feed on the fear in the Salon (2 times)."]
    st = _two_points_of_fear_in_the_salon()
    st = GAME.apply(st, SPIRIT, choose("no")).state
    die = next(a.p("option") for a in GAME.legal_actions(st, SPIRIT) if a.p("option") != "no")
    said = [e.text for e in GAME.apply(st, SPIRIT, choose(str(die))).events if "feed" in e.text]
    assert said == ["The spirit does not feed on the fear in the Salon.",
                    "The spirit feeds on the fear: the presence die in the Salon goes from 1 "
                    "to 2."], said


def test_P_SECRET_05_a_middle_tiers_choice_names_the_revealer_not_you() -> None:
    """Stop 65's demos: "The Detective reveals the secret at position 1: Tragedy (Spirit I);
    the middle effect resolves: hope +1 or nerve +1 (your choice)." in the thread, where
    "your" reads as every reader's."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    slot = st.secrets[3]
    card = eng.pack.secret(slot.card)
    need = eng.secret_board().tier
    trauma = card.trauma
    matching = [c for c in st.clue_deck if not eng.pack.is_fear_card(c)
                and eng.pack.clue_card(c).trauma == trauma]
    for k in range(len(matching) + 1):
        slot.discards = matching[:k]
        if need(k, 4) == "middle":
            break
    assert need(eng.matching(4), 4) == "middle"
    eng.reveal_secret(4, seat)
    line = eng.events[0].text
    assert "(your choice)" not in line, line
    assert line.endswith(f"hope +1 or nerve +1 ({eng.listed([seat])}'s choice)."), line


def test_P_MANI_02_the_manifestation_drain_says_how_much_and_from_which_die() -> None:
    """Stop 65's demo: "The spirit pays presence to stay manifested." named neither the
    amount nor the die (die values are public)."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    room = st.visitors[st.visitor_seats[0]].room
    st.spirit.pawn_room = room
    for d in st.dice:
        if d.room == room:
            d.room = None
    st.dice[0].room, st.dice[0].value = room, 3
    st.prompts = []
    eng.step_upkeep_pawn()
    assert st.prompts and st.prompts[-1].seats == [st.spirit_seat]
    out = GAME.apply(st, st.spirit_seat, choose("0"))
    cost = eng.pack.manifestation.drain
    texts = [e.text for e in out.events if e.public]
    assert f"The spirit pays {cost} presence from the presence die showing 3 in the " \
           f"{eng.room_name(room)} to stay manifested." in texts, texts


def test_H_38_a_failed_invokes_reason_reads_as_one_sentence() -> None:
    """Stop 65's demo: "…tries to reveal the secret at position 1: nothing happens: no clue
    card of its trauma lies beneath it." (two colons in a row)."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    st.secrets[0].discards = []
    eng.on_reveal_secret("1", Prompt(id="x", kind="target", seats=[seat], text="", data={
        "min": 2, "success": [], "fail": [], "ctx": eng.visitor_ctx(seat, "Invoke"),
        "owner": seat}))
    text = eng.events[0].text
    assert text.count(":") == 1, text
    assert text.endswith("nothing happens, as fewer than 2 clue cards of its trauma lie "
                         "beneath it."), text


def test_P_DRAIN_03_a_drain_paid_says_from_which_die() -> None:
    """Stop 65's demo: "The spirit pays 1 presence to keep Echo." then "A presence die in the
    Great Hall fades to nothing…" with the paying die never named."""
    from rules.presence.state import DrainState

    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    card = next(c for c in eng.pack.spirit_cards if c.name == "Echo" and c.top.drain)
    room = st.visitors[st.visitor_seats[0]].room
    for d in st.dice:
        if d.room == room:
            d.room = None
    st.dice[0].room, st.dice[0].value = room, 2
    st.drains = [DrainState(card=card.id, power="top", room=room)]
    st.prompts = []
    eng.step_upkeep_drain(0)
    out = GAME.apply(st, st.spirit_seat, choose("0"))
    texts = [e.text for e in out.events if e.public]
    assert texts[0] == (f"The spirit pays {card.top.drain} presence from the presence die "
                        f"showing 2 in the {eng.room_name(room)} to keep Echo."), texts


def test_P_SETUP_31_a_characters_ability_is_said_with_what_it_does() -> None:
    """Stop 65's demos: "The Descendant's ability takes effect." at game start, and "The
    Detective's ability takes effect." on a small clue, what the ability does never said."""
    st = new_game(3, seed=2)
    eng = Engine(st)
    said = [line for line in st.log if "'s ability takes effect" in line]
    assert said, st.log
    for line in said:
        assert line.endswith(")."), line
    v = next(v for v in st.visitors.values() if v.character == "descendant")
    text = eng.pack.visitor("descendant").text.rstrip(".")
    want = f"{eng.name(v.seat)}'s ability takes effect ({text})."
    assert want in st.log, st.log
