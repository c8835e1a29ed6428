"""Reading a picture back as a phone shows it: shrunk to a 400 px chat column, then tesseract.

Tesseract is the largest share of the renders tests' CPU (about a third of a second a picture
on one thread; the OCR tests read about 120 different pictures, no picture twice). A dark
picture (the turn cards: light type on a dark ground) is handed over as its negative:
tesseract recognises dark type on a light ground, and on a dark picture it first reads noise,
then tries the negative itself; giving it the negative at once reads the same words for about
a quarter less CPU."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from PIL import Image, ImageOps, ImageStat

TESSERACT = shutil.which("tesseract")


def read_at_phone_width(img: Image.Image, tmp: Path, timeout: float = 120) -> str:
    """What tesseract reads of `img` scaled to 400 px wide (sparse text, `--psm 11`)."""
    small = img.convert("RGB").resize((400, round(img.height * 400 / img.width)),
                                      Image.Resampling.LANCZOS)
    if ImageStat.Stat(small.convert("L")).mean[0] < 128:
        small = ImageOps.invert(small)
    path = tmp / "card.png"
    small.save(path)
    # One thread: on a busy two-core machine tesseract's OpenMP threads only wait on each other
    # (three times the CPU for the same text).
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    out = subprocess.run([TESSERACT or "tesseract", str(path), "stdout", "--psm", "11"],
                         capture_output=True, text=True, timeout=timeout, check=True, env=env)
    return out.stdout
