"""``kozelbot``: run the bot (default; without a token, the sandbox), ``kozelbot sandbox``
(the real bot against a local Telegram emulator, played from a web page), ``kozelbot simulate
...`` (computer-only matches), ``kozelbot arena ...`` (two computer levels measured),
``kozelbot backup FILE`` (a consistent copy of the live database), ``kozelbot doctor``
(what is wrong with the settings, one line a check, before the bot starts), ``kozelbot
migrate-db SRC DST`` (every row of one database copied into an empty other, SQLite to
PostgreSQL or back), ``kozelbot export MATCH_ID [FILE]`` / ``kozelbot replay FILE`` (a
finished match as a replay file, and its check) or ``kozelbot verify SEED HASH`` (check a
deal's revealed shuffle seed against the hash shown before it)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

USAGE = (
    "usage: kozelbot            run the bot (with KOZEL_BOT_TOKEN; without it, the sandbox)\n"
    "       kozelbot sandbox [--port P] [--db FILE]\n"
    "                           the bot against a local Telegram emulator, played from a page "
    "at http://127.0.0.1:P (default KOZEL_SANDBOX_PORT, 8080; its database KOZEL_SANDBOX_DB_PATH)"
    "\n"
    "       kozelbot --webhook URL [--port P] [--listen ADDR]\n"
    "                           run it behind a webhook: Telegram POSTs to URL, which must "
    "reach ADDR:P (default 127.0.0.1:8443)\n"
    "       kozelbot intake [--webhook URL [--port P] [--listen ADDR]]\n"
    "                           keep Telegram's updates in the shared PostgreSQL database "
    "(KOZEL_DATABASE_URL) for the workers, polling or behind a webhook\n"
    "       kozelbot worker         handle the updates, timers and computers of the places "
    "it holds; run any number, on any hosts\n"
    "       kozelbot simulate --variant hvalenyi [--option KEY=VALUE ...] "
    "--matches N --seed S [--trace FILE]\n"
    "       kozelbot arena --variant V [--option KEY=VALUE ...] --a LEVEL --b LEVEL "
    "--matches N --seed S [--jobs J] [--budget MS]\n"
    "                           two computer levels (easy, normal, strong) in duplicate "
    "matches: A's match wins with a 95 % interval, awards and decision times\n"
    "       kozelbot doctor [--webhook URL [--port P] [--listen ADDR] | --delete-webhook]\n"
    "                           check the token, the webhook, the database, the Mini App, "
    "the ports and the disk, one line each (exit 1 if one failed); --delete-webhook "
    "deletes Telegram's webhook so that the bot can poll\n"
    "       kozelbot backup FILE  copy the database (KOZEL_DB_PATH) to FILE, "
    "also while the bot runs\n"
    "       kozelbot migrate-db SRC DST\n"
    "                           copy every row of the database SRC into the empty database "
    "DST, each a SQLite file or a postgresql:// URL (stop the bot first)\n"
    "       kozelbot export MATCH_ID [FILE]\n"
    "                           write a finished match (from KOZEL_DB_PATH) as a replay file: "
    "players, fair play, every deal's hands, tricks and moves (to FILE, or to standard output)"
    "\n"
    "       kozelbot replay FILE  play a replay file again through the rules and check every "
    "deal, seal and score in it\n"
    "       kozelbot verify SEED HASH [--secret S --seal L --client C]\n"
    "                           check that a deal's revealed seed has the hash shown before "
    "its first card (and, with the match's revealed secret, its lobby seal and the players' "
    "seed, that the secret was sealed before anyone joined and made the seed), and print "
    "the cards it deals"
)


def main(argv: Sequence[str] | None = None) -> int:
    """The console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "simulate":
        from kozelbot.tools.simulate import run as simulate

        return simulate(args[1:], sys.stdout)
    if args and args[0] == "arena":
        from kozelbot.tools.arena import run as arena

        return arena(args[1:], sys.stdout)
    if args and args[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0
    if args and args[0] == "backup":
        return backup(args[1:])
    if args and args[0] == "doctor":
        return doctor(args[1:])
    if args and args[0] == "migrate-db":
        return migrate_db(args[1:])
    if args and args[0] == "verify":
        return verify(args[1:])
    if args and args[0] == "export":
        return export(args[1:])
    if args and args[0] == "replay":
        return replay(args[1:])
    if args and args[0] == "sandbox":
        return sandbox(args[1:])
    if args and args[0] in ("intake", "worker"):
        return scale(args[0], args[1:])
    options = run_options(args)
    if options is None:
        print(USAGE, file=sys.stderr)
        return 2
    webhook, port, listen = options
    from kozelbot.config import Settings

    settings = Settings()
    if not settings.token:
        if webhook is not None:
            print(
                "kozelbot: no bot token; set KOZEL_BOT_TOKEN (from @BotFather) in the "
                "environment or in .env to run behind a webhook",
                file=sys.stderr,
            )
            return 2
        print(
            "kozelbot: no bot token (KOZEL_BOT_TOKEN), so this is the sandbox: the real bot "
            "against a local Telegram, played from the page below; Ctrl-C stops it",
            file=sys.stderr,
        )
        from sandbox.server import run as run_sandbox

        return run_sandbox(settings)
    from kozelbot.app import run

    return run(settings, webhook=webhook, port=port, listen=listen)


def run_options(args: Sequence[str]) -> tuple[str | None, int, str] | None:
    """``[--webhook URL [--port P] [--listen ADDR]]`` as ``(url, port, address)``; None if bad."""
    options: dict[str, str] = {}
    rest = list(args)
    while rest:
        name, equals, value = rest.pop(0).partition("=")
        if name not in ("--webhook", "--port", "--listen") or name in options:
            return None
        if not equals:
            if not rest:
                return None
            value = rest.pop(0)
        options[name] = value
    port = options.get("--port", "8443")
    webhook = options.get("--webhook")
    if (options and not webhook) or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    if webhook is not None and not webhook.startswith(("https://", "http://")):
        return None
    return webhook, int(port), options.get("--listen", "127.0.0.1")


def scale(role: str, args: Sequence[str]) -> int:
    """``kozelbot intake [--webhook URL …]`` / ``kozelbot worker``: one bot in many processes
    (issue #32)."""
    options = run_options(args) if role == "intake" else (None, 0, "") if not args else None
    if options is None:
        print(USAGE, file=sys.stderr)
        return 2
    from kozelbot.config import Settings

    settings = Settings()
    if not settings.token:
        print(f"kozelbot {role}: no bot token; set KOZEL_BOT_TOKEN", file=sys.stderr)
        return 2
    from kozelbot.app import run_intake, run_worker

    if role == "worker":
        return run_worker(settings)
    webhook, port, listen = options
    return run_intake(settings, webhook=webhook, port=port, listen=listen)


def sandbox(args: Sequence[str]) -> int:
    """``kozelbot sandbox [--port P] [--db FILE]``: the sandbox, token or not; 2 for bad usage."""
    options: dict[str, str] = {}
    rest = list(args)
    while rest:
        name, equals, value = rest.pop(0).partition("=")
        if name not in ("--port", "--db") or name in options:
            print(USAGE, file=sys.stderr)
            return 2
        if not equals:
            if not rest:
                print(USAGE, file=sys.stderr)
                return 2
            value = rest.pop(0)
        options[name] = value
    port = options.get("--port")
    if port is not None and not (port.isdigit() and int(port) < 65536):
        print(USAGE, file=sys.stderr)
        return 2
    from kozelbot.config import Settings
    from sandbox.server import run as run_sandbox

    return run_sandbox(
        Settings(), port=int(port) if port is not None else None, db_path=options.get("--db")
    )


def doctor(args: Sequence[str]) -> int:
    """``kozelbot doctor [--webhook URL [--port P] [--listen ADDR] | --delete-webhook]``:
    one line per check of what the bot needs, run as the bot would run with these options;
    0 if nothing failed, 1 if something did, 2 for bad usage."""
    rest = [arg for arg in args if arg != "--delete-webhook"]
    delete = len(rest) < len(args)
    options = run_options(rest)
    if options is None or len(args) - len(rest) > 1 or (delete and options[0] is not None):
        print(USAGE, file=sys.stderr)
        return 2
    webhook, port, listen = options
    from pydantic import ValidationError

    from handlers.doctor import render, run, settings_findings
    from kozelbot.config import Settings
    from storage.checkup import check_database

    try:
        settings = Settings()
    except ValidationError as error:
        for line in render(settings_findings(error), []):
            print(line)
        return 1
    return run(
        settings,
        sys.stdout,
        database_check=check_database,
        webhook=webhook,
        port=port,
        listen=listen,
        delete_webhook=delete,
    )


def backup(args: Sequence[str]) -> int:
    """``kozelbot backup FILE``: copy the database to FILE; 1 if it fails, 2 for bad usage."""
    if len(args) != 1 or args[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    from kozelbot.config import Settings

    settings = Settings()
    if settings.database_url is not None:
        print(
            "kozelbot: the database is PostgreSQL (KOZEL_DATABASE_URL): back it up with"
            " pg_dump (README, Running at scale)",
            file=sys.stderr,
        )
        return 1
    source, target = Path(settings.db_path), Path(args[0])
    if not source.is_file():
        print(f"kozelbot: no database at {source} (set KOZEL_DB_PATH)", file=sys.stderr)
        return 1
    # Imported here only: the composition root may import storage, the rest of kozelbot may not.
    from storage.backup import backup_file
    from storage.errors import StorageError

    try:
        pages = backup_file(source, target)
    except (OSError, ValueError, sqlite3.Error, StorageError) as exc:
        print(f"kozelbot: backup of {source} failed: {exc}", file=sys.stderr)
        return 1
    size = target.stat().st_size
    print(f"kozelbot: backed up {source} to {target} ({size:,} bytes, {pages} pages)")
    return 0


def migrate_db(args: Sequence[str]) -> int:
    """``kozelbot migrate-db SRC DST``: copy every row of the database SRC into the empty
    database DST (each a SQLite file or a ``postgresql://`` URL, both migrated to this
    release's schema first) in one transaction; 1 if it fails (one line, no password), 2 for
    bad usage."""
    if len(args) != 2 or any(arg.startswith("-") for arg in args):
        print(USAGE, file=sys.stderr)
        return 2
    from storage.postgres import is_database_url, redact

    source, target = args
    if not is_database_url(source) and not Path(source).is_file():
        print(f"kozelbot migrate-db: no database at {source}", file=sys.stderr)
        return 1
    new_file = not is_database_url(target) and not Path(target).exists()
    try:
        copied = asyncio.run(_copy_database(source, target))
    except Exception as exc:
        if new_file:  # a file this command created holds nothing worth keeping
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(target + suffix).unlink(missing_ok=True)
        text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        for url in (source, target):
            text = text.replace(url, redact(url))
        print(f"kozelbot migrate-db: {redact(text)}", file=sys.stderr)
        return 1
    for table, rows in copied.items():
        print(f"{table:<18} {rows:>10,}")
    print(
        f"kozelbot migrate-db: {sum(copied.values()):,} rows in {len(copied)} tables copied"
        f" from {redact(source)} to {redact(target)}"
    )
    return 0


async def _copy_database(source: str, target: str) -> dict[str, int]:
    # Imported here only: the composition root may import storage, the rest of kozelbot may not.
    from storage import Storage
    from storage.transfer import copy_database

    async with await Storage.open(source) as opened, await Storage.open(target) as into:
        return await copy_database(opened.database, into.database)


def export(args: Sequence[str]) -> int:
    """``kozelbot export MATCH_ID [FILE]``: the replay file of a finished match; 1 if there
    is none (or it is still being played), 2 for bad usage."""
    if not 1 <= len(args) <= 2 or not args[0].isdigit() or args[-1].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    from kozelbot.config import Settings

    settings = Settings()
    source = settings.database
    if settings.database_url is None and not Path(source).is_file():
        print(f"kozelbot: no database at {source} (set KOZEL_DB_PATH)", file=sys.stderr)
        return 1
    from kozelbot.app import export_match
    from kozelbot.views.replay import NotExportable

    try:
        found = asyncio.run(export_match(source, int(args[0])))
    except NotExportable as exc:
        print(f"kozelbot export: {exc}", file=sys.stderr)
        return 1
    text = found.model_dump_json(indent=1) + "\n"
    if len(args) == 1:
        sys.stdout.write(text)
        return 0
    Path(args[1]).write_text(text, encoding="utf-8")
    print(f"kozelbot export: match {args[0]}, {len(found.deals)} deals, to {args[1]}")
    return 0


def replay(args: Sequence[str]) -> int:
    """``kozelbot replay FILE``: 0 if the file plays again exactly as it says, 1 if not (or
    it cannot be read), 2 for bad usage."""
    if len(args) != 1 or args[0].startswith("-"):
        print(USAGE, file=sys.stderr)
        return 2
    from kozelbot.views.replay import check

    try:
        data = json.loads(Path(args[0]).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"kozelbot replay: cannot read {args[0]}: {exc}", file=sys.stderr)
        return 1
    found = check(data if isinstance(data, dict) else {})
    for problem in found.problems:
        print(f"kozelbot replay: {problem}", file=sys.stderr)
    if not found.ok:
        return 1
    print(
        f"kozelbot replay: {args[0]}: {found.deals} deals and {found.moves} moves played "
        "again; every trace, seal and score matches"
    )
    return 0


def verify(args: Sequence[str]) -> int:
    """``kozelbot verify SEED HASH [--secret S --seal L --client C]``: 0 if everything asked
    checks out, 1 if not, 2 for bad input; prints the cards the seed deals either way."""
    from kozelbot.core.fairplay import SeedError
    from kozelbot.core.i18n import translator
    from kozelbot.core.texts import cards_label
    from kozelbot.tools.verify import verify as check

    words = list(args)
    extra: dict[str, str] = {}
    for flag in ("--secret", "--seal", "--client"):
        if flag in words:
            at = words.index(flag)
            if at + 1 >= len(words):
                print(USAGE, file=sys.stderr)
                return 2
            extra[flag[2:]] = words[at + 1]
            del words[at : at + 2]
    if len(words) != 2:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        result = check(words[0], words[1], **extra)
    except SeedError as error:
        print(f"kozelbot verify: {error}", file=sys.stderr)
        return 2
    print(f"seed:    {result.seed}")
    print(f"hash:    {result.expected}")
    print(f"SHA-256: {result.actual}")
    if result.expected == result.actual:
        print("OK: the hash is the seed's SHA-256")
    else:
        print("MISMATCH: the hash is not the seed's SHA-256")
    if result.secret_sealed is not None:
        print(
            "OK: the secret is the one sealed in the lobby"
            if result.secret_sealed
            else "MISMATCH: the secret's SHA-256 is not the lobby's seal"
        )
    if result.key_derived is True:
        print("OK: the seed's key is HMAC-SHA256(secret, players' seed:n)")
    elif result.key_derived is False:
        print("MISMATCH: the seed's key does not come from this secret and players' seed")
    elif "secret" in extra:
        print(
            "note: a kozel1 seed (a game begun before the players' seed) names no shuffle "
            "number; only its hash can be checked"
        )
    print("the seed deals:")
    english = translator("en")
    for label, cards in result.piles:
        print(f"  {label}: {cards_label(cards, english)}")
    return 0 if result.matches else 1


if __name__ == "__main__":
    sys.exit(main())
