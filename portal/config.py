"""Configuration classes. Values come from the environment; production fails fast without secrets."""

from __future__ import annotations

import os
from pathlib import Path

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
    SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}
    PORTAL_PROFILE = os.environ.get("PORTAL_PROFILE", "guarulhos")
    BABEL_DEFAULT_LOCALE = "pt_BR"
    BABEL_DEFAULT_TIMEZONE = "America/Sao_Paulo"
    LANGUAGES = ("pt_BR", "en")

    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    REMEMBER_COOKIE_HTTPONLY = True
    REMEMBER_COOKIE_SAMESITE = "Lax"
    WTF_CSRF_TIME_LIMIT = None  # the token lives as long as the session: long forms on slow phones

    RATELIMIT_STORAGE_URI = os.environ.get("RATELIMIT_STORAGE_URI", "memory://")
    RATELIMIT_HEADERS_ENABLED = True

    MAX_CONTENT_LENGTH = 40 * 1024 * 1024  # several photos in one form
    UPLOAD_DIR = os.environ.get("UPLOAD_DIR", str(INSTANCE_DIR / "uploads"))

    SMTP_HOST = os.environ.get("SMTP_HOST")
    SMTP_PORT = int(os.environ.get("SMTP_PORT", "587"))
    SMTP_USER = os.environ.get("SMTP_USER")
    SMTP_PASSWORD = os.environ.get("SMTP_PASSWORD")
    SMTP_STARTTLS = os.environ.get("SMTP_STARTTLS", "1") == "1"
    MAIL_FROM = os.environ.get("MAIL_FROM", "CCZ <nao-responda@ccz.example>")
    DEV_MAILBOX = False  # the /dev/caixa-de-email page that shows mail not sent over SMTP

    STRIPE_SECRET_KEY = os.environ.get("STRIPE_SECRET_KEY")
    STRIPE_PUBLISHABLE_KEY = os.environ.get("STRIPE_PUBLISHABLE_KEY")
    STRIPE_WEBHOOK_SECRET = os.environ.get("STRIPE_WEBHOOK_SECRET")
    STRIPE_API_BASE = os.environ.get("STRIPE_API_BASE")  # tests point this at a local stand-in

    PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL")  # used in QR codes and e-mails


class DevelopmentConfig(Config):
    DEBUG = False  # never show the Werkzeug debugger to a browser; logs carry the traces
    DEV_MAILBOX = True


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


class ProductionConfig(Config):
    SESSION_COOKIE_SECURE = True
    REMEMBER_COOKIE_SECURE = True
    PREFERRED_URL_SCHEME = "https"

    def __init__(self) -> None:
        missing = [n for n in ("SECRET_KEY", "DATABASE_URL") if not os.environ.get(n)]
        if missing:
            raise RuntimeError("Missing required environment variables: " + ", ".join(missing))
        if os.environ["SECRET_KEY"] == "dev-only-not-secret" or len(os.environ["SECRET_KEY"]) < 32:
            # Sessions and e-mail tokens are signed with it: a guessable key forges logins.
            raise RuntimeError("SECRET_KEY must be a random value of at least 32 characters "
                               "(e.g. python -c 'import secrets; print(secrets.token_hex(32))')")
        self.SECRET_KEY = os.environ["SECRET_KEY"]
        self.SQLALCHEMY_DATABASE_URI = database_url(os.environ["DATABASE_URL"])


CONFIGS = {"development": DevelopmentConfig, "testing": TestingConfig, "production": ProductionConfig}
