"""The CCZ's side: assignment, inspection (BJP 17 §1; CAB 31 §2), questions to the citizen,
approval, refusal and cancellation (GRU 37 §1 III)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from flask_babel import gettext as _

from portal.blueprints.licences.common import (
    LicenceError,
    Upload,
    document_name,
    notify_holder,
    record_event,
    rule_of,
)
from portal.blueprints.licences.terms import first_issued_on, term_end
from portal.extensions import db
from portal.models import (
    ExcessLicence,
    LicenceFile,
    LicenceInspection,
    LicenceStatus,
    StoredFile,
    User,
)
from portal.models.base import utcnow
from portal.models.licence import OPEN_STATUSES
from portal.profiles.schema import Profile
from portal.services import audit

# ---------------------------------------------------------------------------------------------
# The CCZ
# ---------------------------------------------------------------------------------------------


def file_viewed(licence: ExcessLicence) -> None:
    """Staff opened the request's file: personal data, so the view is audited."""
    audit.record("licence.viewed", licence)


def _must_be_open(licence: ExcessLicence) -> None:
    if licence.status not in OPEN_STATUSES:
        raise LicenceError(None, "not_open", _("Este pedido já foi decidido."))


def assign(licence: ExcessLicence, agent: User, staff: User) -> None:
    _must_be_open(licence)
    if not agent.has_role("agent", "vet", "coordinator"):
        raise LicenceError("agent_id", "not_agent", _("Escolha um agente sanitário."))
    licence.assigned_agent_id = agent.id
    db.session.flush()
    record_event(licence, "assigned", staff, agent=agent.full_name)
    audit.record("licence.assigned", licence, detail={"agent_id": agent.id})


def schedule_inspection(
    licence: ExcessLicence, agent: User, day: date, staff: User, *, today: date
) -> LicenceInspection:
    _must_be_open(licence)
    if day < today:
        raise LicenceError("scheduled_for", "past_date", _("Agende para hoje ou uma data futura."))
    if not agent.has_role("agent", "vet", "coordinator"):
        raise LicenceError("agent_id", "not_agent", _("Escolha um agente sanitário."))
    inspection = LicenceInspection(agent_id=agent.id, scheduled_for=day)
    licence.inspections.append(inspection)
    licence.assigned_agent_id = agent.id
    db.session.flush()
    record_event(licence, "inspection_scheduled", staff, day=day.isoformat(), agent=agent.full_name)
    audit.record("licence.inspection_scheduled", licence, detail={"day": day.isoformat()})
    notify_holder(
        licence,
        _("Vistoria agendada"),
        _(
            "A vistoria da residência para o pedido nº %(id)d foi agendada para %(day)s.",
            id=licence.id,
            day=day.strftime("%d/%m/%Y"),
        ),
    )
    return inspection


def record_inspection(
    licence: ExcessLicence,
    agent: User,
    *,
    inspected_on: date,
    checklist: dict[str, bool],
    findings: str,
    satisfactory: bool,
    profile: Profile,
    today: date,
    photos: Sequence[Upload | StoredFile] = (),
) -> LicenceInspection:
    """The agent's visit (BJP 17 §1: number and size of the animals, care, space, hygiene);
    ``photos`` as sent, or held by the form's draft across a refused post (issue 25)."""
    rule = rule_of(profile)
    if licence.status not in OPEN_STATUSES:
        raise LicenceError(None, "not_open", _("Este pedido já foi decidido."))
    if inspected_on > today:
        raise LicenceError(
            "inspected_on", "future_date", _("A data da vistoria não pode ser no futuro.")
        )
    findings = (findings or "").strip()
    if not findings:
        raise LicenceError("findings", "required", _("Descreva o que foi verificado."))
    known = {item.code for item in rule.checklist}
    inspection = next((i for i in reversed(licence.inspections) if i.inspected_on is None), None)
    if inspection is None:
        inspection = LicenceInspection(agent_id=agent.id, scheduled_for=inspected_on)
        licence.inspections.append(inspection)
    inspection.agent_id = agent.id
    inspection.inspected_on = inspected_on
    inspection.checklist = {code: bool(checklist.get(code)) for code in known}
    inspection.findings = findings[:4000]
    inspection.satisfactory = satisfactory
    inspection.recorded_at = utcnow()
    db.session.flush()
    from portal.services.uploads import UploadError, store_image

    for photo in photos:
        if isinstance(photo, StoredFile):  # held by the draft: checked already, now the file's
            photo.purpose, photo.owner_id, photo.public = "licence_photo", None, False
            licence.files.append(
                LicenceFile(stored_file_id=photo.id, kind="inspection", inspection_id=inspection.id)
            )
            continue
        try:
            stored = store_image(
                photo.stream,
                purpose="licence_photo",
                owner_id=None,
                public=False,
                filename=photo.filename,
            )
        except UploadError as err:
            raise LicenceError("photos", "invalid_upload", str(err)) from None
        licence.files.append(
            LicenceFile(stored_file_id=stored.id, kind="inspection", inspection_id=inspection.id)
        )
    db.session.flush()
    record_event(
        licence,
        "inspected",
        agent,
        satisfactory=satisfactory,
        inspected_on=inspected_on.isoformat(),
    )
    audit.record("licence.inspected", licence, detail={"satisfactory": satisfactory})
    notify_holder(
        licence,
        _("Vistoria realizada"),
        _(
            "O CCZ realizou a vistoria da residência em %(day)s para o pedido nº %(id)d. Agora o "
            "pedido segue para a decisão.",
            day=inspected_on.strftime("%d/%m/%Y"),
            id=licence.id,
        ),
    )
    return inspection


