"""`python -m bot`: run the bot, check a content pack, or watch a demo game.

    python -m bot run                      start the bot (needs DISCORD_TOKEN)
    python -m bot health                   is the running bot healthy? (exit 0 or 1)
    python -m bot content check PATH       validate a content pack folder
    python -m bot demo exorcism            a whole AI game against a local Discord emulator
    python -m bot demo presence --opt first_game=yes --ai 2   the same with options and AI seats
    python -m bot migrate-db --to URL      copy every game from the SQLite file to PostgreSQL
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from pathlib import Path

NO_TOKEN = ("No Discord bot token: set DISCORD_TOKEN in the environment or in a .env file "
            "(how to get one is printed above; `python -m bot demo exorcism` plays without "
            "one).")

HOW_TO_GET_A_TOKEN = """\
Set DISCORD_TOKEN in the environment or in a .env file next to where you run the bot:

    echo 'DISCORD_TOKEN=your-token-here' > .env

To get a token: open https://discord.com/developers/applications, create an application,
open its "Bot" page, press "Reset Token" and copy it. The README explains the invite link
and the permissions the bot needs.

Just want to see it play? No token needed:

    python -m bot demo exorcism
"""


def _fail(sentence: str, code: int) -> int:
    """A start-up failure a person can act on: one line on stderr, no traceback."""
    print(sentence, file=sys.stderr)
    return code


def _run(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from bot.settings import Settings

    try:
        settings = Settings()
    except ValidationError as exc:
        first = exc.errors()[0]
        name = ".".join(str(p) for p in first["loc"]).upper() or "a setting"
        return _fail(f"The setting {name} is wrong: {first['msg']} — fix it in the "
                     "environment or .env (the README's settings table lists them all).", 2)
    token = settings.token()
    if not token:
        print(HOW_TO_GET_A_TOKEN)
        return _fail(NO_TOKEN, 2)
    from bot.token_shape import token_problem

    # Checked before the client's import (~2 s): a malformed token is refused at once.
    if (problem := token_problem(token)) is not None:
        return _fail(problem, 2)
    from bot.client import (
        COGS,
        build_bot,
        check_database_folder,
        explain_startup_failure,
        run_event_loop,
        tune_process,
    )

    logging.basicConfig(
        level=settings.log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    from bot.looplag import LoopLagProbe

    bot = build_bot(settings)
    # Views built once per state; start-up objects out of every full garbage collection
    # (a 0.7 s stall otherwise).
    tune_process(COGS)
    stage = "database"

    async def main() -> None:
        nonlocal stage
        # Logs any moment the event loop was held long enough for players to notice.
        probe = LoopLagProbe(interval=0.05, warn_ms=250, keep=10_000).start()
        try:
            async with bot:
                # The database first: a local mistake is reported before Discord is asked.
                check_database_folder(settings)
                await bot.storage.open()
                # What `python -m bot health` reads (the container's HEALTHCHECK).
                bot.heartbeat.start()
                stage = "discord"
                await bot.start(token)
        finally:
            await probe.stop()

    try:
        run_event_loop(main())
    except KeyboardInterrupt:
        return 0
    except Exception as exc:
        sentence = explain_startup_failure(exc, settings, stage=stage)
        if sentence is None:
            raise
        return _fail(sentence, 1)
    return 0


def _health(args: argparse.Namespace) -> int:
    from bot.health import check

    if args.file:
        path = Path(args.file)
    else:
        from pydantic import ValidationError

        from bot.settings import Settings

        try:
            path = Settings().health_file
        except ValidationError as exc:
            return _fail(f"unhealthy: the settings are wrong, so the bot cannot be running "
                         f"({exc.errors()[0]['msg']}).", 1)
    healthy, line = check(path)
    print(line, file=sys.stdout if healthy else sys.stderr)
    return 0 if healthy else 1


def _content_check(args: argparse.Namespace) -> int:
    from bot.content import check_content

    path = Path(args.path)
    if not path.is_dir():
        print(f"{path} is not a folder. A content pack is a folder of .toml files.",
              file=sys.stderr)
        return 2
    game, findings = check_content(path, args.game)
    errors = [f for f in findings if f.severity == "error"]
    for f in findings:
        where = f" {f.file}:" if getattr(f, "file", None) else ""
        print(f"{f.severity.upper():7} {f.rule:12}{where} {f.message}")
    verdict = "FAILED" if errors else "OK"
    print(f"{verdict}: {game} pack at {path}: {len(errors)} error(s), "
          f"{len(findings) - len(errors)} warning(s).")
    return 1 if errors else 0


def _writable(folder: Path) -> bool:
    """Whether pictures can be written into `folder` (created if missing)."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def demo_out(asked: str | None) -> Path | None:
    """Where the demo writes its pictures: the folder asked for (None when it cannot be
    written: the caller says so), else `demo-out` in the current folder when that may be
    written, else in the home folder, else a new temporary folder. In the container the
    current folder is the read-only /app (issue #20: the demo crashed at its very end)."""
    import tempfile

    if asked is not None:
        return Path(asked) if _writable(Path(asked)) else None
    for base in (Path.cwd(), Path.home()):
        if _writable(base / "demo-out"):
            return base / "demo-out"
    return Path(tempfile.mkdtemp(prefix="hauntbot-demo-"))


