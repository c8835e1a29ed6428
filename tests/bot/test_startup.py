"""A start that explains itself, and `python -m bot health`.

Each failing start runs the real CLI (`python -m bot run`) as its own process, pointed at
127.0.0.1 only (`DISCORD_API_BASE`), and must end with exactly one line on stderr — what
failed and what to check — and a non-zero exit, never a traceback. The healthy path runs the
real bot against the local emulator and asks `python -m bot health` about it.
"""

from __future__ import annotations

import asyncio
import errno
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from bot.client import explain_startup_failure
from bot.health import Beat, Heartbeat, check, write_beat
from bot.settings import Settings
from bot.token_shape import token_problem
from emulator import DiscordEmulator

ROOT = Path(__file__).resolve().parents[2]
GOOD_SHAPE = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


def _env(**extra: str) -> dict[str, str]:
    """The machine's environment without any bot setting, plus `extra` (LOG_LEVEL WARNING:
    what a person sees besides the logs' INFO lines)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DISCORD_", "DATABASE_", "SHARD_", "HEALTH_"))}
    env.update({"PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING", "SYNC_COMMANDS": "false"})
    env.update(extra)
    return env


def _closed_port() -> int:
    """A 127.0.0.1 port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def run_cli(cwd: Path, *args: str, timeout: float = 90, prefix: tuple[str, ...] = (),
            **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*prefix, sys.executable, "-m", "bot", *args], cwd=cwd,
                          env=_env(**env), capture_output=True, text=True, timeout=timeout)


def one_line(stderr: str) -> str:
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line on stderr, got:\n{stderr}"
    assert "Traceback" not in stderr
    return lines[0]


# ---- the real CLI, failing ---------------------------------------------------------------------


def test_no_token_is_one_sentence_on_stderr_and_the_how_to_on_stdout(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "run", DATABASE_PATH=str(tmp_path / "db.sqlite3"))
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert line.startswith("No Discord bot token: set DISCORD_TOKEN")
    assert "Reset Token" in done.stdout  # how to get one
    assert not (tmp_path / "db.sqlite3").exists()  # nothing was started


@pytest.mark.parametrize(("token", "says"), [
    ("Bot " + GOOD_SHAPE, 'starts with "Bot "'),
    ("just-the-application-id-1234", "is not a bot token"),
    (GOOD_SHAPE[:20] + " " + GOOD_SHAPE[20:], "spaces or line breaks"),
    ('"' + GOOD_SHAPE + '"', "wrapped in quotes"),
])
def test_malformed_token_is_refused_before_the_network(tmp_path: Path, token: str,
                                                        says: str) -> None:
    # Nothing listens at the API base: had the bot gone to the network, it would say so.
    done = run_cli(tmp_path, "run", DISCORD_TOKEN=token,
                   DATABASE_PATH=str(tmp_path / "db.sqlite3"),
                   DISCORD_API_BASE=f"http://127.0.0.1:{_closed_port()}/api/v10")
    assert done.returncode == 2
    line = one_line(done.stderr)
    assert says in line and "DISCORD_TOKEN" in line
    assert GOOD_SHAPE not in line and GOOD_SHAPE[20:] not in line  # never echo a secret


async def test_wrong_token_answered_401_by_discord(tmp_path: Path) -> None:
    async with DiscordEmulator(strict_token=True) as emu:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=tmp_path,
            env=_env(DISCORD_TOKEN=GOOD_SHAPE, DATABASE_PATH=str(tmp_path / "db.sqlite3"),
                     DISCORD_API_BASE=emu.api_base, DISCORD_GATEWAY_URL=emu.gateway_url),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(proc.communicate(), 90)
        except TimeoutError:
            proc.kill()
            _, err = await proc.communicate()
            raise AssertionError(f"the bot did not stop: {err.decode()[-3000:]}") from None
        assert emu.stats.identifies == 0  # refused at login, never reached the gateway
    assert proc.returncode == 1
    line = one_line(err.decode())
    assert line.startswith("Discord refused the bot token (401 Unauthorized)")
    assert "Reset Token" in line and GOOD_SHAPE not in line


