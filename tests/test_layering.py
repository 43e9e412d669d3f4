"""The three layers import one way (STYLE.md point 1), the sandbox stays outside them, and
the bot refuses to run behind a webhook without a token."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COMPOSITION_ROOT = {"kozelbot/app.py", "kozelbot/__main__.py"}


def imported_modules(path: Path) -> set[str]:
    """Every absolute module a file imports, at any depth (functions included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Call) and _is_dynamic_import(node.func) and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.add(first.value)
    return found


def _is_dynamic_import(func: ast.expr) -> bool:
    """``importlib.import_module(...)``, ``import_module(...)`` or ``__import__(...)``."""
    if isinstance(func, ast.Attribute):
        return func.attr == "import_module"
    return isinstance(func, ast.Name) and func.id in ("import_module", "__import__")


def top_level(modules: set[str]) -> set[str]:
    return {module.split(".")[0] for module in modules}


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def test_imported_modules_sees_nested_and_from_imports(tmp_path: Path) -> None:
    """The checker itself: ``import x``, ``from x import y`` and imports inside functions."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os.path\nfrom telegram.ext import Application\n"
        "def f():\n    import aiosqlite\n    from handlers import play\n"
        "class C:\n    def g(self):\n        from . import sibling\n"
        "import importlib\nimportlib.import_module('storage.db')\n",
        encoding="utf-8",
    )
    assert top_level(imported_modules(sample)) == {
        "os",
        "telegram",
        "aiosqlite",
        "handlers",
        "importlib",
        "storage",
    }


@pytest.mark.parametrize(
    "path",
    [p for p in sources("kozelbot") if p.relative_to(ROOT).as_posix() not in COMPOSITION_ROOT],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_kozelbot_imports_neither_telegram_nor_storage_nor_handlers(path: Path) -> None:
    """STYLE.md 1: ``kozelbot/`` (except the composition root ``app.py`` and
    ``__main__.py``) imports none of telegram, aiosqlite, handlers, storage."""
    forbidden = top_level(imported_modules(path)) & {"telegram", "aiosqlite", "handlers", "storage"}
    assert not forbidden, f"{path.relative_to(ROOT)} imports {sorted(forbidden)}"


@pytest.mark.parametrize("path", sources("storage"), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_storage_imports_neither_telegram_nor_handlers(path: Path) -> None:
    """STYLE.md 1: ``storage/`` imports only kozelbot models, never telegram or handlers."""
    forbidden = top_level(imported_modules(path)) & {"telegram", "handlers"}
    assert not forbidden, f"{path.relative_to(ROOT)} imports {sorted(forbidden)}"


def test_nothing_but_main_imports_the_composition_root() -> None:
    """STYLE.md 1: ``kozelbot/app.py`` may import everything, and nothing imports it."""
    for package in ("kozelbot", "handlers", "storage"):
        for path in sources(package):
            if path.relative_to(ROOT).as_posix() in COMPOSITION_ROOT:
                continue
            assert "kozelbot.app" not in imported_modules(path), path.relative_to(ROOT)


def test_only_the_command_line_starts_the_sandbox() -> None:
    """Issue #9: the sandbox (the bot against the emulator, with its page) sits beside the
    layers like the tests: ``kozelbot/__main__.py`` may start it, nothing else imports it."""
    for package in ("kozelbot", "handlers", "storage", "botapi_emulator"):
        for path in sources(package):
            if path.relative_to(ROOT).as_posix() == "kozelbot/__main__.py":
                continue
            assert "sandbox" not in top_level(imported_modules(path)), path.relative_to(ROOT)


def test_the_sandbox_and_the_emulator_import_no_tests() -> None:
    """The sandbox ships with the package: it copies what it needs, never imports tests."""
    for package in ("sandbox", "botapi_emulator"):
        for path in sources(package):
            assert "tests" not in top_level(imported_modules(path)), path.relative_to(ROOT)


def test_the_layer_directories_exist() -> None:
    """The checks above look at real code (not at empty directories)."""
    assert len(sources("kozelbot")) > 5
    assert sources("storage")
    assert len(sources("sandbox")) > 3


def test_a_webhook_without_a_token_exits_2_with_one_line(tmp_path: Path) -> None:
    """``python -m kozelbot --webhook URL`` with no KOZEL_BOT_TOKEN (and no .env) exits with
    code 2 and a one-line message on stderr naming KOZEL_BOT_TOKEN. (Without a token and
    without ``--webhook`` it runs the sandbox: ``tests/test_sandbox_cli.py``.)"""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KOZEL_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    assert not (tmp_path / ".env").exists()
    done = subprocess.run(
        [sys.executable, "-m", "kozelbot", "--webhook", "https://example.org/kozel"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "KOZEL_BOT_TOKEN" in lines[0]
    assert done.stdout == ""


FAMILIES = ("follow", "cover")
"""Packages under ``kozelbot/families/`` that each hold one family of games
(``kozelbot.core.protocol``)."""


def _outside_family_modules() -> list[Path]:
    family_dirs = [ROOT / "kozelbot" / "families" / name for name in FAMILIES]
    found = []
    for package in ("kozelbot", "handlers", "storage", "benchmarks", "botapi_emulator", "sandbox"):
        for path in sources(package):
            if not any(path.is_relative_to(d) for d in family_dirs):
                found.append(path)
    return found


@pytest.mark.parametrize(
    "path", _outside_family_modules(), ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_nothing_outside_a_family_imports_its_concrete_modules(path: Path) -> None:
    """Issue #6: the service, presenters, move log, ``simulate`` and the benchmarks speak only
    the game protocol; the registry (``kozelbot/families/registry.py``) may import a
    family's package itself (its ``FAMILY``), nothing may import its modules (state, rules,
    render …)."""
    modules = imported_modules(path)
    for family in FAMILIES:
        package = f"kozelbot.families.{family}"
        concrete = {m for m in modules if m.startswith(package + ".") and m != f"{package}.FAMILY"}
        assert not concrete, f"{path.relative_to(ROOT)} imports {sorted(concrete)}"


def test_the_family_check_sees_a_concrete_import(tmp_path: Path) -> None:
    """The checker itself: a module importing a family's state is caught."""
    sample = tmp_path / "sample.py"
    sample.write_text("from kozelbot.families.follow.state import MatchState\n", encoding="utf-8")
    assert "kozelbot.families.follow.state" in imported_modules(sample)