def _demo(args: argparse.Namespace) -> int:
    # The demo is a tool above the product (it drives the bot through the Discord emulator);
    # the CLI reaches it only when a demo is asked for.
    out = demo_out(args.out)
    if out is None:
        print(f"Cannot write the pictures into {args.out}: give --out a folder you may "
              "write to.", file=sys.stderr)
        return 2
    from demo import run_demo

    return asyncio.run(run_demo(args.game, out=out, seed=args.seed,
                                players=args.players, mode=args.mode, opts=args.opt,
                                ai=args.ai, play_as=args.play_as, dms=args.dms))


def _migrate_db(args: argparse.Namespace) -> int:
    from bot.dbcopy import copy_database
    from bot.pgstorage import PgStorage
    from bot.settings import Settings
    from bot.storage import SqliteStorage, StorageError

    settings = Settings()
    source_path = Path(args.source or settings.database_path)
    url = args.target or settings.database_url
    if not source_path.is_file():
        print(f"No SQLite file at {source_path} (give it with --from).", file=sys.stderr)
        return 2
    if not url or not url.startswith(("postgres://", "postgresql://")):
        print("Give the PostgreSQL database with --to postgresql://user:pass@host/db "
              "(or DATABASE_URL).", file=sys.stderr)
        return 2

    async def copy() -> int:
        async with SqliteStorage(source_path) as source, PgStorage(url) as target:
            try:
                report = await copy_database(source, target)
            except StorageError as exc:
                print(f"Not copied: {exc}", file=sys.stderr)
                return 1
        rows = ", ".join(f"{n} {table}" for table, n in report.rows.items())
        print(f"Copied {rows}; {report.games_verified} games read back identical. "
              "Start the bot with DATABASE_URL set to the new database.")
        return 0

    return asyncio.run(copy())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start the bot (token from DISCORD_TOKEN or .env)")
    run.set_defaults(func=_run)
    health = sub.add_parser("health", help="is the running bot healthy? (exit 0 or 1; the "
                            "container's HEALTHCHECK)")
    health.add_argument("--file", default=None,
                        help="the heartbeat file (default: HEALTH_FILE)")
    health.set_defaults(func=_health)
    content = sub.add_parser("content", help="content packs")
    csub = content.add_subparsers(dest="content_command", required=True)
    check = csub.add_parser("check", help="validate a content pack folder")
    check.add_argument("path")
    check.add_argument("--game", default=None, help="which game the pack is for (auto-detected)")
    check.set_defaults(func=_content_check)
    demo = sub.add_parser("demo", help="watch AI players play a whole game, no token needed")
    demo.add_argument("game")
    demo.add_argument("--out", default=None,
                      help="folder for the board pictures (default: demo-out here if this "
                      "folder may be written, else in your home folder, else a temporary one)")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--players", type=int, default=None)
    demo.add_argument("--mode", default=None)
    demo.add_argument("--opt", action="append", default=[], metavar="KEY=VALUE",
                      help="a game option as /game new options: takes it (repeatable), "
                      "e.g. --opt first_game=yes")
    demo.add_argument("--ai", type=int, default=0,
                      help="how many seats the bot's own AI plays (as /game new ai:)")
    demo.add_argument("--as", dest="play_as", choices=["role", "team"], default=None,
                      help="the first player's side where the mode has an opposing role")
    demo.add_argument("--dms", action="store_true",
                      help="also print every DM each player received (each version of an "
                      "edited one), by display name: the game as each player read it")
    demo.set_defaults(func=_demo)
    migrate = sub.add_parser("migrate-db", help="copy every game from SQLite to PostgreSQL "
                             "(stop the bot first)")
    migrate.add_argument("--from", dest="source", default=None,
                         help="the SQLite file (default: DATABASE_PATH)")
    migrate.add_argument("--to", dest="target", default=None,
                         help="an empty PostgreSQL database URL (default: DATABASE_URL)")
    migrate.set_defaults(func=_migrate_db)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
