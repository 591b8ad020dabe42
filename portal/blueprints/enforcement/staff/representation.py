"""Staff accept or refuse a representative's power of attorney (GRU 107 §2 III). Accepted, the
representative becomes an addressee of the represented CPF's or CNPJ's notices ("Minhas
notificações"); refused or pending, they keep only what the printed access code opens."""

from __future__ import annotations

from flask import abort, redirect, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import roles_required
from portal.blueprints.enforcement import bp
from portal.blueprints.enforcement.addressees import decide_representation
from portal.blueprints.enforcement.staff import JUDGES
from portal.extensions import db
from portal.forms import EmptyForm
from portal.models import Petition
from portal.views import run_service


@bp.post("/ccz/fiscalizacao/peticoes/<int:petition_id>/representacao")
@roles_required(*JUDGES)
def representation(petition_id: int):
    answer = request.form.get("answer")
    petition = db.session.get(Petition, petition_id)
    if petition is None:
        abort(404)
    if not EmptyForm().validate_on_submit() or answer not in ("aceitar", "recusar"):
        abort(400)
    # the representative is told by e-mail and on their to-do list (issue 25)
    run_service(
        lambda: decide_representation(petition, current_user, accept=answer == "aceitar"),
        success=(
            _("Representação aceita; o representante foi avisado por e-mail.")
            if answer == "aceitar"
            else _("Representação recusada; o representante foi avisado por e-mail.")
        ),
    )
    return redirect(url_for("enforcement.staff_detail", doc_id=petition.document_id))
