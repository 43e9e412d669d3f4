"""The files one card press runs through, from the callback handler to the answered press and
the redrawn table (issue #31's measure of how far a change has to be followed).

Four emulated people play a hvalenyi match against the real bot in this process; after a few
warm-up presses, the code that runs while one person presses a legal card — until the press
is answered and every message it changes is redrawn — is recorded with ``sys.setprofile``,
and the project's files it entered are listed (a file counts once however often it is
entered; the standard library and third-party packages are not counted). The same press is
measured ``--presses`` times and the union printed, since a press that ends a trick passes
through more files than one that does not. Prints one JSON line.

    python benchmarks/press_route.py [--root CHECKOUT] [--presses 8]

``--root`` measures another checkout of the project (its own ``tests.e2e`` and code), so
two revisions compare in one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

PACKAGES = ("kozelbot", "handlers", "storage")


async def measure(root: Path, presses: int) -> dict[str, Any]:
    sys.path.insert(0, str(root))
    from botapi_emulator import BotApiEmulator
    from tests.e2e import TOKEN, BotRunner, bot_settings, fast_limits, seat_four

    emu = BotApiEmulator(token=TOKEN, bot_username="kozel_test_bot", limits=fast_limits())
    await emu.start()
    prefixes = tuple(str(root / package) + "/" for package in PACKAGES)
    union: set[str] = set()
    counts: list[int] = []
    with tempfile.TemporaryDirectory() as folder:
        bot = BotRunner(bot_settings(emu, Path(folder) / "kozel.db"))
        await bot.start()
        try:
            players = await seat_four(emu)
            for _ in range(3):  # warm-up: every import made, every cache filled
                await players.next_turn()
                await players.play_one()
                await bot.drain()
            for _ in range(presses):
                await players.next_turn()
                await bot.drain()
                seen: set[str] = set()

                def hook(frame: FrameType, event: str, arg: object, seen: set[str] = seen) -> None:
                    if event == "call":
                        name = frame.f_code.co_filename
                        if name.startswith(prefixes):
                            seen.add(name)

                sys.setprofile(hook)
                try:
                    await players.play_one()
                    await bot.drain()
                finally:
                    sys.setprofile(None)
                files = {str(Path(name).relative_to(root)) for name in seen}
                counts.append(len(files))
                union |= files
        finally:
            await bot.stop()
            await emu.stop()
    return {
        "root": str(root),
        "presses": presses,
        "files_per_press": counts,
        "files_max": max(counts),
        "files_union": len(union),
        "files": sorted(union),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--presses", type=int, default=8)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(measure(args.root.resolve(), args.presses)), ensure_ascii=False))


if __name__ == "__main__":
    main()
