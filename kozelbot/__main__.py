"""``kozelbot``: run the bot (default) or ``kozelbot simulate ...`` (computer-only matches)."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """The console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "simulate":
        from kozelbot.simulate import run as simulate

        return simulate(args[1:], sys.stdout)
    if args and args[0] in ("-h", "--help", "help"):
        print("usage: kozelbot            run the bot (needs KOZEL_BOT_TOKEN)\n"
              "       kozelbot simulate --variant hvalenyi [--option KEY=VALUE ...] "
              "--matches N --seed S [--trace FILE]")  # fmt: skip
        return 0
    from kozelbot.config import Settings

    settings = Settings()
    if not settings.token:
        print(
            "kozelbot: no bot token; set KOZEL_BOT_TOKEN (from @BotFather) in the environment "
            "or in .env — try `kozelbot simulate --matches 10` meanwhile",
            file=sys.stderr,
        )
        return 2
    from kozelbot.app import run

    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
