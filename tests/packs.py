"""Helpers the content-pack tests of every game share: copy the shipped pack to a temporary
folder, break one thing in it, and read the findings back."""

from __future__ import annotations

import shutil
from pathlib import Path

from rules.core.content import Finding


def copy_pack_from(default_dir: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "pack"
    shutil.copytree(default_dir, dest)
    return dest


def edit(folder: Path, file: str, old: str, new: str, count: int = 1) -> None:
    """Replace ``old`` (which must be there) with ``new`` in one file of the pack copy."""
    path = folder / file
    text = path.read_text()
    assert old in text, f"{old!r} not in {file}"
    path.write_text(text.replace(old, new, count))


def drop_entry(folder: Path, file: str, header: str, start_marker: str) -> None:
    """Remove the ``[[header]]`` entry that starts with ``start_marker``."""
    path = folder / file
    text = path.read_text()
    start = text.index(f"[[{header}]]\n{start_marker}")
    end = text.find(f"[[{header}]]", start + 1)
    path.write_text(text[:start] + (text[end:] if end != -1 else ""))


def errors(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if f.severity == "error"]


def rules_of(findings: list[Finding], severity: str = "error") -> set[str]:
    return {f.rule for f in findings if f.severity == severity}
