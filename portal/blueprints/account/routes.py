"""Profile page and LGPD data download; password change, contact suggestions from clinics."""

from __future__ import annotations

import json

from flask import Response, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import signed_in
from portal.blueprints.account import bp
from portal.blueprints.account import services as account_services
from portal.blueprints.account.forms import ChangePasswordForm, ProfileForm, SuggestionForm
from portal.blueprints.auth import sessions
from portal.blueprints.auth.services import (
    check_password,
    find_by_email,
)
from portal.extensions import db
from portal.forms import EmptyForm
from portal.services import audit
from portal.services.clock import current_profile
from portal.services.lgpd import export_person
from portal.views import run_service

PROFILE_FIELDS = (
    "phone",
    "street",
    "number",
    "complement",
    "district",
    "city",
    "state",
    "housing_type",
)


def _render_profile(form: ProfileForm, password_form: ChangePasswordForm | None = None):
    user = current_user._get_current_object()
    return render_template(
        "account/profile.html",
        form=form,
        resend_form=EmptyForm(),
        password_form=password_form or ChangePasswordForm(formdata=None, prefix="senha"),
        logout_all_form=EmptyForm(),
        suggestion_form=SuggestionForm(formdata=None),
        suggestions=account_services.pending_suggestions(user),
    )


def _keep_this_session(user) -> None:
    """After a session-version bump, re-sign this browser in (the others stay signed out)."""
    remember = (
        request.cookies.get(current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token"))
        is not None
    )
    sessions.renew(user, remember=remember)


@bp.route("/", methods=["GET", "POST"])
@signed_in
def profile():
    user = current_user._get_current_object()
    form = ProfileForm(obj=user)
    if request.method == "GET":
        # A new account has no address yet: start from the municipality, not the first UF ("AC").
        profile_rule = current_profile()
        form.state.data = user.state or profile_rule.state
        form.city.data = user.city or profile_rule.municipality
        form.housing_type.data = user.housing_type or "house"
    if form.validate_on_submit():
        new_email = form.email.data.strip().lower()
        other = find_by_email(new_email)
        email_changed = new_email != (user.email or "")
        if other is not None and other.id != user.id:
            form.email.errors.append(_("Este e-mail já está em uso por outra conta."))
        elif email_changed and not check_password(user, form.current_password.data or ""):
            form.current_password.errors.append(_("Para trocar o e-mail, informe sua senha atual."))
        else:
            account_services.update_profile(
                user,
                {name: getattr(form, name).data for name in PROFILE_FIELDS},
                cep=form.cep.data,
                new_email=new_email,
            )
            db.session.commit()
            flash(_("Dados atualizados."), "success")
            return redirect(url_for("account.profile"))
    return _render_profile(form)


@bp.post("/senha")
@signed_in
def change_password():
    """Current password first; every other session is signed out and the address is told."""
    user = current_user._get_current_object()
    password_form = ChangePasswordForm(prefix="senha")  # its ids differ from the profile form's
    password_form.person = user
    if password_form.validate_on_submit():

        def change() -> None:
            account_services.change_password(
                user, password_form.current_password.data or "", password_form.password.data
            )
            _keep_this_session(user)

        done = run_service(
            change,
            form=password_form,
            fallback="current_password",
            success=_("Senha alterada. As sessões em outros aparelhos foram encerradas."),
        )
        if done.ok:
            return redirect(url_for("account.profile"))
    form = ProfileForm(formdata=None, obj=user)
    return _render_profile(form, password_form), 200


@bp.post("/sugestoes/<int:suggestion_id>/aceitar")
@signed_in
def accept_suggestion(suggestion_id: int):
    user = current_user._get_current_object()
    suggestion = account_services.own_pending_suggestion(user, suggestion_id)
    form = SuggestionForm()
    if form.validate_on_submit():
        run_service(
            lambda: account_services.accept_suggestion(
                suggestion, password=form.current_password.data or ""
            ),
            success=_("Dados de contato atualizados."),
        )
    return redirect(url_for("account.profile"))


@bp.post("/sugestoes/<int:suggestion_id>/descartar")
@signed_in
def dismiss_suggestion(suggestion_id: int):
    suggestion = account_services.own_pending_suggestion(current_user, suggestion_id)
    if EmptyForm().validate_on_submit():
        account_services.dismiss_suggestion(suggestion)
        db.session.commit()
        flash(_("Sugestão descartada; seus dados continuam como estavam."), "info")
    return redirect(url_for("account.profile"))


@bp.get("/meus-dados.json")
@signed_in
def export_data():
    """LGPD art. 18 II: the person's own data, downloadable."""
    payload = json.dumps(export_person(current_user), ensure_ascii=False, indent=2)
    audit.record("account.exported", current_user)
    db.session.commit()
    return Response(
        payload,
        mimetype="application/json",
        headers={"Content-Disposition": "attachment; filename=meus-dados.json"},
    )
