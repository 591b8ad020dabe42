"""The administrative procedure (GRU 70, 95-114; VV 23; BJP 30; CAB 40; CABO 39-41): documents,
service, deadlines, petitions, decisions, the fine as a charge and the consequences on a person.

Public entry points other domains call (impound, reports):

* :func:`issue_document` — any document, from an inspection or the agent's own round.
* :func:`issue_apprehension_notice` — the *auto de apreensão*; with ``definitive=True`` it also
  records the GRU 88 §4 consequence on the person.
* :func:`record_consequence` / :func:`consequences_for_cpf` — what adoption and registration read.

Every term goes through :func:`portal.services.dates.deadline` with the profile's ``notices``
rule; every amount through :func:`portal.services.fees.compute_fee`. Functions flush, never commit,
and raise :class:`EnforcementError` (a :class:`portal.domain.DomainError`).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.billing import services as billing
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    ConsequenceKind,
    EnforcementCounter,
    EnforcementDocument,
    EnforcementKind,
    EnforcementStatus,
    Establishment,
    MaltreatmentReport,
    PaymentItem,
    PersonConsequence,
    Petition,
    PetitionKind,
    PetitionStatus,
    ReportEvent,
    ReportState,
    ServiceMethod,
    StoredFile,
    User,
)
from portal.models.billing import PAYABLE_STATUSES, PaymentStatus
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import local_today, tz
from portal.services.dates import deadline
from portal.services.fees import FeeError, compute_fee
from portal.services.identity import clean_cnpj, clean_cpf
from portal.services.municipal_holidays import municipal_holidays


class EnforcementError(DomainError):
    """A rule of the procedure refuses the action; ``field`` names the input at fault."""


# Documents whose fine, once final, is charged (GRU 98 V; the infraction only proposes it).
FINE_KINDS = {EnforcementKind.PENALTY}
# Documents the addressee may petition against, and with what (GRU 96 V, 98 VI, 101).
PETITION_FOR = {
    EnforcementKind.INFRACTION: PetitionKind.DEFENCE,
    EnforcementKind.PENALTY: PetitionKind.APPEAL,
    EnforcementKind.APPREHENSION: PetitionKind.APPEAL,
}
OPEN_STATUSES = (EnforcementStatus.OPEN, EnforcementStatus.UNDER_REVIEW, EnforcementStatus.UPHELD)


# ---------------------------------------------------------------------------------------------
# Deadlines: the one date engine with the profile's rule
# ---------------------------------------------------------------------------------------------


def term_end(profile: Profile, start: date, days: int) -> date:
    """The last day of a term of ``days`` from ``start`` (the day of knowledge).

    GRU 114: the start day excluded, the last day included; GRU 114 §ú: moved to the next
    business day (national, state and municipal holidays) when the profile says so.
    """
    rule = profile.notices
    return deadline(
        start,
        days,
        rule.counting,
        state=profile.state,
        municipal_holidays=municipal_holidays([start, start + timedelta(days=days)]),
        moves_to_business_day=rule.moves_to_business_day,
    )


def knowledge_date(profile: Profile, method: str, service_on: date) -> date:
    """The day the addressee is deemed to know the document (it starts every term).

    In person (signed or refused) and by post (the AR's date): that day. By edital: the
    publication plus the profile's days (GRU 95 §ú, 96 §1, 109 III: "após 5 dias da publicação").
    """
    if method == ServiceMethod.EDITAL and profile.notices.edital_days:
        return deadline(
            service_on,
            profile.notices.edital_days,
            "calendar",
            state=profile.state,
            moves_to_business_day=False,
        )
    return service_on


def _end_of_day(day: date) -> datetime:
    return datetime.combine(day, time(23, 59, 59), tzinfo=tz()).astimezone(UTC)


def comply_choices(profile: Profile) -> list[tuple[str, str]]:
    """The terms an agent may give in a preliminary notice, from the profile."""
    rule = profile.notices
    choices: list[tuple[str, str]] = []
    for days in rule.preliminary_days:  # BJP 30 I: imediatamente, 7, 15, 30; VV 23 I: 7
        choices.append((f"d{days}", _("Imediatamente") if days == 0 else _("%(n)d dias", n=days)))
    if rule.preliminary_min_hours:  # GRU 70 §3: from one hour to 60 days
        for hours in (rule.preliminary_min_hours, 24, 48):
            choices.append((f"h{hours}", _("%(n)d hora(s)", n=hours)))
        for days in (5, 10, 15, 30, rule.preliminary_max_days or 60):
            choices.append((f"d{days}", _("%(n)d dias", n=days)))
    return list(dict.fromkeys(choices))


def _parse_term(profile: Profile, term: str | None) -> tuple[int | None, int | None]:
    allowed = {code for code, _label in comply_choices(profile)}
    if not term or term not in allowed:
        raise EnforcementError(
            "comply_term",
            "invalid",
            _("Escolha um prazo previsto em %(article)s.", article=profile.notices.article),
        )
    value = int(term[1:])
    return (value, None) if term[0] == "d" else (None, value)


def _set_comply_due(profile: Profile, doc: EnforcementDocument, served_at: datetime) -> None:
    if doc.comply_hours is not None:
        # GRU 70 §4: hours run minute by minute from the service, no business-day rule
        doc.comply_due_at = served_at + timedelta(hours=doc.comply_hours)
    elif doc.comply_days == 0:
        doc.comply_due_at = served_at  # BJP 30 I: "imediatamente"
    elif doc.comply_days is not None and doc.knowledge_on is not None:
        days = doc.comply_days + (doc.comply_extended_days or 0)
        doc.comply_due_at = _end_of_day(term_end(profile, doc.knowledge_on, days))


# ---------------------------------------------------------------------------------------------
# Issuing
# ---------------------------------------------------------------------------------------------


def _next_number(year: int) -> tuple[int, str]:
    counter = db.session.get(EnforcementCounter, year, with_for_update=True)
    if counter is None:
        counter = EnforcementCounter(year=year, last_value=0)
        db.session.add(counter)
    counter.last_value += 1
    db.session.flush()
    return counter.last_value, f"{year}-{counter.last_value:06d}"


def new_access_code() -> str:
    """Eight characters without look-alikes (0/O, 1/I), printed on the paper."""
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(8))


@dataclass
class Addressee:
    """Who the document is for: a CPF (person) or a CNPJ (establishment)."""

    name: str
    cpf: str | None = None
    cnpj: str | None = None
    activity: str | None = None
    address: str | None = None


def _match_addressee(
    who: Addressee,
) -> tuple[str | None, str | None, User | None, Establishment | None]:
    cpf = clean_cpf(who.cpf) if who.cpf else None
    cnpj = clean_cnpj(who.cnpj) if who.cnpj else None
    if who.cpf and not cpf:
        raise EnforcementError("cpf", "invalid", _("CPF inválido."))
    if who.cnpj and not cnpj:
        raise EnforcementError("cnpj", "invalid", _("CNPJ inválido."))
    if not cpf and not cnpj:
        # GRU 95 I, 96 I: the person or the entity must be named and identified
        raise EnforcementError(
            "cpf", "required", _("Informe o CPF da pessoa ou o CNPJ do estabelecimento autuado.")
        )
    if not who.name.strip():
        raise EnforcementError("name", "required", _("Informe o nome do autuado."))
    person = db.session.scalar(select(User).where(User.cpf == cpf)) if cpf else None
    establishment = (
        db.session.scalar(
            select(Establishment)
            .where(Establishment.cnpj == cnpj)
            .order_by(Establishment.id.desc())
            .limit(1)
        )
        if cnpj
        else None
    )
    return cpf, cnpj, person, establishment


def issue_document(
    profile: Profile,
    *,
    kind: str,
    agent: User,
    addressee: Addressee,
    fact: str,
    place: str,
    occurred_at: datetime,
    legal_provision: str,
    agent_title: str,
    required_action: str | None = None,
    comply_term: str | None = None,
    penalty_provision: str | None = None,
    fine_inputs: dict[str, Any] | None = None,
    measures: str | None = None,
    parent: EnforcementDocument | None = None,
    report: MaltreatmentReport | None = None,
    animal_id: int | None = None,
    today: date | None = None,
) -> EnforcementDocument:
    """Write a document (GRU 95, 96, 98; VV 23; BJP 30) and number it. It counts from its service.

    ``fine_inputs`` go to the fee service unchanged (plus ``infraction_on`` and the previous
    offences of the same provision this function finds); a document with a fine shows its lines.
    Raises EnforcementError (FeeError messages are passed on with their field).
    """
    today = today or local_today()
    if kind not in {k.value for k in EnforcementKind}:
        raise EnforcementError("kind", "invalid", _("Escolha o tipo de documento."))
    errors = [
        (name, value)
        for name, value in (
            ("fact", fact),
            ("place", place),
            ("legal_provision", legal_provision),
            ("agent_title", agent_title),
        )
        if not (value or "").strip()
    ]
    if errors:
        raise EnforcementError(errors[0][0], "required", _("Preencha este campo."))
    if occurred_at.date() > today + timedelta(days=1) or occurred_at > datetime.now(UTC):
        raise EnforcementError(
            "occurred_at", "future", _("A data do fato não pode estar no futuro.")
        )
    cpf, cnpj, person, establishment = _match_addressee(addressee)
    comply_days = comply_hours = None
    if kind == EnforcementKind.PRELIMINARY:
        comply_days, comply_hours = _parse_term(profile, comply_term)
        if not (required_action or "").strip():
            # GRU 95 IV: the notice says what must be done
            raise EnforcementError(
                "required_action", "required", _("Informe a providência exigida (GRU 95 IV).")
            )

    sequence, number = _next_number(today.year)
    doc = EnforcementDocument(
        number=number,
        year=today.year,
        sequence=sequence,
        kind=kind,
        status=EnforcementStatus.ISSUED,
        access_code=new_access_code(),
        addressee_name=addressee.name.strip(),
        addressee_cpf=cpf,
        addressee_cnpj=cnpj,
        addressee_activity=(addressee.activity or "").strip() or None,
        addressee_address=(addressee.address or "").strip() or None,
        person_id=person.id if person else None,
        establishment_id=establishment.id if establishment else None,
        fact=fact.strip(),
        place=place.strip(),
        occurred_at=occurred_at,
        legal_provision=legal_provision.strip(),
        penalty_provision=(penalty_provision or "").strip() or None,
        required_action=(required_action or "").strip() or None,
        comply_days=comply_days,
        comply_hours=comply_hours,
        measures=(measures or "").strip() or None,
        agent_id=agent.id,
        agent_title=agent_title.strip(),
        parent_id=parent.id if parent else None,
        report_id=report.id if report else None,
        animal_id=animal_id,
    )
    db.session.add(doc)
    if fine_inputs:
        _price_fine(profile, doc, fine_inputs, today)
    db.session.flush()
    audit.record("enforcement.issued", doc, detail={"number": doc.number, "kind": kind})
    if report is not None:
        _close_report_wait(report, doc, agent)
    return doc


def _price_fine(
    profile: Profile, doc: EnforcementDocument, inputs: dict[str, Any], today: date
) -> None:
    """The fee service prices it; this domain only supplies the facts (GRU 79, 113)."""
    data = dict(inputs)
    data["infraction_on"] = doc.occurred_at.astimezone(tz()).date()
    previous = previous_offences(doc)
    if previous and profile.fines.repeat_window_years:
        data["previous_offences"] = previous
    try:
        fee = compute_fee(profile, "fine", data, today)
    except FeeError as err:
        raise EnforcementError(err.field, err.code, err.message) from err
    doc.fine_inputs = {k: _jsonable(v) for k, v in data.items()}
    doc.fine_breakdown = fee.breakdown()
    doc.fine_cents = fee.total_cents


def _jsonable(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def previous_offences(doc: EnforcementDocument) -> list[date]:
    """Dates of earlier final penalties on the same addressee for the same legal provision.

    GRU 79: "mesmo tipo e enquadramento legal"; the fee service keeps only those inside the
    window (3 years) and not prescribed (GRU 113).
    """
    who = (
        EnforcementDocument.addressee_cpf == doc.addressee_cpf
        if doc.addressee_cpf
        else EnforcementDocument.addressee_cnpj == doc.addressee_cnpj
    )
    rows = db.session.scalars(
        select(EnforcementDocument).where(
            who,
            EnforcementDocument.kind == EnforcementKind.PENALTY,
            EnforcementDocument.status.in_(
                (EnforcementStatus.FINAL, EnforcementStatus.OPEN, EnforcementStatus.UPHELD)
            ),
            EnforcementDocument.id != (doc.id or 0),
        )
    )
    mine = _provision_key(doc.legal_provision)
    this_day = doc.occurred_at.astimezone(tz()).date()
    return sorted(
        d.occurred_at.astimezone(tz()).date()
        for d in rows
        if _provision_key(d.legal_provision) == mine
        and d.occurred_at.astimezone(tz()).date() <= this_day
    )


def _provision_key(text: str) -> str:
    return " ".join(text.upper().replace(",", " ").split())


def _close_report_wait(report: MaltreatmentReport, doc: EnforcementDocument, actor: User) -> None:
    """The report waited for this notice ("aguardando notificação/captura"): it is done."""
    if report.state != ReportState.INSPECTED:
        return
    report.state = ReportState.CLOSED
    report.updated_at = datetime.now(UTC)
    report.events.append(
        ReportEvent(
            kind="state",
            from_state=ReportState.INSPECTED,
            to_state=ReportState.CLOSED,
            public=True,
            text=_("O CCZ emitiu o documento previsto em lei ao responsável."),
            actor_id=actor.id,
        )
    )
    report.events.append(
        ReportEvent(
            kind="note",
            public=False,
            actor_id=actor.id,
            text=_("Documento %(n)s emitido.", n=doc.number),
        )
    )
    audit.record(
        "report.state",
        report,
        detail={
            "protocol": report.protocol,
            "from": ReportState.INSPECTED,
            "to": ReportState.CLOSED,
        },
    )


def issue_apprehension_notice(
    profile: Profile,
    *,
    agent: User,
    addressee: Addressee,
    fact: str,
    place: str,
    occurred_at: datetime,
    legal_provision: str,
    agent_title: str,
    definitive: bool,
    animal_id: int | None = None,
    fine_inputs: dict[str, Any] | None = None,
    report: MaltreatmentReport | None = None,
    **more: Any,
) -> EnforcementDocument:
    """The *auto de apreensão* (GRU 72) for the impound domain.

    ``definitive=True`` (GRU 88 §4; VV 23 III b; BJP 30 §ú) also records on the person that they
    caused the definitive apprehension of this animal (adoption reads it). The document still
    needs its service recorded (:func:`record_service`) for the appeal term to run.
    """
    doc = issue_document(
        profile,
        kind=EnforcementKind.APPREHENSION,
        agent=agent,
        addressee=addressee,
        fact=fact,
        place=place,
        occurred_at=occurred_at,
        legal_provision=legal_provision,
        agent_title=agent_title,
        fine_inputs=fine_inputs,
        animal_id=animal_id,
        report=report,
        **{k: v for k, v in more.items() if k != "kind"},
    )
    if definitive and doc.addressee_cpf:
        kind, article = DEFINITIVE_CONSEQUENCE.get(
            profile.law_key, (ConsequenceKind.CAUSED_DEFINITIVE_APPREHENSION, legal_provision)
        )
        record_consequence(doc, kind, article, animal_id=animal_id)
    return doc


# What a definitive apprehension records on the person, by law: GRU 88 §4 bars that animal;
# VV 23 III b and BJP 30 §ú are a loss of possession for repeated maus-tratos; CABO 39 §4
# authorises the definitive apprehension on repeat.
DEFINITIVE_CONSEQUENCE = {
    "GRU": (ConsequenceKind.CAUSED_DEFINITIVE_APPREHENSION, "GRU 88 §4"),
    "VV": (ConsequenceKind.LOST_POSSESSION_MALTREATMENT, "VV 23 III b"),
    "BJP": (ConsequenceKind.LOST_POSSESSION_MALTREATMENT, "BJP 30 §ú"),
    "CABO": (ConsequenceKind.CAUSED_DEFINITIVE_APPREHENSION, "CABO 39 §4"),
}


def record_consequence(
    doc: EnforcementDocument, kind: str, article: str, *, animal_id: int | None = None
) -> PersonConsequence:
    """Record on the addressee (by CPF) a consequence decided by ``doc`` (loss of possession,
    VV 23 V commitment, definitive apprehension). Raises EnforcementError without a CPF."""
    if not doc.addressee_cpf:
        raise EnforcementError(
            "cpf", "required", _("A consequência é registrada na pessoa: informe o CPF.")
        )
    row = PersonConsequence(
        kind=kind,
        cpf=doc.addressee_cpf,
        person_name=doc.addressee_name,
        document_id=doc.id,
        article=article,
        animal_id=animal_id or doc.animal_id,
    )
    db.session.add(row)
    db.session.flush()
    audit.record("enforcement.consequence", doc, detail={"number": doc.number, "kind": kind})
    return row


def consequences_for_cpf(cpf: str | None) -> list[PersonConsequence]:
    """Every consequence in force for a CPF (adoption eligibility and registration read this)."""
    if not cpf:
        return []
    return list(
        db.session.scalars(
            select(PersonConsequence)
            .where(PersonConsequence.cpf == cpf, PersonConsequence.revoked_at.is_(None))
            .order_by(PersonConsequence.id)
        )
    )


# ---------------------------------------------------------------------------------------------
# Service (ciência)
# ---------------------------------------------------------------------------------------------


def record_service(
    profile: Profile,
    doc: EnforcementDocument,
    *,
    method: str,
    service_on: date,
    note: str | None,
    actor: User,
    today: date | None = None,
) -> None:
    """How and when the addressee knew the document; starts its terms.

    In person: signed, or refused with the agent's note (GRU 95 VIII, 96 VII, 98 VIII); by post:
    the AR's date; by edital: the publication day (knowledge 5 days later, GRU 95 §ú).
    """
    today = today or local_today()
    if doc.knowledge_on is not None:
        raise EnforcementError("method", "done", _("A ciência deste documento já foi registrada."))
    if method not in {m.value for m in ServiceMethod}:
        raise EnforcementError("method", "invalid", _("Escolha como o autuado tomou ciência."))
    if service_on > today:
        raise EnforcementError("service_on", "future", _("A data não pode estar no futuro."))
    if service_on < doc.issued_at.astimezone(tz()).date():
        raise EnforcementError("service_on", "before", _("A data não pode ser anterior à emissão."))
    if method == ServiceMethod.REFUSED and not (note or "").strip():
        # GRU 95 VIII: "em caso de recusa, a consignação do fato pela autoridade sanitária"
        raise EnforcementError(
            "note", "required", _("Descreva a recusa de assinar (GRU 95 VIII, 96 VII).")
        )
    doc.service_method = method
    doc.service_on = service_on
    doc.service_note = (note or "").strip() or None
    doc.knowledge_on = knowledge_date(profile, method, service_on)
    doc.status = EnforcementStatus.OPEN
    rule = profile.notices
    served_at = (
        datetime.now(UTC)
        if method in (ServiceMethod.SIGNED, ServiceMethod.REFUSED) and service_on == today
        else _end_of_day(doc.knowledge_on)
        if method == ServiceMethod.EDITAL
        else datetime.combine(doc.knowledge_on, time(0), tzinfo=tz()).astimezone(UTC)
    )
    if doc.kind == EnforcementKind.PRELIMINARY:
        _set_comply_due(profile, doc, served_at)
    elif doc.kind == EnforcementKind.INFRACTION and rule.defence_days:
        doc.petition_due_on = term_end(profile, doc.knowledge_on, rule.defence_days)  # GRU 96 V
    elif doc.kind in (EnforcementKind.PENALTY, EnforcementKind.APPREHENSION) and rule.appeal_days:
        doc.petition_due_on = term_end(profile, doc.knowledge_on, rule.appeal_days)  # GRU 98 VI
    if doc.kind in FINE_KINDS and doc.fine_cents:
        _charge_fine(profile, doc)
    if doc.kind == EnforcementKind.COMMITMENT and method == ServiceMethod.SIGNED:
        # VV 23 V: the signed term never again to keep animals is recorded on the person
        record_consequence(doc, ConsequenceKind.COMMITMENT_NEVER_KEEP, "VV 23 V")
    audit.record(
        "enforcement.served",
        doc,
        detail={"number": doc.number, "method": method},
        actor_id=actor.id,
    )
    db.session.flush()


def extend_comply_term(profile: Profile, doc: EnforcementDocument, actor: User) -> None:
    """GRU 70 §3: the term may be extended once by 30 days at the addressee's request."""
    days = profile.notices.extension_days
    if not days or doc.kind != EnforcementKind.PRELIMINARY or doc.comply_days in (None, 0):
        raise EnforcementError(
            None, "not_allowed", _("A lei deste município não prevê prorrogação deste prazo.")
        )
    if doc.comply_extended_days:
        raise EnforcementError(None, "done", _("O prazo já foi prorrogado uma vez."))
    doc.comply_extended_days = days
    if doc.knowledge_on:
        _set_comply_due(profile, doc, datetime.now(UTC))
    audit.record(
        "enforcement.extended", doc, detail={"number": doc.number, "days": days}, actor_id=actor.id
    )
    db.session.flush()


def record_return_visit(doc: EnforcementDocument, *, complied: bool, actor: User) -> None:
    """The return visit of a preliminary notice (GRU 70 §2): fixed, or an auto de infração next."""
    if doc.kind != EnforcementKind.PRELIMINARY or doc.status != EnforcementStatus.OPEN:
        raise EnforcementError(None, "not_allowed", _("Este documento não espera retorno."))
    doc.status = EnforcementStatus.COMPLIED if complied else EnforcementStatus.NOT_COMPLIED
    audit.record(
        "enforcement.return_visit",
        doc,
        detail={"number": doc.number, "complied": complied},
        actor_id=actor.id,
    )
    db.session.flush()


# ---------------------------------------------------------------------------------------------
# The fine as a charge (GRU 99-100, 110)
# ---------------------------------------------------------------------------------------------


def _charge_fine(profile: Profile, doc: EnforcementDocument) -> None:
    if doc.payment_item_id is not None or not doc.fine_cents:
        return
    payer = doc.person
    item = billing.create_payment_item(
        kind="fine",
        amount_cents=doc.fine_cents,
        breakdown=doc.fine_breakdown,
        description=_("Multa – auto de imposição de penalidade nº %(n)s", n=doc.number),
        payer=payer,
        subject_type="enforcement",
        subject_id=doc.id,
        due_on=_payment_due(profile, doc.knowledge_on),
    )
    doc.payment_item = item


def _payment_due(profile: Profile, known_on: date | None) -> date | None:
    days = profile.notices.payment_days  # GRU 100: 30 days
    return term_end(profile, known_on, days) if days and known_on else None


def _suspend_fine(doc: EnforcementDocument, petition: Petition) -> None:
    """GRU 110: an appeal suspends the fine (only the fine: sanitary measures stand)."""
    item = doc.payment_item
    if item is None or item.status not in PAYABLE_STATUSES:
        return
    doc.fine_suspended = True
    petition.suspends_fine = True
    item.due_on = None
    billing.add_note(item, _("Cobrança suspensa: recurso pendente (GRU 110)."))


def _resume_fine(profile: Profile, doc: EnforcementDocument, known_on: date) -> None:
    item = doc.payment_item
    doc.fine_suspended = False
    if item is None or item.status not in PAYABLE_STATUSES:
        return
    item.due_on = _payment_due(profile, known_on)
    billing.add_note(item, _("Recurso decidido: a multa volta a correr."))


def fine_status(doc: EnforcementDocument) -> str:
    item = doc.payment_item
    if item is None:
        return "none"
    if item.status == PaymentStatus.PAID:
        return "paid"
    if item.status == PaymentStatus.CANCELLED:
        return "cancelled"
    if doc.fine_suspended:
        return "suspended"
    if doc.collection_marked_on:
        return "collection"
    return "due"


def overdue_fines_query(today: date):
    """Unpaid fines past their GRU 100 term and not suspended."""
    return (
        select(EnforcementDocument)
        .join(PaymentItem, EnforcementDocument.payment_item)
        .where(
            PaymentItem.status.in_(tuple(PAYABLE_STATUSES)),
            PaymentItem.due_on.is_not(None),
            PaymentItem.due_on < today,
            EnforcementDocument.fine_suspended.is_(False),
        )
    )


def mark_for_collection(today: date, actor: User | None = None) -> list[EnforcementDocument]:
    """GRU 100: unpaid after the term, the fine is sent for collection (*dívida ativa* export)."""
    marked = []
    for doc in db.session.scalars(
        overdue_fines_query(today).where(EnforcementDocument.collection_marked_on.is_(None))
    ):
        doc.collection_marked_on = today
        audit.record(
            "enforcement.collection",
            doc,
            detail={"number": doc.number},
            actor_id=actor.id if actor else None,
        )
        marked.append(doc)
    db.session.flush()
    return marked


def collection_rows(today: date) -> list[list[str]]:
    """The CSV for the city's tax system: one row per debt, amounts in centavos."""
    header = [
        "cpf_cnpj",
        "nome",
        "documento",
        "auto_de_infracao",
        "data_infracao",
        "data_ciencia",
        "vencimento",
        "valor_centavos",
        "referencia_guia",
        "marcado_em",
    ]
    rows = [header]
    docs = db.session.scalars(
        overdue_fines_query(today)
        .where(EnforcementDocument.collection_marked_on.is_not(None))
        .order_by(EnforcementDocument.number)
    )
    for doc in docs:
        item = doc.payment_item
        rows.append(
            [
                doc.addressee_cpf or doc.addressee_cnpj or "",
                doc.addressee_name,
                doc.number,
                doc.parent.number if doc.parent else "",
                doc.occurred_at.astimezone(tz()).date().isoformat(),
                doc.knowledge_on.isoformat() if doc.knowledge_on else "",
                item.due_on.isoformat() if item and item.due_on else "",
                str(item.amount_cents if item else 0),
                item.reference if item else "",
                doc.collection_marked_on.isoformat() if doc.collection_marked_on else "",
            ]
        )
    return rows


# ---------------------------------------------------------------------------------------------
# Petitions (GRU 96 V, 101-110)
# ---------------------------------------------------------------------------------------------


def is_addressee(doc: EnforcementDocument, user: Any) -> bool:
    """The person named by CPF, or whoever keeps the establishment's cadastro (CNPJ)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if doc.addressee_cpf and user.cpf == doc.addressee_cpf:
        return True
    if doc.addressee_cnpj:
        return (
            db.session.scalar(
                select(Establishment.id)
                .where(
                    Establishment.cnpj == doc.addressee_cnpj,
                    Establishment.requested_by_id == user.id,
                )
                .limit(1)
            )
            is not None
        )
    return False


def open_petition(doc: EnforcementDocument) -> Petition | None:
    return next((p for p in doc.petitions if p.status == PetitionStatus.PENDING), None)


def last_decided(doc: EnforcementDocument) -> Petition | None:
    decided = [p for p in doc.petitions if p.status != PetitionStatus.PENDING]
    return decided[-1] if decided else None


@dataclass(frozen=True)
class PetitionOption:
    kind: str
    instance: int
    due_on: date
    article: str
    against: Petition | None = None


def petition_option(profile: Profile, doc: EnforcementDocument) -> PetitionOption | None:
    """What the addressee may file now, and until when (None: nothing)."""
    rule = profile.notices
    if doc.knowledge_on is None or doc.status in (
        EnforcementStatus.FINAL,
        EnforcementStatus.CANCELLED,
    ):
        return None
    if open_petition(doc) is not None:
        return None
    decided = last_decided(doc)
    if doc.kind == EnforcementKind.INFRACTION and penalty_of(doc) is not None:
        return None  # the procedure goes on in the penalty notice
    parent_denied = (
        last_decided(doc.parent)
        if doc.parent is not None and doc.kind == EnforcementKind.PENALTY
        else None
    )
    if (
        decided is None
        and parent_denied is not None
        and parent_denied.status == PetitionStatus.DENIED
        and parent_denied.instance == 1
        and doc.petition_due_on is not None
    ):
        # GRU 103: the defence was refused; the appeal goes to the second instance
        return PetitionOption(
            PetitionKind.APPEAL,
            2,
            doc.petition_due_on,
            rule.cite("second_appeal_days"),
            parent_denied,
        )
    if decided is None:
        kind = PETITION_FOR.get(EnforcementKind(doc.kind))
        if kind is None or doc.petition_due_on is None:
            return None
        article = (
            rule.cite("defence_days") if kind == PetitionKind.DEFENCE else rule.cite("appeal_days")
        )
        return PetitionOption(kind, 1, doc.petition_due_on, article)
    if (
        decided.instance == 1
        and decided.status == PetitionStatus.DENIED
        and decided.next_due_on is not None
    ):
        # GRU 103: from the refusal, a second-instance appeal within 10 days of knowing it
        return PetitionOption(
            PetitionKind.APPEAL, 2, decided.next_due_on, rule.cite("second_appeal_days"), decided
        )
    return None


def file_petition(
    profile: Profile,
    doc: EnforcementDocument,
    filer: User,
    *,
    text: str,
    attachments: Iterable[StoredFile] = (),
    power_of_attorney: StoredFile | None = None,
    has_access_code: bool = False,
    today: date | None = None,
) -> Petition:
    """File a defence or appeal. A late or repeated one is recorded and refused without judging
    the merit, citing the article (GRU 107 §2 I, IV); a third party is not admitted (GRU 107 §2
    III: only the addressee, their legal representative or an attorney with a power of attorney).
    """
    today = today or local_today()
    if not text.strip():
        raise EnforcementError("text", "required", _("Escreva as suas razões."))
    own = is_addressee(doc, filer)
    if not own:
        if not has_access_code:
            raise EnforcementError(
                None,
                "third_party",
                _(
                    "Só o autuado, o seu representante legal ou procurador podem apresentar defesa "
                    "ou recurso (GRU 107 §2 III)."
                ),
            )
        if power_of_attorney is None:
            raise EnforcementError(
                "power_of_attorney",
                "required",
                _(
                    "Anexe a procuração que lhe dá poderes para representar o autuado "
                    "(GRU 107 §2 III)."
                ),
            )
    if doc.knowledge_on is None:
        raise EnforcementError(
            None, "not_served", _("Este documento ainda não tem ciência registrada; aguarde.")
        )
    option = petition_option(profile, doc)
    previous = open_petition(doc) or last_decided(doc)
    if option is not None:
        kind, instance = option.kind, option.instance
    else:
        kind = (
            previous.kind
            if previous
            else PETITION_FOR.get(EnforcementKind(doc.kind), PetitionKind.APPEAL)
        )
        instance = previous.instance if previous else 1
    petition = Petition(
        document=doc,
        filed_by_id=filer.id,
        as_representative=not own,
        power_of_attorney_id=power_of_attorney.id if power_of_attorney else None,
        attachment_ids=[f.id for f in attachments],
        text=text.strip(),
        filed_on=today,
        kind=kind,
        instance=instance,
        status=PetitionStatus.PENDING,
        suspends_fine=False,
    )
    db.session.add(petition)
    if option is None and previous is None and doc.petition_due_on is not None:
        # the term lapsed and the document became final: late (GRU 107 §2 I)
        option = PetitionOption(kind, instance, doc.petition_due_on, "GRU 101")
    if option is None:
        # GRU 107 §2 IV (already decided / pending) — recorded and refused without merit
        _refuse(
            petition,
            _(
                "Indeferido sem análise do mérito: já há petição sobre esta decisão "
                "ou não cabe nova petição."
            ),
            "GRU 101 §2, 107 §2 IV",
        )
    else:
        petition.against_id = option.against.id if option.against else None
        petition.due_on = option.due_on
        if today > option.due_on:
            # GRU 107 §2 I: out of the term of art. 101: refused without judging the merit
            _refuse(
                petition,
                _(
                    "Indeferido sem análise do mérito: apresentado depois do prazo, "
                    "que terminou em %(d)s.",
                    d=option.due_on.strftime("%d/%m/%Y"),
                ),
                f"{option.article}; GRU 107 §2 I",
            )
        else:
            if profile.notices.decision_days:
                petition.decide_by = term_end(profile, today, profile.notices.decision_days)
            doc.status = EnforcementStatus.UNDER_REVIEW
            if petition.kind == PetitionKind.APPEAL:
                _suspend_fine(doc, petition)  # GRU 110
    db.session.flush()
    audit.record(
        "enforcement.petition_filed",
        doc,
        detail={
            "number": doc.number,
            "petition": petition.id,
            "kind": petition.kind,
            "status": petition.status,
        },
    )
    return petition


def _refuse(petition: Petition, reason: str, article: str) -> None:
    petition.status = PetitionStatus.REFUSED
    petition.decision_reason = reason
    petition.decision_article = article
    petition.decided_at = datetime.now(UTC)
    petition.decision_known_on = petition.filed_on


def penalty_of(doc: EnforcementDocument) -> EnforcementDocument | None:
    return db.session.scalar(
        select(EnforcementDocument)
        .where(
            EnforcementDocument.parent_id == doc.id,
            EnforcementDocument.kind == EnforcementKind.PENALTY,
        )
        .limit(1)
    )


def may_issue_penalty(profile: Profile, doc: EnforcementDocument, today: date) -> bool:
    """GRU 97: after the defence term (no defence pending) or right after the refusal."""
    if doc.kind != EnforcementKind.INFRACTION or doc.knowledge_on is None:
        return False
    if penalty_of(doc) is not None or open_petition(doc) is not None:
        return False
    if doc.status == EnforcementStatus.CANCELLED:
        return False
    decided = last_decided(doc)
    if decided is not None:
        return decided.status in (PetitionStatus.DENIED, PetitionStatus.REFUSED)
    return doc.petition_due_on is not None and today > doc.petition_due_on


def issue_penalty(
    profile: Profile,
    infraction: EnforcementDocument,
    agent: User,
    *,
    today: date | None = None,
    method: str | None = None,
    service_on: date | None = None,
) -> EnforcementDocument:
    """The *auto de imposição de penalidade* (GRU 97-98) for an infraction: same facts, the fine
    proposed in it priced again by the fee service; served now when ``method`` is given."""
    today = today or local_today()
    if not may_issue_penalty(profile, infraction, today):
        raise EnforcementError(
            None,
            "not_yet",
            _(
                "O auto de imposição de penalidade é lavrado depois do prazo de defesa ou do "
                "indeferimento da defesa (GRU 97)."
            ),
        )
    inputs = {
        k: v
        for k, v in (infraction.fine_inputs or {}).items()
        if k not in ("previous_offences", "infraction_on")
    }
    penalty = issue_document(
        profile,
        kind=EnforcementKind.PENALTY,
        agent=agent,
        addressee=Addressee(
            infraction.addressee_name,
            infraction.addressee_cpf,
            infraction.addressee_cnpj,
            infraction.addressee_activity,
            infraction.addressee_address,
        ),
        fact=infraction.fact,
        place=infraction.place,
        occurred_at=infraction.occurred_at,
        legal_provision=infraction.legal_provision,
        penalty_provision=infraction.penalty_provision,
        agent_title=infraction.agent_title,
        fine_inputs=inputs or None,
        measures=infraction.measures,
        parent=infraction,
        animal_id=infraction.animal_id,
        today=today,
    )
    if infraction.status != EnforcementStatus.UPHELD:
        infraction.status = EnforcementStatus.FINAL
    if method and service_on:
        record_service(
            profile,
            penalty,
            method=method,
            service_on=service_on,
            note=None,
            actor=agent,
            today=today,
        )
    return penalty


def may_decide(petition: Petition, user: User) -> bool:
    """GRU 102: the first instance is the agent's superior; GRU 103 §1: the second a higher one.
    Portal reading: coordinators (or admins) judge; never the agent who issued the document, and
    the second instance never by whoever decided the first."""
    if not user.has_role("coordinator", "admin"):
        return False
    if petition.document.agent_id == user.id:
        return False
    if petition.instance == 2 and petition.against and petition.against.decided_by_id == user.id:
        return False
    return True


def decide_petition(
    profile: Profile,
    petition: Petition,
    judge: User,
    *,
    grant: bool,
    reason: str,
    method: str,
    service_on: date,
    today: date | None = None,
) -> None:
    """One reasoned decision per petition (GRU 101 §2, 106 §ú).

    Granted: the document (and its fine) is cancelled (GRU 105 §1). Denied at the first instance:
    a second-instance appeal may follow within 10 days of knowing it (GRU 103). Denied at the
    second instance, or no appeal: final (GRU 103 §3); the fine runs again (GRU 100).
    """
    today = today or local_today()
    doc = petition.document
    if petition.status != PetitionStatus.PENDING:
        raise EnforcementError(None, "decided", _("Esta petição já foi decidida (GRU 101 §2)."))
    if not may_decide(petition, judge):
        raise EnforcementError(
            None,
            "not_allowed",
            _(
                "Esta decisão cabe ao superior de quem autuou (GRU 102) e, em segunda instância, a "
                "outra autoridade (GRU 103 §1)."
            ),
        )
    if not reason.strip():
        raise EnforcementError("reason", "required", _("Toda decisão é fundamentada (GRU 106 §ú)."))
    if method not in {m.value for m in ServiceMethod}:
        raise EnforcementError("method", "invalid", _("Escolha como o autuado tomou ciência."))
    if service_on > today or service_on < petition.filed_on:
        raise EnforcementError(
            "service_on", "invalid", _("Informe a data da ciência da decisão (GRU 109).")
        )
    known_on = knowledge_date(profile, method, service_on)  # GRU 109 I-III
    petition.status = PetitionStatus.GRANTED if grant else PetitionStatus.DENIED
    petition.decision_reason = reason.strip()
    petition.decision_article = (
        profile.notices.cite("decision_days")
        if petition.instance == 1
        else profile.notices.cite("second_appeal_days")
    )
    petition.decided_by_id = judge.id
    petition.decided_at = datetime.now(UTC)
    petition.decision_known_on = known_on
    if grant:
        doc.status = EnforcementStatus.CANCELLED
        if doc.payment_item is not None and doc.payment_item.status in PAYABLE_STATUSES:
            billing.cancel_payment_item(
                doc.payment_item, _("Recurso deferido (GRU 105 §1)."), actor=judge
            )
        doc.fine_suspended = False
        for row in db.session.scalars(
            select(PersonConsequence).where(
                PersonConsequence.document_id == doc.id, PersonConsequence.revoked_at.is_(None)
            )
        ):
            row.revoked_at = datetime.now(UTC)
    else:
        second = profile.notices.second_appeal_days
        if petition.instance == 1 and second:
            petition.next_due_on = term_end(profile, known_on, second)  # GRU 103
            doc.status = EnforcementStatus.UPHELD
        else:
            doc.status = EnforcementStatus.FINAL  # GRU 103 §3
        if doc.fine_suspended:
            _resume_fine(profile, doc, known_on)
    db.session.flush()
    if (
        not grant
        and doc.kind == EnforcementKind.INFRACTION
        and petition.instance == 1
        and doc.fine_inputs
    ):
        # GRU 97: the penalty notice is written right after the refusal of the defence and is
        # known with the decision; its appeal goes to the second instance (GRU 103)
        issue_penalty(profile, doc, doc.agent, today=today, method=method, service_on=service_on)
    audit.record(
        "enforcement.petition_decided",
        doc,
        detail={
            "number": doc.number,
            "petition": petition.id,
            "status": petition.status,
            "instance": petition.instance,
        },
    )


def close_lapsed(profile: Profile, today: date) -> int:
    """Documents whose petition term lapsed with nothing pending become final."""
    count = 0
    for doc in db.session.scalars(
        select(EnforcementDocument).where(
            EnforcementDocument.status.in_((EnforcementStatus.OPEN, EnforcementStatus.UPHELD)),
            EnforcementDocument.kind != EnforcementKind.PRELIMINARY,
        )
    ):
        option = petition_option(profile, doc)
        if option is None and doc.petition_due_on is None:
            continue
        if option is None or today > option.due_on:
            doc.status = EnforcementStatus.FINAL
            count += 1
    db.session.flush()
    return count


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------


def documents_for(user: User) -> list[EnforcementDocument]:
    """ "Minhas notificações": by CPF, and by the CNPJ of establishments the user keeps."""
    conditions = []
    if user.cpf:
        conditions.append(EnforcementDocument.addressee_cpf == user.cpf)
    cnpjs = list(
        db.session.scalars(
            select(Establishment.cnpj).where(Establishment.requested_by_id == user.id)
        )
    )
    if cnpjs:
        conditions.append(EnforcementDocument.addressee_cnpj.in_(cnpjs))
    if not conditions:
        return []
    from sqlalchemy import or_

    return list(
        db.session.scalars(
            select(EnforcementDocument)
            .where(or_(*conditions), EnforcementDocument.knowledge_on.is_not(None))
            .order_by(EnforcementDocument.issued_at.desc())
        )
    )


def by_number(number: str) -> EnforcementDocument | None:
    return db.session.scalar(
        select(EnforcementDocument).where(EnforcementDocument.number == number.strip())
    )


def code_matches(doc: EnforcementDocument, code: str | None) -> bool:
    given = "".join((code or "").upper().split())
    return bool(given) and secrets.compare_digest(given, doc.access_code)


def current_deadline(doc: EnforcementDocument, profile: Profile) -> tuple[date | None, str]:
    """The next date that matters to the addressee, and what it is for."""
    if doc.kind == EnforcementKind.PRELIMINARY and doc.status == EnforcementStatus.OPEN:
        due = doc.comply_due_at.astimezone(tz()).date() if doc.comply_due_at else None
        return due, _("corrigir a irregularidade")
    option = petition_option(profile, doc)
    if option is not None:
        return option.due_on, (
            _("apresentar defesa") if option.kind == PetitionKind.DEFENCE else _("recorrer")
        )
    item = doc.payment_item
    if item is not None and item.status in PAYABLE_STATUSES and item.due_on:
        return item.due_on, _("pagar a multa")
    return None, ""
