"""The addressee's pages ("Minhas notificações", petitions) and the public verification page."""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from portal.access import public, signed_in
from portal.blueprints.enforcement import bp
from portal.blueprints.enforcement.attachments import PURPOSE, petition_files, variant_of
from portal.blueprints.enforcement.authority import authority_ref
from portal.blueprints.enforcement.consequences import consequences_for_cpf
from portal.blueprints.enforcement.documents import document_pdf
from portal.blueprints.enforcement.duties import laudos_of, repeat_finding
from portal.blueprints.enforcement.fines import fine_status
from portal.blueprints.enforcement.forms import PetitionForm, VerifyForm
from portal.blueprints.enforcement.interdiction import offender_charges
from portal.blueprints.enforcement.issue_form import plain_provision
from portal.blueprints.enforcement.labels import enforcement_label
from portal.blueprints.enforcement.petitions import (
    file_petition,
    is_addressee,
    open_petition,
    penalty_of,
    petition_option,
)
from portal.blueprints.enforcement.reading import (
    by_number,
    code_matches,
    current_deadline,
    documents_for,
)
from portal.extensions import db, limiter
from portal.kept_uploads import Kept, Slot, keep
from portal.models import EnforcementDocument
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import current_profile, local_today
from portal.views import run_service

_UNLOCKED = "enforcement_unlocked"
# the petition's file inputs, held in the person's draft of it as they arrive (issue 25)
_PETITION_SLOTS = [Slot("attachments", many=True), Slot("power_of_attorney")]
_FILED = _l("Petição registrada. Você receberá a decisão por e-mail e na sua página inicial.")


def _unlocked(doc: EnforcementDocument) -> bool:
    """The access code was typed in this session (representatives, addressees without a match)."""
    return doc.id in session.get(_UNLOCKED, [])


def render_page(template: str, **context: Any) -> str:
    """An enforcement page: its templates name kinds and states with ``enforcement_label``, which
    the view hands them (no app-wide global)."""
    return render_template(template, enforcement_label=enforcement_label, **context)


def document_context(profile: Profile, doc: EnforcementDocument) -> dict[str, Any]:
    """What the document's own partials show (``_document.html``, ``_duties.html``): the repeat
    finding computed from the record (GRU 87 V-VI) and the laudos presented (VV 23 II)."""
    return {
        "finding": repeat_finding(profile, doc),
        "filings": laudos_of(doc) if doc.laudo_every_days else [],
    }


def document_or_404(doc_id: int) -> EnforcementDocument:
    """The document a staff page acts on (staff read every document), or 404."""
    doc = db.session.get(EnforcementDocument, doc_id)
    if doc is None:
        abort(404)
    return doc


def _visible(doc_id: int) -> EnforcementDocument:
    doc = db.session.get(EnforcementDocument, doc_id)
    if doc is None or doc.knowledge_on is None:
        abort(404)
    if not (is_addressee(doc, current_user) or _unlocked(doc)):
        abort(404)
    return doc


@bp.get("/minhas-notificacoes")
@signed_in
def mine():
    docs = documents_for(current_user)
    profile = current_profile()
    rows = [(d, *current_deadline(d, profile)) for d in docs]
    return render_page(
        "enforcement/mine.html",
        rows=rows,
        today=local_today(),
        consequences=consequences_for_cpf(current_user.cpf),
    )


@bp.get("/minhas-notificacoes/<int:doc_id>")
@signed_in
def detail(doc_id: int):
    doc = _visible(doc_id)
    profile = current_profile()
    due, due_what = current_deadline(doc, profile)
    return render_page(
        "enforcement/detail.html",
        doc=doc,
        due=due,
        due_what=due_what,
        option=petition_option(profile, doc),
        today=local_today(),
        fine_status=fine_status(doc),
        expenses=offender_charges(profile, doc),  # GRU 89 §ú: the interdição's charges
        **document_context(profile, doc),
        **petition_context(profile, doc),
    )


