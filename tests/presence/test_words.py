"""The Presence in words (issue #13): status, what the awaited player must do, alt text and the
game-over sentence name players by display name and character, keep secrets where they belong,
and read plain (no emoji, no rule ids) in True Horror."""

from __future__ import annotations

from rules.core.game import ALT_TEXT_LIMIT
from rules.presence.engine import Engine
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.presence.helpers import SPIRIT, choose, edit, new_game, put_token
from tests.presence.test_variant_two_players import two_player_game

NAMES = {"s1": "Margaret", "s2": "Theo", "s3": "Ines", "s4": "Kwame"}


def _finish(st: PresenceState, winners: list[str], reason: str) -> PresenceState:
    st = edit(st)
    Engine(st).finish(winners, reason)
    return st


def test_P_VIS_visitor_turn_says_who_where_and_how_many_actions() -> None:
    st = new_game(4, seed=2)
    active = st.active
    assert active == "s2"
    room = Engine(st).room_name(st.visitors[active].room)
    text = GAME.doing_text(st, active, NAMES)
    assert text.startswith("Theo (the ")
    assert f"take up to {st.actions_left} more actions in the {room}, or end the turn" in text
    status = GAME.status_lines(st, None, NAMES)
    assert status[0] == "Now: " + text
    assert any(line.startswith("Round 1 of 9. Hope Track") for line in status)


def test_H_02_H_17_hands_only_in_their_own_status_lines() -> None:
    st = new_game(4, seed=2)
    eng = Engine(st)
    spirit_cards = [eng.card_name(c) for c in st.spirit.hand]
    visitor_cards = {eng.card_name(c) for c in st.visitors["s3"].hand}
    public = "\n".join(GAME.status_lines(st, None, NAMES))
    spirit = "\n".join(GAME.status_lines(st, SPIRIT, NAMES))
    ines = "\n".join(GAME.status_lines(st, "s3", NAMES))
    assert "Hand: " + ", ".join(spirit_cards) in spirit
    assert "Hand: " not in public and "Your hand" not in public
    assert "Your hand: " in ines and all(c in ines for c in visitor_cards)
    assert "Hand: " + ", ".join(spirit_cards) not in ines
    assert "Only you know:" in spirit and "Only you know:" not in public


def test_P_UPKEEP_02_result_names_the_winners_and_their_characters() -> None:
    st = new_game(4, seed=2)
    won = _finish(st, ["s2", "s3", "s4"], "The surviving visitors win (P-UPKEEP-02).")
    res = GAME.result(won)
    assert res is not None
    text = GAME.result_text(won, res, NAMES)
    assert text.startswith("Theo (the ") and "Ines (the " in text and "Kwame (the " in text
    assert "win: every secret is revealed" in text and text.endswith("revealed.")
    assert "P-UPKEEP-02" not in text  # players read words; the rule is in /game rules
    assert "s2" not in text and "Winners" not in text
    spirit = _finish(st, [SPIRIT], "The spirit wins (P-UPKEEP-02).")
    text = GAME.result_text(spirit, GAME.result(spirit), NAMES)  # type: ignore[arg-type]
    assert text.startswith("Margaret (the spirit") and "wins by its script" in text


def test_P_WIN_06_eternal_darkness_says_nobody_won_in_words() -> None:
    st = _finish(new_game(3, seed=1), [], "Eternal Darkness (P-WIN-06).")
    text = GAME.result_text(st, GAME.result(st), NAMES)  # type: ignore[arg-type]
    assert text.startswith("Eternal Darkness: nobody reached their goal")
    assert "nobody wins" not in text.lower() and "P-WIN-06" not in text


def test_P_HORROR_true_horror_words_carry_no_rule_id_and_no_emoji() -> None:
    st = new_game(4, seed=2, true_horror=True)
    assert GAME.plain_words(st) and not GAME.plain_words(new_game(4, seed=2))
    done = _finish(st, [SPIRIT], "The spirit wins (P-UPKEEP-02).")
    text = GAME.result_text(done, GAME.result(done), NAMES)  # type: ignore[arg-type]
    assert "P-" not in text and "(" in text  # the character stays, the rule id goes
    for line in [*GAME.status_lines(done, None, NAMES), GAME.alt_text(done, NAMES)]:
        assert "P-" not in line and "🗣" not in line and "🤫" not in line


def test_P_2P_01_the_player_with_two_characters_is_one_seat_in_words() -> None:
    st = two_player_game(seed=3)
    names = {"s1": "Margaret", "s2": "Theo"}
    slots = st.visitor_seats
    assert len(slots) == 2
    who = GAME.player_name(st, "s2", names)
    assert who.count("Theo") == 1 and " and the " in who
    done = _finish(st, list(slots), "The surviving visitors win (P-UPKEEP-02).")
    text = GAME.result_text(done, GAME.result(done), names)  # type: ignore[arg-type]
    assert text.count("Theo") == 1 and text.startswith("Theo (the ") and " wins: " in text
    assert "s2" not in text
    status = "\n".join(GAME.status_lines(st, None, names))
    assert "s2.2" not in status and status.count("Theo (the ") >= 2  # one line a character


