"""Impound in the staff workspace: animals in custody past their deadline, releases awaiting the
agent's confirmation, certidão exams to do, euthanasia laudos whose NGO claim window is open
(Lei 14.228/2021) and, where the law asks for it, laudos awaiting the coordinating vet (VV 21 §4);
the capture-protocol search and a captures chart."""

from __future__ import annotations

from flask import url_for
from flask_babel import lazy_gettext as _l
from sqlalchemy import Select, select

from portal.access import STAFF
from portal.extensions import db
from portal.models import (
    Capture,
    CaptureCertificate,
    CaptureStatus,
    CertificateStatus,
    EuthanasiaProposal,
    ProposalStatus,
    ReclaimRecord,
    ReclaimStatus,
)
from portal.models.animal import SPECIES_PLURAL_LABELS
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
    month_key,
    monthly,
)

DASHBOARD_ROLES = ("coordinator", "admin")


def _link(c: Capture) -> str:
    return url_for("impound.staff_capture", protocol=c.protocol)


def _animal(c: Capture) -> str:
    from portal.blueprints.impound.labels import species_label

    return f"{species_label(c.species)}, {c.color}"


COLUMNS = (
    Column(_l("Protocolo"), lambda c: c.protocol),
    Column(_l("Animal"), _animal),
    Column(_l("Bairro"), lambda c: c.district),
    Column(_l("Prazo"), lambda c: c.deadline_on.strftime("%d/%m/%Y")),
)


def _laudo_link(p: EuthanasiaProposal) -> str:
    return url_for("impound.staff_capture", protocol=p.capture.protocol)


LAUDO_COLUMNS = (
    Column(_l("Laudo"), lambda p: p.number),
    Column(_l("Animal"), lambda p: _animal(p.capture)),
    Column(_l("Bairro"), lambda p: p.capture.district),
)


def _open_claim_windows() -> Select[EuthanasiaProposal]:
    """Laudos in effect whose NGO claim window runs today (Lei 14.228/2021, art. 2º §2º): an
    infectious laudo has no window (``claim_until`` is null) and never appears."""
    return (
        select(EuthanasiaProposal)
        .join(Capture, EuthanasiaProposal.capture_id == Capture.id)
        .where(
            EuthanasiaProposal.status == ProposalStatus.OPEN,
            EuthanasiaProposal.claim_until >= local_today(),
            Capture.status == CaptureStatus.IN_CUSTODY,
        )
    )


def _window_end(p: EuthanasiaProposal) -> str:
    return p.claim_until.strftime("%d/%m/%Y") if p.claim_until else "—"


CLAIM_WINDOWS = Queue(
    key="recolhimento-laudos-prazo-entidades",
    title=_l("Laudos de eutanásia: prazo das entidades aberto"),
    description=_l(
        "Laudos em vigor cujo prazo para o resgate por entidades de proteção animal ainda corre "
        "(Lei federal 14.228/2021, art. 2º §2º): a eutanásia só pode ser registrada depois do "
        "fim do prazo."
    ),
    roles=STAFF,
    entity=EuthanasiaProposal,
    rows=_open_claim_windows,
    since=EuthanasiaProposal.proposed_at,
    order=EuthanasiaProposal.claim_until,
    due=lambda p: p.claim_until,
    link=_laudo_link,
    columns=(*LAUDO_COLUMNS, Column(_l("Prazo das entidades até"), _window_end)),
    personal_data=False,
)


def declare_supervision_queue(registry: QueueRegistry) -> None:
    """VV 21 §4 (declared only where the profile asks for the supervision): laudos waiting for
    the coordinating vet's sign-off, oldest first."""
    registry.declare(
        Queue(
            key="recolhimento-laudos-supervisao",
            title=_l("Laudos de eutanásia: aguardando o veterinário coordenador"),
            description=_l(
                "O laudo só vale depois da supervisão do médico veterinário coordenador; até lá "
                "as entidades e o proprietário não são avisados."
            ),
            roles=("vet",),
            entity=EuthanasiaProposal,
            rows=lambda: select(EuthanasiaProposal).where(
                EuthanasiaProposal.status == ProposalStatus.PENDING
            ),
            since=EuthanasiaProposal.proposed_at,
            order=EuthanasiaProposal.proposed_at,
            link=_laudo_link,
            columns=LAUDO_COLUMNS,
            personal_data=False,
        )
    )


