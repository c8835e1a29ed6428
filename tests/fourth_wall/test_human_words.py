"""FW-VIS-37 (#14): an Investigator not yet kept is named by its place in the turn order."""

from __future__ import annotations

import re

from rules.fourth_wall.game import GAME


def test_FW_VIS_37_investigators_before_the_keep_have_no_numbers() -> None:
    opts = GAME.options_model(mode="conflict")
    st = GAME.setup(["s1", "s2", "s3"], opts, seed=5)
    texts: list[str] = []
    while any(i.card is None for i in st.investigators):
        [seat] = sorted(GAME.to_act(st))
        texts += [GAME.seat_label(st, s) for s in st.seats]
        texts += [GAME.prompt_text(st, seat) or "", GAME.private_summary(st, seat) or ""]
        texts += [GAME.doing_text(st, seat, {})]
        out = GAME.apply(st, seat, GAME.legal_actions(st, seat)[0])
        texts += [e.text for e in out.events]
        st = out.state
    blob = "\n".join(texts)
    assert not re.search(r"Investigator \d|\bs\d\b", blob), blob[:500]
    assert "the first Investigator" in blob and "The first Investigator is " in blob


def test_FW_VIS_37_open_gates_are_counted_in_words() -> None:
    """"1 Open Gate", never "1 Open Gates" (the count a player reads after a Gate closes)."""
    from rules.fourth_wall.engine.gates import open_gates

    assert [open_gates(n) for n in (0, 1, 2)] == ["no Open Gate", "1 Open Gate", "2 Open Gates"]
