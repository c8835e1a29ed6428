# The game master bot: slim Python, a non-root user, games kept in the /data volume.
FROM python:3.11-slim

# Fonts for the board pictures (Pillow renders with DejaVu Sans).
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY renders ./renders
COPY bench ./bench
RUN pip install --no-cache-dir .

RUN useradd --create-home --uid 10001 gamemaster \
    && mkdir -p /data && chown gamemaster /data
USER gamemaster
VOLUME ["/data"]
ENV DATABASE_PATH=/data/hauntbot.sqlite3 \
    PYTHONUNBUFFERED=1

CMD ["python", "-m", "bot", "run"]
