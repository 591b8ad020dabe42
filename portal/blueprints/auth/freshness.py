"""How fresh a staff session must be: signed out after ``STAFF_IDLE_MINUTES`` without a request,
and asked for the password again before a sensitive action (role changes, refunds, approving an
NGO, editing prices) when it was typed more than ``REAUTH_MINUTES`` ago."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from functools import wraps
from typing import Any, TypeVar

from flask import current_app, flash, redirect, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, logout_user

from portal.access import local_target

F = TypeVar("F", bound=Callable[..., Any])


def _now() -> datetime:
    return datetime.now(UTC)


def password_entered() -> None:
    session["password_at"] = _now().isoformat()
    session["seen_at"] = _now().isoformat()


def _older_than(key: str, minutes: int) -> bool:
    stamp = session.get(key)
    if not stamp:
        return True
    try:
        return datetime.fromisoformat(stamp) < _now() - timedelta(minutes=minutes)
    except ValueError:
        return True


def sign_out_idle_staff():
    """A staff session left open on a counter computer ends after 30 minutes idle."""
    minutes = int(current_app.config.get("STAFF_IDLE_MINUTES") or 0)
    if (
        not minutes
        or request.endpoint == "static"
        or not current_user.is_authenticated
        or not current_user.is_staff
    ):
        return None
    if "seen_at" in session and _older_than("seen_at", minutes):
        from portal.blueprints.auth import sessions
        from portal.extensions import db

        sessions.end_current()  # a copy of this idle session's cookies ends with it
        db.session.commit()
        logout_user()
        session.clear()
        flash(
            _("Sua sessão foi encerrada após %(n)s minutos sem uso. Entre de novo.", n=minutes),
            "info",
        )
        return redirect(
            url_for(
                "auth.login",
                next=request.full_path.rstrip("?") if request.method == "GET" else None,
            )
        )
    session["seen_at"] = _now().isoformat()
    return None


def recent_password(view: F) -> F:
    """Ask for the password again when it was typed more than REAUTH_MINUTES ago."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        minutes = int(current_app.config.get("REAUTH_MINUTES") or 15)
        if current_user.is_authenticated and _older_than("password_at", minutes):
            back: str | None
            if request.method == "GET":
                back = request.full_path.rstrip("?")
            else:  # a form cannot be replayed: go back to the page it came from
                back = local_target(request.referrer and "/" + request.referrer.split("/", 3)[-1])
                flash(_("Por segurança, confirme sua senha e repita a ação."), "info")
            return redirect(url_for("auth.confirm_password", next=back))
        return view(*args, **kwargs)

    wrapped.access_policy = getattr(view, "access_policy", None)  # type: ignore[attr-defined]
    return wrapped  # type: ignore[return-value]
