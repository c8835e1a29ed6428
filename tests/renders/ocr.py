"""Reading a picture back as a phone shows it: shrunk to a 400 px chat column, then tesseract."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from PIL import Image

TESSERACT = shutil.which("tesseract")


def read_at_phone_width(img: Image.Image, tmp: Path, timeout: float = 120) -> str:
    """What tesseract reads of `img` scaled to 400 px wide (sparse text, `--psm 11`)."""
    small = img.convert("RGB").resize((400, round(img.height * 400 / img.width)),
                                      Image.Resampling.LANCZOS)
    path = tmp / "card.png"
    small.save(path)
    # One thread: on a busy two-core machine tesseract's OpenMP threads only wait on each other.
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    out = subprocess.run([TESSERACT or "tesseract", str(path), "stdout", "--psm", "11"],
                         capture_output=True, text=True, timeout=timeout, check=True, env=env)
    return out.stdout
