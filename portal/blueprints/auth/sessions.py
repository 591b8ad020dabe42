"""Server-side sign-ins (issue 26, Medium 3 and 4): a session cookie is only as good as its row.

Flask-Login keeps ``"<user id>:<session version>:<token>"`` in the session and, with "Manter-me
conectado", in the remember cookie. Each request (``load_user``) finds the token's
:class:`LoginSession` row and lets the person in only when

* the row exists, belongs to that person and has not ended ("Sair" ends it, so a copy of the
  cookies taken before logout is worthless);
* the person's ``session_version`` is the one the cookie was issued with (a password change,
  "Sair de todos" or any change of roles bumps it: every session of the person ends);
* the account is active; and
* for an account that needs a second factor (staff), THIS sign-in passed it: a role granted to a
  person signed in with a password alone never turns that session into a staff session.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask import current_app, g, session
from sqlalchemy import delete, or_, select, update

from portal.extensions import db
from portal.models import LoginSession, User
from portal.models.base import utcnow
from portal.services.ids import parse_id


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _max_age() -> timedelta:
    """A sign-in lasts as long as its remember cookie may (30 days), never longer."""
    value = current_app.config.get("REMEMBER_COOKIE_DURATION") or timedelta(days=30)
    return value if isinstance(value, timedelta) else timedelta(seconds=int(value))


def open_session(user: User, *, second_factor: bool) -> str:
    """A new sign-in row for ``user``; returns the value Flask-Login keeps as the user id.

    The person's rows that ended or expired go now: the table holds live sign-ins, not a log
    (the audit trail is the log)."""
    db.session.execute(
        delete(LoginSession).where(
            LoginSession.user_id == user.id,
            or_(
                LoginSession.ended_at.is_not(None),
                LoginSession.created_at < utcnow() - _max_age(),
            ),
        )
    )
    token = secrets.token_urlsafe(32)
    row = LoginSession(
        user_id=user.id,
        token_hash=_digest(token),
        second_factor_at=utcnow() if second_factor else None,
    )
    db.session.add(row)
    db.session.flush()
    return f"{user.id}:{user.session_version}:{token}"


def _token_of(user_id: str | None) -> str | None:
    parts = str(user_id or "").split(":")
    return parts[2] if len(parts) == 3 and parts[2] else None


def current_row() -> LoginSession | None:
    """The row of this request's sign-in (loaded by :func:`load_user`), if any."""
    row = g.get("login_session")
    return row if isinstance(row, LoginSession) else None


def passed_second_factor() -> bool:
    row = current_row()
    return row is not None and row.second_factor_at is not None


def load_user(user_id: str) -> User | None:
    """Flask-Login's user loader (session and remember cookie alike); None signs nobody in."""
    from portal.services import twofactor

    key, version, token = (str(user_id).split(":") + ["", "", ""])[:3]
    person_id = parse_id(key)
    if person_id is None or not (version.isascii() and version.isdigit()) or not token:
        return None  # includes the "<id>:<version>" ids issued before sign-ins had rows
    found = db.session.execute(  # the row and the person in one query (roles: selectin, as before)
        select(LoginSession, User)
        .join(User, User.id == LoginSession.user_id)
        .where(LoginSession.token_hash == _digest(token))
    ).first()
    if found is None:
        return None
    row, user = found
    if row.ended_at is not None or user.id != person_id or row.created_at < utcnow() - _max_age():
        return None
    if user.session_version != int(version) or not user.active:
        return None
    if row.second_factor_at is None and twofactor.required_for(user):
        return None  # a staff account, signed in without its second factor
    g.login_session = row
    return user


def end_current() -> None:
    """ "Sair": the row of this browser's sign-in ends (its cookies, wherever copied, too)."""
    token = _token_of(session.get("_user_id"))
    if token is None:
        return
    db.session.execute(
        update(LoginSession)
        .where(LoginSession.token_hash == _digest(token), LoginSession.ended_at.is_(None))
        .values(ended_at=utcnow())
    )
    db.session.flush()


def end_all(user: User) -> None:
    """Every sign-in of ``user`` ends, on every device (and every remember cookie)."""
    user.bump_session_version()
    db.session.execute(
        update(LoginSession)
        .where(LoginSession.user_id == user.id, LoginSession.ended_at.is_(None))
        .values(ended_at=utcnow())
    )
    db.session.flush()


def renew(user: User, *, remember: bool) -> None:
    """After a session-version bump, sign this browser in again (the others stay signed out),
    keeping whether it passed the second factor; the caller commits."""
    from flask_login import login_user

    second_factor = passed_second_factor()
    login_user(user, remember=remember)
    session["_user_id"] = open_session(user, second_factor=second_factor)