FAMILY_WORDS = (
    "catch",
    "catches",
    "lyusya",
    "lyusyas",
    "handoffs",
    "allTricks",
    "royal",
    "refusedRedeal",
    "aces",
    "sixes",
    "otboy",
    "hvalyonka",
    "shtany",
)
"""Words only a family may use: its outcomes, counts and moves."""


def test_the_core_names_no_family() -> None:
    """Issue #16 item 3: outside the families' packages no code names a family's outcome,
    count or move (they come through the family's hooks); migrations are history and may."""
    found = []
    places = [
        *ROOT.glob("kozelbot/*.py"),
        *(ROOT / "handlers").rglob("*.py"),
        *(ROOT / "storage").glob("*.py"),
        *(ROOT / "sandbox").rglob("*.py"),
    ]
    for path in places:
        text = path.read_text(encoding="utf-8")
        found += [
            f"{path.name}: {word}"
            for word in FAMILY_WORDS
            if f'"{word}"' in text or f"'{word}'" in text
        ]
    assert found == []


LAYERS = ("core", "families", "computer", "tables", "views", "tools")
"""``kozelbot``'s layer folders from the bottom up (issue #31): each imports only its own layer
and the ones below it; the composition root (``app.py``, ``__main__.py``, ``config.py``)
stands above them all."""


def layer_of(module: str) -> str | None:
    """The layer a dotted module name lies in (``None`` outside ``kozelbot``'s layers)."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "kozelbot" or parts[1] not in LAYERS:
        return None
    return parts[1]


def _layered_modules() -> list[Path]:
    return [
        p
        for p in sources("kozelbot")
        if layer_of(".".join(p.with_suffix("").relative_to(ROOT).parts))
    ]


def test_every_kozelbot_module_lies_in_a_layer_or_is_the_composition_root() -> None:
    """The folders show the layers: no loose module beside them but the composition root."""
    loose = [
        p.relative_to(ROOT).as_posix()
        for p in sources("kozelbot")
        if p.parent == ROOT / "kozelbot"
        and p.name not in {"__init__.py", "app.py", "__main__.py", "config.py"}
    ]
    assert loose == []
    for layer in LAYERS:
        init = ROOT / "kozelbot" / layer / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc) > 80, f"{layer}/__init__.py explains its layer"


@pytest.mark.parametrize("path", _layered_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_layer_imports_only_its_own_layer_and_the_layers_below(path: Path) -> None:
    """Issue #31: imports run only downward between ``kozelbot``'s layers, counting imports
    made only for type checking (``if TYPE_CHECKING:``) and ``from kozelbot import x``."""
    mine = LAYERS.index(layer_of(".".join(path.with_suffix("").relative_to(ROOT).parts)) or "")
    upward = []
    for module in imported_modules(path):
        layer = layer_of(module)
        if layer is not None and LAYERS.index(layer) > mine:
            upward.append(module)
        if module in {"kozelbot.app", "kozelbot.config", "kozelbot.__main__"}:
            upward.append(module)
    assert upward == [], f"{path.relative_to(ROOT)} imports upward: {sorted(upward)}"


def test_a_family_never_imports_the_other() -> None:
    """Adding a variant touches its family's folder only; the families do not lean on each other."""
    for family in FAMILIES:
        for path in sources(f"kozelbot/families/{family}"):
            for other in FAMILIES:
                if other != family:
                    crossing = {
                        m
                        for m in imported_modules(path)
                        if m.startswith(f"kozelbot.families.{other}")
                    }
                    assert not crossing, path.relative_to(ROOT)


