"""Issuing a document (GRU 95, 96, 98; VV 23; BJP 30): addressee, facts, number, fine priced by
the fee service, and the report it closes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.enforcement.common import EnforcementError, _parse_term
from portal.blueprints.enforcement.repeats import previous_offences
from portal.extensions import db
from portal.models import (
    EnforcementCounter,
    EnforcementDocument,
    EnforcementKind,
    EnforcementStatus,
    Establishment,
    MaltreatmentReport,
    ReportEvent,
    ReportState,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import local_date, local_today
from portal.services.fees import FeeError, compute_fee
from portal.services.identity import clean_cnpj, clean_cpf


def _next_number(year: int) -> tuple[int, str]:
    counter = db.session.get(EnforcementCounter, year, with_for_update=True)
    if counter is None:
        counter = EnforcementCounter(year=year, last_value=0)
        db.session.add(counter)
    counter.last_value += 1
    db.session.flush()
    return counter.last_value, f"{year}-{counter.last_value:06d}"


@dataclass
class Addressee:
    """Who the document is for: a CPF (person) or a CNPJ (establishment)."""

    name: str
    cpf: str | None = None
    cnpj: str | None = None
    activity: str | None = None
    address: str | None = None
    # GRU 95 §ú, 96 §1: the offender who cannot be found or identified is served by edital; only
    # the auto de apreensão of a definitive apprehension is issued this way (the animal's
    # procedure must run even when nobody with a CPF answers for it).
    unidentified: bool = False


def _match_addressee(
    who: Addressee,
) -> tuple[str | None, str | None, User | None, Establishment | None]:
    cpf = clean_cpf(who.cpf) if who.cpf else None
    cnpj = clean_cnpj(who.cnpj) if who.cnpj else None
    if who.cpf and not cpf:
        raise EnforcementError("cpf", "invalid", _("CPF inválido."))
    if who.cnpj and not cnpj:
        raise EnforcementError("cnpj", "invalid", _("CNPJ inválido."))
    if not cpf and not cnpj and who.unidentified:
        return None, None, None, None
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


def _entity_details(
    profile: Profile, who: Addressee, cnpj: str | None, establishment: Establishment | None
) -> tuple[str | None, str | None]:
    """The addressee's line of business and address, as typed or, for an establishment on the
    cadastro, from it. GRU 95 I, 96 I: a legal person's document states both."""
    activity = (who.activity or "").strip() or None
    address = (who.address or "").strip() or None
    if establishment is not None:
        from portal.blueprints.establishments.services import kind_label

        activity = activity or ", ".join(kind_label(k) for k in establishment.kinds) or None
        address = address or establishment.address_line
    rule = profile.notices
    if cnpj and rule.entity_activity_address:
        for name, value in (("activity", activity), ("address", address)):
            if value is None:
                raise EnforcementError(
                    name,
                    "required",
                    _(
                        "Para pessoa jurídica, informe o ramo de atividade e o endereço "
                        "(%(article)s).",
                        article=rule.cite("entity_activity_address"),
                    ),
                )
    return activity, address


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
    notified_on: date | None = None,
    joint_addressee: Addressee | None = None,
    today: date | None = None,
) -> EnforcementDocument:
    """Write a document (GRU 95, 96, 98; VV 23; BJP 30) and number it. It counts from its service.

    ``fine_inputs`` go to the fee service unchanged (plus ``infraction_on`` and the previous
    offences of the same provision this function finds); a document with a fine shows its lines.
    ``notified_on``: the day of the intimation the fine follows (BJP 17 §2, 16 §4, 2 §3).
    ``joint_addressee``: the other person the same facts fine (BJP 19 §1 II): a second document
    with its own fine, payment item and repeat record (:func:`_issue_joint`).
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
    activity, address = _entity_details(profile, addressee, cnpj, establishment)
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
        addressee_name=addressee.name.strip(),
        addressee_cpf=cpf,
        addressee_cnpj=cnpj,
        addressee_activity=activity,
        addressee_address=address,
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
    doc.notified_on = notified_on
    db.session.add(doc)
    if fine_inputs:
        _price_fine(profile, doc, fine_inputs, today)
    db.session.flush()
    audit.record("enforcement.issued", doc, detail={"number": doc.number, "kind": kind})
    if joint_addressee is not None:
        _issue_joint(profile, doc, joint_addressee, today)
    if report is not None:
        _close_report_wait(report, doc, agent)
    return doc


def _issue_joint(
    profile: Profile, doc: EnforcementDocument, who: Addressee, today: date
) -> EnforcementDocument:
    """BJP 19 §1 I and II: the same facts fine two different people (the owner; the trainer not
    registered): the other person gets their own document, fine and, once it is imposed, their
    own payment item; each repeat record is their own. Both fines come from one computation of
    the fee service (its ``joint`` input, :func:`_price_pair`)."""
    code = (doc.fine_inputs or {}).get("specific")
    fine = next((f for f in profile.fines.specific if f.code == code), None)
    if fine is None or not fine.joint:
        raise EnforcementError(
            "joint_cpf",
            "not_joint",
            _("A infração escolhida não prevê multa a outra pessoa pelo mesmo fato."),
        )
    other = next(f for f in profile.fines.specific if f.code == fine.joint[0])
    if who.cpf and clean_cpf(who.cpf) == doc.addressee_cpf:
        raise EnforcementError(
            "joint_cpf",
            "same_person",
            _("São duas multas a duas pessoas diferentes (%(a)s).", a=other.article),
        )
    try:
        second = issue_document(
            profile,
            kind=doc.kind,
            agent=doc.agent,
            addressee=who,
            fact=doc.fact,
            place=doc.place,
            occurred_at=doc.occurred_at,
            legal_provision=other.article,
            agent_title=doc.agent_title,
            penalty_provision=other.article,
            measures=doc.measures,
            parent=doc.parent,
            animal_id=doc.animal_id,
            today=today,
        )
    except EnforcementError as err:
        raise EnforcementError(
            {"cpf": "joint_cpf", "name": "joint_name"}.get(err.field or "", err.field),
            err.code,
            err.message,
        ) from err
    second.joint_of_id = doc.id
    _price_pair(profile, doc, second, other.code, today)
    db.session.flush()
    return second


def _price_pair(
    profile: Profile,
    first: EnforcementDocument,
    second: EnforcementDocument,
    code: str,
    today: date,
) -> None:
    """BJP 19 §1 I and II priced in one computation (the fee service's ``joint`` input), each
    person with their own repeat record; the lines of the second person's fine (its ``payer``)
    go to their document, the rest (the first fine and any expenses) stay on the first."""
    # The first fine's inputs as priced alone keep the previous offences the agent gave and those
    # on record (BJP 19 §1 I: the owner's "dobrada na reincidência" whoever else is fined).
    data = dict(first.fine_inputs or {})
    data["infraction_on"] = local_date(first.occurred_at)
    own: dict[str, Any] = {"code": code}
    _add_records(data, first)
    _add_records(own, second)  # BJP 19 §1 II: the trainer's own record
    other = next(f for f in profile.fines.specific if f.code == code)
    try:
        fee = compute_fee(profile, "fine", {**data, "joint": [own]}, today)
    except FeeError as err:
        raise EnforcementError(err.field, err.code, err.message) from err
    theirs = [ln for ln in fee.lines if ln.kind == "fine" and ln.payer == other.payer]
    mine = [ln for ln in fee.lines if ln not in theirs]
    shared = {k: v for k, v in data.items() if k in ("animals", "animal_died", "infraction_on")}
    for doc, inputs, lines in (
        (first, data, mine),
        (
            second,
            {**shared, "specific": code, **{k: v for k, v in own.items() if k != "code"}},
            theirs,
        ),
    ):
        doc.fine_inputs = {k: _jsonable(v) for k, v in inputs.items()}
        doc.fine_breakdown = [ln.as_dict() for ln in lines]
        doc.fine_cents = sum(ln.amount_cents for ln in lines)


def joint_partner(doc: EnforcementDocument) -> EnforcementDocument | None:
    """The other document of a BJP 19 §1 pair, if ``doc`` is one of them."""
    if doc.joint_of_id is not None:
        return db.session.get(EnforcementDocument, doc.joint_of_id)
    return db.session.scalar(
        select(EnforcementDocument).where(EnforcementDocument.joint_of_id == doc.id).limit(1)
    )


def _price_fine(
    profile: Profile, doc: EnforcementDocument, inputs: dict[str, Any], today: date
) -> None:
    """The fee service prices it; this domain only supplies the facts (GRU 79, 113)."""
    data = dict(inputs)
    data["infraction_on"] = local_date(doc.occurred_at)
    _add_records(data, doc)
    try:
        fee = compute_fee(profile, "fine", data, today)
    except FeeError as err:
        raise EnforcementError(err.field, err.code, err.message) from err
    doc.fine_inputs = {k: _jsonable(v) for k, v in data.items()}
    doc.fine_breakdown = fee.breakdown()
    doc.fine_cents = fee.total_cents


def _add_records(inputs: dict[str, Any], doc: EnforcementDocument) -> None:
    """The repeat offences on record join those the agent gave (an earlier penalty on paper),
    each day once. In every profile: a window (GRU 79) or prescription (GRU 113) is the fee
    service's to apply; where the law has neither, every earlier standing penalty of the same
    provision is a repeat (BJP 30 §ú I; VV 50 II; CABO 39 §2; CAB 40 §2)."""
    records = previous_offences(doc)
    given = inputs.get("previous_offences")
    if not records or not isinstance(given, list | tuple | None):
        return  # nothing to add, or a value the fee service refuses with its own message
    known = {str(_jsonable(day)) for day in given or ()}
    inputs["previous_offences"] = [
        *(given or ()),
        *(day for day in records if day.isoformat() not in known),
    ]


def _jsonable(value: Any) -> Any:
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


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
