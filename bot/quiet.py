"""Quiet hours in a player's own time: an IANA zone (`Europe/Paris`, via `zoneinfo`) or a
fixed UTC offset (`+5:30`).

A zone name follows daylight saving: Paris's 22:00–08:00 is 21:00–07:00 UTC in winter and
20:00–06:00 UTC in summer, and the night the clocks change is an hour shorter or longer.
Windows are computed from local clock times each time, never as a stored UTC offset.
"""

from __future__ import annotations

import functools
import re
import zoneinfo
from datetime import datetime, timedelta, timezone, tzinfo

from bot import limits

MINUTES_PER_DAY = 24 * 60
MAX_OFFSET = 14 * 60

_OFFSET = re.compile(r"(?:UTC|GMT)?\s*([+-]?)(\d{1,2})(?::?(\d{2}))?", re.IGNORECASE)


@functools.lru_cache(maxsize=512)
def zone(name: str) -> zoneinfo.ZoneInfo:
    """The IANA time zone `name` (the system's zone database, else the tzdata package)."""
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError) as exc:
        raise ValueError(f"{name!r} is not a time zone name (like Europe/Paris)") from exc


@functools.lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every IANA zone name this machine knows, sorted (the "posix/" and "right/" copies and
    the legacy upper-case aliases left out)."""
    names = (n for n in zoneinfo.available_timezones()
             if not n.startswith(("posix/", "right/", "Etc/")) and n != "localtime")
    return tuple(sorted(names))


def tzinfo_for(tz_name: str | None, tz_minutes: int) -> tzinfo:
    if tz_name is not None:
        return zone(tz_name)
    return timezone(timedelta(minutes=tz_minutes))


def at_local(tz: tzinfo, day: datetime, days: int, minutes: int) -> float:
    """Epoch seconds of the clock time `minutes` after local midnight, `days` after `day`'s
    date. A time the clocks skip (spring forward) counts from the offset before the jump,
    so 02:30 on that night is 03:30 summer time."""
    date = day.date() + timedelta(days=days)
    naive = datetime(date.year, date.month, date.day, minutes // 60, minutes % 60)
    return naive.replace(tzinfo=tz).timestamp()


def quiet_window(start: int, end: int, tz: tzinfo, now: float) -> tuple[float, float]:
    """The quiet window (begins, ends: epoch seconds) that `now` falls in, else the next one.
    `start`/`end` are minutes after local midnight; `end <= start` wraps past midnight."""
    today = datetime.fromtimestamp(now, tz)
    for days in (-1, 0, 1):
        begins = at_local(tz, today, days, start)
        ends = at_local(tz, today, days + (1 if end <= start else 0), end)
        if ends > now:
            return begins, ends
    raise AssertionError("tomorrow's window always ends after now")


def parse_offset(text: str) -> int | None:
    """`+2`, `-5:30`, `UTC+1`, `0`, `` → minutes east of UTC; None if it is no offset."""
    raw = text.strip()
    if raw.upper() in ("", "UTC", "GMT", "Z"):
        return 0
    match = _OFFSET.fullmatch(raw)
    if match is None:
        return None
    sign = -1 if match.group(1) == "-" else 1
    hours, minutes = int(match.group(2)), int(match.group(3) or 0)
    if minutes >= 60:
        return None
    total = sign * (hours * 60 + minutes)
    return total if -MAX_OFFSET <= total <= MAX_OFFSET else None


def find_zone(text: str) -> str | None:
    """The zone name `text` means: exact, or matching case and spaces loosely
    (`europe/paris`, `America/New York`); None if none."""
    raw = text.strip().replace(" ", "_")
    if not raw:
        return None
    try:
        zone(raw)
    except ValueError:
        pass
    else:
        if "/" in raw or raw in zone_names() or raw.upper() == "UTC":
            return raw
    folded = raw.casefold()
    return next((n for n in zone_names() if n.casefold() == folded), None)


def offset_text(minutes: int) -> str:
    sign = "-" if minutes < 0 else "+"
    h, m = divmod(abs(minutes), 60)
    return f"UTC{sign}{h}" + (f":{m:02d}" if m else "")


def suggest_zones(current: str) -> list[str]:
    """Autocomplete for a time zone: names containing what was typed (those starting with it,
    or with a city starting with it, first), at most 25 (Discord's limit), each at most 100
    characters; an offset typed is offered back as written."""
    typed = current.strip().replace(" ", "_").casefold()
    out: list[str] = []
    offset = parse_offset(current) if current.strip() else None
    if offset is not None and current.strip():
        out.append(offset_text(offset))
    if not typed:
        common = ["Europe/London", "Europe/Paris", "Europe/Berlin", "America/New_York",
                  "America/Chicago", "America/Denver", "America/Los_Angeles",
                  "America/Sao_Paulo", "Asia/Kolkata", "Asia/Tokyo", "Australia/Sydney"]
        return [n for n in common if n in zone_names()][:limits.CHOICES]

    def rank(name: str) -> tuple[int, str]:
        folded = name.casefold()
        city = folded.rsplit("/", 1)[-1]
        return (0 if folded.startswith(typed) else 1 if city.startswith(typed) else 2, name)

    found = sorted((n for n in zone_names() if typed in n.casefold()), key=rank)
    out += found
    # A name too long to be a choice's value is left out, not cut (a cut name is no zone).
    return [n for n in out if len(n) <= limits.CHOICE_VALUE][:limits.CHOICES]
