"""Pages of the remedy-term duties (VV 23 II): the owner sends the periodic veterinary laudo and
reports the animal's new address; staff record a laudo presented on paper."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import roles_required, signed_in
from portal.blueprints.enforcement import bp, duties
from portal.blueprints.enforcement.common import EnforcementError
from portal.blueprints.enforcement.forms import AnimalAddressForm, LaudoForm, LaudoReceivedForm
from portal.blueprints.enforcement.routes import _visible
from portal.extensions import db
from portal.models import EnforcementDocument
from portal.services.clock import current_profile, local_today
from portal.services.uploads import UploadError, store_document
from portal.views import run_service

LAUDO_PURPOSE = "enforcement_laudo"
ISSUERS = ("agent", "coordinator")


def _page(doc: EnforcementDocument, laudo: LaudoForm, address: AnimalAddressForm) -> Any:
    return render_template(
        "enforcement/duties.html",
        doc=doc,
        laudo_form=laudo,
        address_form=address,
        filings=duties.laudos_of(doc),
        today=local_today(),
        rule=current_profile().notices.remedy_duties,
    )


def _with_duties(doc_id: int) -> EnforcementDocument:
    doc = _visible(doc_id)
    if not doc.laudo_every_days:
        abort(404)  # no VV 23 II duties on this document (or in this city)
    return doc


@bp.get("/minhas-notificacoes/<int:doc_id>/deveres")
@signed_in
def duties_page(doc_id: int):
    doc = _with_duties(doc_id)
    return _page(doc, LaudoForm(), AnimalAddressForm())


@bp.post("/minhas-notificacoes/<int:doc_id>/laudo")
@signed_in
def send_laudo(doc_id: int):
    doc = _with_duties(doc_id)
    form = LaudoForm()
    upload = form.laudo.data
    if form.validate_on_submit():
        try:
            if not upload or not getattr(upload, "filename", ""):
                raise EnforcementError("laudo", "required", _("Anexe o laudo veterinário."))
            stored = store_document(
                upload.stream,
                purpose=LAUDO_PURPOSE,
                owner_id=current_user.id,
                filename=upload.filename,
            )
            duties.file_laudo(
                current_profile(), doc, current_user, file=stored, note=form.note.data
            )
        except UploadError as err:
            db.session.rollback()
            form.laudo.errors = [*form.laudo.errors, err.message]
        except EnforcementError as err:
            db.session.rollback()
            if not err.show_on(form):
                flash(err.message, "danger")
        else:
            db.session.commit()
            flash(_("Laudo enviado. O CCZ confirmou por e-mail."), "success")
            return redirect(url_for("enforcement.duties_page", doc_id=doc.id))
    return _page(doc, form, AnimalAddressForm())


@bp.post("/minhas-notificacoes/<int:doc_id>/endereco-do-animal")
@signed_in
def animal_address(doc_id: int):
    doc = _with_duties(doc_id)
    form = AnimalAddressForm()
    if form.validate_on_submit():
        done = run_service(
            lambda: duties.report_address(current_profile(), doc, current_user, form.address.data),
            form=form,
            success=_("Novo endereço do animal registrado."),
        )
        if done.ok:
            return redirect(url_for("enforcement.duties_page", doc_id=doc.id))
    return _page(doc, LaudoForm(), form)


@bp.post("/ccz/fiscalizacao/<int:doc_id>/laudo")
@roles_required(*ISSUERS)
def laudo_received(doc_id: int):
    doc = db.session.get(EnforcementDocument, doc_id)
    if doc is None:
        abort(404)
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
