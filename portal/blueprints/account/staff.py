"""CCZ staff decide a contact suggestion: see it next to the record, accept it or reject it."""

from __future__ import annotations

from flask import redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import TextAreaField
from wtforms.validators import DataRequired, Length

from portal.access import roles_required
from portal.blueprints.account import SUGGESTION_ROLES, staff_bp
from portal.blueprints.account import services as account_services
from portal.blueprints.account.queues import changed_fields
from portal.extensions import db
from portal.forms import EmptyForm
from portal.services import audit
from portal.views import run_service


class RejectForm(FlaskForm):
    reason = TextAreaField(
        _l("Motivo da recusa"),
        validators=[DataRequired(_l("Explique por que a sugestão foi recusada.")), Length(max=500)],
    )


def _render(suggestion, reject_form: RejectForm):
    return render_template(
        "account/staff_suggestion.html",
        suggestion=suggestion,
        changes=suggestion.changes(),
        fields=changed_fields(suggestion),
        accept_form=EmptyForm(),
        reject_form=reject_form,
    )


@staff_bp.get("/<int:suggestion_id>")
@roles_required(*SUGGESTION_ROLES)
def review(suggestion_id: int):
    suggestion = account_services.pending_suggestion(suggestion_id)
    audit.record("contact_suggestion.viewed", suggestion)  # personal data shown to staff
    db.session.commit()
    return _render(suggestion, RejectForm(formdata=None))


@staff_bp.post("/<int:suggestion_id>/aceitar")
@roles_required(*SUGGESTION_ROLES)
def accept(suggestion_id: int):
    suggestion = account_services.pending_suggestion(suggestion_id)
    if not EmptyForm().validate_on_submit():
        return redirect(url_for(".review", suggestion_id=suggestion_id))
    done = run_service(
        lambda: account_services.staff_accept_suggestion(
            suggestion, current_user._get_current_object()
        ),
        success=_("Dados de contato atualizados; a pessoa foi avisada por e-mail."),
    )
    if not done.ok:
        return redirect(url_for(".review", suggestion_id=suggestion_id))
    return redirect(url_for("workspace.queue_list", key="sugestoes-de-contato"))


@staff_bp.post("/<int:suggestion_id>/recusar")
@roles_required(*SUGGESTION_ROLES)
def reject(suggestion_id: int):
    suggestion = account_services.pending_suggestion(suggestion_id)
    form = RejectForm()
    if (
        form.validate_on_submit()
        and run_service(
            lambda: account_services.reject_suggestion(
                suggestion, current_user._get_current_object(), form.reason.data
            ),
            form=form,
            success=_("Sugestão recusada; o cadastro continua como estava."),
            success_category="info",
        ).ok
    ):
        return redirect(url_for("workspace.queue_list", key="sugestoes-de-contato"))
    return _render(suggestion, form)