def test_the_layer_check_sees_a_type_only_import_upward(tmp_path: Path) -> None:
    """The layer check counts an import under ``TYPE_CHECKING`` like any other."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from kozelbot.tables.service import X\n",
        encoding="utf-8",
    )
    assert "kozelbot.tables.service" in imported_modules(sample)
    assert layer_of("kozelbot.tables.service") == "tables"


def module_name(path: Path, root: Path = ROOT) -> str:
    """A source file's dotted module name (a package's ``__init__.py`` is the package)."""
    parts = path.with_suffix("").relative_to(root).parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """Which of ``package``'s modules each of its modules imports, at any depth and
    ``TYPE_CHECKING`` ones included: ``from a.b import c`` names ``a.b.c`` when that is a
    module, else ``a.b``; relative imports are resolved against the importing package."""
    paths = {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}

    def known(name: str) -> str | None:
        while name and name not in paths:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        here = module if path.name == "__init__.py" else module.rpartition(".")[0]
        named: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                named.update(f"{base}.{alias.name}" for alias in node.names)
        graph[module] = {m for m in map(known, named) if m is not None and m != module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


CIRCLE_FREE = ("kozelbot", "storage", "handlers", "sandbox", "botapi_emulator", "benchmarks")
"""The packages whose modules import one way, with no circle."""


@pytest.mark.parametrize("package", CIRCLE_FREE)
def test_imports_run_in_no_circle(package: str) -> None:
    """Issue #31: no circle among a package's modules, type-only imports included — not even
    inside one family (a family's steps take its ``match`` type, and only its ``state``, which
    holds the phase table, imports the steps)."""
    assert circles(import_graph(package)) == []


def test_the_circle_check_sees_a_type_only_circle(tmp_path: Path) -> None:
    """The checker itself: two modules importing each other, one only for type checking."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "a.py").write_text("from pkg import b\n", encoding="utf-8")
    (package / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A\n",
        encoding="utf-8",
    )
    (package / "c.py").write_text("import pkg.a\n", encoding="utf-8")
    assert circles(import_graph("pkg", tmp_path)) == [["pkg.a", "pkg.b"]]


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_exports_its_seam_made_of_its_own_functions(family: str) -> None:
    """Issue #31 item 2: a family's ``__init__.py`` names which of its modules' functions
    answer each member of ``Rules``, ``Players`` and ``Reader`` — it defines no function of
    its own (a pass-through facade of one-line delegations and downcasts did before)."""
    path = ROOT / "kozelbot" / "families" / family / "__init__.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defined = [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    assert defined == [], f"{family}/__init__.py defines {defined}"


STORAGE_IN_HANDLERS: dict[str, str] = {}
"""Handler modules allowed to touch storage, each with its reason (issue #31 item 3): none
(the flood gate's journal is typed by ``handlers.delivery.Journal``)."""


def storage_uses(path: Path) -> list[str]:
    """How a file touches storage: imports of ``storage`` and any ``.storage`` attribute
    (``data.storage``, ``context.bot_data.storage``, ``self.storage``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = sorted(m for m in imported_modules(path) if m.split(".")[0] == "storage")
    found += [
        f"line {node.lineno}: .storage"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "storage"
    ]
    return found


@pytest.mark.parametrize("path", sources("handlers"), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_handlers_reach_no_storage(path: Path) -> None:
    """Issue #31 item 3: handlers read and write through the game service or the queries
    (``kozelbot.tables.queries``, built by the composition root from storage), never
    through storage itself; the few exceptions are listed with their reason."""
    name = path.relative_to(ROOT).as_posix()
    uses = storage_uses(path)
    if name in STORAGE_IN_HANDLERS:
        assert uses, f"{name} no longer uses storage: take it off the list"
        return
    assert not uses, f"{name} reaches storage: {uses}"


def test_storage_uses_sees_imports_and_attributes(tmp_path: Path) -> None:
    """The checker itself: an import of storage and a ``bot_data.storage`` reach."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from storage.flood import Entry\nasync def f(context):\n"
        "    await context.bot_data.storage.people.user(1)\n",
        encoding="utf-8",
    )
    assert storage_uses(sample) == ["storage.flood", "storage.flood.Entry", "line 3: .storage"]