def test_discord_unreachable_connection_refused(tmp_path: Path) -> None:
    port = _closed_port()
    done = run_cli(tmp_path, "run", DISCORD_TOKEN=GOOD_SHAPE,
                   DATABASE_PATH=str(tmp_path / "db.sqlite3"),
                   DISCORD_API_BASE=f"http://127.0.0.1:{port}/api/v10")
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert line.startswith(f"Cannot reach Discord at 127.0.0.1:{port}: the connection was "
                           "refused")
    assert "internet connection" in line and "DISCORD_API_BASE" in line


def test_database_in_the_way_of_a_file(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("not a folder")
    done = run_cli(tmp_path, "run", DISCORD_TOKEN=GOOD_SHAPE,
                   DATABASE_PATH=str(tmp_path / "data" / "hauntbot.sqlite3"),
                   DISCORD_API_BASE=f"http://127.0.0.1:{_closed_port()}/api/v10")
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert line.startswith(f"Cannot write the game database {tmp_path}/data/hauntbot.sqlite3 "
                           "(DATABASE_PATH)")
    assert "Docker" in line


# root writes anywhere; without the capability to override file permissions it obeys them
# as a container's bot user does on a volume that belongs to root.
AS_PLAIN_USER = ("setpriv", "--inh-caps=-dac_override,-dac_read_search",
                 "--bounding-set=-dac_override,-dac_read_search")


def test_database_folder_not_writable(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    data.chmod(0o555)
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv (util-linux) to drop its override")
        prefix = AS_PLAIN_USER
    try:
        done = run_cli(tmp_path, "run", prefix=prefix, DISCORD_TOKEN=GOOD_SHAPE,
                       DATABASE_PATH=str(data / "hauntbot.sqlite3"),
                       DISCORD_API_BASE=f"http://127.0.0.1:{_closed_port()}/api/v10")
    finally:
        data.chmod(0o755)
    assert done.returncode == 1
    line = one_line(done.stderr)
    assert line.startswith(f"Cannot write the game database {data}/hauntbot.sqlite3 "
                           "(DATABASE_PATH): ")
    assert f"make {data} a folder the bot's user (uid {os.getuid()}) can write" in line
    assert not (data / "hauntbot.sqlite3").exists()


def test_a_wrong_setting_is_named(tmp_path: Path) -> None:
    done = run_cli(tmp_path, "run", DISCORD_TOKEN=GOOD_SHAPE, SHARD_COUNT="2", SHARD_IDS="5")
    assert done.returncode == 2
    assert "SHARD_IDS [5] are not shards of SHARD_COUNT=2" in one_line(done.stderr)
    health = run_cli(tmp_path, "health", SHARD_COUNT="2", SHARD_IDS="5")
    assert health.returncode == 1
    assert one_line(health.stderr).startswith("unhealthy: the settings are wrong")


# ---- the same sentences, for failures a test cannot cause on this machine ----------------------


def test_dns_failure_and_postgres_down_are_explained() -> None:
    settings = Settings(discord_token=GOOD_SHAPE)
    dns = aiohttp.ClientConnectorDNSError(
        None, OSError(socket.EAI_NONAME, "Name or service not known"))  # type: ignore[arg-type]
    assert explain_startup_failure(dns, settings) == (
        "Cannot reach Discord at discord.com: its name could not be resolved (DNS) — check "
        "this machine's internet connection, DNS, proxy and firewall.")
    unreachable = OSError(errno.ENETUNREACH, "Network is unreachable")
    assert "the network is unreachable" in str(explain_startup_failure(unreachable, settings))
    pg = Settings(discord_token=GOOD_SHAPE,
                  database_url="postgresql://hauntbot:secret@db.example:5433/hauntbot")
    sentence = explain_startup_failure(ConnectionRefusedError(errno.ECONNREFUSED, "refused"),
                                       pg, stage="database")
    assert sentence == ("Cannot reach the PostgreSQL database at db.example:5433 "
                        "(DATABASE_URL): the connection was refused — check that the database "
                        "server is running and that DATABASE_URL names it.")
    assert "secret" not in str(sentence)
    locked = sqlite3.OperationalError("attempt to write a readonly database")
    assert "attempt to write a readonly database" in str(
        explain_startup_failure(locked, settings, stage="database"))


def test_a_bug_is_not_dressed_up_as_a_setting() -> None:
    assert explain_startup_failure(KeyError("boom"), Settings()) is None


def test_token_shapes() -> None:
    assert token_problem(GOOD_SHAPE) is None
    assert token_problem("emulator.bot.token") is None
    assert token_problem("abc") is not None


# ---- health ------------------------------------------------------------------------------------


def _beat(**changes: object) -> Beat:
    now = time.time()
    fields: dict[str, object] = {
        "pid": os.getpid(), "at": now, "started_at": now - 600, "gateway_up": True,
        "gateway_seen_at": now, "database_ok": True, "database_error": None}
    fields.update(changes)
    return Beat(**fields)  # type: ignore[arg-type]


def test_health_reads_the_heartbeat(tmp_path: Path) -> None:
    path = tmp_path / "health.json"
    now = time.time()
    assert check(path, now) == (False, f"unhealthy: no heartbeat at {path} — the bot is not "
                                "running, is still starting, or writes its HEALTH_FILE "
                                "elsewhere.")
    write_beat(path, _beat(at=now - 5))
    ok, line = check(path, now)
    assert ok and line.startswith("healthy: connected to Discord's gateway; database answered")
    write_beat(path, _beat(at=now - 200))
    assert check(path, now) == (False, f"unhealthy: the last heartbeat is 200 s old (process "
                                f"{os.getpid()} hangs or its event loop is blocked).")
    write_beat(path, _beat(database_ok=False, database_error="OperationalError: disk I/O"))
    assert check(path, now)[0] is False and "disk I/O" in check(path, now)[1]
    # The gateway may be down while discord.py reconnects, not for long.
    write_beat(path, _beat(at=now, gateway_up=False, gateway_seen_at=now - 30))
    assert check(path, now)[0] is True
    write_beat(path, _beat(at=now, gateway_up=False, gateway_seen_at=now - 600))
    assert check(path, now) == (False, "unhealthy: not connected to Discord's gateway for "
                                "600 s.")
    write_beat(path, _beat(at=now, gateway_up=False, gateway_seen_at=None, started_at=now - 999))
    assert check(path, now) == (False, "unhealthy: not connected to Discord's gateway since "
                                "start.")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    write_beat(path, _beat(pid=dead.pid))
    assert check(path, now) == (False, f"unhealthy: the bot process {dead.pid} that wrote "
                                f"{path} is gone.")
    path.write_text("{not json")
    assert check(path, now)[0] is False


async def test_heartbeat_reports_a_database_that_fails(tmp_path: Path) -> None:
    async def broken() -> None:
        raise sqlite3.OperationalError("database disk image is malformed")

    heart = Heartbeat(tmp_path / "h.json", gateway_up=lambda: True, database_ping=broken)
    beat = await heart.beat()
    assert not beat.database_ok
    assert json.loads((tmp_path / "h.json").read_text())["database_error"] == (
        "OperationalError: database disk image is malformed")
    heart.start()
    await heart.stop()
    assert not (tmp_path / "h.json").exists()  # a stopped bot leaves no heartbeat behind


async def test_health_of_the_real_bot_against_the_emulator(tmp_path: Path) -> None:
    health = tmp_path / "health.json"
    async with DiscordEmulator() as emu:
        env = _env(DISCORD_TOKEN=emu.bot_token, DATABASE_PATH=str(tmp_path / "db.sqlite3"),
                   DISCORD_API_BASE=emu.api_base, DISCORD_GATEWAY_URL=emu.gateway_url,
                   HEALTH_FILE=str(health), GUILD_READY_TIMEOUT="0.05",
                   REMINDER_POLL_SECONDS="3600")
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
            start_new_session=True)
        try:
            deadline = time.monotonic() + 60
            while not (health.exists() and json.loads(health.read_text())["gateway_up"]):
                assert bot.returncode is None, "the bot exited"
                assert time.monotonic() < deadline, "no healthy heartbeat in 60 s"
                await asyncio.sleep(0.2)
            # The first heartbeat is written before the gateway is up; connecting writes anew.
            checker = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "health", cwd=tmp_path, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
            out, err = await asyncio.wait_for(checker.communicate(), 60)
            assert checker.returncode == 0, err.decode()
            assert out.decode().startswith("healthy: connected to Discord's gateway")
        finally:
            with_group = os.getpgid(bot.pid) if bot.returncode is None else None
            if with_group is not None:
                os.killpg(with_group, signal.SIGTERM)
            await asyncio.wait_for(bot.wait(), 30)
    done = run_cli(tmp_path, "health", HEALTH_FILE=str(health))
    assert done.returncode == 1
    assert one_line(done.stderr).startswith("unhealthy:")