def test_alt_text_puts_the_decision_first_and_fits() -> None:
    st = new_game(5, seed=4)
    alt = GAME.alt_text(st, {f"s{i}": f"Player Number {i}" for i in range(1, 6)})
    assert len(alt) <= ALT_TEXT_LIMIT
    assert alt.startswith("Now: Player Number 2 (the ")


def test_P_MOVE_a_door_an_effect_changes_reads_as_a_sentence() -> None:
    """"The door Salon–West Bedroom: close." (stop 59's demo) now reads "… closes."."""
    from rules.core.types import Prompt

    st = edit(new_game(3, 1))
    eng = Engine(st)
    did = next(iter(st.doors))
    st.doors[did].open, st.doors[did].locked = True, False
    prompt = Prompt(id="p", kind="target", seats=[SPIRIT], text="", data={"by": SPIRIT})
    eng.on_door(f"close:{did}", prompt)
    assert st.log[-1] == f"The door {eng.door_name(did)} closes.", st.log[-1]
    eng.on_door(f"close_and_lock:{did}", prompt)
    assert st.log[-1].endswith(" is closed and locked."), st.log[-1]


def test_P_WIN_the_recap_names_a_visitor_once() -> None:
    """"Ada (the Professor): The Professor: fear 1 of 5, …" named the character twice; a
    two-player visitor player's line still names each of its characters."""
    from rules.core.ending import Moment
    from rules.presence.ending import parts

    st = _finish(new_game(3, 1), [], "Eternal Darkness")
    result = GAME.result(st)
    assert result is not None
    for part in parts(st, result, list[Moment](), {"s2": 4}, NAMES):
        if part.seat != st.spirit_seat:
            assert part.line.startswith("fear "), part.line
    two = _finish(two_player_game(), [], "Eternal Darkness")
    result = GAME.result(two)
    assert result is not None
    line = next(p.line for p in parts(two, result, list[Moment](), {}, NAMES)
                if p.seat != two.spirit_seat)
    assert line.startswith("The ") and line.count(": fear ") == 2, line


def test_P_SETUP_placing_a_spirit_clue_says_what_lies_face_down() -> None:
    """"Place the spirit clue Cold Spot and a presence die face down in a room" (stop 59's
    demo, the spirit's DM): only the clue lies face down; a die showing 1 joins it."""
    from tests.presence.helpers import fresh

    st = fresh(3, 1)
    for _ in range(40):
        top = st.prompts[-1] if st.prompts else None
        if top is not None and top.kind == "place_spirit_clue":
            break
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0]).state
    assert top is not None and top.kind == "place_spirit_clue"
    assert "a presence die face down" not in top.text, top.text
    assert top.text.endswith("face down in an empty room, with a presence die showing 1.")


def test_P_COMM_P_CLUE_02_names_listed_and_clues_said_once() -> None:
    """Stop 60's expert-scripts demo: "Targeted: The Orphan, The Detective.", "Alone visitors
    may only talk procedurally: The Descendant, The Orphan." (every "The" a new sentence, no
    "and"), "reveals the small clue Small Clue: Action" and the DM's "Discard the clue card
    Tragedy: Cellar: beneath which secret?"."""
    st = edit(new_game(4, seed=1))
    eng = Engine(st)
    first, second, third = st.visitor_seats[:3]
    a, b = eng.name(first), eng.name(second)
    assert a.startswith("The ") and b.startswith("The ")
    eng.note_targets({"owner": SPIRIT, "targets": [first, second]})
    assert eng.events[-1].text == f"Targeted: the {a[4:]} and the {b[4:]}."

    # Three visitors, each in a room of their own: nobody within hearing.
    rooms = [r for r in st.rooms if r != st.visitors[first].room]
    for seat in (second, third):
        st.visitors[seat].room = next(r for r in rooms if all(
            r not in eng.hearing_rooms(st.visitors[o].room) for o in st.visitor_seats
            if o != seat))
    st.phase = "spirit"  # nobody holds the active player marker
    alone = [s for s in st.visitor_seats if eng.alone(s)]
    assert len(alone) >= 2, alone
    why = eng.table_talk()["why"]
    assert "procedurally: the " in why and " and the " in why and ", The " not in why, why
    # The board's caption names each alone visitor once (it once added "Alone: The
    # Descendant, The Orphan." after the line that had named them).
    caption = GAME.board_caption(st) or ""
    assert why in caption and "Alone:" not in caption, caption

    st = edit(new_game(3, seed=1))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    room = st.visitors[seat].room
    st.tokens[room] = []
    put_token(st, room, "small", "small.item#1")
    eng.investigate(seat, room, 0)
    text = next(e.text for e in eng.events if e.kind == "investigate")
    assert text == f"{eng.name(seat)} investigates and reveals Small Clue: Item.", text

    st = edit(new_game(3, seed=1))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    card = st.clue_deck.pop(0)
    st.visitors[seat].hand.append(card)
    eng.step_discard_clue(seat, card)
    called = eng.card_name(card)
    assert st.prompts[-1].text == f"Beneath which secret does the clue card {called} go?"


