"""Writing the audit trail, and reading it back in words a person uses (labels, object names)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from sqlalchemy import func, or_, select

from portal.extensions import db
from portal.models import AuditEvent


def record(
    action: str,
    subject: Any = None,
    *,
    detail: dict[str, Any] | None = None,
    actor_id: int | None = None,
) -> AuditEvent:
    """Append one audit event; the actor defaults to the signed-in user.

    ``subject`` is a model instance (its class name and id are kept) or None. Never put a CPF in
    ``detail``: the log is read by more people than the record.
    """
    if actor_id is None and current_user and current_user.is_authenticated:
        actor_id = current_user.id
    event = AuditEvent(
        action=action,
        actor_id=actor_id,
        subject_type=type(subject).__name__ if subject is not None else None,
        subject_id=str(subject.id) if subject is not None and hasattr(subject, "id") else None,
        detail=detail,
    )
    db.session.add(event)
    return event


# -- reading the trail --------------------------------------------------------------------------
# Every action written with ``record`` has a Portuguese label: the shared layer's here, a domain's
# in its ``labels.AUDIT_LABELS``, handed over by its ``init_app`` (a test scans the code for
# ``audit.record("...")`` and fails on an action without one).
ACTION_LABELS: dict[str, Any] = {
    "reminders.preferences_changed": _l("Alterou preferências de lembretes"),
    "workspace.bulk_action": _l("Ação em lote numa fila de trabalho"),
    "workspace.queue_exported": _l("Exportou fila de trabalho"),
    "workspace.queue_listed": _l("Consultou fila de trabalho"),
    "workspace.searched": _l("Buscou na área de trabalho"),
}

# What each kind of audited object is called, for the filter and for objects without a namer.
SUBJECT_TYPE_LABELS: dict[str, Any] = {
    "Animal": _l("Animal (RGA)"),
    "PaymentItem": _l("Cobrança (guia)"),
    "AdoptionApplication": _l("Pedido de adoção"),
    "Listing": _l("Anúncio de adoção"),
    "Organization": _l("ONG"),
    "User": _l("Pessoa"),
    "PersonBar": _l("Impedimento de adoção"),
    "ApplicantDocument": _l("Documento de adotante"),
    "ExemptionRequest": _l("Pedido de isenção"),
    "MunicipalHoliday": _l("Feriado municipal"),
    "UnitValue": _l("Valor de unidade fiscal"),
    "PriceOverride": _l("Preço público"),
    "MaltreatmentReport": _l("Denúncia de maus-tratos"),
    "Establishment": _l("Estabelecimento"),
    "ExcessLicence": _l("Licença para mais animais"),
    "EnforcementDocument": _l("Notificação ou auto"),
    "Capture": _l("Captura de animal"),
    "CaptureCertificate": _l("Certidão de captura"),
    "LostAnimalAlert": _l("Aviso de animal perdido"),
    "ContactSuggestion": _l("Sugestão de contato de estabelecimento"),
    "SterilisationBooking": _l("Pedido de castração"),
    "SterilisationSite": _l("Local de castração"),
    "SterilisationSlot": _l("Dia de castrações"),
}


def action_labels() -> dict[str, Any]:
    """Every audited action this application knows, with its label."""
    from portal.wiring import wiring

    return {**ACTION_LABELS, **wiring().action_labels}


def action_label(action: str) -> str:
    """The Portuguese name of an audited action (the code itself for one not labelled yet)."""
    label = action_labels().get(action)
    return str(label) if label is not None else action


def subject_type_label(subject_type: str | None) -> str:
    label = SUBJECT_TYPE_LABELS.get(subject_type or "")
    return str(label) if label is not None else (subject_type or "")


def _namers() -> dict[str, tuple[type, Callable[[Any], str]]]:
    """How a person names each kind of object: the RGA number, the guia reference, the
    animal's name… never a CPF (the trail is read by more people than the record)."""
    from portal.models import (
        AdoptionApplication,
        Animal,
        ApplicantDocument,
        Listing,
        MunicipalHoliday,
        Organization,
        PaymentItem,
        PersonBar,
        User,
    )

    return {
        "Animal": (Animal, lambda a: _("RGA %(rga)s (%(name)s)", rga=a.rga, name=a.name)),
        "PaymentItem": (
            PaymentItem,
            lambda p: _(
                "Guia %(reference)s – %(description)s",
                reference=p.formatted_reference,
                description=p.description,
            ),
        ),
        "AdoptionApplication": (
            AdoptionApplication,
            lambda a: _("Pedido de adoção nº %(id)d (%(animal)s)", id=a.id, animal=a.listing.name),
        ),
        "Listing": (Listing, lambda item: _("Anúncio de %(name)s", name=item.name)),
        "Organization": (Organization, lambda o: _("ONG %(name)s", name=o.display_name)),
        "User": (User, lambda u: u.full_name),
        **_report_namer(),
        "PersonBar": (PersonBar, lambda b: _("Impedimento de %(name)s", name=b.person_name or "—")),
        "ApplicantDocument": (
            ApplicantDocument,
            lambda d: _("Documento de %(name)s", name=d.person.full_name if d.person else "—"),
        ),
        "MunicipalHoliday": (
            MunicipalHoliday,
            lambda h: _(
                "Feriado de %(day)s (%(name)s)", day=h.day.strftime("%d/%m/%Y"), name=h.name
            ),
        ),
    }


