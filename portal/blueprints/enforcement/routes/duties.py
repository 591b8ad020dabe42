"""Pages of the remedy-term duties (VV 23 II): the owner sends the periodic veterinary laudo and
reports the animal's new address (staff record a laudo presented on paper: ``staff.duties``)."""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import signed_in
from portal.blueprints.enforcement import bp, duties
from portal.blueprints.enforcement.common import EnforcementError
from portal.blueprints.enforcement.forms import AnimalAddressForm, LaudoForm
from portal.blueprints.enforcement.routes import _visible
from portal.kept_uploads import Kept, Slot, keep
from portal.models import EnforcementDocument
from portal.services import drafts
from portal.services.clock import current_profile, local_today
from portal.services.drafts import HeldFile
from portal.views import run_service

LAUDO_PURPOSE = "enforcement_laudo"
_LAUDO_DRAFT = "enforcement_laudo"  # the draft that holds a laudo across a refused post


def _page(
    doc: EnforcementDocument,
    laudo: LaudoForm,
    address: AnimalAddressForm,
    kept: list[HeldFile] | None = None,
) -> Any:
    return render_template(
        "enforcement/duties.html",
        doc=doc,
        laudo_form=laudo,
        kept=kept if kept is not None else _held_laudo(doc),
        address_form=address,
        filings=duties.laudos_of(doc),
        today=local_today(),
        rule=current_profile().notices.remedy_duties,
    )


def _held_laudo(doc: EnforcementDocument) -> list[HeldFile]:
    """The laudo the person sent with a refused post, shown again on any later visit."""
    draft = drafts.find(current_user, _LAUDO_DRAFT, str(doc.id))
    return drafts.held(draft).get("laudo", [])


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
    # issue 25: the laudo is held as soon as it arrives; a refusal of the note keeps it
    kept = keep(_LAUDO_DRAFT, str(doc.id), [Slot("laudo")])
    valid = form.validate_on_submit()
    if not kept.show_refused(form) and valid:
        done = run_service(
            lambda: _file_laudo(doc, form, kept),
            form=form,
            fallback="laudo",
            success=_("Laudo enviado. O CCZ confirmou por e-mail."),
        )
        if done.ok:
            return redirect(url_for("enforcement.duties_page", doc_id=doc.id))
    return _page(doc, form, AnimalAddressForm(), kept=kept.files("laudo"))


def _file_laudo(doc: EnforcementDocument, form: LaudoForm, kept: Kept) -> object:
    """The held laudo, now the document's (VV 23 II); the draft goes in the same commit."""
    held = kept.take("laudo", LAUDO_PURPOSE)
    if not held:
        raise EnforcementError("laudo", "required", _("Anexe o laudo veterinário."))
    filing = duties.file_laudo(
        current_profile(),
        doc,
        current_user,
        file=held[-1],
        note=form.note.data,
    )
    kept.discard()
    return filing


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
