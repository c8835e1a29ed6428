"""Quiet hours in the player's own time zone: IANA names through `zoneinfo` follow daylight
saving; UTC offsets still work; old rows (offset only) read as before; what `/game quiet`
answers shows the window as Discord timestamps."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite
import pytest

from bot.migrations import LATEST
from bot.quiet import find_zone, parse_offset, suggest_zones, zone_names
from bot.storage import PlayerPrefs, SqliteStorage, Storage
from bot.tables import TableError, TableService, parse_tz, parse_zone
from cogs.lobby import quiet_text

PARIS_NIGHTS = PlayerPrefs(user_id=1, quiet_start=22 * 60, quiet_end=8 * 60,
                           tz_name="Europe/Paris")


def utc(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(("now", "window"), [
    # Winter (CET, UTC+1): 22:00–08:00 in Paris is 21:00–07:00 UTC.
    (utc(2026, 3, 27, 21, 30), (utc(2026, 3, 27, 21), utc(2026, 3, 28, 7))),
    # The night the clocks spring forward (Sun 29 March 2026, 02:00 → 03:00): 21:00 UTC to
    # 06:00 UTC, nine hours.
    (utc(2026, 3, 28, 23), (utc(2026, 3, 28, 21), utc(2026, 3, 29, 6))),
    # Summer (CEST, UTC+2): 20:00–06:00 UTC — the UTC window moved by an hour.
    (utc(2026, 4, 1, 20, 30), (utc(2026, 4, 1, 20), utc(2026, 4, 2, 6))),
    # The night they fall back (Sun 25 October 2026, 03:00 → 02:00): 20:00 to 07:00 UTC,
    # eleven hours; then winter again.
    (utc(2026, 10, 24, 23), (utc(2026, 10, 24, 20), utc(2026, 10, 25, 7))),
    (utc(2026, 10, 27, 21, 30), (utc(2026, 10, 27, 21), utc(2026, 10, 28, 7))),
])
def test_quiet_hours_follow_daylight_saving_in_europe_paris(
        now: float, window: tuple[float, float]) -> None:
    assert PARIS_NIGHTS.quiet_window(now) == window
    assert PARIS_NIGHTS.quiet_until(now) == window[1]
    assert not PARIS_NIGHTS.reachable(now)


def test_the_same_paris_evening_hour_is_quiet_in_summer_and_not_in_winter() -> None:
    # 20:30 UTC is 22:30 in Paris in summer (quiet) but 21:30 in winter (awake).
    assert PARIS_NIGHTS.quiet_until(utc(2026, 7, 1, 20, 30)) == utc(2026, 7, 2, 6)
    assert PARIS_NIGHTS.reachable(utc(2026, 1, 14, 20, 30))
    # Outside quiet hours the window is the next one, that evening.
    assert PARIS_NIGHTS.quiet_window(utc(2026, 1, 14, 20, 30)) == (
        utc(2026, 1, 14, 21), utc(2026, 1, 15, 7))


def test_a_fixed_offset_does_not_move_with_the_seasons() -> None:
    plus_one = PlayerPrefs(user_id=1, quiet_start=22 * 60, quiet_end=8 * 60, tz_minutes=60)
    assert plus_one.quiet_window(utc(2026, 3, 27, 21, 30)) == (
        utc(2026, 3, 27, 21), utc(2026, 3, 28, 7))
    assert plus_one.quiet_window(utc(2026, 4, 1, 21, 30)) == (
        utc(2026, 4, 1, 21), utc(2026, 4, 2, 7))
    assert plus_one.reachable(utc(2026, 4, 1, 20, 30))  # 21:30 at UTC+1
    assert plus_one.zone_text() == "UTC+1"
    assert PlayerPrefs(user_id=1, tz_minutes=-330).zone_text() == "UTC-5:30"


def test_a_daytime_window_and_no_window() -> None:
    tokyo_work = PlayerPrefs(user_id=1, quiet_start=9 * 60, quiet_end=17 * 60,
                             tz_name="Asia/Tokyo")
    assert tokyo_work.quiet_until(utc(2026, 6, 1, 1)) == utc(2026, 6, 1, 8)  # 10:00 JST
    assert tokyo_work.reachable(utc(2026, 6, 1, 9))  # 18:00 JST
    assert PlayerPrefs(user_id=1).quiet_window(utc(2026, 6, 1)) is None


def test_an_unknown_zone_name_is_refused_by_the_model() -> None:
    with pytest.raises(ValueError, match="not a time zone name"):
        PlayerPrefs(user_id=1, tz_name="Mars/Olympus_Mons")


def test_parse_zone_takes_names_in_any_case_and_offsets() -> None:
    assert parse_zone("Europe/Paris") == (0, "Europe/Paris")
    assert parse_zone(" europe/paris ") == (0, "Europe/Paris")
    assert parse_zone("America/New York") == (0, "America/New_York")
    assert parse_zone("+2") == (120, None)
    assert parse_zone("UTC-5:30") == (-330, None)
    assert parse_zone("utc") == (0, None)
    with pytest.raises(TableError, match="isn't a time zone") as exc:
        parse_zone("Mars/Olympus")
    assert "Europe/Paris" in str(exc.value)
    with pytest.raises(TableError, match="isn't a UTC offset"):
        parse_tz("+15")
    assert parse_offset("+530") == 330 and parse_offset("+5:60") is None
    assert find_zone("") is None


def test_time_zone_autocomplete() -> None:
    assert suggest_zones("paris")[0] == "Europe/Paris"
    assert suggest_zones("new_y")[0] == "America/New_York"
    assert suggest_zones("new y")[0] == "America/New_York"
    america = suggest_zones("america")
    assert len(america) == 25 and all(n.startswith("America/") for n in america)
    assert suggest_zones("+5:30")[0] == "UTC+5:30"
    first = suggest_zones("")
    assert "Europe/Paris" in first and len(first) <= 25
    assert suggest_zones("zzzz-no-such-place") == []
    for typed in ("", "a", "e", "/", "_"):
        choices = suggest_zones(typed)
        assert len(choices) <= 25 and all(0 < len(c) <= 100 for c in choices)
        assert all(c in zone_names() or c.startswith("UTC") for c in choices)


async def test_the_zone_name_is_stored_and_read_back(storage: Storage) -> None:
    tables = TableService(storage, clock=lambda: utc(2026, 3, 27, 12))
    await tables.set_quiet(7, 22 * 60, 8 * 60, 0, "Europe/Paris")
    prefs = await tables.prefs(7)
    assert prefs.tz_name == "Europe/Paris"
    assert prefs.quiet_until(utc(2026, 4, 1, 20, 30)) == utc(2026, 4, 2, 6)
    # An offset replaces the name (and the other way round).
    await tables.set_quiet(7, 22 * 60, 8 * 60, 60)
    assert (await tables.prefs(7)).tz_name is None
    with pytest.raises(TableError):
        await tables.set_quiet(7, 22 * 60, 8 * 60, 0, "Nowhere/Atall")


def test_quiet_text_shows_the_window_as_discord_timestamps() -> None:
    now = utc(2026, 3, 27, 12)
    text = quiet_text(PARIS_NIGHTS, now)
    assert text == (f"Quiet hours: 22:00–08:00 (Europe/Paris). Next: "
                    f"<t:{int(utc(2026, 3, 27, 21))}:f> to <t:{int(utc(2026, 3, 28, 7))}:t>. "
                    "Reminders and pings wait until they end.")
    inside = quiet_text(PARIS_NIGHTS, utc(2026, 4, 1, 23))
    end = int(utc(2026, 4, 2, 6))
    assert f"Quiet now, until <t:{end}:t> (<t:{end}:R>)." in inside
    offset = quiet_text(PlayerPrefs(user_id=1, quiet_start=60, quiet_end=120, tz_minutes=120),
                        now)
    assert "(UTC+2)" in offset and "does not follow daylight saving" in offset
    assert quiet_text(PlayerPrefs(user_id=1), now) == "Quiet hours are off."


async def test_a_schema_5_players_row_reads_as_the_same_fixed_offset(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    # A database exactly as the schema-5 build (before Alembic, before time zones) wrote it.
    shutil.copy(Path(__file__).parent.parent / "fixtures" / "databases" / "schema-5.sqlite3",
                path)
    async with aiosqlite.connect(path) as db:  # a row exactly as the schema-5 build wrote it
        await db.execute(
            "INSERT INTO players (user_id, away, quiet_start, quiet_end, tz_minutes,"
            " notify_near, updated_at) VALUES (9, 0, 1320, 420, 60, 0, 0)")
        await db.commit()
    async with SqliteStorage(path) as upgraded:
        assert await upgraded.schema_version() == LATEST
        prefs = (await upgraded.prefs([9]))[9]
    assert (prefs.tz_name, prefs.tz_minutes, prefs.zone_text()) == (None, 60, "UTC+1")
    # 22:00–07:00 at UTC+1, summer or winter alike: 21:00–06:00 UTC.
    assert prefs.quiet_until(utc(2026, 7, 1, 21, 30)) == utc(2026, 7, 2, 6)
    assert prefs.quiet_until(utc(2026, 1, 1, 21, 30)) == utc(2026, 1, 2, 6)