def test_H_L4_the_spirits_script_line_names_its_halves() -> None:
    """Stop 60's spirit DM: "Your script: Script B3 (hope, good). Hidden: Good: the spirit
    wins if the visitors win. Revealed: The spirit wins if …" (two labels in a row, and
    words the thread does not use): the halves as the thread names them."""
    st = new_game(3, seed=9)
    text = GAME.private_summary(st, st.spirit_seat) or ""
    line = next(x for x in text.splitlines() if x.startswith("Your script:"))
    assert "Top half, while hidden — " in line and "Bottom half, once revealed — " in line
    assert "Hidden:" not in line and "Revealed:" not in line


def test_P_WIN_a_good_spirit_is_not_told_to_frighten_the_visitors() -> None:
    """Stop 60's spirit DM, a good script still hidden ("the spirit wins if the visitors
    win"): "The Descendant is alone, out of hearing: a good target for fear." Its own view
    knows the script: the DM says to help them; the board post (public, no script) keeps the
    table's reading, and an evil spirit's DM too."""
    from tests.presence.helpers import quiet, to_spirit_turn

    good = to_spirit_turn(quiet(new_game(3, seed=9)))
    assert Engine(good).pack.script(good.script).alignment == "good"
    mine = GAME.guide_text(good, good.spirit_seat, private=True) or ""
    board = GAME.guide_text(good, good.spirit_seat) or ""
    assert "Your script is good" in mine and "help them" in mine, mine
    assert "good" not in board.replace("a good target", ""), board
    evil = to_spirit_turn(quiet(new_game(3, seed=2)))
    assert Engine(evil).pack.script(evil.script).alignment == "evil"
    assert "Your script" not in (GAME.guide_text(evil, evil.spirit_seat, private=True) or "")


def test_P_SESSION_03_the_lobby_counts_scripts_without_a_kind_of_none() -> None:
    """Stop 61's demo lobby read "Scripts: Competitive: 3 hope and 0 nerve": the scripts
    are counted by kind, a kind with none left out."""
    said = {sc: dict(GAME.effective_options(GAME.options_model(scripts=sc)))["Scripts"]
            for sc in ("cooperative", "normal", "competitive")}
    assert said == {"cooperative": "Cooperative: 3 nerve scripts",
                    "normal": "Normal: 1 hope and 2 nerve scripts",
                    "competitive": "Competitive: 3 hope scripts"}


def test_P_SCRIPT_01_P_WIN_02_the_script_reveal_and_the_end_say_what_it_asks() -> None:
    """Stop 63's demos: "The spirit's script is revealed: Script A1 (evil). Its bottom half
    now applies." never said what the bottom half asks (the visitors' win changes with it,
    P-WIN-02), and a game ending with the script hidden said "The spirit's script was Script
    A1." without its side."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    script = eng.pack.script(st.script)
    eng.reveal_script()
    assert eng.events[0].text == (f"The spirit's script is revealed: {script.name} "
                                  f"({script.alignment}). Its bottom half now applies: "
                                  f"{script.bottom.text}")
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    eng.finish([], "Eternal Darkness.")
    assert eng.events[0].text == f"The spirit's script was {script.name} ({script.alignment})."


def test_P_TRACK_02_a_marker_at_the_top_stays_and_says_so() -> None:
    """Stop 63's demo: "Nerve increases to 12." with nerve already at 12 (the track's top)."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    top = eng.pack.hope_track.spaces
    st.nerve = top
    st.hope = top - 2
    eng.adjust_track("nerve", 1, None)
    eng.adjust_track("hope", 1, None)
    assert [e.text for e in eng.events] == [f"Nerve stays at {top}, the top of the track.",
                                            f"Hope increases to {top - 1}."]
    assert st.nerve == top and st.hope == top - 1


def test_P_KO_02_P_SUCC_02_a_knockout_and_a_succumb_say_what_they_cost_and_why() -> None:
    """Stop 63's demos: "The Descendant is knocked out!" said nothing of the fear cards
    trashed and the candle put out, and "The Orphan succumbs…" came with no cause (nerve was
    already lost, P-SUCC-02)."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    v = st.visitors[seat]
    v.fear_cards = list(st.clue_deck[:2])
    v.candle_lit = True
    st.nerve = None
    eng.knock_out(seat, nerve=True)
    texts = [e.text for e in eng.events]
    name = eng.name(seat)
    # On their own turn (stop 64's demo: a secret's second half vanished with no word).
    assert st.phase == "visitor" and st.active == seat
    assert texts[:2] == [f"{name} is knocked out!", "Knocked out: 2 fear cards trashed, the "
                         "candle smothered and every action card in hand discarded; the rest "
                         "of the action under way does not happen, and the turn ends."], texts
    eng.events.clear()
    eng.step_ko_nerve(seat)
    assert [e.text for e in eng.events] == [
        f"Nerve is already lost: {eng.listed([seat])} succumbs to the manor and is no longer "
        "a visitor!"]
    assert eng.listed([seat]).startswith("the ")  # mid-sentence, never "The Descendant"


def test_P_SUCC_02_P_KO_02_a_knockout_from_a_lost_nerve_says_its_cause_first() -> None:
    """Stop 66's demo: a secret's low tier (hope -1 and nerve -1) with nerve already lost
    posted "The Descendant is knocked out!" and its cost before the line giving the cause,
    "Nerve is already lost: the Descendant succumbs…". The cause leads the knock-out."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    st.nerve = None
    eng.adjust_track("nerve", -1, seat)
    texts = [e.text for e in eng.events]
    who = eng.listed([seat])
    assert texts[0] == f"Nerve is already lost: {who} is knocked out!", texts
    assert texts[1].startswith("Knocked out: "), texts
    assert texts[2:] == [f"{eng.name(seat)} succumbs to the manor and is no longer a "
                         "visitor!"], texts
    assert [e.kind for e in eng.events][:1] == ["ko"]  # the recap still counts it
    assert st.visitors[seat].knocked_out and st.visitors[seat].succumbed


