"""The three layers import one way (STYLE.md point 1), and the bot refuses to start without
a token."""

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


def test_the_layer_directories_exist() -> None:
    """The checks above look at real code (not at empty directories)."""
    assert len(sources("kozelbot")) > 5
    assert sources("storage")


def test_running_without_a_token_exits_2_with_one_line(tmp_path: Path) -> None:
    """``python -m kozelbot`` with no KOZEL_BOT_TOKEN (and no .env) exits with code 2 and a
    one-line message on stderr naming KOZEL_BOT_TOKEN."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("KOZEL_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    assert not (tmp_path / ".env").exists()
    done = subprocess.run(
        [sys.executable, "-m", "kozelbot"],
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
