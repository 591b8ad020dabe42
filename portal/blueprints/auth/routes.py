"""Auth views: thin wrappers around auth.services."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_user, logout_user

from portal.access import local_target, public, signed_in
from portal.blueprints.auth import bp, services
from portal.blueprints.auth.forms import LoginForm, ResetPasswordForm, ResetRequestForm, SignupForm
from portal.extensions import db, limiter
from portal.forms import EmptyForm


def _safe_next(target: str | None) -> str:
    return local_target(target) or url_for("main.home")


def _fresh_session() -> None:
    """Against session fixation: whatever the session held before sign-in (and its CSRF token)
    is dropped; only the language choice survives."""
    lang = session.get("lang")
    session.clear()
    if lang:
        session["lang"] = lang


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
                full_name=form.full_name.data, cpf=form.cpf.data, birth_date=form.birth_date.data,
                email=form.email.data, phone=form.phone.data, password=form.password.data)
        except services.AccountError as err:
            db.session.rollback()
            getattr(form, err.field or "cpf").errors.append(err.message)
        else:
            db.session.commit()
            _fresh_session()
            login_user(user)
            flash(_("Conta criada. Enviamos um link de confirmação para %(email)s.",
                    email=user.email), "success")
            return redirect(_safe_next(request.args.get("next")))
    return render_template("auth/signup.html", form=form)


@bp.route("/entrar", methods=["GET", "POST"])
@public
@limiter.limit("10/minute;50/hour", methods=["POST"])
def login():
    if current_user.is_authenticated:
        return redirect(_safe_next(request.args.get("next")))
    form = LoginForm()
    if form.validate_on_submit():
        user = services.authenticate(form.email.data, form.password.data)
        if user is None:
            form.password.errors.append(_("E-mail ou senha incorretos."))
        else:
            db.session.commit()
            _fresh_session()
            login_user(user, remember=form.remember.data)
            flash(_("Bem-vindo(a), %(name)s.", name=user.full_name.split()[0]), "success")
            return redirect(_safe_next(request.args.get("next")))
    return render_template("auth/login.html", form=form)


@bp.post("/sair")
@signed_in
def logout():
    form = EmptyForm()
    if form.validate_on_submit():
        logout_user()
        _fresh_session()
        flash(_("Você saiu da sua conta."), "info")
    return redirect(url_for("main.home"))


@bp.get("/confirmar/<token>")
@public
def confirm_email(token: str):
    user = services.confirm_email(token)
    if user is None:
        flash(_("Link de confirmação inválido ou expirado. Peça um novo."), "danger")
        return redirect(url_for("account.profile") if current_user.is_authenticated
                        else url_for("auth.login"))
    db.session.commit()
    flash(_("E-mail confirmado. Obrigado!"), "success")
    return redirect(url_for("account.profile") if current_user.is_authenticated
                    else url_for("auth.login"))


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
        flash(_("Se houver uma conta com esse e-mail, enviamos um link para criar nova senha."),
              "info")
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
        user.password_hash = services.hash_password(form.password.data)
        db.session.commit()
        flash(_("Senha alterada. Entre com a nova senha."), "success")
        return redirect(url_for("auth.login"))
    return render_template("auth/reset.html", form=form)