def test_P_END_the_recap_keeps_the_spirit_pawns_routine_moves_out_of_its_turning_points() -> None:
    """Stop 63's demo recap listed "Round 6: The spirit pawn acts: Glide." among the turning
    points (the pawn's acts shared the kind of "The spirit manifests in the Salon!")."""
    from rules.core.players import playout
    from rules.presence.ending import WEIGHTS

    seats = ["s1", "s2", "s3"]
    kinds: dict[str, set[str]] = {}
    # the AI's spirit (s1) manifests and its pawn acts in one of these (2 and 4 until stop
    # 66, when a Relight no longer offered beside a lit candle changed the random play)
    for seed in (0, 6, 2, 4):
        if kinds.get("pawn") and kinds.get("manifests"):
            break
        st = GAME.setup(seats, GAME.options_model(), seed)
        for seat, action in playout(GAME, GAME.options_model(), seats, seed,
                                    ai_seats=frozenset({"s1"})).history:
            step = GAME.apply(st, seat, action)
            st = step.state
            for e in step.events:
                if e.text.startswith(("The spirit pawn acts", "The spirit pawn glides",
                                      "The spirit manifests")):
                    kinds.setdefault(e.text.split(" ")[2], set()).add(e.kind)
    assert kinds.get("pawn") == {"pawn"} and kinds.get("manifests") == {"manifest"}, kinds
    assert WEIGHTS.get("pawn", 0) == 0 and WEIGHTS["manifest"] > 0


def test_P_SPIRIT_07_a_moving_die_says_where_from_and_what_it_shows() -> None:
    """Stop 63's demo: "A presence die moves into the Dining Hall (2 times)." said neither
    where the dice came from nor what they showed."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    die = st.dice[0]
    rooms = list(st.rooms)
    eng.place_die(die.id, rooms[0], 3)
    eng.die_enters(die.id, rooms[1], penalty=False)
    assert eng.events[-1].text == (f"A presence die moves from the {eng.room_name(rooms[0])} "
                                   f"into the {eng.room_name(rooms[1])}, showing 3.")


def test_P_COMM_the_talk_line_says_no_visitor_remains_once_all_succumbed() -> None:
    """Stop 63's demo: "Silence. Every visitor is within hearing of another visitor." beside
    "Visitors left 0/2"."""
    st = edit(new_game(3, seed=2))
    for v in st.visitors.values():
        v.succumbed = v.knocked_out = True
    assert Engine(st).table_talk()["why"] == "No visitor remains in the manor."


def test_P_2P_02_the_shared_turn_is_headed_with_both_characters() -> None:
    """Stop 63's two-player demo: "The Descendant's turn (5 main actions)." headed a turn in
    which the Orphan acted too (P-2P-02: one turn of 5 main actions for both)."""
    st = edit(two_player_game())
    eng = Engine(st)
    seat = st.active
    assert seat is not None
    other = eng.partner(seat)
    assert other is not None
    eng.step_visitor_turn(seat)
    head = next(e.text for e in eng.events if e.kind == "turn")
    # "the Orphan" mid-sentence, not "The Orphan" (stop 64's demo)
    assert head.startswith(f"{eng.name(st.active)} and "
                           f"{eng.listed([eng.partner(st.active) or ''])}'s turn (")
    assert " and the " in head


def test_P_WIN_02_the_end_says_the_revealed_scripts_condition_failed() -> None:
    """Stop 64's demo: every secret revealed, three visitors standing, the revealed script's
    extra condition unmet — and the game-over post said "No visitor was left standing"."""
    from rules.core.types import Result
    from rules.presence.ending import verdict

    st = edit(new_game(4, seed=2))
    eng = Engine(st)
    script = next(s for s in eng.pack.scripts if s.bottom.visitors_also_need
                  and "the visitors also need " in s.bottom.text)
    st.script, st.script_revealed = script.id, True
    for slot in st.secrets:
        slot.revealed = True
    visitors = list(st.visitors)
    _head, why = verdict(st, Result(winners=[st.spirit_seat], losers=visitors, reason="x"),
                         NAMES)
    need = script.bottom.text.partition("the visitors also need ")[2].rstrip(".")
    assert (f"Every secret was revealed, but the revealed script asks more of the visitors "
            f"({need}) and that did not hold.") in why, why
    assert "No visitor was left standing" not in why


def test_P_WIN_06_a_spirit_win_tells_the_spirits_condition_not_the_visitors_clause() -> None:
    """Stop 67's demo: after a spirit win the game-over line told the revealed script's
    whole text, "…; the visitors also need every surviving visitor in a light room.", a
    clause about the visitors' win that did not come."""
    from rules.core.types import Result
    from rules.presence.ending import verdict

    st = edit(new_game(4, seed=2))
    eng = Engine(st)
    script = next(s for s in eng.pack.scripts if "; the visitors also need " in s.bottom.text)
    st.script, st.script_revealed = script.id, True
    _head, why = verdict(st, Result(winners=[st.spirit_seat], losers=list(st.visitors),
                                    reason="x"), NAMES)
    own = script.bottom.text.split("; the visitors also need ", 1)[0]
    assert f"came true in round {st.round}: {own}." in why, why
    assert "also need" not in why, why


