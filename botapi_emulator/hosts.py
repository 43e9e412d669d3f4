"""Which ``Host`` headers name this machine: the guard against DNS rebinding.

A web page can make its own name resolve to 127.0.0.1 and then reach a server there from the
user's browser; what gives it away is the ``Host`` header, which still carries its name. A
server that answers only requests naming a local host (``127.0.0.1``, ``localhost``,
``[::1]``, with or without a port) cannot be driven that way. The emulator does so (unless
told otherwise), and so does the sandbox's page.
"""

from __future__ import annotations

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})


def hostname(host: str) -> str:
    """``Host`` without its port (``[::1]:8080`` → ``[::1]``, ``localhost:80`` → ``localhost``);
    ``""`` if what follows the name is not a port."""
    if host.startswith("["):
        end = host.find("]") + 1
        name, rest = (host[:end], host[end:]) if end else ("", "")
    else:
        name, colon, port = host.partition(":")
        rest = colon + port
    if rest and not (rest.startswith(":") and rest[1:].isdigit()):
        return ""
    return name


def is_local_host(host: str | None) -> bool:
    """Whether a ``Host`` header names a local host (letter case does not matter)."""
    return hostname(host or "").lower() in LOCAL_HOSTS
