"""The second step of a staff login: enrol an authenticator app (first login) or type its code.

After the password is right, a staff member is *not* signed in yet: the login view keeps only
``session["2fa_user_id"]`` (and the "remember me" choice and the page to go to) and sends them
here. Only a valid code (or an unused recovery code) completes the sign-in. Recovery codes are
shown once, at enrolment.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import Response, abort, flash, redirect, render_template, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_limiter import RequestLimit
from flask_wtf import FlaskForm
from limits import parse as parse_limit
from wtforms import StringField
from wtforms.validators import DataRequired, Length

from portal.access import public
from portal.blueprints.auth import bp
from portal.extensions import db, limiter
from portal.models import User
from portal.services import audit, twofactor
from portal.services.clock import current_profile
from portal.services.mail import send_email
from portal.urls import absolute_url

PENDING_MINUTES = 10  # the password step is good for this long


class CodeForm(FlaskForm):
    code = StringField(
        _l("Código do aplicativo autenticador"),
        validators=[DataRequired(_l("Digite o código.")), Length(max=20)],
        render_kw={"inputmode": "numeric", "autocomplete": "one-time-code"},
    )


def begin(user: User, *, remember: bool, next_url: str) -> str:
    """Called by the login view after the password: where to go for the second factor."""
    session["2fa_user_id"] = user.id
    session["2fa_remember"] = remember
    session["2fa_next"] = next_url
    session["2fa_started"] = datetime.now(UTC).isoformat()
    return url_for(
        "auth.second_factor" if twofactor.is_enrolled(user) else "auth.enrol_second_factor"
    )


def _pending_user() -> User:
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


def _finish(user: User):
    from portal.blueprints.auth.routes import sign_in

    remember, next_url = bool(session.get("2fa_remember")), session.get("2fa_next") or "/"
    # A fresh session (the pending keys go with the old one), marked as having passed the
    # second factor: only such a session lets a staff account in (auth.sessions.load_user).
    sign_in(user, remember=remember, second_factor=True)
    flash(_("Bem-vindo(a), %(name)s.", name=user.short_name), "success")
    return redirect(next_url)


def _pending_account_key() -> str:
    """Wrong codes are also counted per account: guesses spread over many addresses (each with
    the stolen password) still stop (issue 26, Low 10)."""
    return "2fa-account:" + str(session.get("2fa_user_id") or "-")


def _wrong_code(response: Response) -> bool:
    """Only a refused code counts against the account (the page is shown again: 200)."""
    return response.status_code == 200


def _alert_account(limit: RequestLimit) -> None:
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


@bp.route("/verificacao", methods=["GET", "POST"])
@public
@limiter.limit("10/minute;30/hour", methods=["POST"])
@limiter.limit(
    "5/15minutes;20/day",
    methods=["POST"],
    key_func=_pending_account_key,
    deduct_when=_wrong_code,
    on_breach=_alert_account,
)
def second_factor():
    user = _pending_user()
    if not twofactor.is_enrolled(user):
        return redirect(url_for("auth.enrol_second_factor"))
    form = CodeForm()
    if form.validate_on_submit():
        if twofactor.check_second_factor(user, form.code.data):
            audit.record("auth.second_factor_ok", user, actor_id=user.id)
            response = _finish(user)
            db.session.commit()
            return response
        db.session.commit()  # a used recovery code or step stays used
        form.code.errors.append(_("Código inválido ou já usado. Confira o relógio do celular."))
    return render_template("auth/second_factor.html", form=form)


@bp.route("/verificacao/cadastrar", methods=["GET", "POST"])
@public
@limiter.limit("10/minute;30/hour", methods=["POST"])
def enrol_second_factor():
    user = _pending_user()
    if twofactor.is_enrolled(user):
        return redirect(url_for("auth.second_factor"))
    record = twofactor.secret_of(user)
    form = CodeForm()
    if record is None or (not form.is_submitted()):
        record = twofactor.start_enrolment(user) if record is None else record
        db.session.commit()
    if form.validate_on_submit():
        codes = twofactor.confirm_enrolment(user, form.code.data)
        if codes is not None:
            audit.record("auth.second_factor_enrolled", user, actor_id=user.id)
            response = _finish(user)
            db.session.commit()
            session["recovery_codes"] = codes
            return redirect(url_for("auth.recovery_codes", next=response.location))
        form.code.errors.append(
            _("Código inválido. Digite o código que o aplicativo mostra agora.")
        )
    uri = twofactor.provisioning_uri(user, record, current_profile().municipality)
    return render_template(
        "auth/enrol_second_factor.html", form=form, qr=twofactor.qr_svg(uri), secret=record.secret
    )


@bp.get("/verificacao/codigos")
@public
def recovery_codes():
    """The recovery codes, once, right after enrolment (they are not stored in clear)."""
    from flask import request

    from portal.access import local_target

    codes = session.pop("recovery_codes", None)
    if not codes:
        return redirect(local_target(request.args.get("next")) or url_for("main.home"))
    return render_template(
        "auth/recovery_codes.html",
        codes=codes,
        next=local_target(request.args.get("next")) or url_for("main.home"),
    )