def test_P_SECRET_a_failed_invoke_is_no_revealed_secret_in_the_recap() -> None:
    """Stop 64's demos: "1 secret revealed" for a visitor whose only Invoke failed, and the
    failure listed as a turning point: it now has a kind of its own, weighed 0."""
    from rules.core.types import act
    from rules.presence.ending import WEIGHTS
    from tests.presence.helpers import VISITOR, do, invoke_card, invoke_scene

    st = invoke_scene(3)  # no clue beneath any secret: the Invoke fails
    card, side = invoke_card(st, VISITOR)
    st, _ = do(st, VISITOR, act("play", card=card, side=side, speed="main"))
    out = GAME.apply(st, VISITOR, act("choose", option="1"))
    tried = [e for e in out.events if "tries to reveal the secret" in e.text]
    assert tried and all(e.kind == "secret_fail" for e in tried), tried
    assert not out.state.secrets[0].revealed
    assert "secret_fail" not in WEIGHTS and WEIGHTS["secret"] > 0


def test_P_words_said_not_silent_an_empty_clue_deck_a_lit_room_a_lit_candle() -> None:
    """Stop 64's demos: a Wail's two clue draws from an empty deck, a die dimmed by a lit room
    whose new value was never said, a Relight played with the candle lit: each said nothing."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    st.clue_deck, st.clue_revealed = [], []
    eng.draw_clue(seat)
    assert eng.events[-1].text == (f"The clue deck is empty: {eng.listed([seat])} draws no "
                                   "clue card.")
    room = st.visitors[seat].room
    assert room is not None and eng.lit(room)
    die = st.dice[0]
    eng.place_die(die.id, next(r for r in st.rooms if r != room), 3)
    eng.die_enters(die.id, room, penalty=True)
    assert "The room is lit: the die loses 1 presence and now shows 2." in [
        e.text for e in eng.events]
    assert st.visitors[seat].candle_lit
    eng.eff_relight_candle(type("E", (), {"who": "self"})(), {"self": seat, "owner": seat})
    assert eng.events[-1].text == f"{eng.name(seat)}'s candle is not relit: it is already lit."


def test_P_2P_the_opening_line_says_two_players_set_up_as_for_three() -> None:
    """Stop 64's demo: a two-player game opened with "A new session …: 3 players"."""
    st = two_player_game()
    first = next(line for line in st.log if line.startswith("A new session"))
    assert first.startswith("A new session at Wrightwatch Manor: 2 players, set up as for 3 "
                            "(one visitor player with two characters)")


def test_P_MANI_04_a_pawn_action_says_what_it_spends() -> None:
    """Stop 64's demo: "The spirit pawn acts: Touch." then a die "now shows 3" again: the
    pawn's payment from the die was never said."""
    from rules.core.types import act
    from tests.presence.helpers import do, put_die, quiet, to_spirit_turn

    st = to_spirit_turn(quiet(new_game(3, 4)))
    st.spirit.pawn_room = "great_hall"
    st.spirit.pawn_actions = 3
    a = put_die(st, "great_hall", 2)
    put_die(st, "great_hall", 4)
    st, _ = do(st, SPIRIT, act("pawn", action="manifest.touch"))
    out = GAME.apply(st, SPIRIT, act("choose", option=str(a)))
    told = [e.text for e in out.events if e.kind == "pawn"]
    assert told == ["The spirit pawn acts: Touch (spends 1 from the presence die in the Great "
                    "Hall, which now shows 1)."], told



def test_P_guide_every_secret_revealed_and_the_last_visitor_standing() -> None:
    """Stop 64's demos: "Investigate to move toward the secrets" at 4 of 4 secrets; "Walk
    toward them" to the last visitor standing."""
    from rules.presence.guide import _visitor_turn

    st = new_game(3, seed=2)
    seat = st.active
    assert seat is not None
    view = GAME.view(st, seat)
    for s in view["secrets"]:
        s["revealed"] = True
    said = _visitor_turn(view, seat)
    assert "Every secret is revealed" in said and "Investigate" not in said, said
    view = GAME.view(st, seat)
    me = next(v for v in view["visitors"] if v["seat"] == seat)
    me["alone"] = True
    for v in view["visitors"]:
        if v["seat"] != seat:
            v["succumbed"] = True
    said = _visitor_turn(view, seat)
    assert "You are the last visitor in the manor" in said and "Walk" not in said, said


def test_P_HORROR_02_the_lobby_says_the_spirit_whispers_set_lines() -> None:
    """Stop 64's demo: the True Horror lobby said "the spirit may not" talk (P-HORROR-02: it
    may, for immersion: our set lines)."""
    lines = dict(GAME.effective_options(GAME.options_model(true_horror=True)))
    assert lines["Table talk"].endswith("; the spirit only whispers set lines")
    assert dict(GAME.effective_options(GAME.options_model()))["Table talk"].endswith(
        "; the spirit may not")


