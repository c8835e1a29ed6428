"""`python -m bot migrate-db`: every game moves from SQLite to PostgreSQL with its id, seats,
action log, spectators and votes, and players' preferences; the copy is verified, refuses a
database that already holds games, and new games on PostgreSQL get fresh ids."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bot import dbcopy
from bot.__main__ import main
from bot.dbcopy import copy_database
from bot.pgstorage import PgStorage
from bot.storage import SqliteStorage, StorageError
from bot.tables import TableService
from tests.bot import GAMES, FakeClock, lobby, started
from tests.pgserver import PostgresServer

A, B, C = 101, 102, 103


async def _a_bot_history(path: Path) -> tuple[list[int], int]:
    """A SQLite file as a bot leaves it: a finished game and its rematch mid-play, a lobby,
    a spectator, a replace vote, quiet hours. Returns the game ids and the action count."""
    async with SqliteStorage(path) as storage:
        tables = TableService(storage, GAMES, clock=FakeClock())
        first = await started(tables, (A, B, C), options={"rounds": 1})
        while (await tables.get(first.record.id)).status == "active":
            for seat in sorted(await tables.awaited(first.record.id)):
                await tables.play_ai(first.record.id, seat)
        again = await tables.rematch(first.record.id, A, thread_id=4000)
        await tables.play_ai(again.record.id, sorted(await tables.awaited(again.record.id))[0])
        await tables.spectate(again.record.id, 104)
        await tables.replace(again.record.id, B, C, 105)  # B's vote alone is not enough
        await tables.set_quiet(A, 22, 7, 60)
        waiting = await lobby(tables, (A, B), thread=5000)
        ids = [first.record.id, again.record.id, waiting.id]
        actions = sum([len(await storage.actions(i)) for i in ids])
    return ids, actions


def test_migrate_db_copies_every_game_with_its_id(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not an async test: the command runs its own event loop, as from the shell.
    monkeypatch.setattr(dbcopy, "BATCH", 2)  # many pages per table
    source = tmp_path / "games.sqlite3"
    ids, actions = asyncio.run(_a_bot_history(source))
    url = asyncio.run(postgres_server.new_database())
    assert main(["migrate-db", "--from", str(source), "--to", url]) == 0
    out = capsys.readouterr().out
    assert f"{len(ids)} games read back identical" in out and f"{actions} actions" in out
    asyncio.run(_check_copy(source, url, ids))


async def _check_copy(source: Path, url: str, ids: list[int]) -> None:
    async with SqliteStorage(source) as old, PgStorage(url) as new:
        for game_id in ids:
            assert await new.export_game(game_id) == await old.export_game(game_id)
        assert await new.spectators(ids[1]) == [104]
        assert await new.replace_votes(ids[1], "s3") == await old.replace_votes(ids[1], "s3")
        assert await new.prefs([A]) == await old.prefs([A])
        tables = TableService(new, GAMES, clock=FakeClock())
        assert await tables.verify(ids[1])
        fresh = await lobby(tables, (A, B), thread=6000)
        assert fresh.id == max(ids) + 1  # the id sequence moved past the copied games
        # A second copy into a database that holds games is refused, and changes nothing.
        with pytest.raises(StorageError, match="already holds games"):
            await copy_database(old, new)
        assert len(await new.list_games()) == len(ids) + 1


def test_migrate_db_copies_a_file_from_before_alembic(
    tmp_path: Path, postgres_server: PostgresServer, capsys: pytest.CaptureFixture[str],
) -> None:
    """A SQLite file a bot of schema 1 left (tests/fixtures/databases) is upgraded in place,
    then copied: its game plays on from PostgreSQL."""
    source = tmp_path / "old.sqlite3"
    shutil.copyfile(Path(__file__).resolve().parents[1] / "fixtures" / "databases"
                    / "schema-1.sqlite3", source)
    url = asyncio.run(postgres_server.new_database())
    assert main(["migrate-db", "--from", str(source), "--to", url]) == 0
    assert "2 games read back identical" in capsys.readouterr().out

    async def plays_on() -> None:
        async with PgStorage(url) as new:
            tables = TableService(new, GAMES, clock=FakeClock())
            res = await tables.play_ai(1, sorted(await tables.awaited(1))[0])
            assert res.version == 2 and await tables.verify(1)

    asyncio.run(plays_on())


def test_migrate_db_names_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)  # no developer .env
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert main(["migrate-db", "--from", str(tmp_path / "none.sqlite3"),
                 "--to", "postgresql://x@127.0.0.1/db"]) == 2
    assert "No SQLite file" in capsys.readouterr().err
    asyncio.run(_empty_sqlite(tmp_path / "games.sqlite3"))
    assert main(["migrate-db", "--from", str(tmp_path / "games.sqlite3")]) == 2
    assert "--to postgresql://" in capsys.readouterr().err


async def _empty_sqlite(path: Path) -> None:
    async with SqliteStorage(path):
        pass
