"""The house's layout shows its design: imports only go down the layers.

    cogs      the thin Discord layer (slash commands, buttons)
    bot       the tables service, storage, the client, the CLI
    renders   Pillow pictures, drawn from the games' views
    rules     pure, deterministic engines

``emulator`` (the local Discord emulator) is a test and demo tool beside the product: it speaks
Discord's wire protocol and knows nothing of our bot, so it imports nothing of ours. ``demo`` (the
real bot playing whole games in the emulator) and ``bench`` are tools on top of everything and may
import any layer.

Every module's imports are read with ``ast`` (no module is imported, so the test cannot be fooled by
import side effects). Two things fail:

* an import that goes up the layers, wherever it sits (a lazy import inside a function still ties
  the lower layer to the upper one);
* an import cycle between modules through module-level imports, including those under
  ``if TYPE_CHECKING:`` (a cycle of types is still two modules that cannot be read apart).

Nothing is allowed silently: every known exception is listed below with its reason.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules", "renders", "bot", "cogs", "emulator", "demo", "bench")

# Lower number = lower layer. A module may import its own layer and any lower one.
LAYER = {"rules": 0, "renders": 1, "bot": 2, "cogs": 3, "demo": 4, "bench": 4}
# The tools above the product, which drive the bot from outside through the emulator.
TOOLS = {"demo", "bench"}

# Third-party packages each layer must not touch (the edges they belong to are named).
FORBIDDEN_LIBRARIES: dict[str, set[str]] = {
    # Engines are pure and deterministic: no Discord, no event loop, no pictures, no database.
    "rules": {"discord", "asyncio", "PIL", "aiosqlite", "asyncpg", "aiohttp", "sqlalchemy"},
    # Pictures are drawn from views alone: no Discord, no event loop, no database.
    "renders": {"discord", "asyncio", "aiosqlite", "asyncpg", "aiohttp", "sqlalchemy"},
}

# Known exceptions to the layer rule: (importer, imported) -> reason.
LAYER_EXCEPTIONS: dict[tuple[str, str], str] = {
    # `python -m bot demo` hands over to the demo tool, inside the demo command only (the CLI
    # edge): the product never loads the demo or the emulator unless a demo is asked for.
    ("bot.__main__", "demo"): "the CLI's demo command runs the demo tool (optional edge)",
}

# Known cycles, as the set of modules in the cycle -> reason.
CYCLE_EXCEPTIONS: dict[frozenset[str], str] = {}  # none today; add one only with its reason

# Classes composed of parts: the package whose `__init__` composes the class -> reason. A module
# inside such a package may name the composed class under `if TYPE_CHECKING:` without that
# counting as a cycle: each part is a mixin whose methods are typed `self: Engine`, the whole it
# is a part of (the parts never import the whole at run time, and the whole imports the parts).
COMPOSED: dict[str, str] = {
    "rules.exorcism.engine": "the Exorcism engine, one module per phase of the game",
    "rules.fourth_wall.engine": "the Fourth Wall engine, one module per phase of the game",
    "rules.presence.engine": "The Presence's engine, one module per phase of the game",
}


def _part_naming_its_whole(imp: Import) -> bool:
    return (
        imp.type_checking
        and imp.imported in COMPOSED
        and imp.importer.startswith(imp.imported + ".")
    )


# Cycles that only exist through an import inside a function -> reason.
LAZY_CYCLE_EXCEPTIONS: dict[frozenset[str], str] = {}  # none today; add one only with its reason


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    module_level: bool
    type_checking: bool = False


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _all_modules() -> dict[str, Path]:
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        base = ROOT / package
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*.py")):
            if "build" in path.relative_to(ROOT).parts:
                continue
            modules[_module_name(path)] = path
    return modules


MODULES = _all_modules()


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    if node.level > 1:
        base = base[: -(node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


TYPE_CHECKING_TESTS = {"TYPE_CHECKING", "typing.TYPE_CHECKING"}


def _imports_of(name: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    is_package = path.name == "__init__.py"
    found: list[Import] = []

    def visit(node: ast.AST, module_level: bool, typing_only: bool = False) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                visit(child, False, typing_only)
                continue
            if isinstance(child, ast.If) and ast.unparse(child.test) in TYPE_CHECKING_TESTS:
                for part in child.body:
                    visit(ast.Module(body=[part], type_ignores=[]), module_level, True)
                for part in child.orelse:
                    visit(ast.Module(body=[part], type_ignores=[]), module_level, typing_only)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append(
                        Import(name, alias.name, child.lineno, module_level, typing_only)
                    )
            elif isinstance(child, ast.ImportFrom):
                target = _resolve(name, is_package, child)
                for alias in child.names:
                    # `from pkg import mod` imports the module pkg.mod; `from mod import name`
                    # imports mod.
                    sub = f"{target}.{alias.name}"
                    imported = sub if sub in MODULES else target
                    found.append(Import(name, imported, child.lineno, module_level, typing_only))
            visit(child, module_level, typing_only)

    visit(tree, True)
    return found


IMPORTS: list[Import] = [imp for name, path in MODULES.items() for imp in _imports_of(name, path)]


def _package(module: str) -> str:
    return module.split(".")[0]


def _ours(module: str) -> bool:
    return _package(module) in PACKAGES


def _where(imp: Import) -> str:
    return f"{MODULES[imp.importer].relative_to(ROOT)}:{imp.line} imports {imp.imported}"


def test_the_layers_are_all_there() -> None:
    """The test reads real code: each layer has modules, and imports between them were found."""
    for package in ("rules", "renders", "bot", "cogs", "emulator"):
        assert any(_package(m) == package for m in MODULES), package
    assert any(_package(i.imported) == "rules" and _package(i.importer) == "cogs" for i in IMPORTS)


def test_imports_only_go_down_the_layers() -> None:
    wrong: list[str] = []
    for imp in IMPORTS:
        if not _ours(imp.imported):
            continue
        src, dst = _package(imp.importer), _package(imp.imported)
        if src == dst or (imp.importer, imp.imported) in LAYER_EXCEPTIONS:
            continue
        if src == "emulator" or dst == "emulator":
            # The emulator stands apart: it imports nothing of ours, and only tests, the bench
            # and the listed demo edge import it.
            if src not in TOOLS:
                wrong.append(_where(imp))
            continue
        if LAYER[dst] > LAYER[src]:
            wrong.append(_where(imp))
    assert not wrong, "imports going up the layers:\n" + "\n".join(wrong)


def test_layer_exceptions_are_still_needed() -> None:
    """An exception that no longer happens is removed, so the list stays the truth."""
    seen = {(i.importer, i.imported) for i in IMPORTS}
    stale = [pair for pair in LAYER_EXCEPTIONS if pair not in seen]
    assert not stale, f"listed layer exceptions no longer in the code: {stale}"


def test_the_product_reaches_the_tools_only_inside_the_command() -> None:
    """The product loads the demo (and so the emulator) only when a demo is asked for."""
    top = [
        _where(i)
        for i in IMPORTS
        if LAYER.get(_package(i.importer), 9) < LAYER["demo"]
        and _package(i.imported) in TOOLS | {"emulator"}
        and i.module_level
    ]
    assert not top, "the product imports a tool at module level:\n" + "\n".join(top)


def test_engines_and_pictures_keep_off_the_edges() -> None:
    wrong: list[str] = []
    for imp in IMPORTS:
        banned = FORBIDDEN_LIBRARIES.get(_package(imp.importer), set())
        if imp.imported.split(".")[0] in banned:
            wrong.append(_where(imp))
    assert not wrong, "libraries that belong at the edges:\n" + "\n".join(wrong)


def _cycles(*, lazy_too: bool = False) -> list[list[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for imp in IMPORTS:
        if not (imp.module_level or lazy_too) or _part_naming_its_whole(imp):
            continue
        if imp.imported in MODULES and imp.imported != imp.importer:
            graph[imp.importer].add(imp.imported)
    # Tarjan's strongly connected components: every component larger than one is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    counter = 0

    def connect(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component: list[str] = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return components


def test_no_import_cycles_between_modules() -> None:
    cycles = [c for c in _cycles() if frozenset(c) not in CYCLE_EXCEPTIONS]
    assert not cycles, "modules importing each other (move what both need lower):\n" + "\n".join(
        " <-> ".join(c) for c in cycles
    )


def test_no_cycle_hidden_behind_a_lazy_import() -> None:
    """An import inside a function only hides a cycle from Python, not from the reader."""
    cycles = [
        c
        for c in _cycles(lazy_too=True)
        if frozenset(c) not in CYCLE_EXCEPTIONS | LAZY_CYCLE_EXCEPTIONS.keys()
    ]
    assert not cycles, "modules importing each other through a lazy import:\n" + "\n".join(
        " <-> ".join(c) for c in cycles
    )


def test_cycle_exceptions_are_still_needed() -> None:
    strict = {frozenset(c) for c in _cycles()}
    lazy = {frozenset(c) for c in _cycles(lazy_too=True)}
    stale = [sorted(c) for c in CYCLE_EXCEPTIONS if c not in strict | lazy]
    stale += [sorted(c) for c in LAZY_CYCLE_EXCEPTIONS if c not in lazy]
    assert not stale, f"listed cycle exceptions no longer in the code: {stale}"


def test_composed_classes_are_composed_of_their_parts() -> None:
    """The TYPE_CHECKING exemption only covers real parts: each listed package's modules name
    the whole only for typing, and the whole imports every one of them."""
    for whole in COMPOSED:
        parts = {m for m in MODULES if m.startswith(whole + ".")}
        assert parts, whole
        imported = {i.imported for i in IMPORTS if i.importer == whole and i.module_level}
        naming = [i for i in IMPORTS if i.importer in parts and i.imported == whole]
        assert all(i.type_checking for i in naming), [_where(i) for i in naming]
        assert {i.importer for i in naming} <= imported, whole


def test_the_cycle_finder_finds_a_cycle() -> None:
    """The cycle rule can fail: two modules importing each other are one component."""
    saved = dict(MODULES)
    try:
        MODULES["_a"] = MODULES["_b"] = ROOT / "x.py"
        IMPORTS.extend([Import("_a", "_b", 1, True), Import("_b", "_a", 1, False)])
        assert ["_a", "_b"] not in _cycles()
        assert ["_a", "_b"] in _cycles(lazy_too=True)
    finally:
        del IMPORTS[-2:]
        MODULES.clear()
        MODULES.update(saved)