def petition_context(profile: Profile, doc: EnforcementDocument) -> dict[str, Any]:
    """What both document pages show around its petitions (issue 25): the one being judged and
    by whom, the penalty notice a refused defence led to with its appeal term, the attachments."""
    follow = penalty_of(doc) if doc.kind == "infraction" else None
    follow = follow if follow is not None and follow.knowledge_on is not None else None
    return {
        "pending": open_petition(doc),
        "follow": follow,
        "follow_option": petition_option(profile, follow) if follow else None,
        "authority": lambda d, instance: authority_ref(profile, d, instance),
        "files": petition_files(doc),
        "variant_of": variant_of,
        "plain_provision": lambda code: plain_provision(profile, code),
    }


@bp.get("/minhas-notificacoes/<int:doc_id>/documento.pdf")
@signed_in
def pdf(doc_id: int):
    doc = _visible(doc_id)
    return document_pdf(doc, current_profile())


def _file(profile: Profile, doc: EnforcementDocument, form: PetitionForm, kept: Kept) -> Any:
    """File the petition with the files the form's draft holds (issue 25: sent once, kept
    across a refusal), now the petition's own; the draft goes in the same commit."""
    attachments = kept.take("attachments", PURPOSE)
    proxy = kept.take("power_of_attorney", PURPOSE)
    filed = file_petition(
        profile,
        doc,
        current_user,
        text=form.text.data,
        attachments=attachments,
        power_of_attorney=proxy[-1] if proxy else None,
        has_access_code=_unlocked(doc),
    )
    kept.discard()
    return filed


@bp.route("/minhas-notificacoes/<int:doc_id>/peticao", methods=["GET", "POST"])
@signed_in
def petition(doc_id: int):
    doc = _visible(doc_id)
    profile = current_profile()
    form = PetitionForm()
    kept = keep("enforcement_petition", str(doc.id), _PETITION_SLOTS)
    valid = form.validate_on_submit()
    if not kept.show_refused(form) and valid:
        filed = run_service(lambda: _file(profile, doc, form, kept), form=form).value
        if filed is not None:
            # a petition refused without its merit judged is recorded too, and says why
            refused = filed.status == "refused"
            flash(
                filed.decision_reason or "" if refused else str(_FILED),
                "warning" if refused else "success",
            )
            return redirect(url_for("enforcement.detail", doc_id=doc.id))
    return render_template(
        "enforcement/petition.html",
        doc=doc,
        form=form,
        kept=kept.all(),
        option=petition_option(profile, doc),
        representative=not is_addressee(doc, current_user),
        today=local_today(),
        authority=lambda d, instance: authority_ref(profile, d, instance),
    )


@bp.route("/verificar-documento", methods=["GET", "POST"])
@public
@limiter.limit("10/minute;60/hour", methods=["POST"])  # the access code must not be guessed
# a number typed in the query lists a document: numbers are sequential, so not en masse either
@limiter.limit("20/minute;120/hour", methods=["GET"], exempt_when=lambda: not request.args)
def verify():
    form = (
        VerifyForm()
        if request.method == "POST"
        else VerifyForm(formdata=request.args, meta={"csrf": False})
    )
    doc = unlocked = None
    if (
        request.method == "POST"
        and form.validate()
        or (request.method == "GET" and form.number.data)
    ):
        doc = by_number(form.number.data or "")
        if doc is None:
            form.number.errors = [_("Não há documento com este número.")]
        elif request.method == "POST" and form.code.data:
            if code_matches(doc, form.code.data):
                unlocked = doc
                session[_UNLOCKED] = [*session.get(_UNLOCKED, []), doc.id][-20:]
                audit.record("enforcement.code_opened", doc, detail={"number": doc.number})
                db.session.commit()
            else:
                form.code.errors = [_("Código de acesso incorreto.")]
    shown = document_context(current_profile(), unlocked) if unlocked is not None else {}
    return render_page("enforcement/verify.html", form=form, doc=doc, unlocked=unlocked, **shown)


# the views by subject register on ``bp`` when imported
from portal.blueprints.enforcement.routes import duties  # noqa: E402,F401  VV 23 II