def test_P_2P_03_a_two_player_hand_says_whose_each_card_is() -> None:
    """Stop 64's two-player demo: "Your hand: Search / Relight; Move 2 / Comfort; …" and
    "Discard Move 3 / Investigate" — both decks hold cards of one name."""
    st = two_player_game()
    seat = st.active
    assert seat is not None
    eng = Engine(st)
    other = eng.partner(seat)
    assert other is not None
    text = GAME.private_summary(st, seat) or ""
    assert f"{eng.listed([seat])}: " in text and f"{eng.listed([other])}: " in text, text


def test_P_TRACK_03_a_lost_marker_says_an_increase_does_nothing() -> None:
    """Stop 65's demo: the secret's middle effect "hope +1 or nerve +1" resolved with both
    markers lost and the thread said nothing of what became of it."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    st.hope = st.nerve = None
    eng.adjust_track("hope", 1, None)
    eng.adjust_track("nerve", -1, None)  # nobody forced: no one succumbs
    assert [e.text for e in eng.events] == [
        "Hope is already lost: the increase does nothing.",
        "Nerve is already lost: the reduction does nothing."]
    assert all(e.public for e in eng.events)
    assert st.hope is None and st.nerve is None


def _guidance_scene(fear: int) -> tuple[PresenceState, Engine, str]:
    """Spirit I's Guidance (top: "A nearby visitor may cure 1 fear.") played from the room
    of one visitor, alone there, who has `fear` fear."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat, *others = st.visitor_seats
    room = st.visitors[seat].room
    for o in others:
        st.visitors[o].room = next(r.id for r in eng.pack.manor.rooms if r.id != room)
    st.visitors[seat].fear = fear
    st.prompts = []
    card = eng.pack.spirit_card("spirit_1.guidance")
    eng.later(eng.effects_step(card.top.effects, eng.spirit_ctx(None, room, "Guidance")))
    eng.run()
    return st, eng, seat


def test_P_SPIRIT_13_a_declined_may_and_an_empty_cure_are_said() -> None:
    """Stop 65's demo: "The spirit plays Guidance … Targeted: the Descendant." and then
    nothing: whether the visitor cured fear, declined, or had none to cure went unsaid."""
    st, eng, seat = _guidance_scene(fear=2)
    assert st.prompts and st.prompts[-1].seats == [seat]
    out = GAME.apply(st, seat, choose("no"))
    texts = [e.text for e in out.events if e.public]
    assert f"{eng.name(seat)} chooses not to cure 1 fear." in texts, texts
    assert out.state.visitors[seat].fear == 2
    # none to cure: not asked (stop 66: a "may" that can do nothing), and said
    st, eng, seat = _guidance_scene(fear=0)
    assert not st.prompts
    texts = [e.text for e in eng.events if e.public]
    assert f"{eng.name(seat)} has no fear to cure." in texts, texts


def test_P_SPIRIT_13_trashing_a_fear_card_nobody_holds_is_said() -> None:
    """Stop 65's demo: "The Descendant takes the room action Warmth. Targeted: the
    Descendant." and nothing more: the Descendant held no fear card to trash."""
    st, eng, seat = _guidance_scene(fear=0)
    st.prompts = []
    eng.events.clear()
    st.visitors[seat].fear_cards = []
    warmth = next(a for r in eng.pack.manor.rooms for a in r.actions_a if a.name == "Warmth")
    eng.later(eng.effects_step(warmth.effects[:2], eng.visitor_ctx(seat, "Warmth")))
    eng.run()
    texts = [e.text for e in eng.events if e.public]
    assert texts == [f"Targeted: {eng.listed([seat])}.",
                     f"{eng.name(seat)} has no fear card to trash."], texts


def test_P_WIN_02_the_guide_says_the_scripts_added_need_as_a_goal() -> None:
    """Stop 65's demo: "Every secret is revealed: the visitors win at the end of the round if
    at most 2 presence dice on the board holds. Stay in light and together; spend actions
    only to stay safe." (the need is to be made true, not waited out)."""
    from rules.presence.guide import _visitor_turn

    st = new_game(3, seed=2)
    seat = st.active
    assert seat is not None
    view = GAME.view(st, seat)
    for s in view["secrets"]:
        s["revealed"] = True
    view["scripts"] = {"script": {"bottom": "The spirit wins if at least 2 visitors are "
                                            "knocked out or 1 has succumbed; the visitors "
                                            "also need at most 2 presence dice on the board."}}
    said = _visitor_turn(view, seat)
    assert " holds" not in said and "only to stay safe" not in said, said
    assert "win at the end of a round with at most 2 presence dice on the board" in said, said


