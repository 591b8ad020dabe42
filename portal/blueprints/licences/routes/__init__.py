"""The citizen's pages ("Minhas licenças", a request and its answer, the PDF) and the public check
page of a licence, which shows nothing about its holder. The request itself (and its renewal) is
made in steps: ``routes.wizard``."""

from __future__ import annotations

from flask import Response, abort, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import public, signed_in
from portal.blueprints.licences import bp, progress
from portal.blueprints.licences.common import document_name, inside_fees, normalise_code, rule_of
from portal.blueprints.licences.forms import AnswerForm
from portal.blueprints.licences.labels import event_label, status_label
from portal.blueprints.licences.requests import answer_info
from portal.blueprints.licences.terms import public_status, renewal_of, renewal_window
from portal.extensions import db
from portal.kept_uploads import Kept, Slot, keep
from portal.models import Animal, ExcessLicence, PaymentItem
from portal.services import drafts
from portal.services.clock import current_profile, local_today
from portal.urls import absolute_url
from portal.views import run_service

ANSWER_DRAFT = "licence_answer"  # the person's draft holding the answer's documents


def _own(licence_id: int) -> ExcessLicence:
    licence = db.session.get(ExcessLicence, licence_id)
    if licence is None or licence.holder_id != current_user.id:
        abort(404)
    return licence


@bp.get("/licencas/minhas")
@signed_in
def mine():
    profile, today = current_profile(), local_today()
    found = db.session.scalars(
        select(ExcessLicence)
        .where(ExcessLicence.holder_id == current_user.id)
        .order_by(ExcessLicence.id.desc())
    ).all()
    rows = [
        (
            lic,
            status_label(lic, today),
            renewal_window(lic, profile),
            renewal_of(lic),
        )
        for lic in found
    ]
    return render_template(
        "licences/mine.html",
        rows=rows,
        next_step=progress.next_step,
        draft_step=_draft_step(),
        today=today,
        rule=rule_of(profile),
        document=document_name(profile),
    )


@bp.get("/licencas/minhas/<int:licence_id>")
@signed_in
def detail(licence_id: int):
    return _detail_page(_own(licence_id), AnswerForm())


def _detail_page(licence: ExcessLicence, form: AnswerForm) -> str:
    """The request's page; ``form``: the answer form, shown again with what was typed."""
    profile, today = current_profile(), local_today()
    held = drafts.find(current_user, ANSWER_DRAFT, str(licence.id))
    return render_template(
        "licences/detail.html",
        licence=licence,
        today=today,
        form=form,
        kept=drafts.held(held).get("files", []),
        status=status_label(licence, today),
        event_label=event_label,
        window=renewal_window(licence, profile),
        renewal=renewal_of(licence),
        public=public_status(licence, today),
        rule=rule_of(profile),
        document=document_name(profile),
        next=progress.next_step(licence, today),
        target_days=progress.decision_target_days(),
        due=progress.decision_due(licence),
        fees=_fees(licence),
        fee_article=price.article if (price := profile.prices.get("registration")) else "",
    )


def _draft_step() -> str | None:
    """The step a request left as a draft stopped at ("Continuar o pedido"), if any."""
    from portal.blueprints.licences.todo import DRAFT_KIND
    from portal.services import drafts

    draft = drafts.find(current_user._get_current_object(), DRAFT_KIND, "")
    return (draft.step or "animais") if draft is not None else None


def _fees(licence: ExcessLicence) -> list[tuple[Animal, PaymentItem]]:
    """The registration fee of each animal registered inside the request (GRU 22 I; BJP 11 a)."""
    return inside_fees([licence.id]).get(licence.id, [])


@bp.post("/licencas/minhas/<int:licence_id>/resposta")
@signed_in
def answer(licence_id: int):
    licence = _own(licence_id)
    form = AnswerForm()
    # issue 25: the documents are held as they arrive; a refusal keeps them and what was typed
    kept = keep(ANSWER_DRAFT, str(licence.id), [Slot("files", many=True)])
    valid = form.validate_on_submit()
    if not kept.show_refused(form) and valid:
        done = run_service(
            lambda: _answer(licence, form, kept),
            form=form,
            fallback="answer",
            success=_("Resposta enviada ao CCZ."),
        )
        if done.ok:
            return redirect(url_for("licences.detail", licence_id=licence.id))
    return _detail_page(licence, form), 400


def _answer(licence: ExcessLicence, form: AnswerForm, kept: Kept) -> None:
    files = [f.stored for f in kept.files("files")]
    answer_info(licence, current_user._get_current_object(), form.answer.data, files)
    kept.discard()  # the documents are the request's now; the draft goes in the same commit


@bp.get("/licencas/minhas/<int:licence_id>/documento.pdf")
@signed_in
def pdf(licence_id: int):
    from portal.blueprints.licences.documents import licence_pdf

    licence = _own(licence_id)
    profile, today = current_profile(), local_today()
    if public_status(licence, today) is None:
        abort(404)
    data = licence_pdf(
        licence, profile, absolute_url("licences.public_check", code=licence.code), today
    )
    return Response(
        data,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'attachment; filename="licenca-{licence.id}.pdf"',
            "Cache-Control": "private, no-store",
        },
    )


@bp.get("/licencas/<code>")
@public
def public_check(code: str):
    """The page the PDF's QR code opens: status, term and cap; nothing about the holder."""
    profile, today = current_profile(), local_today()
    licence = db.session.scalar(
        select(ExcessLicence).where(ExcessLicence.code == normalise_code(code))
    )
    status = public_status(licence, today) if licence is not None else None
    if licence is None or status is None:
        return render_template("licences/public_unknown.html"), 404
    return render_template(
        "licences/public.html",
        licence=licence,
        status=status,
        profile=profile,
        document=document_name(profile),
    )


# the request in steps registers on ``bp`` when imported
from portal.blueprints.licences.routes import wizard  # noqa: E402,F401
