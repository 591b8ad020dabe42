"""Locale and time zone selection: Brazilian Portuguese first, English on request."""

from __future__ import annotations

from flask import current_app, has_request_context, request, session

from portal.services.clock import current_profile


def select_locale() -> str:
    if not has_request_context():  # CLI tasks and background work: the default language
        return current_app.config["BABEL_DEFAULT_LOCALE"]
    lang = request.args.get("lang")
    if lang in current_app.config["LANGUAGES"]:
        session["lang"] = lang
    return session.get("lang") or current_app.config["BABEL_DEFAULT_LOCALE"]


def select_timezone() -> str:
    return current_profile().timezone