def test_P_CLUE_02_the_spirits_may_in_a_spirit_clue_is_told_as_the_spirits() -> None:
    """Stop 65's demo: "The Descendant draws a clue card. A presence die moves from the Great
    Hall into the Library, showing 2." mid-turn: Cold Hand's "the spirit may move a die" was
    taken with no word that it was the spirit's choice."""
    st = edit(new_game(3, seed=2))
    eng = Engine(st)
    seat = st.visitor_seats[0]
    st.prompts = []
    clue = next(c for c in eng.pack.spirit_clues if c.name == "Cold Hand")
    eng.later(eng.effects_step(clue.effects[2:], eng.visitor_ctx(seat, "Cold Hand")))
    eng.run()
    assert st.prompts and st.prompts[-1].seats == [st.spirit_seat], st.prompts
    room = eng.room_name(st.visitors[seat].room)
    yes = GAME.apply(st, st.spirit_seat, choose("0"))
    texts = [e.text for e in yes.events if e.public]
    if yes.state.prompts and yes.state.prompts[-1].kind == "target":  # a die next door
        texts = [e.text for e in GAME.apply(yes.state, st.spirit_seat,
                                            choose("no")).events if e.public]
        assert texts == [f"The spirit chooses not to move a presence die into the {room}."]
    else:
        assert texts == [f"No presence die is next to the {room}: none can move in."], texts
    no = GAME.apply(st, st.spirit_seat, choose("no"))
    texts = [e.text for e in no.events if e.public]
    assert texts and texts[0] == "The spirit chooses not to move a presence die.", texts
    for d in st.dice:  # no die next door: the spirit's yes is told as coming to nothing
        if d.room in eng.die_neighbours(st.visitors[seat].room):
            d.room = None
    texts = [e.text for e in GAME.apply(st, st.spirit_seat, choose("0")).events if e.public]
    assert texts == [f"No presence die is next to the {room}: none can move in."], texts


def test_P_SPIRIT_07_the_spirits_own_die_move_names_the_spirit() -> None:
    """Stop 65's demo: "The spirit's turn. A presence die moves from the Salon into the Great
    Hall, showing 2." — the spirit's Move Presence Die, read as a die moved by nothing."""
    from rules.presence import actions as K
    from tests.presence.helpers import to_spirit_turn

    st = to_spirit_turn(new_game(3, seed=2))
    move = next(a for a in GAME.legal_actions(st, SPIRIT) if a.kind == K.MOVE_DIE)
    eng = Engine(st)
    d = eng.die(int(move.p("die")))
    was = eng.room_name(str(d.room))
    out = GAME.apply(st, SPIRIT, move)
    first = next(e.text for e in out.events if e.public and "presence die" in e.text)
    assert first == (f"The spirit moves a presence die from the {was} into the "
                     f"{eng.room_name(str(move.p('to')))}, showing {d.value}."), first


def test_p_clue_02_an_investigate_that_finds_nothing_is_no_turning_point() -> None:
    """Stop 67's demo recap listed "Round 5: The Detective finds no clue token left to
    investigate in the Dining Hall." among five turning points: nothing happened. The line
    has a kind of its own, weighed 0, as a failed Invoke's has."""
    from rules.core.types import act
    from rules.presence.ending import WEIGHTS
    from tests.presence.helpers import do
    from tests.presence.test_rules_visitors import base, give

    st = base()  # nothing on the board to investigate
    give(st, "s2", "descendant.09")  # Investigate Twice
    st, events = do(st, "s2", act("play", card="descendant.09", side=0, speed="main"))
    none = [e for e in events if "finds no clue token left to investigate" in e.text]
    assert none and all(WEIGHTS.get(e.kind, 0) == 0 for e in none), none


def test_P_SECRET_03_guide_says_invoke_where_the_last_secret_is_ready() -> None:
    """Stop 67's guided demo: three secrets revealed, a clue card of the one trauma left
    beneath the last secret and the Invoke in the Detective's hand, the advice said
    "1 clue token lies in the Kitchen: Investigate to move toward the secrets"; the Invoke
    won the game. The last secret's trauma is the one no revealed secret has, so the
    advice names it and says Invoke, from the seat's own view (its hand) only."""
    from rules.presence.guide import _visitor_turn
    from tests.presence.helpers import (
        VISITOR,
        invoke_card,
        invoke_scene,
        put_token,
        take_clue,
        trauma_at,
    )

    st = invoke_scene(6, revealed=(1, 2, 4))
    put_token(st, st.visitors[VISITOR].room, "small", st.small_clue_pile.pop())
    trauma = trauma_at(st, 3)
    st.secrets[2].discards = [take_clue(st, trauma)]
    said = _visitor_turn(GAME.view(st, VISITOR), VISITOR)
    assert (f"The secret at position 3 can only be {trauma.capitalize()}, and a "
            f"{trauma.capitalize()} clue card lies beneath it: play your Invoke to reveal it"
            in said), said
    public = _visitor_turn(GAME.view(st, None), VISITOR)  # the board post: no hand seen
    assert "Invoke" not in public, public
    card, _side = invoke_card(st, VISITOR)
    st.visitors[VISITOR].hand.remove(card)
    st.visitors[VISITOR].discard.append(card)
    assert "Invoke" not in _visitor_turn(GAME.view(st, VISITOR), VISITOR)


