"""Open Communication (P-OPEN-01, P-COMM-11), True Horror (P-HORROR-01/02) and the spirit's
granted speech (P-COMM-09, P-DISCORD-01, P-DISCORD-08): who may talk, the quiet
presentation, the fixed atmospheric lines, and words the spirit says through the bot."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rules.core.errors import IllegalAction
from rules.core.types import act
from rules.presence import actions as K
from rules.presence.content import DEFAULT_PACK_DIR, check_pack
from rules.presence.engine import Engine, parse_effect
from rules.presence.game import GAME
from rules.presence.state import PresenceState
from tests.packs import copy_pack_from
from tests.packs import edit as edit_pack
from tests.presence.helpers import SPIRIT, edit, new_game, seats, to_spirit_turn


def with_alone_visitor(**options: object) -> PresenceState:
    """s2 in the Great Hall with nobody within hearing; s3 far away (doors start closed)."""
    st = edit(new_game(3, seed=1, **options))
    start = st.visitors["s2"].room
    st.visitors["s3"].room = next(r for r in st.rooms if r not in
                                  Engine(st).hearing_rooms(start))
    assert Engine(st).alone("s2") and Engine(st).alone("s3")
    return st


def test_p_comm_04_standard_alone_visitors_talk_only_procedurally() -> None:
    talk = Engine(with_alone_visitor()).table_talk()
    assert talk["speech"]["s3"] == "procedural_only"
    assert talk["speech"][SPIRIT] == "procedural_only"


def test_p_comm_04_every_visitor_alone_is_no_table_talk_on_the_board() -> None:
    """With every visitor alone on the spirit's turn (no alone visitor holds the marker),
    nobody may talk freely: the board says so, in both presentations (a demo read "Talk
    allowed. True Horror: alone visitors stay silent on every topic: the Descendant and the
    Orphan.")."""
    for horror, head in ((False, "🤫 No table talk now. "), (True, "Silence. ")):
        st = with_alone_visitor(true_horror=horror)
        st.phase = "spirit"
        talk = Engine(st).table_talk()
        assert talk["allowed"] and not talk["heard"]
        caption = GAME.board_caption(st) or ""
        assert caption.startswith(head), caption
    # One visitor within hearing of another is talk again.
    st = with_alone_visitor()
    st.phase = "spirit"
    st.visitors["s3"].room = st.visitors["s2"].room
    assert (GAME.board_caption(st) or "").startswith("🗣️ Table talk allowed."), \
        GAME.board_caption(st)


def test_p_open_01_alone_and_knocked_out_visitors_may_talk() -> None:
    st = with_alone_visitor(open_communication=True)
    st.visitors["s3"].knocked_out = True
    talk = Engine(st).table_talk()
    assert talk["speech"]["s2"] == talk["speech"]["s3"] == "free"
    assert talk["allowed"]  # P-COMM-06 no longer silences the table either
    assert talk["speech"][SPIRIT] == "procedural_only"  # the spirit still may not
    assert "Open Communication" in (GAME.board_caption(st) or "")
    assert GAME.view(st, None)["presets"]["open_communication"] is True


def test_p_comm_11_open_communication_is_a_lobby_option() -> None:
    field = GAME.options_model.model_fields["open_communication"]
    assert field.default is False and "Open Communication" in (field.description or "")
    assert "True Horror" in (GAME.options_model.model_fields["true_horror"].description or "")


def test_p_horror_01_alone_visitors_are_silent_on_every_topic() -> None:
    st = with_alone_visitor(true_horror=True)
    talk = Engine(st).table_talk()
    assert talk["speech"]["s2"] == talk["speech"]["s3"] == "silent"
    assert "True Horror: alone visitors stay silent on every topic" in talk["why"]
    st.visitors["s3"].room = st.visitors["s2"].room
    talk = Engine(st).table_talk()
    assert talk["speech"]["s2"] == talk["speech"]["s3"] == "free"  # together they talk


def test_p_horror_01_the_talk_line_does_not_also_allow_procedural_talk() -> None:
    """Stop 59's demo: with the spirit to play and a visitor alone, the line read "Alone
    visitors may only talk procedurally: The Descendant. True Horror: alone visitors stay
    silent on every topic.": the second sentence takes back what the first allows."""
    st = with_alone_visitor(true_horror=True)
    st.phase = "spirit"  # nobody holds the active player marker
    talk = Engine(st).table_talk()
    assert talk["allowed"] and talk["why"].startswith(
        "True Horror: alone visitors stay silent on every topic: "), talk["why"]
    assert "procedurally" not in talk["why"], talk["why"]


def test_p_horror_quiet_presentation_has_no_emoji_or_rule_ids() -> None:
    st = with_alone_visitor(true_horror=True)
    caption = GAME.board_caption(st) or ""
    assert caption.startswith("Silence.") or caption.startswith("Talk allowed.")
    assert not any(ord(ch) > 0x2000 and ch not in "—–’“”…" for ch in caption)
    lines = ["🤫 The Professor is alone (P-COMM-04).", "Round 2 begins.",
             "A very long line. " + "x" * 200]
    quiet = GAME.present(st, lines)
    assert quiet[0] == "The Professor is alone."
    assert all(len(line) <= 100 for line in quiet)
    plain = new_game(3, seed=1)
    assert GAME.present(plain, lines) == lines  # the standard game is unchanged


def test_p_horror_the_quiet_post_keeps_repeats_for_the_board_and_says_what_it_cut() -> None:
    """Stop 63's True Horror demo: the post kept its last eight lines and said nothing of the
    rest (it opened mid-round), and dropped any line said before, so three Touches of the
    spirit pawn read as one. Repeats now stay (the board says a run once, "(3 times)") and a
    run counts as one of the eight; a cut is said."""
    st = with_alone_visitor(true_horror=True)
    touch = "The spirit pawn acts: Touch."
    lines = [f"Line {i}." for i in range(10)] + [touch, "Fear 3/5.", touch, touch, "End."]
    quiet = GAME.present(st, lines)
    kept = ["Line 6.", "Line 7.", "Line 8.", "Line 9.", touch, "Fear 3/5.", touch, touch,
            "End."]  # eight runs
    assert quiet == ["… (6 earlier lines: /game log)", *kept], quiet
    assert GAME.present(st, lines[:8]) == lines[:8]


def test_p_horror_02_the_spirit_whispers_only_a_fixed_line_once_a_turn() -> None:
    st = to_spirit_turn(with_alone_visitor(true_horror=True))
    pack = Engine(st).pack
    lines = dict(pack.presets.horror_lines_by_id())
    whispers = [a for a in GAME.legal_actions(st, SPIRIT) if a.kind == K.WHISPER]
    assert {str(a.params["line"]) for a in whispers} == set(lines)
    assert GAME.describe(st, SPIRIT, whispers[0]).startswith("Say aloud (True Horror): ")
    out = GAME.apply(st, SPIRIT, whispers[0])
    said = [e.text for e in out.events if e.public]
    assert said == [f"The spirit whispers: “{lines[str(whispers[0].params['line'])]}”"]
    assert not [a for a in GAME.legal_actions(out.state, SPIRIT) if a.kind == K.WHISPER]
    assert out.state.spirit_actions == st.spirit_actions  # not one of the turn's actions
    with pytest.raises(IllegalAction):
        GAME.apply(out.state, SPIRIT, whispers[0])
    # not in a standard game, and no free text
    plain = to_spirit_turn(new_game(3))
    assert not [a for a in GAME.legal_actions(plain, SPIRIT) if a.kind == K.WHISPER]
    with pytest.raises(IllegalAction):
        GAME.apply(st, SPIRIT, act(K.WHISPER, line="anything I like"))


def test_p_horror_02_the_pack_validator_refuses_two_lines_with_one_id(tmp_path: Path) -> None:
    assert Engine(new_game(3)).pack.presets.horror_lines  # the shipped pack has its lines
    folder = copy_pack_from(DEFAULT_PACK_DIR, tmp_path)
    edit_pack(folder, "presets.toml", 'id = "footsteps"', 'id = "cold"')
    findings = [f for f in check_pack(folder) if f.severity == "error"]
    assert [f.rule for f in findings] == ["P-HORROR-02"]


def granted(st: PresenceState, max_words: int = 3, vocabulary: tuple[str, ...] = ()
            ) -> PresenceState:
    st = edit(st)
    e = Engine(st)
    e.eff_spirit_speak(parse_effect({"op": "spirit_speak", "max_words": max_words,
                                     "vocabulary": list(vocabulary)}), {})
    return st


def test_p_comm_09_the_spirit_may_not_speak_without_an_effect() -> None:
    st = to_spirit_turn(new_game(3))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(st, SPIRIT, act(K.SPEAK, words="beware"))
    assert err.value.rule == "P-COMM-09"
    assert not [a for a in GAME.legal_actions(st, SPIRIT) if a.kind == K.SPEAK]


def test_p_discord_08_granted_words_go_through_the_bot_within_the_limit() -> None:
    st = granted(to_spirit_turn(new_game(3)), max_words=3)
    assert Engine(st).table_talk()["speech"][SPIRIT] == "free"  # P-DISCORD-01
    assert "/presence speak" in (GAME.board_caption(st) or "")
    assert GAME.view(st, None)["presets"]["speech_grant"]["max_words"] == 3
    for words, rule in (("go to the cellar", "P-DISCORD-08"), ("", "P-DISCORD-08"),
                        ("@everyone hi", "P-DISCORD-08"), ("see <#123>", "P-DISCORD-08")):
        with pytest.raises(IllegalAction) as err:
            GAME.apply(st, SPIRIT, act(K.SPEAK, words=words))
        assert err.value.rule == rule, words
    with pytest.raises(IllegalAction):  # only the spirit speaks this way
        GAME.apply(st, "s2", act(K.SPEAK, words="hello"))
    out = GAME.apply(st, SPIRIT, act(K.SPEAK, words="Beware the cellar!"))
    assert [e.text for e in out.events] == ["The spirit speaks: “Beware the cellar!”"]
    assert out.state.speech_grant is None  # used up
    with pytest.raises(IllegalAction):
        GAME.apply(out.state, SPIRIT, act(K.SPEAK, words="again"))


def test_p_discord_08_a_vocabulary_limits_the_words() -> None:
    st = granted(to_spirit_turn(new_game(3)), max_words=2, vocabulary=("yes", "no"))
    with pytest.raises(IllegalAction):
        GAME.apply(st, SPIRIT, act(K.SPEAK, words="maybe"))
    out = GAME.apply(st, SPIRIT, act(K.SPEAK, words="No, no."))
    assert out.events[-1].text.endswith("“No, no.”")


def test_p_discord_08_unused_speech_ends_with_the_spirit_turn() -> None:
    st = granted(to_spirit_turn(new_game(3)))
    st = GAME.apply(st, SPIRIT, act(K.END_SPIRIT)).state
    assert st.speech_grant is None


def test_p_discord_08_the_whisper_card_grants_speech() -> None:
    st = to_spirit_turn(new_game(3))
    e = Engine(st)
    card = next(c for c in e.pack.spirit_cards if c.name == "Whisper")
    power = next(p for p in (card.top, card.bottom)
                 if any(x.op == "spirit_speak" for x in p.effects))
    speak = next(x for x in power.effects if x.op == "spirit_speak")
    st = edit(st)
    Engine(st).eff_spirit_speak(speak, {})
    assert st.speech_grant == {"max_words": speak.max_words, "vocabulary": []}


@pytest.mark.parametrize(("seed", "options"), [
    (4, {"true_horror": True}), (6, {"open_communication": True}),
    (8, {"true_horror": True, "open_communication": True})])
def test_p_horror_p_open_random_playouts_keep_invariants_and_secrets(
        seed: int, options: dict[str, bool]) -> None:
    rnd = random.Random(seed)
    st = GAME.setup(seats(4), GAME.options_model(**options), seed)
    for _ in range(1500):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, rnd.choice(GAME.legal_actions(st, seat))).state
        assert GAME.invariants(st) == []
        public = json.dumps(GAME.view(st, None))
        assert not [s for s in GAME.public_secrets(st) if s in public]
        if st.phase != "setup":
            assert set(Engine(st).table_talk()["speech"].values()) <= {
                "free", "procedural_only", "silent"}
    assert GAME.result(st) is not None


