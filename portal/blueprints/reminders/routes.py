"""``/conta/lembretes``: which courtesy e-mails a person gets. Legal notices are not listed."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import signed_in
from portal.blueprints.reminders import bp
from portal.extensions import db
from portal.forms import EmptyForm
from portal.models.reminder import ReminderOptOut
from portal.reminders import registry, save_preferences


@bp.route("", methods=["GET", "POST"])
@signed_in
def preferences():
    courtesy = registry().courtesy()
    form = EmptyForm()
    if form.validate_on_submit():
        save_preferences(current_user._get_current_object(), set(request.form.getlist("receber")))
        db.session.commit()
        flash(_("Preferências de lembretes salvas."), "success")
        return redirect(url_for("reminders.preferences"))
    off = set(
        db.session.scalars(
            select(ReminderOptOut.reminder_key).where(ReminderOptOut.user_id == current_user.id)
        )
    )
    return render_template("reminders/preferences.html", reminders=courtesy, off=off, form=form)
