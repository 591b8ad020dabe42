"""The fine as a charge (GRU 99-100, 110): the payment item, its suspension while an appeal is
pending, and the *dívida ativa* export."""

from __future__ import annotations

from datetime import date

from flask_babel import gettext as _
from sqlalchemy import Select, select

from portal.blueprints.billing import services as billing
from portal.blueprints.enforcement.common import term_end
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    PaymentItem,
    Petition,
    User,
)
from portal.models.billing import PAYABLE_STATUSES, PaymentStatus
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import local_date


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


def overdue_fines_query(today: date) -> Select[EnforcementDocument]:
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
                local_date(doc.occurred_at).isoformat(),
                doc.knowledge_on.isoformat() if doc.knowledge_on else "",
                item.due_on.isoformat() if item and item.due_on else "",
                str(item.amount_cents if item else 0),
                item.reference if item else "",
                doc.collection_marked_on.isoformat() if doc.collection_marked_on else "",
            ]
        )
    return rows
