"""Configuration classes. Values come from the environment; production fails fast without
secrets."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

INSTANCE_DIR = Path(__file__).resolve().parent.parent / "instance"


def database_url(raw: str | None) -> str:
    """Return a SQLAlchemy URL: the SQLite file under instance/ by default.

    ``postgres://`` and ``postgresql://`` are pointed at psycopg 3, the driver we install.
    """
    if not raw:
        return f"sqlite:///{INSTANCE_DIR / 'portal.db'}"
    for prefix in ("postgres://", "postgresql://"):
        if raw.startswith(prefix):
            return "postgresql+psycopg://" + raw[len(prefix) :]
    return raw


class Config:
    SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-not-secret")
    SQLALCHEMY_DATABASE_URI = database_url(os.environ.get("DATABASE_URL"))
    # A failed statement's parameters (a CPF, an e-mail) must never land in a log line.
    SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True, "hide_parameters": True}
    PORTAL_PROFILE = os.environ.get("PORTAL_PROFILE", "guarulhos")
    STAFF_2FA_REQUIRED = True  # TOTP for every staff and admin role
    STAFF_IDLE_MINUTES = 30  # a staff session ends after this long without a request
    REAUTH_MINUTES = 15  # sensitive actions ask for the password again after this long
    # argon2 (time cost, memory KiB, parallelism); None: argon2-cffi's default, RFC 9106 low-memory
    PASSWORD_HASH_COST: tuple[int, int, int] | None = None
    BABEL_DEFAULT_LOCALE = "pt_BR"
    BABEL_DEFAULT_TIMEZONE = "America/Sao_Paulo"
    LANGUAGES = ("pt_BR", "en")

    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    REMEMBER_COOKIE_HTTPONLY = True
    REMEMBER_COOKIE_SAMESITE = "Lax"
    REMEMBER_COOKIE_DURATION = timedelta(days=30)  # "Manter-me conectado": a month, not a year
    WTF_CSRF_TIME_LIMIT = None  # the token lives as long as the session: long forms on slow phones

    RATELIMIT_STORAGE_URI = os.environ.get("RATELIMIT_STORAGE_URI", "memory://")
    RATELIMIT_HEADERS_ENABLED = True
    # How many reverse proxies in front of the app set X-Forwarded-For/-Proto. 0: none is trusted,
    # the peer address is the client (a client-supplied X-Forwarded-For is ignored).
    PROXY_FIX_X_FOR = int(os.environ.get("PROXY_FIX_X_FOR", "0") or 0)
    # Hosts served besides PUBLIC_BASE_URL's (comma-separated), e.g. "www.ccz.example".
    ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()]

    MAX_CONTENT_LENGTH = 40 * 1024 * 1024  # several photos in one form
    UPLOAD_DIR = os.environ.get("UPLOAD_DIR", str(INSTANCE_DIR / "uploads"))

    SMTP_HOST = os.environ.get("SMTP_HOST")
    SMTP_PORT = int(os.environ.get("SMTP_PORT", "587"))
    SMTP_USER = os.environ.get("SMTP_USER")
    SMTP_PASSWORD = os.environ.get("SMTP_PASSWORD")
    SMTP_STARTTLS = os.environ.get("SMTP_STARTTLS", "1") == "1"
    MAIL_FROM = os.environ.get("MAIL_FROM", "CCZ <nao-responda@ccz.example>")
    # Send each e-mail right after the request that wrote it; without it, `flask send-mail` does.
    MAIL_SEND_INLINE = os.environ.get("MAIL_SEND_INLINE", "0") == "1"
    DEV_MAILBOX = False  # the /dev/caixa-de-email page that shows mail not sent over SMTP

    STRIPE_SECRET_KEY = os.environ.get("STRIPE_SECRET_KEY")
    STRIPE_PUBLISHABLE_KEY = os.environ.get("STRIPE_PUBLISHABLE_KEY")
    STRIPE_WEBHOOK_SECRET = os.environ.get("STRIPE_WEBHOOK_SECRET")
    STRIPE_API_BASE = os.environ.get("STRIPE_API_BASE")  # tests point this at a local stand-in

    PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL")  # used in QR codes and e-mails
    # Map tiles for the report maps, e.g. "https://tiles.example.org/{z}/{x}/{y}.png" (the city's
    # own server or a provider it contracted). Unset: no map, reports are placed by address.
    MAP_TILE_URL = os.environ.get("MAP_TILE_URL")
    MAP_TILE_ATTRIBUTION = os.environ.get("MAP_TILE_ATTRIBUTION", "")
    # Where citizens go in person (reclaim, the certidão's exam, the counter), as the city confirmed
    # it; over the profile's [ccz] table. Address and hours both set, or the profile's (or none).
    CCZ_NAME = os.environ.get("CCZ_NAME")  # default: "Centro de Controle de Zoonoses de <city>"
    CCZ_ADDRESS = os.environ.get("CCZ_ADDRESS")  # e.g. "Rua Exemplo, 100"
    CCZ_DISTRICT = os.environ.get("CCZ_DISTRICT")  # default: "<city>/<UF>"
    CCZ_HOURS = os.environ.get("CCZ_HOURS")  # e.g. "Segunda a sexta, das 8h às 17h"
    CCZ_PHONE = os.environ.get("CCZ_PHONE")


class DevelopmentConfig(Config):
    DEBUG = False  # never show the Werkzeug debugger to a browser; logs carry the traces
    DEV_MAILBOX = True
    MAIL_SEND_INLINE = True  # production sends with `flask send-mail` from its scheduler


class TestingConfig(Config):
    TESTING = True
    SECRET_KEY = "testing"
    SQLALCHEMY_DATABASE_URI = database_url(os.environ.get("TEST_DATABASE_URL") or "sqlite://")
    WTF_CSRF_ENABLED = False
    DEV_MAILBOX = True
    RATELIMIT_STORAGE_URI = "memory://"
    SMTP_HOST = None
    STRIPE_SECRET_KEY = None
    STRIPE_PUBLISHABLE_KEY = None
    STRIPE_WEBHOOK_SECRET = None
    PUBLIC_BASE_URL = "http://localhost"
    # Most tests sign staff in with the password alone; the second factor's own tests (and the
    # browser journey) turn it back on. Production and development always require it.
    STAFF_2FA_REQUIRED = False
    STAFF_IDLE_MINUTES = 0  # 0: no idle sign-out (tests run long between requests)
    # The cheapest argon2 (the suite signs in thousands of times; each default hash costs ~0.1 s
    # of CPU). tests/integration/auth/test_password_cost.py proves the other configs keep the
    # default cost and that a cheap hash is redone at it on the next sign-in.
    PASSWORD_HASH_COST = (1, 8, 1)


class ProductionConfig(Config):
    PRODUCTION = True  # start-up checks refuse instead of warning (portal.check_upload_dir)
    SESSION_COOKIE_SECURE = True
    REMEMBER_COOKIE_SECURE = True
    PREFERRED_URL_SCHEME = "https"

    def __init__(self) -> None:
        missing = [n for n in ("SECRET_KEY", "DATABASE_URL") if not os.environ.get(n)]
        if missing:
            raise RuntimeError("Missing required environment variables: " + ", ".join(missing))
        if os.environ["SECRET_KEY"] == "dev-only-not-secret" or len(os.environ["SECRET_KEY"]) < 32:
            # Sessions and e-mail tokens are signed with it: a guessable key forges logins.
            raise RuntimeError(
                "SECRET_KEY must be a random value of at least 32 characters "
                "(e.g. python -c 'import secrets; print(secrets.token_hex(32))')"
            )
        self.SECRET_KEY = os.environ["SECRET_KEY"]
        self.SQLALCHEMY_DATABASE_URI = database_url(os.environ["DATABASE_URL"])

        # Every link in an e-mail or PDF is built from it (portal.urls), never from the Host
        # header; and only its host (plus ALLOWED_HOSTS) is answered: anything else is a 400.
        base = os.environ.get("PUBLIC_BASE_URL", "").strip()
        parts = urlsplit(base)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RuntimeError(
                "PUBLIC_BASE_URL must be set to the portal's public address, "
                "e.g. https://ccz.example (links in e-mails and PDFs use it)"
            )
        self.PUBLIC_BASE_URL = base.rstrip("/")
        self.ALLOWED_HOSTS = [
            h.strip() for h in os.environ.get("ALLOWED_HOSTS", "").split(",") if h.strip()
        ]
        self.TRUSTED_HOSTS = [parts.hostname, *self.ALLOWED_HOSTS]

        # Several workers: a per-process memory:// store multiplies every limit by their number.
        self.RATELIMIT_STORAGE_URI = os.environ.get("RATELIMIT_STORAGE_URI", "memory://")
        if (
            self.RATELIMIT_STORAGE_URI.startswith("memory://")
            and os.environ.get("RATELIMIT_ALLOW_MEMORY") != "1"
        ):
            raise RuntimeError(
                "RATELIMIT_STORAGE_URI must point to a shared store in production "
                "(e.g. redis://localhost:6379/0); set RATELIMIT_ALLOW_MEMORY=1 to "
                "accept per-process counters (a single worker)"
            )
        self.PROXY_FIX_X_FOR = int(os.environ.get("PROXY_FIX_X_FOR", "0") or 0)
        self.UPLOAD_DIR = os.environ.get("UPLOAD_DIR", str(INSTANCE_DIR / "uploads"))


CONFIGS = {
    "development": DevelopmentConfig,
    "testing": TestingConfig,
    "production": ProductionConfig,
}
