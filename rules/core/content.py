"""What every game's content pack validator shares: a finding and the error that carries them.

Each `rules/<game>/content.py` checks its own pack and reports `Finding`s naming the rule id
each problem breaks; `load_pack` raises `ContentError` when any is an error.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Finding(BaseModel):
    """One validation result; ``rule`` is the spec rule id it enforces."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str
    severity: Literal["error", "warning"]
    message: str
    file: str | None = None

    def __str__(self) -> str:
        where = f"{self.file}: " if self.file else ""
        return f"{self.severity.upper()} {self.rule} {where}{self.message}"


class ContentError(ValueError):
    """A content pack has errors; ``findings`` lists them (warnings excluded)."""

    def __init__(self, findings: list[Finding]) -> None:
        self.findings = findings
        lines = "\n".join(f"  {f}" for f in findings)
        super().__init__(f"content pack has {len(findings)} error(s):\n{lines}")
