"""Staff record a remedy-term laudo presented on paper (VV 23 II); the owner's pages of the same
duties are in ``routes.duties``."""

from __future__ import annotations

from flask import flash, redirect, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import roles_required
from portal.blueprints.enforcement import bp, duties
from portal.blueprints.enforcement.forms import LaudoReceivedForm
from portal.blueprints.enforcement.routes import document_or_404
from portal.blueprints.enforcement.staff import ISSUERS
from portal.services.clock import current_profile
from portal.views import run_service


@bp.post("/ccz/fiscalizacao/<int:doc_id>/laudo")
@roles_required(*ISSUERS)
def laudo_received(doc_id: int):
    doc = document_or_404(doc_id)
    form = LaudoReceivedForm()
    if not form.validate_on_submit():
        flash(_("Informe a data em que o laudo foi apresentado."), "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
    run_service(
        lambda: duties.file_laudo(
            current_profile(),
            doc,
            current_user,
            received_on=form.received_on.data,
            note=form.note.data,
        ),
        success=_("Laudo registrado; o próximo prazo foi atualizado."),
    )
    return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
