"""Friendly error pages in Portuguese (JSON under /api/), and a CSRF failure that keeps the form."""

from __future__ import annotations

import copy
from typing import Any

from flask import Flask, current_app, flash, g, jsonify, render_template, request, session
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from portal.access import wants_json
from portal.wiring import wiring


def _json_error(status: int, code: str, message: str):
    return jsonify(errors=[{"field": None, "code": code, "message": message}]), status


def with_allow(result: Any, error: HTTPException) -> Any:
    """The answer to ``error`` keeps the exception's ``Allow`` header: a 405 says which methods
    the URL accepts (RFC 9110 §15.5.6; issue 26 #12)."""
    allow = dict(error.get_headers()).get("Allow")
    if not allow:
        return result
    response = current_app.make_response(result)
    response.headers["Allow"] = allow
    return response


def _restore_session(before: dict) -> None:
    """Put the session back as it was before a CSRF retry. Two keys keep their new value: the CSRF
    secret the re-rendered form was signed with (else its next, honest submission would fail
    again) and the flashed messages (the page just showed them; they must not come back)."""
    kept = {current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), "_flashes"}
    after = {key: session[key] for key in kept if key in session}
    session.clear()
    session.update({key: value for key, value in before.items() if key not in kept})
    session.update(after)


def init_errorhandlers(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        """Re-show the same form with what was typed, instead of a dead end.

        The view runs again on this POST; its form fails CSRF validation (so nothing is saved) and
        renders with the submitted values and a fresh token, next to a message. A view may also
        keep what was typed in the session before validating (the RGA wizard's draft): the session
        is put back as it was, so a forged or expired POST changes nothing there either.
        """
        if wants_json():
            return _json_error(400, "csrf", _("Token de segurança ausente ou expirado."))
        view = current_app.view_functions.get(request.endpoint or "")
        if view is None or getattr(g, "csrf_retry", False):
            return render_template(
                "errors/400.html",
                message=_("Sua sessão expirou. Volte, recarregue a página e envie de novo."),
            ), 400
        g.csrf_retry = True
        before = copy.deepcopy(dict(session))
        flash(
            _(
                "Por segurança, confira os dados e envie o formulário de novo "
                "(a sessão tinha expirado)."
            ),
            "warning",
        )
        try:
            try:
                result: Any = view(**(request.view_args or {}))
            except HTTPException as refused:  # e.g. the view's abort(404): answer it, not a 500
                return http_error(refused)
            response = current_app.make_response(result)
        finally:
            _restore_session(before)
        if 300 <= response.status_code < 400:
            # The re-run took a shortcut (e.g. "already signed in"): a redirect would hide that
            # nothing was sent, so say so instead.
            return render_template(
                "errors/400.html",
                message=_("Sua sessão expirou. Volte, recarregue a página e envie de novo."),
            ), 400
        response.status_code = 400 if response.status_code == 200 else response.status_code
        return response

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        for prefix, answer in wiring().error_answers.items():
            if request.path.startswith(prefix):  # a domain's own error format (Open311)
                return answer(error)
        status = error.code or 500
        messages = {
            400: _("Pedido inválido."),
            401: _("Autenticação necessária."),
            403: _("Você não tem permissão para acessar esta página."),
            404: _("Página não encontrada."),
            405: _("Método não permitido."),
            413: _("Arquivo grande demais."),
            429: _("Muitas tentativas. Aguarde um pouco e tente de novo."),
        }
        message = messages.get(status, error.description or _("Erro."))
        if wants_json():
            return with_allow(
                _json_error(status, error.name.lower().replace(" ", "_"), message), error
            )
        template = f"errors/{status}.html" if status in (403, 404, 429) else "errors/400.html"
        return with_allow(
            (render_template(template, message=message, status=status), status), error
        )

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        if isinstance(error, HTTPException):
            return http_error(error)
        current_app.logger.exception("Unhandled error on %s %s", request.method, request.path)
        from portal.extensions import db

        db.session.rollback()
        if wants_json():
            return _json_error(500, "internal_error", _("Erro interno. Tente de novo mais tarde."))
        return render_template("errors/500.html"), 500
