"""Enforcement in the staff workspace: petitions to judge (GRU 102: 15 days), deadlines about to
lapse, fines past due for collection (GRU 100); a search by document number; a fines chart."""

from __future__ import annotations

from datetime import timedelta

from flask import url_for
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.access import STAFF
from portal.blueprints.enforcement.labels import KIND_LABELS, label
from portal.extensions import db
from portal.models import EnforcementDocument, PaymentItem, Petition, PetitionStatus
from portal.models.billing import PAYABLE_STATUSES
from portal.profiles.schema import RemedyDuties
from portal.services.clock import local_today
from portal.workspace import (
    Chart,
    ChartData,
    Column,
    Period,
    Queue,
    QueueRegistry,
    SearchHit,
    SearchProvider,
)

SOON_DAYS = 3
JUDGES = ("coordinator", "admin")


def _doc_link(doc: EnforcementDocument) -> str:
    return url_for("enforcement.staff_detail", doc_id=doc.id)


DOC_COLUMNS = (
    Column(_l("Documento"), lambda d: f"{label(KIND_LABELS, d.kind)} {d.number}"),
    Column(_l("Autuado"), lambda d: d.addressee_name),
)
PETITION_COLUMNS = (
    Column(_l("Documento"), lambda p: p.document.number),
    Column(_l("Instância"), lambda p: f"{p.instance}ª"),
)


def _search(term: str) -> list[SearchHit]:
    term = term.strip()
    if len(term) < 4:
        return []
    found = db.session.scalars(
        select(EnforcementDocument)
        .where(EnforcementDocument.number.contains(term))
        .order_by(EnforcementDocument.number)
        .limit(20)
    )
    return [
        SearchHit(f"{label(KIND_LABELS, d.kind)} {d.number}", d.addressee_name, _doc_link(d))
        for d in found
    ]


def fines_by_month(period: Period) -> ChartData:
    """Fines charged per month: count and total in centavos."""
    rows = db.session.execute(
        select(PaymentItem.created_at, PaymentItem.amount_cents).where(
            PaymentItem.kind == "fine", PaymentItem.subject_type == "enforcement"
        )
    ).all()
    months: dict[str, list[int]] = {}
    for created, cents in rows:
        day = created.date()
        if period.start <= day <= period.end:
            bucket = months.setdefault(day.strftime("%m/%Y"), [0, 0])
            bucket[0] += 1
            bucket[1] += cents
    return ChartData(
        series=[_l("Multas"), _l("Valor (centavos)")], rows=sorted(months.items()), unit="count"
    )


def declare_queues(registry: QueueRegistry, remedy: RemedyDuties | None = None) -> None:
    """The queues; ``remedy`` is the profile's VV 23 II rule (the overdue-laudo queue exists only
    where the law has it)."""
    registry.declare_search(
        SearchProvider("fiscalizacao", _l("Notificações e autos (número)"), STAFF, _search)
    )
    registry.declare(
        Queue(
            key="fiscalizacao-peticoes",
            title=_l("Fiscalização: defesas e recursos a julgar"),
            roles=JUDGES,
            entity=Petition,
            rows=lambda: select(Petition).where(Petition.status == PetitionStatus.PENDING),
            since=Petition.filed_at,
            order=Petition.decide_by,
            overdue=lambda: Petition.decide_by < local_today(),
            due=lambda p: p.decide_by,
            link=lambda p: url_for("enforcement.staff_detail", doc_id=p.document_id),
            columns=PETITION_COLUMNS,
        )
    )
    registry.declare(
        Queue(
            key="fiscalizacao-prazos",
            title=_l("Fiscalização: prazos que vencem em 3 dias"),
            roles=STAFF,
            entity=EnforcementDocument,
            rows=lambda: select(EnforcementDocument).where(
                EnforcementDocument.status == "open",
                EnforcementDocument.petition_due_on.is_not(None),
                EnforcementDocument.petition_due_on >= local_today(),
                EnforcementDocument.petition_due_on <= local_today() + timedelta(days=SOON_DAYS),
            ),
            since=EnforcementDocument.issued_at,
            order=EnforcementDocument.petition_due_on,
            due=lambda d: d.petition_due_on,
            link=_doc_link,
            columns=DOC_COLUMNS,
        )
    )
    registry.declare(
        Queue(
            key="fiscalizacao-divida-ativa",
            title=_l("Fiscalização: multas vencidas para cobrança (GRU 100)"),
            roles=JUDGES,
            entity=EnforcementDocument,
            rows=lambda: (
                select(EnforcementDocument)
                .join(PaymentItem, EnforcementDocument.payment_item)
                .where(
                    PaymentItem.status.in_(tuple(PAYABLE_STATUSES)),
                    PaymentItem.due_on.is_not(None),
                    PaymentItem.due_on < local_today(),
                    EnforcementDocument.fine_suspended.is_(False),
                )
            ),
            since=EnforcementDocument.issued_at,
            order=EnforcementDocument.issued_at,
            link=_doc_link,
            columns=DOC_COLUMNS,
            description=_l("Exporte o CSV em Fiscalização › Dívida ativa (CSV)."),
        )
    )
    registry.declare(
        Queue(
            key="fiscalizacao-vista",
            title=_l("Fiscalização: deferimentos para vista do autuante (GRU 104)"),
            roles=("agent", "coordinator"),
            entity=Petition,
            rows=lambda: select(Petition).where(
                Petition.status == PetitionStatus.GRANTED, Petition.review_due_on.is_not(None)
            ),
            since=Petition.decided_at,
            order=Petition.review_due_on,
            due=lambda p: p.review_due_on,
            link=lambda p: url_for("enforcement.staff_detail", doc_id=p.document_id),
            columns=PETITION_COLUMNS,
        )
    )
    registry.declare(
        Queue(
            key="fiscalizacao-ciencia",
            title=_l("Fiscalização: documentos sem ciência registrada"),
            roles=("agent", "coordinator"),
            entity=EnforcementDocument,
            rows=lambda: select(EnforcementDocument).where(EnforcementDocument.status == "issued"),
            since=EnforcementDocument.issued_at,
            order=EnforcementDocument.issued_at,
            link=_doc_link,
            columns=DOC_COLUMNS,
            description=_l(
                "Os prazos de defesa e recurso só correm depois da ciência (por exemplo, o auto "
                "de apreensão de uma captura)."
            ),
        )
    )
    if remedy is not None:
        _declare_laudos(registry, remedy)
    registry.declare_chart(
        Chart("fiscalizacao-multas", _l("Multas aplicadas por mês"), JUDGES, fines_by_month)
    )


def _declare_laudos(registry: QueueRegistry, remedy: RemedyDuties) -> None:
    registry.declare(
        Queue(
            key="fiscalizacao-laudos",
            title=_l("Fiscalização: laudos veterinários em atraso (%(a)s)", a=remedy.article),
            roles=("agent", "coordinator"),
            entity=EnforcementDocument,
            rows=lambda: select(EnforcementDocument).where(
                EnforcementDocument.status == "open",
                EnforcementDocument.laudo_next_due_on.is_not(None),
                EnforcementDocument.laudo_next_due_on < local_today(),
            ),
            since=EnforcementDocument.issued_at,
            order=EnforcementDocument.laudo_next_due_on,
            overdue=lambda: EnforcementDocument.laudo_next_due_on < local_today(),
            due=lambda d: d.laudo_next_due_on,
            link=_doc_link,
            columns=DOC_COLUMNS,
            description=_l(
                "Notificações por maus-tratos cujo responsável não apresentou o laudo "
                "veterinário no período fixado pelo agente."
            ),
        )
    )
