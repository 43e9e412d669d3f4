"""Configuration from the environment or a ``.env`` file (pydantic-settings, prefix ``KOZEL_``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from kozelbot.core.decisions import DEFAULT_BUDGET_MS

TELEGRAM_API = "https://api.telegram.org"


class Settings(BaseSettings):
    """Every setting the bot reads; ``.env.example`` lists them all."""

    model_config = SettingsConfigDict(env_prefix="KOZEL_", env_file=".env", extra="ignore")

    bot_token: SecretStr | None = None
    """The token from @BotFather."""
    db_path: str = "kozel.db"
    """The SQLite database file (with ``database_url`` set: only where the flood journal,
    ``<file>.flood``, is kept)."""
    database_url: SecretStr | None = None
    """A PostgreSQL database (``postgresql://user:password@host:port/name``) instead of the
    SQLite file; unset: SQLite."""
    api_url: str = TELEGRAM_API
    """Bot API server root: requests go to ``{api_url}/bot<token>/<method>``."""
    worker_name: str = ""
    """This worker's name in the leases (``kozelbot worker``); empty: host name and process
    id."""
    log_level: str = "INFO"
    log_format: Literal["text", "json"] = "text"
    """``text``: one readable line a record; ``json``: one JSON object a line, with the chat,
    game, update and worker it is about (for a log collector)."""
    metrics_port: int = Field(default=0, ge=0, le=65535)
    """Port of the operator's HTTP endpoints: Prometheus ``/metrics``, ``/healthz`` and
    ``/readyz``; 0: off (nothing is measured, nothing listens)."""
    metrics_listen: str = "127.0.0.1"
    """Address the metrics and health endpoints listen on."""
    language: str = "ru"
    """The language of group chats until someone picks another with /language."""
    group_max_rate: int = Field(default=20, ge=1)
    """Messages (sends and edits) per ``group_period`` seconds to one group."""
    group_period: float = Field(default=60.0, gt=0)
    overall_max_rate: int = Field(default=30, ge=1)
    """Requests per second to Telegram over all chats."""
    private_max_rate: int = Field(default=3, ge=1)
    """Messages (sends and edits) per ``private_period`` seconds to one private chat."""
    private_period: float = Field(default=3.0, gt=0)
    reply_share: float = Field(default=0.25, gt=0, le=1)
    """The share of a group's ``group_max_rate`` that replies to commands and presses may
    use while the group's game is live (its table comes first); the excess is dropped
    with one "slow down"."""
    private_interval: float = Field(default=1.0, ge=0)
    """Seconds between two edits of one private hand message (≈1 message/s per chat)."""
    lobby_minutes: float = Field(default=60, gt=0)
    """Minutes a lobby stays open after its last change before it closes itself."""
    tournament_minute: float = Field(default=60.0, gt=0)
    """Seconds in a minute of a tournament's clock (``round_time``, ``start``, the 3-minute
    no-show wait). Only tests shorten it."""
    poll_timeout: int = Field(default=30, ge=0)
    """Long-polling timeout of getUpdates, seconds."""
    press_burst: int = Field(default=8, ge=1)
    """Button presses one person may make at once before the rate below applies."""
    press_rate: float = Field(default=2.0, gt=0)
    """Button presses per second one person may keep up (a fast player makes about one)."""
    command_burst: int = Field(default=6, ge=1)
    """Commands one person may send at once before the rate below applies."""
    command_rate: float = Field(default=0.5, gt=0)
    """Commands per second one person may keep up."""
    ai_budget_ms: float = Field(default=DEFAULT_BUDGET_MS, gt=0, le=10_000)
    """Milliseconds the strong computer level thinks per decision (the same for 💡 hints and
    per play of a 🔍 analysis). A table's decision counts its time in the queue: under load
    it thinks less, and one still waiting at the end is the quick level's (issue #29)."""
    hidden_wait: float = Field(default=5.0, ge=0, le=60)
    """Seconds, give or take half, a computer asked in a hidden step (a redeal offer, kryuk's
    hand-off) waits before it answers, as a person would decide; 0: at once."""
    private_reminder: float = Field(default=120.0, ge=0)
    """Seconds after which a person to act in a match against the computer without a move
    timer (/play's default) is reminded, «⏰ Your move.», once per turn; 0: never."""
    ai_workers: int = Field(default=0, ge=0, le=64)
    """Processes the strong level thinks in, off the event loop; 0: one per core but one."""
    webapp_url: str | None = None
    """The Mini App's public HTTPS address (what a reverse proxy serves from
    ``webapp_listen:webapp_port``); unset: the Mini App is off and nothing changes."""
    webapp_port: int = Field(default=8081, ge=0, le=65535)
    """Port the Mini App is served on (behind the proxy); 0: no port of its own (the sandbox
    serves the page beside its own)."""
    webapp_listen: str = "127.0.0.1"
    """Address the Mini App is served on."""
    webapp_name: str | None = None
    """The Mini App's short name from BotFather's ``/newapp``, for the group's direct link
    ``https://t.me/<bot>/<name>?startapp=…``."""
    webapp_max_age: int = Field(default=3600, ge=10)
    """Seconds a page's signed ``initData`` stays good (``auth_date`` at most this old); an
    open stream is closed once its ``initData`` is older."""
    webapp_streams_per_person: int = Field(default=3, ge=1)
    """Mini App streams one person may keep open on one table; a new one closes their oldest."""
    webapp_streams_per_game: int = Field(default=1000, ge=1)
    """Mini App streams one table may have open; past it, a new one closes the oldest of
    someone not seated."""
    webapp_read_burst: int = Field(default=10, ge=1)
    """Mini App reads (table, stream, replay) one person may make at once."""
    webapp_read_rate: float = Field(default=1.0, gt=0)
    """Mini App reads per second one person may keep up after the burst."""
    sandbox_port: int = Field(default=8080, ge=0, le=65535)
    """Port of the sandbox's page on 127.0.0.1 (``kozelbot`` without a token, or ``kozelbot
    sandbox``); if it is taken, the next free one; 0 picks any free port."""
    sandbox_db_path: str = "kozel-sandbox.db"
    """The sandbox's own database; its emulated chats are kept beside it, in
    ``<file>.chats.json``."""
    sandbox_seed: int | None = None
    """Seed of the sandbox's games and of watch mode's choices: the same seed on a new
    sandbox database replays the same matches (unset: random)."""

    @field_validator("webapp_url", "webapp_name", mode="before")
    @classmethod
    def _blank_is_off(cls, value: object) -> object:
        """``KOZEL_WEBAPP_URL=`` (as in ``.env.example``) leaves the Mini App off."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("webapp_url")
    @classmethod
    def _https(cls, value: str | None) -> str | None:
        """Telegram opens Mini Apps only over HTTPS."""
        if value is not None and not value.startswith("https://"):
            raise ValueError("KOZEL_WEBAPP_URL must be an https:// address")
        return value

    @field_validator("database_url", mode="before")
    @classmethod
    def _blank_is_sqlite(cls, value: object) -> object:
        """``KOZEL_DATABASE_URL=`` (as in ``.env.example``) keeps the SQLite file."""
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("database_url")
    @classmethod
    def _postgresql(cls, value: SecretStr | None) -> SecretStr | None:
        """Only PostgreSQL is reached by URL (SQLite is ``KOZEL_DB_PATH``)."""
        if value is not None and not value.get_secret_value().startswith(
            ("postgresql://", "postgres://")
        ):
            raise ValueError("KOZEL_DATABASE_URL must be a postgresql:// address")
        return value

    @field_validator("sandbox_seed", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        """``KOZEL_SANDBOX_SEED=`` (as in ``.env.example``) means no seed."""
        return None if isinstance(value, str) and not value.strip() else value

    @property
    def token(self) -> str | None:
        """The token as text, if set."""
        return self.bot_token.get_secret_value() if self.bot_token else None

    @property
    def database(self) -> str:
        """Where storage opens the database: the PostgreSQL URL if set, else the SQLite
        file."""
        return self.database_url.get_secret_value() if self.database_url else self.db_path

    @property
    def reply_budget(self) -> tuple[int, float]:
        """Replies per ``group_period`` a group with a live game may get."""
        return max(1, int(self.group_max_rate * self.reply_share)), self.group_period

    @property
    def group_interval(self) -> float:
        """Least seconds between two table edits of one group, leaving room for results."""
        return self.group_period / self.group_max_rate * 1.5
