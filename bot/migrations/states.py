"""Per-game state migrations: upgrade a stored game's state JSON to the running engine.

Each game's `version` is `<schema>+<content fingerprint>` (e.g. `exorcism-1+3f2a…`). Only the
part before `+` names the shape of the state: a new content fingerprint alone loads as it is
(cards are looked up by name), while a new schema needs a migration from every older schema a
stored game may still have. A migration is a pure function on the decoded JSON, registered
here under the schema it upgrades *from*; `migrate_state` chains them.

When an engine changes its state's shape: bump the schema number in its `version`, add a
function below that turns the old JSON into the new, and add a stored game of the old shape
under `tests/fixtures/stored_games/` (tests/bot/test_stored_games.py loads every one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

StateJSON = dict[str, Any]
StateMigration = Callable[[StateJSON], StateJSON]


class MigrationMissing(LookupError):
    """A stored schema the running engine cannot reach by registered migrations."""


STATE_MIGRATIONS: dict[str, dict[str, tuple[str, StateMigration]]] = {}
"""game name → {schema upgraded from: (schema it becomes, function)}."""


def register_state_migration(game: str, from_schema: str, to_schema: str,
                             upgrade: StateMigration) -> None:
    """Declare how `game`'s states of `from_schema` become `to_schema` (tests use it too)."""
    STATE_MIGRATIONS.setdefault(game, {})[from_schema] = (to_schema, upgrade)


def unregister_state_migration(game: str, from_schema: str) -> None:
    STATE_MIGRATIONS.get(game, {}).pop(from_schema, None)


def schema_of(version: str) -> str:
    """The state-shape part of an engine version (`exorcism-1+abc` → `exorcism-1`)."""
    return version.split("+", 1)[0]


def needs_migration(stored_version: str, current_version: str) -> bool:
    return schema_of(stored_version) != schema_of(current_version)


def migrate_state(game: str, data: StateJSON, stored_version: str,
                  current_version: str) -> StateJSON:
    """`data` (a state stored by `stored_version`) upgraded to `current_version`'s schema.

    Raises MigrationMissing when no chain of registered migrations leads there.
    """
    schema, target = schema_of(stored_version), schema_of(current_version)
    steps = STATE_MIGRATIONS.get(game, {})
    seen: set[str] = set()
    while schema != target:
        if schema in seen or schema not in steps:
            raise MigrationMissing(f"no state migration for {game} from {schema} to {target}")
        seen.add(schema)
        schema, upgrade = steps[schema]
        data = upgrade(data)
    return data


def _presence_1_to_2(data: StateJSON) -> StateJSON:
    """presence-2 (A-65): a spent visitor turn ends by itself in games begun under the ruling;
    a game stored before it keeps holding spent turns open, as its recorded log did."""
    return {**data, "spent_turns_end": data.get("spent_turns_end", False)}


PRESENCE_2_TIERS_3P = (1, 3)
"""The shipped pack's 3-player reveal tiers before presence-3 (G-04): ≤ 1 matching card low,
≥ 3 high."""


def _presence_2_to_3(data: StateJSON) -> StateJSON:
    """presence-3 (A-66): the shipped pack's 3-player secret board reveals with new tiers; a
    3-player game of that pack stored before keeps the tiers it was dealt with, so its
    reveals resolve, and its log replays, as they did. Another pack's board is unchanged."""
    if data.get("n") != 3 or data.get("pack_path") is not None:
        return data
    return {**data, "secret_tiers": data.get("secret_tiers") or list(PRESENCE_2_TIERS_3P)}


register_state_migration("presence", "presence-1", "presence-2", _presence_1_to_2)
register_state_migration("presence", "presence-2", "presence-3", _presence_2_to_3)
