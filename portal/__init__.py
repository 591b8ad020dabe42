"""The CCZ portal: an application factory that reads like a table of contents."""

from __future__ import annotations

import logging
import os

from flask import Flask

from portal.config import CONFIGS, INSTANCE_DIR, Config
from portal.logs import install_cpf_mask


def create_app(config_class: type[Config] | Config | None = None) -> Flask:
    app = Flask(__name__, instance_path=str(INSTANCE_DIR))
    harden_request_parsing(app)
    if config_class is None:
        config_class = CONFIGS[os.environ.get("PORTAL_ENV", "development")]
    app.config.from_object(config_class() if isinstance(config_class, type) else config_class)
    refuse_foreign_hosts(app)
    trust_configured_proxies(app)
    check_upload_dir(app)

    load_profile_into(app)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_template_helpers(app)
    register_commands(app)
    register_security_headers(app)
    hide_dev_server_version(app)
    register_assets(app)
    install_cpf_mask()  # PostgreSQL's error text quotes values: no CPF reaches a log line
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

    from portal.services.ids import DB_INT_MAX

    class DatabaseIntegerConverter(IntegerConverter):
        def to_python(self, value: str) -> int:
            # Beyond a PostgreSQL integer no row can match: id 0 (never issued) makes it the
            # view's 404. Refusing the match instead (``max=``) let werkzeug answer 405 for a
            # URL another method's rule also had (issue 26 #12).
            number = int(value)
            return number if number <= DB_INT_MAX else 0

    class PortalRequest(Request):
        def get_json(
            self,
            force: bool = False,
            silent: bool = False,
            cache: bool = True,
        ):
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
    def refuse_nul_characters():
        """A NUL character is never real text, and PostgreSQL refuses it in a text column (a 500):
        refuse it in the path, query string, form fields and upload names up front."""
        from flask import abort, request

        texts = [request.path, *request.args.keys(), *request.args.values()]
        if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            texts += [
                *request.form.keys(),
                *request.form.values(),
                *(f.filename or "" for f in request.files.values()),
            ]
        if any(_has_nul(text) for text in texts):
            abort(400)


def refuse_foreign_hosts(app: Flask) -> None:
    """With ``TRUSTED_HOSTS`` (production: PUBLIC_BASE_URL's host and ALLOWED_HOSTS), a request
    for any other Host gets a plain 400 before the app runs: nothing is built from a forged Host,
    and the error page (which builds links) is not rendered for it."""
    trusted = app.config.get("TRUSTED_HOSTS")
    if not trusted:
        return
    from werkzeug.exceptions import SecurityError
    from werkzeug.wrappers import Response
    from werkzeug.wsgi import get_host

    inner = app.wsgi_app

    def guarded(environ, start_response):
        try:
            get_host(environ, trusted_hosts=trusted)
        except SecurityError:
            answer = Response(
                "400 Bad Request: host not served here.\n", status=400, mimetype="text/plain"
            )
            return answer(environ, start_response)
        return inner(environ, start_response)

    app.wsgi_app = guarded  # type: ignore[method-assign]


def trust_configured_proxies(app: Flask) -> None:
    """Behind ``PROXY_FIX_X_FOR`` reverse proxies the client's address and scheme come from their
    X-Forwarded-For/-Proto; with 0 (the default) nothing a client sends is trusted and the rate
    limits and session protection see the real peer address."""
    hops = int(app.config.get("PROXY_FIX_X_FOR") or 0)
    if hops > 0:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)  # type: ignore[method-assign]


def upload_dir_problem(path: str) -> str | None:
    """Why ``path`` cannot take uploads, or None when it can (created when missing)."""
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as err:
        return str(err)
    if not os.access(path, os.W_OK | os.X_OK):
        return "permission denied"
    return None


def database_problem() -> bool:
    """True (and logged) when the database does not answer (``/healthz``); the failed
    transaction is rolled back, so the request's session stays usable."""
    from flask import current_app
    from sqlalchemy import text

    from portal.extensions import db

    try:
        db.session.execute(text("SELECT 1"))
    except Exception:  # noqa: BLE001 - any database failure means "not healthy"
        db.session.rollback()
        current_app.logger.exception("Health check: database unreachable")
        return True
    return False


def check_upload_dir(app: Flask) -> None:
    """An unwritable UPLOAD_DIR is found now, not at a citizen's first photo: production refuses
    to start, development logs it (``/healthz`` reports it too)."""
    path = str(app.config.get("UPLOAD_DIR") or "")
    problem = upload_dir_problem(path)
    if problem is None:
        return
    message = (
        f"UPLOAD_DIR={path!r} is not writable by this process ({problem}): set UPLOAD_DIR "
        "to a directory the portal can write to"
    )
    if app.config.get("PRODUCTION"):
        raise RuntimeError(message)
    app.logger.error(message)


def load_profile_into(app: Flask) -> None:
    """Validate the selected jurisdiction profile now: a bad profile stops the app with its key."""
    from portal.profiles import load_profile

    app.extensions["portal_profile"] = load_profile(app.config["PORTAL_PROFILE"])


