"""The emulator's index of deferred updates (#25): an edit or a delete of a message answers every
interaction deferred on it, and only those, however many interactions came before."""

from __future__ import annotations

from emulator.interaction_records import InteractionRecord
from emulator.state import EmulatorState


def _record(state: EmulatorState, n: int) -> InteractionRecord:
    return InteractionRecord(id=str(n), token=f"t{n}", type=3, user_id="1", channel_id="2",
                             guild_id=None, name="press", payload={}, created_at=0.0,
                             state=state)


def test_an_edit_answers_the_deferrals_on_its_message_and_no_other() -> None:
    state = EmulatorState(bot_name="bot", cdn_base=lambda: "http://127.0.0.1")
    first, second, elsewhere = (_record(state, n) for n in range(3))
    state.defer_update(first, "100")
    state.defer_update(second, "100")
    state.defer_update(elsewhere, "200")
    state.touch_deferred("100")
    assert first.touched and second.touched and not elsewhere.touched
    # A deferral after the edit waits for the next one.
    later = _record(state, 3)
    state.defer_update(later, "100")
    assert not later.touched
    state.touch_deferred("100")
    assert later.touched
    state.touch_deferred("200")
    assert elsewhere.touched and state.deferred_updates == {}
