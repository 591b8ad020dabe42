"""Auth views: thin wrappers around auth.services."""

from __future__ import annotations

from flask import current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_user, logout_user

from portal.access import local_target, public, signed_in
from portal.blueprints.auth import bp, freshness, second_factor, services
from portal.blueprints.auth.forms import (
    ClaimForm,
    LoginForm,
    ResetPasswordForm,
    ResetRequestForm,
    SignupForm,
)
from portal.extensions import db, limiter
from portal.forms import EmptyForm
from portal.models import User
from portal.services import twofactor


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


def sign_in(user: User, remember: bool = False) -> None:
    """A fresh session (no fixation) carrying the user's session version (see User.get_id)."""
    _fresh_session()
    login_user(user, remember=remember)
    freshness.password_entered()


def _forget_browser() -> None:
    """Drop the session and have Flask-Login delete the remember cookie in this response."""
    logout_user()
    _fresh_session()
    session["_remember"] = "clear"


@bp.route("/cadastro", methods=["GET", "POST"])
@public
@limiter.limit("20/hour", methods=["POST"])
def signup():
    if current_user.is_authenticated:
        return redirect(url_for("main.home"))
    form = SignupForm()
    if form.validate_on_submit():
        try:
            user = services.register_citizen(
                full_name=form.full_name.data,
                cpf=form.cpf.data,
                birth_date=form.birth_date.data,
                email=form.email.data,
                phone=form.phone.data,
                password=form.password.data,
            )
        except services.AccountError as err:
            db.session.rollback()
            getattr(form, err.field or "cpf").errors.append(err.message)
        else:
            db.session.commit()
            if user is None:
                # The CPF or the e-mail is already known: one answer for every case, the
                # explanation (or the claim link, at the e-mail on file) goes by e-mail.
                flash(
                    _(
                        "Recebemos seu pedido. Enviamos por e-mail as instruções para continuar: "
                        "confira a caixa de entrada (e o spam)."
                    ),
                    "info",
                )
                return redirect(url_for("auth.login"))
            sign_in(user)
            flash(
                _(
                    "Conta criada. Enviamos um link de confirmação para %(email)s.",
                    email=user.email,
                ),
                "success",
            )
            return redirect(_safe_next(request.args.get("next")))
    return render_template("auth/signup.html", form=form)


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
                second_factor.begin(
                    user,
                    remember=bool(form.remember.data),
                    next_url=_safe_next(request.args.get("next"), user),
                )
            )
        else:
            db.session.commit()
            sign_in(user, remember=bool(form.remember.data))
            flash(_("Bem-vindo(a), %(name)s.", name=user.short_name), "success")
            return redirect(_safe_next(request.args.get("next"), user))
    return render_template("auth/login.html", form=form)


@bp.post("/sair")
@signed_in
def logout():
    form = EmptyForm()
    if form.validate_on_submit():
        _forget_browser()
        flash(_("Você saiu da sua conta."), "info")
    return redirect(url_for("main.home"))


@bp.post("/sair-de-todos")
@signed_in
def logout_everywhere():
    """Every session and remember cookie of the account stops working, this one included."""
    if EmptyForm().validate_on_submit():
        current_user.bump_session_version()
        db.session.commit()
        _forget_browser()
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
    if form.validate_on_submit():
        services.claim_record(user, form.password.data)
        db.session.commit()
        sign_in(user)
        flash(_("Conta ativada. Bem-vindo(a), %(name)s.", name=user.short_name), "success")
        return redirect(url_for("main.home"))
    return render_template("auth/claim.html", form=form)


@bp.get("/confirmar/<token>")
@public
def confirm_email(token: str):
    user = services.confirm_email(token)
    if user is None:
        flash(_("Link de confirmação inválido ou expirado. Peça um novo."), "danger")
        return redirect(
            url_for("account.profile") if current_user.is_authenticated else url_for("auth.login")
        )
    db.session.commit()
    flash(_("E-mail confirmado. Obrigado!"), "success")
    return redirect(
        url_for("account.profile") if current_user.is_authenticated else url_for("auth.login")
    )


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
    if form.validate_on_submit():
        services.set_password(user, form.password.data)  # every open session is signed out
        db.session.commit()
        if current_user.is_authenticated:
            _forget_browser()
        flash(_("Senha alterada. Entre com a nova senha."), "success")
        return redirect(url_for("auth.login"))
    return render_template("auth/reset.html", form=form)
