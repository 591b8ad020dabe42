"""Profile page and LGPD data download."""

from __future__ import annotations

import json

from flask import Response, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import signed_in
from portal.blueprints.account import bp
from portal.blueprints.account.forms import ProfileForm
from portal.blueprints.auth.services import find_by_email, send_confirmation
from portal.extensions import db
from portal.forms import EmptyForm
from portal.services import audit
from portal.services.identity import clean_cep
from portal.services.lgpd import export_person


@bp.route("/", methods=["GET", "POST"])
@signed_in
def profile():
    user = current_user._get_current_object()
    form = ProfileForm(obj=user)
    if request.method == "GET":
        # A new account has no address yet: start from the municipality, not the first UF ("AC").
        profile_rule = current_app.extensions["portal_profile"]
        form.state.data = user.state or profile_rule.state
        form.city.data = user.city or profile_rule.municipality
        form.housing_type.data = user.housing_type or "house"
    if form.validate_on_submit():
        new_email = form.email.data.strip().lower()
        other = find_by_email(new_email)
        if other is not None and other.id != user.id:
            form.email.errors.append(_("Este e-mail já está em uso por outra conta."))
        else:
            email_changed = new_email != (user.email or "")
            form.populate_obj(user)
            user.email = new_email
            user.cep = clean_cep(form.cep.data)
            if email_changed:
                user.email_confirmed_at = None
                send_confirmation(user)
            audit.record("account.updated", user)
            db.session.commit()
            flash(_("Dados atualizados."), "success")
            return redirect(url_for("account.profile"))
    return render_template("account/profile.html", form=form, resend_form=EmptyForm())


@bp.get("/meus-dados.json")
@signed_in
def export_data():
    """LGPD art. 18 II: the person's own data, downloadable."""
    payload = json.dumps(export_person(current_user), ensure_ascii=False, indent=2)
    audit.record("account.exported", current_user)
    db.session.commit()
    return Response(payload, mimetype="application/json",
                    headers={"Content-Disposition": "attachment; filename=meus-dados.json"})