def register_extensions(app: Flask) -> None:
    from portal import models  # noqa: F401  (every table known to Alembic)
    from portal.extensions import babel, csrf, db, limiter, login_manager, migrate
    from portal.i18n import select_locale, select_timezone

    db.init_app(app)
    # render_as_batch: SQLite alters a table by copying it; the same script runs on PostgreSQL
    migrate.init_app(
        app,
        db,
        directory=str(os.path.join(app.root_path, "..", "migrations")),
        compare_type=True,
        render_as_batch=True,
    )
    csrf.init_app(app)
    limiter.init_app(app)
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_timezone)
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    login_manager.login_message = None
    login_manager.session_protection = "strong"
    # Flask-Login's own identifier reads a client-supplied X-Forwarded-For; ours uses the peer
    # address (corrected by ProxyFix only for the configured, trusted proxies).
    login_manager._session_identifier_generator = session_identifier
    # Flask-Login signs a person in from the remember cookie without tying the new session to
    # the browser; "strong" protection then saw no identifier on the next request, dropped the
    # session and deleted the cookie: "Manter-me conectado" lasted one page after a restart.
    from flask_login import user_loaded_from_cookie

    user_loaded_from_cookie.connect(_bind_remembered_session)

    @login_manager.unauthorized_handler
    def unauthorized():
        from flask import flash, redirect, request, url_for
        from flask_babel import gettext as _

        from portal.access import wants_json

        if wants_json():
            from flask import jsonify

            return jsonify(
                errors=[
                    {
                        "field": None,
                        "code": "unauthorized",
                        "message": _("Autenticação necessária."),
                    }
                ]
            ), 401
        flash(_("Entre com sua conta para continuar."), "info")
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))


def _bind_remembered_session(sender: object, **extra: object) -> None:
    from flask import session

    session["_id"] = session_identifier()


def session_identifier() -> str:
    """What "strong" session protection ties a session to: peer address and browser."""
    from hashlib import sha512

    from flask import request

    base = f"{request.remote_addr}|{request.headers.get('User-Agent', '')}"
    return sha512(base.encode("utf-8")).hexdigest()


def register_blueprints(app: Flask) -> None:
    from portal.blueprints import BLUEPRINTS
    from portal.services.mail import init_mail

    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    wire_domains(app)
    init_mail(app)  # e-mail leaves after the commit (inline in development, else send-mail)
    if app.config.get("DEV_MAILBOX"):
        from portal.blueprints.dev import bp as dev_bp

        app.register_blueprint(dev_bp)


def wire_domains(app: Flask) -> None:
    """What each domain adds to the shared parts — menu, staff tiles, demo data, commands, LGPD
    sections, to-do, file rules, settlement listeners, API gates, queues, reminders — declared
    in its ``init_app`` and kept in this app's registries (``portal.wiring``). The order is the
    order of the staff home's queue cards and of the dashboard tiles."""
    from portal.blueprints import (
        account,
        admin,
        adoption,
        animals,
        auth,
        billing,
        enforcement,
        establishments,
        impound,
        licences,
        open311,
        reports,
        sterilisation,
    )
    from portal.blueprints.reminders import init_reminder_job
    from portal.blueprints.workspace import init_workspace
    from portal.wiring import init_wiring

    init_wiring(app)
    auth.init_app(app)  # who is signed in (the sign-in rows)
    admin.init_app(app)  # the people search
    animals.init_app(app)  # RGA
    adoption.init_app(app)
    billing.init_app(app)
    establishments.init_app(app)  # an establishment's API token needs a valid cadastro
    reports.init_app(app)  # maus-tratos reports
    open311.init_app(app)  # its error format for URLs no rule matched
    enforcement.init_app(app)
    impound.init_app(app)
    licences.init_app(app)  # only where the law has the licence
    sterilisation.init_app(app)  # only where the law has the programme
    account.init_app(app)  # contact suggestions from establishments
    init_workspace(app)  # the staff queues the domains declared
    init_reminder_job(app)  # their reminders (flask run-reminders)


def register_errorhandlers(app: Flask) -> None:
    from portal.errors import init_errorhandlers

    init_errorhandlers(app)


def register_template_helpers(app: Flask) -> None:
    from portal.templating import init_templating

    init_templating(app)


def register_commands(app: Flask) -> None:
    from portal.cli import init_commands

    init_commands(app)


def register_assets(app: Flask) -> None:
    """Versioned static URLs, cache headers and compression (portal/assets.py)."""
    from portal.assets import init_assets

    init_assets(app)


def register_security_headers(app: Flask) -> None:
    from flask import request

    from portal import csp

    @app.after_request
    def headers(response):
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault(
            "Permissions-Policy", "camera=(), microphone=(), geolocation=()"
        )
        if app.config.get("SESSION_COOKIE_SECURE"):  # production: HTTPS only, remembered
            response.headers.setdefault(
                "Strict-Transport-Security", "max-age=31536000; includeSubDomains"
            )
        response.headers.setdefault("Content-Security-Policy", csp.policy())
        # No software versions to a scanner. gunicorn sends a bare "gunicorn" and the development
        # server writes its own header before the app's (see hide_dev_server_version); any
        # other server gets a plain name here.
        software = str(request.environ.get("SERVER_SOFTWARE", ""))
        if not software.startswith(("gunicorn", "Werkzeug")):
            response.headers["Server"] = "CCZ"
        return response


def hide_dev_server_version(app: Flask) -> None:
    """Werkzeug's server sends "Werkzeug/x.y Python/x.y" before any header of the app; where it
    serves a production configuration anyway, it says "CCZ" instead."""
    if app.config.get("PRODUCTION"):
        from werkzeug.serving import WSGIRequestHandler

        WSGIRequestHandler.version_string = lambda self: "CCZ"  # type: ignore[method-assign]