def ask_info(licence: ExcessLicence, staff: User, question: str) -> None:
    _must_be_open(licence)
    question = (question or "").strip()
    if not question:
        raise LicenceError("question", "required", _("Escreva o que o cidadão deve informar."))
    licence.info_request = question[:4000]
    licence.info_answer = None
    licence.status = LicenceStatus.INFO_REQUESTED
    db.session.flush()
    record_event(licence, "info_requested", staff, note=question[:4000])
    audit.record("licence.info_requested", licence)
    notify_holder(
        licence,
        _("O CCZ precisa de mais informações"),
        _(
            "Sobre o seu pedido nº %(id)d, o CCZ pede:\n\n%(question)s\n\nResponda no portal.",
            id=licence.id,
            question=question,
        ),
    )


def approve(
    licence: ExcessLicence,
    staff: User,
    *,
    max_animals: int,
    covered_ids: Sequence[int] | None,
    reason: str | None,
    profile: Profile,
    today: date,
) -> None:
    """Approve with the cap and the animals covered; a lower number than asked needs the
    technical report's reason (BJP 17 §1). A renewal decided before the old licence ends starts
    the day after it; decided later, on the decision day."""
    rule = rule_of(profile)
    _must_be_open(licence)
    household = profile.household
    assert household.limit is not None
    inspected = [i for i in licence.inspections if i.inspected_on is not None]
    if ("inspection" in rule.requires or rule.document == "kennel_laudo") and not any(
        i.satisfactory for i in inspected
    ):
        # CAB 31 §2: the kennel works only after the agent's technical inspection
        raise LicenceError(
            None,
            "inspection_required",
            _(
                "Registre uma vistoria satisfatória antes de aprovar (%(article)s).",
                article=rule.article,
            ),
        )
    if max_animals <= household.limit:
        raise LicenceError(
            "max_animals",
            "not_above_limit",
            _(
                "Para até %(limit)d animais não é preciso licença: recuse o pedido explicando.",
                limit=household.limit,
            ),
        )
    if rule.max_animals is not None and max_animals > rule.max_animals:
        raise LicenceError(
            "max_animals",
            "above_cap",
            _(
                "A lei permite no máximo %(max)d animais (%(article)s).",
                max=rule.max_animals,
                article=rule.cite("max_animals"),
            ),
        )
    if max_animals > licence.animals_requested:
        raise LicenceError(
            "max_animals",
            "above_requested",
            _("O número aprovado não pode passar do pedido (%(n)d).", n=licence.animals_requested),
        )
    reason = (reason or "").strip() or None
    if max_animals < licence.animals_requested:
        if not inspected:
            # BJP 17 §1: the number is reduced on the agent's technical report
            raise LicenceError(
                "max_animals",
                "report_required",
                _(
                    "Para aprovar um número menor que o pedido, registre antes a vistoria (laudo "
                    "técnico)."
                ),
            )
        if reason is None:
            raise LicenceError(
                "reason", "required", _("Explique por que o número aprovado é menor que o pedido.")
            )
    by_id = {link.id: link for link in licence.animals}
    chosen = set(by_id) if covered_ids is None else set(covered_ids)
    if not chosen <= set(by_id):
        raise LicenceError("covered", "invalid", _("Escolha animais da lista do pedido."))
    if len(chosen) > max_animals:
        raise LicenceError(
            "covered",
            "too_many",
            _("Marque no máximo %(n)d animais para a licença.", n=max_animals),
        )
    start = today
    if (
        licence.renews is not None
        and licence.renews.valid_until is not None
        and licence.renews.valid_until >= today
    ):
        start = licence.renews.valid_until + timedelta(days=1)
    licence.status = LicenceStatus.APPROVED
    licence.max_animals = max_animals
    licence.reduction_reason = reason if max_animals < licence.animals_requested else None
    licence.valid_from = start
    # GRU 37 §1 IV-V: every renewal's term counted from the first issue (no drift)
    first = first_issued_on(licence.renews) if licence.renews is not None else None
    licence.valid_until = term_end(start, rule, first_issued_on=first)
    licence.decided_at = utcnow()
    licence.decided_on = today
    licence.decided_by_id = staff.id
    for link_id, link in by_id.items():
        link.covered = link_id in chosen
    db.session.flush()
    from portal.blueprints.animals import provisional
    from portal.models import ProofStatus

    for link in licence.animals:
        if link.registered_inside and link.covered:
            if link.animal.proof_status == ProofStatus.AWAITING:
                # GRU 37 §1 I; BJP 17 §4: the rabies proofs were part of the request the agent
                # decided on; the approval is the CCZ's check of them
                provisional.vaccination_checked(link.animal, staff)
            else:
                provisional.refresh(link.animal)
    record_event(
        licence,
        "approved",
        staff,
        note=reason,
        max_animals=max_animals,
        valid_from=start.isoformat(),
        valid_until=licence.valid_until.isoformat(),
    )
    audit.record("licence.approved", licence, detail={"max_animals": max_animals})
    lower = ""
    if max_animals < licence.animals_requested:
        lower = "\n\n" + _("O número aprovado é menor que o pedido: %(reason)s", reason=reason)
    notify_holder(
        licence,
        _("%(doc)s aprovada", doc=document_name(profile).capitalize()),
        _(
            "O seu pedido nº %(id)d foi aprovado para até %(n)d cães e gatos, de %(start)s a "
            "%(end)s. Baixe o documento com o QR code de conferência no portal.",
            id=licence.id,
            n=max_animals,
            start=start.strftime("%d/%m/%Y"),
            end=licence.valid_until.strftime("%d/%m/%Y"),
        )
        + lower,
    )