def _search(term: str) -> list[SearchHit]:
    text = term.strip().upper()
    if len(text) < 4 or not text.startswith("CAP"):
        return []
    found = db.session.scalars(
        select(Capture).where(Capture.protocol.contains(text)).order_by(Capture.id.desc()).limit(20)
    )
    return [SearchHit(c.protocol, f"{_animal(c)} · {c.district}", _link(c)) for c in found]


def captures_by_species(period: Period) -> ChartData:
    counts: dict[tuple[str, str], int] = {}
    rows = db.session.execute(
        select(Capture.captured_on, Capture.species).where(
            Capture.captured_on >= period.start, Capture.captured_on <= period.end
        )
    )
    for day, species in rows:
        key = (month_key(day), species)
        counts[key] = counts.get(key, 0) + 1
    return monthly(period, list(SPECIES_PLURAL_LABELS.items()), counts)


def declare_queues(registry: QueueRegistry) -> None:
    registry.declare_search(
        SearchProvider("recolhimentos", _l("Capturas (protocolo)"), STAFF, _search)
    )
    registry.declare_chart(
        Chart(
            "capturas-por-especie",
            _l("Capturas por mês e espécie"),
            DASHBOARD_ROLES,
            captures_by_species,
        )
    )
    registry.declare(
        Queue(
            key="recolhimento-prazo-vencido",
            title=_l("Recolhimento: prazo de resgate vencido, sem destinação"),
            description=_l(
                "Animais sob guarda cujo prazo de resgate acabou: decida a destinação na "
                "ordem da lei."
            ),
            roles=STAFF,
            entity=Capture,
            rows=lambda: select(Capture).where(
                Capture.status == CaptureStatus.IN_CUSTODY, Capture.deadline_on < local_today()
            ),
            since=Capture.created_at,
            order=Capture.deadline_on,
            overdue=lambda: Capture.deadline_on < local_today(),
            due=lambda c: c.deadline_on,
            link=_link,
            columns=COLUMNS,
            personal_data=False,
        )
    )
    registry.declare(
        Queue(
            key="recolhimento-devolucoes",
            title=_l("Recolhimento: devoluções a confirmar"),
            description=_l(
                "Resgates pagos: confira as causas da captura, a vacina e o RGA, e "
                "registre a devolução."
            ),
            roles=STAFF,
            entity=Capture,
            rows=lambda: select(Capture).where(
                Capture.status == CaptureStatus.IN_CUSTODY,
                Capture.id.in_(
                    select(ReclaimRecord.capture_id).where(
                        ReclaimRecord.status == ReclaimStatus.PAID
                    )
                ),
            ),
            since=Capture.created_at,
            order=Capture.deadline_on,
            link=_link,
            columns=COLUMNS,
            personal_data=False,
        )
    )
    registry.declare(CLAIM_WINDOWS)
    registry.declare(
        Queue(
            key="recolhimento-certidoes",
            title=_l("Certidões de captura: exames a fazer"),
            description=_l(
                "Pedidos de certidão negativa de captura: confira o animal no dia marcado."
            ),
            roles=STAFF,
            entity=CaptureCertificate,
            rows=lambda: select(CaptureCertificate).where(
                CaptureCertificate.status == CertificateStatus.REQUESTED
            ),
            since=CaptureCertificate.requested_at,
            order=CaptureCertificate.exam_on,
            overdue=lambda: CaptureCertificate.exam_on < local_today(),
            due=lambda c: c.exam_on,
            link=lambda c: url_for("impound.staff_certificates"),
            columns=(
                Column(_l("RGA"), lambda c: c.animal.rga),
                Column(_l("Exame em"), lambda c: c.exam_on.strftime("%d/%m/%Y")),
            ),
            personal_data=False,
        )
    )