def _report_namer() -> dict[str, tuple[type, Callable[[Any], str]]]:
    """Reports are named by protocol, once the reports domain is installed."""
    try:
        from portal.models.report import MaltreatmentReport
    except ImportError:
        return {}
    return {
        "MaltreatmentReport": (
            MaltreatmentReport,
            lambda r: _("Denúncia protocolo %(protocol)s", protocol=r.protocol),
        )
    }


def subject_names(events: Iterable[AuditEvent]) -> dict[tuple[str, str], str]:
    """``{(subject_type, subject_id): name}`` for a page of events, one query per kind."""
    wanted: dict[str, set[int]] = {}
    for event in events:
        if event.subject_type and event.subject_id and event.subject_id.isdigit():
            wanted.setdefault(event.subject_type, set()).add(int(event.subject_id))
    namers = _namers()
    names: dict[tuple[str, str], str] = {}
    for kind, ids in wanted.items():
        if kind not in namers:
            continue
        model, namer = namers[kind]
        rows: Iterable[Any] = db.session.scalars(select(model).where(model.id.in_(ids)))  # type: ignore[attr-defined]
        for obj in rows:
            names[(kind, str(obj.id))] = namer(obj)
    return names


def subject_name(event: AuditEvent, names: Mapping[tuple[str, str], str]) -> str:
    """The object of an event as a person would name it; the kind and number when it is gone."""
    if not event.subject_type:
        return ""
    known = names.get((event.subject_type, event.subject_id or ""))
    if known:
        return known
    return _(
        "%(kind)s nº %(id)s",
        kind=subject_type_label(event.subject_type),
        id=event.subject_id or "—",
    )


def find_subject(text: str) -> tuple[str, str] | None:
    """The object a staff member typed in the audit filter: a number a domain knows (an RGA:
    ``wiring.audit_subject_finder``), a report protocol or a guia reference."""
    from portal.models import PaymentItem
    from portal.wiring import wiring

    text = (text or "").strip()
    found = wiring().audit_subject_named(text)
    if found is not None:
        return found
    try:
        from portal.models.report import MaltreatmentReport
    except ImportError:  # the reports domain is not installed
        MaltreatmentReport = None  # type: ignore[assignment,misc]  # noqa: N806
    if MaltreatmentReport is not None:
        report_id = db.session.scalar(
            select(MaltreatmentReport.id).where(MaltreatmentReport.protocol == text.upper())
        )
        if report_id:
            return ("MaltreatmentReport", str(report_id))
    reference = "".join(ch for ch in text if ch.isalnum()).upper()
    if reference:
        item_id = db.session.scalar(
            select(PaymentItem.id).where(PaymentItem.reference == reference)
        )
        if item_id:
            return ("PaymentItem", str(item_id))
    return None


@dataclass(frozen=True)
class AuditQuery:
    """The audit log's filters: who (name or e-mail), what action, which object, which days."""

    who: str | None = None
    action: str | None = None
    subject_type: str | None = None
    subject: tuple[str, str] | None = None  # (type, id) found from what was typed
    since: date | None = None  # local calendar days, inclusive
    until: date | None = None


def find_events(
    query: AuditQuery, timezone: str, *, page: int = 1, per_page: int = 100
) -> list[AuditEvent]:
    """One page of events, most recent first, matching every filter given."""
    from portal.models import User

    zone = ZoneInfo(timezone)
    stmt = select(AuditEvent)
    if query.who:
        needle = f"%{query.who.lower()}%"
        stmt = stmt.join(User, User.id == AuditEvent.actor_id).where(
            or_(func.lower(User.full_name).like(needle), func.lower(User.email).like(needle))
        )
    if query.action:
        stmt = stmt.where(AuditEvent.action == query.action)
    if query.subject_type:
        stmt = stmt.where(AuditEvent.subject_type == query.subject_type)
    if query.subject:
        stmt = stmt.where(
            AuditEvent.subject_type == query.subject[0], AuditEvent.subject_id == query.subject[1]
        )
    if query.since:
        stmt = stmt.where(AuditEvent.at >= datetime.combine(query.since, time(), zone))
    if query.until:
        stmt = stmt.where(
            AuditEvent.at < datetime.combine(query.until + timedelta(days=1), time(), zone)
        )
    stmt = stmt.order_by(AuditEvent.id.desc()).limit(per_page).offset((page - 1) * per_page)
    return list(db.session.scalars(stmt))
