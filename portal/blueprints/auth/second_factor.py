"""The second step of a staff login: enrol an authenticator app (first login) or type its code.
Its pages are in ``routes.py``; this module keeps the pending sign-in and the limits on guessing.

After the password is right, a staff member is *not* signed in yet: the login view keeps only
``session["2fa_user_id"]`` (and the "remember me" choice and the page to go to) and sends them
to those pages. Only a valid code (or an unused recovery code) completes the sign-in. Recovery
codes are shown once, at enrolment.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Response, abort, session, url_for
from flask_babel import gettext as _
from flask_limiter import RequestLimit
from limits import parse as parse_limit

from portal.extensions import db, limiter
from portal.models import User
from portal.services import audit, twofactor
from portal.services.mail import send_email
from portal.urls import absolute_url

PENDING_MINUTES = 10  # the password step is good for this long


def begin(user: User, *, remember: bool, next_url: str) -> str:
    """Called by the login view after the password: where to go for the second factor."""
    session["2fa_user_id"] = user.id
    session["2fa_remember"] = remember
    session["2fa_next"] = next_url
    session["2fa_started"] = datetime.now(UTC).isoformat()
    return url_for(
        "auth.second_factor" if twofactor.is_enrolled(user) else "auth.enrol_second_factor"
    )


def pending_user() -> User:
    started = session.get("2fa_started")
    user_id = session.get("2fa_user_id")
    if (
        not user_id
        or not started
        or datetime.fromisoformat(started) < datetime.now(UTC) - timedelta(minutes=PENDING_MINUTES)
    ):
        abort(403)
    user = db.session.get(User, int(user_id))
    if user is None:
        abort(403)
    return user


def pending_account_key() -> str:
    """Wrong codes are also counted per account: guesses spread over many addresses (each with
    the stolen password) still stop (issue 26, Low 10)."""
    return "2fa-account:" + str(session.get("2fa_user_id") or "-")


def wrong_code(response: Response) -> bool:
    """Only a refused code counts against the account (the page is shown again: 200)."""
    return response.status_code == 200


def alert_account(limit: RequestLimit) -> None:
    """The account's limit was hit: tell the person once an hour (the password is known to
    whoever is guessing) and keep it in the audit trail."""
    user_id = str(session.get("2fa_user_id") or "")
    user = db.session.get(User, int(user_id)) if user_id.isdigit() else None
    if user is None or not user.email:
        return
    if not limiter.limiter.hit(parse_limit("1/hour"), "2fa-alert", str(user.id)):
        return  # already told within the hour
    send_email(
        user.email,
        _("Tentativas de entrar na sua conta do CCZ"),
        _(
            "Olá, %(name)s.\n\nAlguém digitou a senha correta da sua conta no portal do CCZ e "
            "errou várias vezes o código do aplicativo autenticador. Novas tentativas ficam "
            "bloqueadas por um tempo.\n\nSe foi você, confira o relógio do celular e tente de "
            "novo mais tarde. Se não foi você, sua senha foi descoberta: crie uma nova em "
            "%(forgot)s e avise a coordenação do CCZ.",
            name=user.full_name,
            forgot=absolute_url("auth.forgot_password"),
        ),
    )
    audit.record("auth.second_factor_locked", user, actor_id=user.id)
    db.session.commit()