def refuse(licence: ExcessLicence, staff: User, reason: str, *, today: date) -> None:
    _must_be_open(licence)
    reason = (reason or "").strip()
    if not reason:
        raise LicenceError("reason", "required", _("Explique o motivo da recusa."))
    licence.status = LicenceStatus.REFUSED
    licence.refusal_reason = reason[:4000]
    licence.decided_at = utcnow()
    licence.decided_on = today
    licence.decided_by_id = staff.id
    db.session.flush()
    record_event(licence, "refused", staff, note=reason)
    audit.record("licence.refused", licence)
    notify_holder(
        licence,
        _("Pedido de licença recusado"),
        _(
            "O seu pedido nº %(id)d foi recusado. Motivo: %(reason)s\n\nA residência deve se "
            "enquadrar no limite de animais.",
            id=licence.id,
            reason=reason,
        ),
    )


def cancel(licence: ExcessLicence, staff: User, reason: str, *, today: date) -> None:
    """Cancel a licence with a reason (GRU 37 §1 III: a new acquisition; a finding at an
    inspection). The household goes back under the plain limit."""
    if licence.status != LicenceStatus.APPROVED:
        raise LicenceError(None, "not_approved", _("Só uma licença aprovada pode ser cancelada."))
    reason = (reason or "").strip()
    if not reason:
        raise LicenceError("reason", "required", _("Explique o motivo do cancelamento."))
    licence.status = LicenceStatus.CANCELLED
    licence.cancelled_at = utcnow()
    licence.cancelled_on = today
    licence.cancellation_reason = reason[:4000]
    db.session.flush()
    record_event(licence, "cancelled", staff, note=reason)
    audit.record("licence.cancelled", licence)
    notify_holder(
        licence,
        _("Licença cancelada"),
        _(
            "A licença nº %(id)d foi cancelada pelo CCZ. Motivo: %(reason)s\n\nA residência volta "
            "ao limite comum de animais.",
            id=licence.id,
            reason=reason,
        ),
    )