def test_P_SECRET_03_guide_says_invoke_where_enough_clue_cards_of_a_trauma_lie_beneath() -> None:
    """Stop 69: the turn advice named an Invoke only for the last secret; with two Death
    clue cards face up beneath position 2 (one more than its low tier) and the Invoke in
    hand, it said "Investigate". Now it names the Invoke there, from the seat's own view
    (its hand) and the public discards; not for one card (a low reveal), nor a trauma a
    revealed secret has, nor where an Invoke failed over those cards (H-38)."""
    from rules.presence.guide import _visitor_turn
    from tests.presence.helpers import VISITOR, invoke_scene, put_token, take_clue, trauma_at

    st = invoke_scene(4)
    put_token(st, st.visitors[VISITOR].room, "small", st.small_clue_pile.pop())
    trauma = trauma_at(st, 3)
    name = trauma.capitalize()
    st.secrets[1].discards = [take_clue(st, trauma) for _ in range(2)]
    said = _visitor_turn(GAME.view(st, VISITOR), VISITOR)
    assert (f"2 {name} clue cards lie beneath the secret at position 2. If {name} is that "
            "secret's trauma, an Invoke there reveals it for a reward: play your Invoke"
            in said), said
    assert "Invoke" not in _visitor_turn(GAME.view(st, None), VISITOR)  # no hand seen
    for edit_ in ("one card", "revealed", "failed"):
        other = st.model_copy(deep=True)
        if edit_ == "one card":
            other.secrets[1].discards = other.secrets[1].discards[:1]
        elif edit_ == "revealed":
            other.secrets[2].revealed, other.secrets[2].tier = True, "middle"
        else:
            other.secrets[1].failed = [2]
        assert "Invoke" not in _visitor_turn(GAME.view(other, VISITOR), VISITOR), edit_


def test_P_TRACK_03_the_recap_tells_the_hope_lost_that_revealed_the_script_not_its_effect() -> None:
    """Stop 68's demo recap: five turning points kept "The script's reveal effect: each
    visitor suffers 1 fear." and left out "The hope marker meets the time marker and is
    lost!", the cause of the reveal. The effect's line weighs light; the loss is told."""
    from rules.core.ending import pick_turning_points
    from rules.core.types import Event
    from rules.presence.ending import Moment, _skip, _weight

    story = [(5, "track", "The hope marker meets the time marker and is lost!"),
             (5, "script", "The spirit's script is revealed: Script A1 (evil). Its bottom "
                           "half now applies: The spirit wins if at least 1 visitor has "
                           "succumbed."),
             (5, "script", "The script's reveal effect: each visitor suffers 1 fear."),
             (6, "track", "The nerve marker meets the time marker and is lost!"),
             (7, "succumb", "The Professor succumbs to the manor and is no longer a visitor!"),
             (7, "succumb", "The Descendant succumbs to the manor and is no longer a "
                            "visitor!")]
    moments = [Moment(Event(text=t, kind=k), r) for r, k, t in story]
    told = [m.event.text for m in pick_turning_points(moments, _weight, _skip)]
    assert story[0][2] in told and story[2][2] not in told, told


def test_P_CLUE_02_a_spirit_clue_investigated_is_no_turning_point() -> None:
    """Stop 68's recap: four secrets revealed and "The Orphan investigates and reveals the
    spirit clue Wail." in the fifth slot, routine told as a turning point. An investigated
    clue token is never one; a relit candle is still colour where a slot is left."""
    from rules.core.ending import pick_turning_points
    from rules.core.types import Event
    from rules.presence.ending import Moment, _skip, _weight

    story = [(r, "secret", f"The Orphan reveals the secret at position {r - 1}.")
             for r in (2, 3, 4, 5)]
    story.insert(2, (4, "investigate", "The Orphan investigates and reveals the spirit clue "
                                       "Wail."))
    moments = [Moment(Event(text=t, kind=k), r) for r, k, t in story]
    told = [m.event.text for m in pick_turning_points(moments, _weight, _skip)]
    assert told == [t for _, k, t in story if k == "secret"], told
    moments.append(Moment(Event(text="The Orphan's candle is relit.", kind="candle"), 5))
    told = [m.event.text for m in pick_turning_points(moments, _weight, _skip)]
    assert "The Orphan's candle is relit." in told and len(told) == 5, told


def test_P_WIN_04_a_good_spirits_win_reads_without_a_second_colon() -> None:
    """Stop 68's recap: "came true in round 5: Good: the spirit wins if the visitors win.",
    two colons in a row; the alignment is in the parenthesis already."""
    from rules.core.types import Result
    from rules.presence.ending import verdict

    st = edit(new_game(4, seed=2))
    eng = Engine(st)
    script = next(s for s in eng.pack.scripts if s.top.text.startswith("Good: "))
    st.script, st.script_revealed = script.id, False
    _head, why = verdict(st, Result(winners=[st.spirit_seat, *st.visitors], losers=[],
                                    reason="x"), NAMES)
    assert f"came true in round {st.round}: the spirit wins if the visitors win." in why, why
    assert ": Good:" not in why, why


def test_P_CLUE_02_the_guide_says_a_clue_token_lies_here_in_the_visitors_own_room() -> None:
    """Stop 68's demo: "1 clue token lies in the Kitchen: Investigate to move toward the
    secrets" read as a way to the Kitchen; the visitor stood in it. The advice says "here"."""
    from rules.presence.guide import _visitor_turn
    from tests.presence.helpers import VISITOR, put_token, quiet

    st = quiet(new_game(3, 1))
    me = st.visitors[VISITOR]
    st.active = VISITOR
    put_token(st, me.room, "small", st.small_clue_pile.pop())
    said = _visitor_turn(GAME.view(st, None), VISITOR)
    assert "1 clue token lies here in the " in said, said