def test_p_horror_ai_plays_a_whole_game() -> None:
    st = GAME.setup(seats(3), GAME.options_model(true_horror=True), 12)
    for _ in range(3000):
        if GAME.result(st) is not None:
            break
        seat = sorted(GAME.to_act(st))[0]
        st = GAME.apply(st, seat, GAME.ai_action(st, seat)).state
    assert GAME.result(st) is not None


def test_p_horror_the_quiet_post_never_cuts_a_turning_point_of_the_story() -> None:
    """Stop 64's True Horror demo: 243 lines cut over a game, among them every secret
    revealed; the quiet post keeps such lines whatever it cuts."""
    st = with_alone_visitor(true_horror=True)
    secret = "The Orphan reveals the secret at position 2: Death (Kitchen); the low effect."
    ko = "The Orphan is knocked out!"
    lines = [secret, *[f"Line {i}." for i in range(12)], ko, *[f"Tail {i}." for i in range(8)]]
    quiet = GAME.present(st, lines)
    # each cut said where it was: a story line never reads as next to what it was not
    assert quiet == [secret, "… (12 lines: /game log)", ko,
                     *[f"Tail {i}." for i in range(8)]], quiet
    lines = [*[f"Line {i}." for i in range(3)], ko, "Between.", *[f"Tail {i}." for i in range(8)]]
    assert GAME.present(st, lines) == ["… (3 earlier lines: /game log)", ko,
                                       "… (1 line: /game log)", *[f"Tail {i}." for i in range(8)]]
