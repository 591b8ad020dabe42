"""Auth views: thin wrappers around auth.services."""

from __future__ import annotations

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_user, logout_user

from portal.access import local_target, public, signed_in
from portal.blueprints.auth import bp, freshness, services, sessions
from portal.blueprints.auth import second_factor as second_step  # its view has the name
from portal.blueprints.auth.forms import (
    ClaimForm,
    CodeForm,
    ConfirmPasswordForm,
    LoginForm,
    ResetPasswordForm,
    ResetRequestForm,
    SignupForm,
)
from portal.extensions import db, limiter
from portal.forms import EmptyForm
from portal.models import User
from portal.services import audit, twofactor
from portal.services.clock import current_profile
from portal.views import run_service


def _safe_next(target: str | None, user: User | None = None) -> str:
    """A safe local ``next``; otherwise staff land in the CCZ area and citizens on the home page."""
    target = local_target(target)
    if target:
        return target
    if user is not None and user.is_staff and "admin.dashboard" in current_app.view_functions:
        return url_for("admin.dashboard")
    return url_for("main.home")


def _login_account_key() -> str:
    """Login attempts are also counted per account: many addresses guessing one password."""
    return "login-account:" + (request.form.get("email") or "").strip().lower()[:254]


def _fresh_session() -> None:
    """Against session fixation: whatever the session held before sign-in (and its CSRF token)
    is dropped; only the language choice survives."""
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang


def sign_in(user: User, remember: bool = False, *, second_factor: bool = False) -> None:
    """A fresh session (no fixation) bound to a new sign-in row (see auth.sessions), which
    records whether this sign-in passed the second factor; the caller commits."""
    _fresh_session()
    login_user(user, remember=remember)
    # The sign-in's token joins the id Flask-Login keeps (session and remember cookie alike).
    session["_user_id"] = sessions.open_session(user, second_factor=second_factor)
    freshness.password_entered()


def _forget_browser() -> None:
    """End this sign-in server-side (copied cookies die with it), drop the session and have
    Flask-Login delete the remember cookie in this response."""
    sessions.end_current()
    logout_user()
    _fresh_session()
    session["_remember"] = "clear"


@bp.route("/cadastro", methods=["GET", "POST"])
@public
@limiter.limit("20/hour", methods=["POST"])
def signup():
    """One answer for every sign-up (new CPF, known CPF, known e-mail): "we sent you an e-mail".

    Nobody is signed in here; a new account opens through the link mailed to it."""
    if current_user.is_authenticated:
        return redirect(url_for("main.home"))
    form = SignupForm()
    if form.validate_on_submit() and (
        run_service(
            lambda: services.register_citizen(
                full_name=form.full_name.data,
                cpf=form.cpf.data,
                birth_date=form.birth_date.data,
                email=form.email.data,
                phone=form.phone.data,
                password=form.password.data,
            ),
            form=form,
            fallback="cpf",  # a problem that no field of the form takes is shown at the CPF
        ).ok
    ):
        session["signup_email"] = form.email.data.strip().lower()
        return redirect(url_for("auth.signup_sent"))
    return render_template("auth/signup.html", form=form)


@bp.get("/cadastro/enviado")
@public
def signup_sent():
    email = session.get("signup_email")
    if not email:
        return redirect(url_for("auth.signup"))
    return render_template("auth/signup_sent.html", email=email, resend_form=EmptyForm())


def _signup_email_key() -> str:
    """Resending is also counted per address: one inbox is not flooded from many sessions."""
    return "signup-resend:" + str(session.get("signup_email") or "")[:254]


@bp.post("/cadastro/reenviar")
@public
@limiter.limit("3/hour;10/day")
@limiter.limit("3/hour", key_func=_signup_email_key)
def resend_signup_email():
    """Send sign-up's e-mail again, to the address typed in this browser (kept in its session)."""
    email = session.get("signup_email")
    if not email:
        return redirect(url_for("auth.signup"))
    if EmptyForm().validate_on_submit():
        services.resend_signup_email(email)
        db.session.commit()
        flash(_("Enviamos o e-mail de novo. Confira também a caixa de spam."), "info")
    return redirect(url_for("auth.signup_sent"))


