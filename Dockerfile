# The game master bot: slim Python, a non-root user, games kept in the /data volume.
# Layers from the least to the most often changed: a change to the source rebuilds only the
# last COPY and the no-deps install, never the dependencies (tests/test_container.py checks it).
FROM python:3.11-slim

# Fonts for the board pictures (Pillow renders with DejaVu Sans), and tini, a tiny init to run
# as process 1 (below). Not pinned: Debian ships its security fixes as new versions of the same
# package.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core tini \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# Dependencies only: read from pyproject.toml, installed before any source is copied.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt \
    && rm /tmp/requirements.txt

# The source, then the package itself (no dependency resolution: they are all here already).
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY renders ./renders
COPY bench ./bench
COPY demo ./demo
COPY emulator ./emulator
RUN pip install --no-cache-dir --no-deps . \
    && rm -rf build ./*.egg-info

RUN useradd --create-home --uid 10001 gamemaster \
    && mkdir -p /data && chown 10001 /data
USER 10001
VOLUME ["/data"]
ENV DATABASE_PATH=/data/hauntbot.sqlite3 \
    HEALTH_FILE=/tmp/hauntbot-health.json \
    PYTHONUNBUFFERED=1

# Healthy while the bot's heartbeat is fresh, its database answers and its gateway connection
# is up (or reconnecting for less than three minutes): `python -m bot health`, bot/health.py.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

# tini is process 1: it passes SIGTERM on to the bot, reaps what exits, and the bot is an
# ordinary child like anywhere else (its render worker checks for the bot's own pid, so it keeps
# drawing even under `docker run --init` or with no init at all: bot/renderworker.py).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["python", "-m", "bot", "run"]
