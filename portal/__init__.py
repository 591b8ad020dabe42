"""The CCZ portal: an application factory that reads like a table of contents."""

from __future__ import annotations

import logging
import os

from flask import Flask

from portal.config import CONFIGS, INSTANCE_DIR, Config


def create_app(config_class: type[Config] | Config | None = None) -> Flask:
    app = Flask(__name__, instance_path=str(INSTANCE_DIR))
    harden_request_parsing(app)
    if config_class is None:
        config_class = CONFIGS[os.environ.get("PORTAL_ENV", "development")]
    app.config.from_object(config_class() if isinstance(config_class, type) else config_class)

    load_profile_into(app)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_template_helpers(app)
    register_commands(app)
    register_security_headers(app)
    if not app.debug and not app.testing:
        logging.basicConfig(level=logging.INFO)
    return app


def _has_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def harden_request_parsing(app: Flask) -> None:
    """Odd input gets a 4xx, never a 500: ``<int:...>`` ids beyond a database integer are a 404
    (SQLite and PostgreSQL overflow on them); JSON nested too deeply and NUL characters (which
    PostgreSQL refuses in text columns) are a 400."""
    from flask import Request
    from werkzeug.routing import IntegerConverter

    class DatabaseIntegerConverter(IntegerConverter):
        def __init__(self, map, *args, **kwargs):  # type: ignore[no-untyped-def]  # noqa: A002
            kwargs.setdefault("max", 2**31 - 1)  # PostgreSQL integer
            super().__init__(map, *args, **kwargs)

    class PortalRequest(Request):
        def get_json(self, force: bool = False, silent: bool = False,  # type: ignore[override]
                     cache: bool = True):
            try:
                data = super().get_json(force=force, silent=silent, cache=cache)
            except RecursionError as err:  # json.loads on "[[[[...": not a ValueError
                if silent:
                    return None
                return self.on_json_loading_failed(ValueError(str(err)))
            if _has_nul(data):  # "\u0000" in JSON text: refused like NUL in a form field
                return None if silent else self.on_json_loading_failed(ValueError("NUL"))
            return data

    app.url_map.converters["int"] = DatabaseIntegerConverter
    app.request_class = PortalRequest

    @app.before_request
    def refuse_nul_characters():  # type: ignore[no-untyped-def]
        """A NUL character is never real text, and PostgreSQL refuses it in a text column (a 500):
        refuse it in the path, query string, form fields and upload names up front."""
        from flask import abort, request

        texts = [request.path, *request.args.keys(), *request.args.values()]
        if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            texts += [*request.form.keys(), *request.form.values(),
                      *(f.filename or "" for f in request.files.values())]
        if any(_has_nul(text) for text in texts):
            abort(400)


def load_profile_into(app: Flask) -> None:
    """Validate the selected jurisdiction profile now: a bad profile stops the app with its key."""
    from portal.profiles import load_profile

    app.extensions["portal_profile"] = load_profile(app.config["PORTAL_PROFILE"])


def register_extensions(app: Flask) -> None:
    from portal import models  # noqa: F401  (every table known to Alembic)
    from portal.extensions import babel, csrf, db, limiter, login_manager, migrate
    from portal.i18n import select_locale, select_timezone

    db.init_app(app)
    migrate.init_app(app, db, directory=str(os.path.join(app.root_path, "..", "migrations")),
                     compare_type=True)
    csrf.init_app(app)
    limiter.init_app(app)
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_timezone)
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message = None
    login_manager.session_protection = "strong"

    @login_manager.user_loader
    def load_user(user_id: str):  # type: ignore[no-untyped-def]
        from portal.models import User

        return db.session.get(User, int(user_id))

    @login_manager.unauthorized_handler
    def unauthorized():  # type: ignore[no-untyped-def]
        from flask import flash, redirect, request, url_for
        from flask_babel import gettext as _

        from portal.access import wants_json

        if wants_json():
            from flask import jsonify

            return jsonify(errors=[{"field": None, "code": "unauthorized",
                                    "message": _("Autenticação necessária.")}]), 401
        flash(_("Entre com sua conta para continuar."), "info")
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))


def register_blueprints(app: Flask) -> None:
    from portal.blueprints import BLUEPRINTS

    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    if app.config.get("DEV_MAILBOX"):
        from portal.blueprints.dev import bp as dev_bp

        app.register_blueprint(dev_bp)


def register_errorhandlers(app: Flask) -> None:
    from portal.errors import init_errorhandlers

    init_errorhandlers(app)


def register_template_helpers(app: Flask) -> None:
    from portal.templating import init_templating

    init_templating(app)


def register_commands(app: Flask) -> None:
    from portal.cli import init_commands

    init_commands(app)


def register_security_headers(app: Flask) -> None:
    @app.after_request
    def headers(response):  # type: ignore[no-untyped-def]
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("Permissions-Policy",
                                    "camera=(), microphone=(), geolocation=()")
        if app.config.get("SESSION_COOKIE_SECURE"):  # production: HTTPS only, remembered
            response.headers.setdefault("Strict-Transport-Security",
                                        "max-age=31536000; includeSubDomains")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self' https://js.stripe.com; frame-ancestors 'none'; "
            "form-action 'self' https://checkout.stripe.com",
        )
        return response