@bp.route("/entrar", methods=["GET", "POST"])
@public
@limiter.limit("10/minute;50/hour", methods=["POST"])
@limiter.limit("10/minute;30/hour", methods=["POST"], key_func=_login_account_key)
def login():
    if current_user.is_authenticated:
        return redirect(_safe_next(request.args.get("next"), current_user))
    form = LoginForm()
    if form.validate_on_submit():
        user = services.authenticate(form.email.data, form.password.data)
        if user is None:
            form.password.errors.append(_("E-mail ou senha incorretos."))
        elif twofactor.required_for(user):  # staff: the password alone does not sign in
            db.session.commit()
            _fresh_session()
            return redirect(
                second_step.begin(
                    user,
                    remember=bool(form.remember.data),
                    next_url=_safe_next(request.args.get("next"), user),
                )
            )
        else:
            sign_in(user, remember=bool(form.remember.data))
            db.session.commit()
            flash(_("Bem-vindo(a), %(name)s.", name=user.short_name), "success")
            return redirect(_safe_next(request.args.get("next"), user))
    return render_template("auth/login.html", form=form)


@bp.post("/sair")
@signed_in
def logout():
    form = EmptyForm()
    if form.validate_on_submit():
        _forget_browser()
        db.session.commit()
        flash(_("Você saiu da sua conta."), "info")
    return redirect(url_for("main.home"))


@bp.post("/sair-de-todos")
@signed_in
def logout_everywhere():
    """Every session and remember cookie of the account stops working, this one included."""
    if EmptyForm().validate_on_submit():
        sessions.end_all(current_user._get_current_object())
        _forget_browser()
        db.session.commit()
        flash(_("Você saiu da sua conta em todos os aparelhos."), "info")
        return redirect(url_for("auth.login"))
    return redirect(url_for("account.profile"))


@bp.route("/ativar/<token>", methods=["GET", "POST"])
@public
@limiter.limit("10/minute", methods=["POST"])
def claim_account(token: str):
    """The link mailed to the e-mail on file of a record a clinic created: set a password."""
    user = services.user_for_claim_token(token)
    if user is None:
        flash(
            _(
                "Link inválido, expirado ou já usado. Se a conta já foi ativada, entre com sua "
                "senha ou peça uma nova."
            ),
            "danger",
        )
        return redirect(url_for("auth.login"))
    form = ClaimForm()
    form.person = user
    if form.validate_on_submit():
        services.claim_record(user, form.password.data)
        sign_in(user)
        db.session.commit()
        flash(_("Conta ativada. Bem-vindo(a), %(name)s.", name=user.short_name), "success")
        return redirect(url_for("main.home"))
    return render_template("auth/claim.html", form=form)


@bp.get("/confirmar/<token>")
@public
def confirm_email(token: str):
    """Confirms the address (and activates a new account); it never signs anyone in: the
    password is asked next, so a link read by someone else, or opened by a mail scanner, is not
    enough to enter the account."""
    back = url_for("account.profile") if current_user.is_authenticated else url_for("auth.login")
    user = services.confirm_email(token)
    if user is None:
        flash(_("Link de confirmação inválido ou expirado. Peça um novo."), "danger")
        return redirect(back)
    db.session.commit()
    if current_user.is_authenticated:
        flash(_("E-mail confirmado. Obrigado!"), "success")
    else:
        flash(_("E-mail confirmado. Entre com seu e-mail e sua senha."), "success")
    return redirect(back)


@bp.post("/confirmar/reenviar")
@signed_in
@limiter.limit("5/hour")
def resend_confirmation():
    if EmptyForm().validate_on_submit() and current_user.email_confirmed_at is None:
        services.send_confirmation(current_user)
        db.session.commit()
        flash(_("Enviamos um novo link de confirmação."), "info")
    return redirect(url_for("account.profile"))


