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
"""Packages under ``kozelbot/`` that each hold one family of games (``kozelbot.game``)."""


def _outside_family_modules() -> list[Path]:
    family_dirs = [ROOT / "kozelbot" / name for name in FAMILIES]
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
    the game protocol; the registry (``kozelbot/games.py``) may import a family's package
    itself (its ``FAMILY``), nothing may import its modules (state, rules, render …)."""
    modules = imported_modules(path)
    for family in FAMILIES:
        package = f"kozelbot.{family}"
        concrete = {m for m in modules if m.startswith(package + ".") and m != f"{package}.FAMILY"}
        assert not concrete, f"{path.relative_to(ROOT)} imports {sorted(concrete)}"


def test_the_family_check_sees_a_concrete_import(tmp_path: Path) -> None:
    """The checker itself: a module importing a family's state is caught."""
    sample = tmp_path / "sample.py"
    sample.write_text("from kozelbot.follow.state import MatchState\n", encoding="utf-8")
    assert "kozelbot.follow.state" in imported_modules(sample)


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
