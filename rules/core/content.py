"""What every game's content pack shares: reading the TOML folder, findings, fingerprints.

Each `rules/<game>/content.py` declares its files and models and checks its own pack,
reporting `Finding`s naming the rule id each problem breaks; `load_pack` raises
`ContentError` when any is an error.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Callable, Collection, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError


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


# --------------------------------------------------------------------------- reading packs
# Every game keeps its pack as a folder of TOML files, one per kind of card, plus
# `pack.toml` (name, version, options). What differs between games is only the file list,
# which model each file holds and how a bad field maps to a rule id; the rest lives here.

Loc = tuple[int | str, ...]
RuleFor = Callable[[str, Loc, str], str]
"""(the file's rule, the error location, pydantic's error type) -> the rule id to report."""


def same_rule(default_rule: str, loc: Loc, err_type: str) -> str:
    return default_rule


def describe_loc(items: Any, key: str | None, loc: Loc, id_keys: Sequence[str] = ("id",)) -> str:
    """``card[3] (id 'descendant.04').actions[0]`` from a pydantic error location."""
    parts: list[str] = []
    rest = list(loc)
    first = rest[0] if rest else None
    if key is not None and isinstance(first, int):
        idx = first
        rest.pop(0)
        ident = ""
        if isinstance(items, list) and idx < len(items) and isinstance(items[idx], dict):
            raw_id = next((items[idx][k] for k in id_keys if k in items[idx]), None)
            if raw_id is not None:
                ident = f" (id {raw_id!r})"
        parts.append(f"{key}[{idx}]{ident}")
    for p in rest:
        if isinstance(p, int):
            parts.append(f"[{p}]")
        else:
            parts.append(("." if parts else "") + p)
    return "".join(parts) or "(file)"


def schema_findings(
    file: str,
    rule: str,
    items: Any,
    key: str | None,
    exc: ValidationError,
    *,
    rule_for: RuleFor = same_rule,
    id_keys: Sequence[str] = ("id",),
    clean_loc: Callable[[Any, Loc], Loc] | None = None,
) -> list[Finding]:
    """One error finding per pydantic error, naming the card by index and id, then the field."""
    out: list[Finding] = []
    errs = exc.errors()
    for err in errs:
        loc = tuple(err["loc"])
        # A bad element also makes pydantic report its min_length tuple as too short;
        # that echo would only repeat the real error, so drop it.
        if err["type"] == "too_short" and any(
            len(o["loc"]) > len(loc) and tuple(o["loc"][: len(loc)]) == loc for o in errs
        ):
            continue
        if clean_loc is not None:
            loc = clean_loc(items, loc)
        msg = err["msg"]
        ctx = err.get("ctx") or {}
        if err["type"] == "union_tag_invalid":
            # An effect op / condition test / card kind outside the pack vocabulary.
            msg = (
                f"unknown {ctx.get('discriminator', 'tag')} {ctx.get('tag')!r}; "
                f"expected one of {ctx.get('expected_tags', '?')}"
            )
        elif err["type"] == "union_tag_not_found":
            msg = f"missing the {ctx.get('discriminator', 'tag')} key"
        where = describe_loc(items, key, loc, id_keys)
        out.append(
            Finding(
                rule=rule_for(rule, loc, err["type"]),
                severity="error",
                message=f"{where}: {msg}",
                file=file,
            )
        )
    return out


@cache
def list_adapter(model: Any) -> TypeAdapter[Any]:
    # One adapter per card model: building them is the slow part of pydantic.
    return TypeAdapter(tuple[model, ...])


SchemaFindings = Callable[[str, str, Any, "str | None", ValidationError], list[Finding]]
H = TypeVar("H", bound=BaseModel)


def read_toml_pack(
    folder: Path,
    *,
    folder_rule: str,
    files: Mapping[str, tuple[str | None, str]],
    target: Callable[[str], tuple[str, Any] | None],
    header_model: type[H],
    findings_for: SchemaFindings,
) -> tuple[H | None, dict[str, Any], list[Finding]]:
    """Parse a pack folder: its header, every part by Pack field, and the parse findings.

    ``files`` maps a file name to (its ``[[key]]`` table or None for a whole-file model, the
    rule a problem in it breaks); ``target(file)`` gives (Pack field, model), or None for the
    header file. The header is None when anything failed.
    """
    if not folder.is_dir():
        msg = f"{folder} is not a content pack folder"
        return None, {}, [Finding(rule=folder_rule, severity="error", message=msg)]
    findings: list[Finding] = []
    parts: dict[str, Any] = {}
    header: H | None = None
    for file, (key, rule) in files.items():
        fpath = folder / file
        if not fpath.is_file():
            findings.append(
                Finding(rule=rule, severity="error", message="file is missing", file=file)
            )
            continue
        try:
            with fpath.open("rb") as fh:
                data = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            findings.append(
                Finding(rule=rule, severity="error", message=f"TOML syntax: {exc}", file=file)
            )
            continue
        except (OSError, UnicodeDecodeError) as exc:
            findings.append(
                Finding(rule=rule, severity="error", message=f"cannot read: {exc}", file=file)
            )
            continue
        items: Any = data
        where = target(file)
        try:
            if where is None:
                header = header_model.model_validate(data)
            elif key is None:
                parts[where[0]] = where[1].model_validate(data)
            else:
                extra = sorted(set(data) - {key})
                if extra:
                    findings.append(
                        Finding(
                            rule=rule,
                            severity="error",
                            message=f"unexpected top-level keys {extra}; expected [[{key}]]",
                            file=file,
                        )
                    )
                items = data.get(key, [])
                parts[where[0]] = list_adapter(where[1]).validate_python(items)
        except ValidationError as exc:
            findings.extend(findings_for(file, rule, items, key, exc))
    if findings:
        header = None
    return header, parts, findings


P = TypeVar("P", bound=BaseModel)


def check_pack_folder(
    read: Callable[[Path], tuple[P | None, list[Finding]]],
    validate: Callable[[P, Collection[str] | None], list[Finding]],
    path: Path | str,
    custom_effects: Collection[str] | None = None,
) -> list[Finding]:
    """Every finding for the pack folder at ``path``; bad content never raises."""
    pack, findings = read(Path(path))
    if pack is not None:
        findings.extend(validate(pack, custom_effects))
    return findings


def load_pack_folder(
    read: Callable[[Path], tuple[P | None, list[Finding]]],
    validate: Callable[[P, Collection[str] | None], list[Finding]],
    folder: Path,
) -> P:
    """Read and validate a pack; raise `ContentError` on any error (warnings are allowed)."""
    pack, findings = read(folder)
    if pack is not None:
        findings.extend(validate(pack, None))
    errors = [f for f in findings if f.severity == "error"]
    if errors or pack is None:
        raise ContentError(errors)
    return pack


def private(model: BaseModel, name: str) -> Any:
    """A model's private attribute (a pack's lookup table), read straight from pydantic's store
    of them: the attribute syntax finds private attributes through pydantic's `__getattr__`,
    ~2 µs a read, and the engines look cards and rooms up by id thousands of times a move."""
    store: dict[str, Any] = model.__pydantic_private__  # type: ignore[assignment]
    return store[name]


def fingerprint(pack: BaseModel) -> str:
    """``name@version+<hash>``: which content a game was created with (replays need it)."""
    canonical = json.dumps(pack.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]
    name, version = getattr(pack, "name", "pack"), getattr(pack, "version", "0")
    return f"{name}@{version}+{digest}"


class PackLoader(Generic[P]):
    """A game's pack folder reader and validator bundled as `check`, `load` and `default`.

    Each `rules/<game>/content.py` makes one and exports its bound methods under the names
    the rest of the code uses (`check_pack`, `load_pack`, `default_pack`).
    """

    def __init__(
        self,
        read: Callable[[Path], tuple[P | None, list[Finding]]],
        validate: Callable[[P, Collection[str] | None], list[Finding]],
        default_dir: Path,
    ) -> None:
        self._read = read
        self._validate = validate
        self.default_dir = default_dir
        self._default: P | None = None

    def check(self, path: Path | str, custom_effects: Collection[str] | None = None,
              ) -> list[Finding]:
        """Every finding for the pack folder at ``path``; bad content never raises."""
        return check_pack_folder(self._read, self._validate, path, custom_effects)

    def load(self, path: Path | str | None = None) -> P:
        """Load and validate a pack folder (``None``: the shipped default pack); raises
        `ContentError` on any error finding (warnings are allowed)."""
        folder = self.default_dir if path is None else Path(path)
        return load_pack_folder(self._read, self._validate, folder)

    def default(self) -> P:
        """The shipped default pack, loaded once per process (packs are immutable)."""
        if self._default is None:
            self._default = self.load(None)
        return self._default


class CustomEffects:
    """The named effects a game's Python code implements, which packs may then use.

    Each game keeps one (`register_custom_effect` / `registered_custom_effects` are its bound
    methods); the validator accepts a `custom` effect only under a registered name.
    """

    def __init__(self) -> None:
        self._names: set[str] = set()

    def register(self, name: str) -> str:
        """Declare a named custom effect implemented in Python, so packs may use it."""
        self._names.add(name)
        return name

    def discard(self, name: str) -> None:
        """Forget a name (tests that register one for a single case)."""
        self._names.discard(name)

    def names(self) -> frozenset[str]:
        return frozenset(self._names)