@bp.route("/senha/esqueci", methods=["GET", "POST"])
@public
@limiter.limit("5/minute;20/hour", methods=["POST"])
def forgot_password():
    form = ResetRequestForm()
    if form.validate_on_submit():
        services.send_password_reset(form.email.data)
        db.session.commit()
        flash(
            _("Se houver uma conta com esse e-mail, enviamos um link para criar nova senha."),
            "info",
        )
        return redirect(url_for("auth.login"))
    return render_template("auth/forgot.html", form=form)


@bp.route("/senha/nova/<token>", methods=["GET", "POST"])
@public
@limiter.limit("10/minute", methods=["POST"])
def reset_password(token: str):
    user = services.user_for_reset_token(token)
    if user is None:
        flash(_("Link inválido ou expirado. Peça um novo."), "danger")
        return redirect(url_for("auth.forgot_password"))
    form = ResetPasswordForm()
    form.person = user
    if form.validate_on_submit():
        services.set_password(user, form.password.data)  # every open session is signed out
        if current_user.is_authenticated:
            _forget_browser()
        db.session.commit()
        flash(_("Senha alterada. Entre com a nova senha."), "success")
        return redirect(url_for("auth.login"))
    return render_template("auth/reset.html", form=form)


# The second step of a staff login (second_factor.py keeps its session keys and limits)


def _finish_second_factor(user: User):
    """The sign-in completed after the second factor: a fresh session, to the page asked for."""
    remember, next_url = bool(session.get("2fa_remember")), session.get("2fa_next") or "/"
    # A fresh session (the pending keys go with the old one), marked as having passed the
    # second factor: only such a session lets a staff account in (auth.sessions.load_user).
    sign_in(user, remember=remember, second_factor=True)
    flash(_("Bem-vindo(a), %(name)s.", name=user.short_name), "success")
    return redirect(next_url)


@bp.route("/verificacao", methods=["GET", "POST"])
@public
@limiter.limit("10/minute;30/hour", methods=["POST"])
@limiter.limit(
    "5/15minutes;20/day",
    methods=["POST"],
    key_func=second_step.pending_account_key,
    deduct_when=second_step.wrong_code,
    on_breach=second_step.alert_account,
)
def second_factor():
    user = second_step.pending_user()
    if not twofactor.is_enrolled(user):
        return redirect(url_for("auth.enrol_second_factor"))
    form = CodeForm()
    if form.validate_on_submit():
        if twofactor.check_second_factor(user, form.code.data):
            audit.record("auth.second_factor_ok", user, actor_id=user.id)
            response = _finish_second_factor(user)
            db.session.commit()
            return response
        db.session.commit()  # a used recovery code or step stays used
        form.code.errors.append(_("Código inválido ou já usado. Confira o relógio do celular."))
    return render_template("auth/second_factor.html", form=form)


@bp.route("/verificacao/cadastrar", methods=["GET", "POST"])
@public
@limiter.limit("10/minute;30/hour", methods=["POST"])
def enrol_second_factor():
    user = second_step.pending_user()
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
            response = _finish_second_factor(user)
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
    codes = session.pop("recovery_codes", None)
    if not codes:
        return redirect(local_target(request.args.get("next")) or url_for("main.home"))
    return render_template(
        "auth/recovery_codes.html",
        codes=codes,
        next=local_target(request.args.get("next")) or url_for("main.home"),
    )


# The password again before a sensitive action (freshness.recent_password sends people here)


@bp.route("/confirmar-senha", methods=["GET", "POST"])
@signed_in
@limiter.limit("10/minute", methods=["POST"])
def confirm_password():
    form = ConfirmPasswordForm()
    target = local_target(request.args.get("next")) or url_for("main.home")
    if form.validate_on_submit():
        if services.check_password(current_user._get_current_object(), form.password.data):
            freshness.password_entered()
            return redirect(target)
        form.password.errors.append(_("Senha incorreta."))
    return render_template("auth/confirm_password.html", form=form)
