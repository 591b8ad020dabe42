"""The RGA's queues in the staff workspace: vaccinations at the CCZ, second copies to issue,
transfers nobody accepted."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from flask import url_for
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select
from sqlalchemy.orm import joinedload

from portal.access import STAFF
from portal.blueprints.animals.common import AnimalError, normalise_microchip
from portal.blueprints.animals.copies import mark_copy_issued
from portal.blueprints.animals.reports import search_animals
from portal.blueprints.animals.rga import InvalidRgaNumber, normalise_rga
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    CopyKind,
    CopyStatus,
    DocumentCopyRequest,
    OwnershipTransfer,
    ProofStatus,
    Species,
    TransferStatus,
    User,
)
from portal.models.animal import SPECIES_PLURAL_LABELS
from portal.models.base import utcnow
from portal.services import audit
from portal.services.clock import local_today
from portal.services.identity import clean_cpf
from portal.workspace import (
    BulkAction,
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

# A transfer the new owner has not answered in 30 days needs a call: until then the previous
# owner stays responsible for the animal (BJP 7 §ú; GRU 18 §2).
STUCK_TRANSFER_DAYS = 30
DASHBOARD_ROLES = ("coordinator", "admin")


def _issue_copies(copies: list[DocumentCopyRequest], actor) -> int:
    done = 0
    for copy in copies:
        try:
            mark_copy_issued(copy, actor)
        except AnimalError:
            continue
        audit.record(
            "animal.copy_issued", copy.animal, detail={"copy_id": copy.id, "kind": copy.kind}
        )
        done += 1
    return done


def _stuck_cutoff():
    return utcnow() - timedelta(days=STUCK_TRANSFER_DAYS)


def _animal_link(animal: Animal) -> str:
    return url_for("animals.staff_animal", animal_id=animal.id)


# The registrations' queues (proofs to check, vaccination at the CCZ) list the same columns.
ANIMAL_COLUMNS = (
    Column(_l("RGA"), lambda a: a.rga),
    Column(_l("Nome"), lambda a: a.name),
    Column(_l("Registrado em"), lambda a: a.registered_on.strftime("%d/%m/%Y")),
)


def declare_queues(registry: QueueRegistry) -> None:
    registry.declare_search(SearchProvider("animais", _l("Animais"), STAFF, _search_animals))
    registry.declare_chart(
        Chart(
            "registros-por-especie",
            _l("Registros (RGA) por mês e espécie"),
            DASHBOARD_ROLES,
            registrations_by_species,
        )
    )
    registry.declare_chart(
        Chart(
            "registros-por-canal",
            _l("Registros (RGA) por mês e canal"),
            DASHBOARD_ROLES,
            registrations_by_channel,
        )
    )
    registry.declare(
        Queue(
            key="rga-comprovantes",
            title=_l("RGA: comprovantes de vacina a conferir"),
            description=_l(
                "Registros provisórios cujo comprovante de vacina antirrábica, informado "
                "pelo dono, ainda não foi conferido pelo CCZ."
            ),
            roles=STAFF,
            entity=Animal,
            rows=lambda: select(Animal).where(
                Animal.proof_status == ProofStatus.AWAITING, Animal.status != AnimalStatus.CLOSED
            ),
            since=Animal.registered_at,
            order=Animal.registered_at,
            link=_animal_link,
            columns=ANIMAL_COLUMNS,
        )
    )
    registry.declare(
        Queue(
            key="rga-vacinacao",
            title=_l("RGA: aguardando vacinação no CCZ"),
            description=_l(
                "Registros sem comprovante de vacina antirrábica: o animal é vacinado no "
                "CCZ para o registro valer."
            ),
            roles=STAFF,
            entity=Animal,
            rows=lambda: select(Animal).where(Animal.status == AnimalStatus.PENDING),
            since=Animal.registered_at,
            order=Animal.registered_at,
            link=_animal_link,
            columns=ANIMAL_COLUMNS,
        )
    )
    registry.declare(
        Queue(
            key="rga-segundas-vias",
            title=_l("RGA: segundas vias a emitir"),
            description=_l(
                "Entregue cada segunda via antes do fim da validade do documento provisório."
            ),
            roles=STAFF,
            entity=DocumentCopyRequest,
            rows=lambda: (
                select(DocumentCopyRequest)
                .options(joinedload(DocumentCopyRequest.animal))
                .where(DocumentCopyRequest.status == CopyStatus.REQUESTED)
            ),
            since=DocumentCopyRequest.requested_at,
            # the provisional ID's validity is a fixed term from the request (GRU 19 §1; BJP 8 §ú),
            # so the oldest request is the closest deadline
            order=DocumentCopyRequest.requested_at,
            overdue=lambda: DocumentCopyRequest.valid_until < local_today(),
            due=lambda c: c.valid_until,
            link=lambda c: url_for("animals.staff_animal", animal_id=c.animal_id),
            columns=(
                Column(_l("RGA"), lambda c: c.animal.rga),
                Column(
                    _l("Documento"),
                    lambda c: _l("Carteira") if c.kind == CopyKind.CARD else _l("Plaqueta"),
                ),
                Column(_l("Pedido em"), lambda c: c.requested_on.strftime("%d/%m/%Y")),
            ),
            bulk=BulkAction(_l("Marcar as selecionadas como emitidas"), _issue_copies),
        )
    )
    registry.declare(
        Queue(
            key="rga-transferencias-paradas",
            title=_l("RGA: transferências sem resposta há mais de 30 dias"),
            roles=STAFF,
            entity=OwnershipTransfer,
            rows=lambda: (
                select(OwnershipTransfer)
                .options(joinedload(OwnershipTransfer.animal))
                .where(
                    OwnershipTransfer.status == TransferStatus.PENDING,
                    OwnershipTransfer.requested_at < _stuck_cutoff(),
                )
            ),
            since=OwnershipTransfer.requested_at,
            order=OwnershipTransfer.requested_at,
            overdue=lambda: OwnershipTransfer.requested_at < _stuck_cutoff(),
            due=lambda t: (t.requested_at + timedelta(days=STUCK_TRANSFER_DAYS)).date(),
            link=lambda t: url_for("animals.staff_animal", animal_id=t.animal_id),
            columns=(
                Column(_l("RGA"), lambda t: t.animal.rga),
                Column(_l("Pedida em"), lambda t: t.requested_at.strftime("%d/%m/%Y")),
            ),
        )
    )


def _search_animals(term: str) -> list[SearchHit]:
    """RGA number, microchip or name (of the animal or its owner); a CPF finds the owner's
    animals. The term is never logged (it may be a CPF or a name)."""
    digits = "".join(ch for ch in term if ch.isdigit())
    kinds: list[str] = []
    try:
        normalise_rga(term)
        kinds.append("rga")
    except InvalidRgaNumber:
        if clean_cpf(term):
            kinds.append("cpf")
        elif digits and len(digits) >= 9 and len(digits) == len(normalise_microchip(term) or ""):
            kinds.append("microchip")
        elif len(term) >= 2 and not digits:
            kinds.append("name")
    hits: list[SearchHit] = []
    for kind in kinds:
        try:
            animals = search_animals(kind, term)
        except AnimalError:
            continue
        hits += [
            SearchHit(
                f"{a.rga} — {a.name}",
                str(_l("Proprietário: %(name)s", name=a.owner.full_name)),
                url_for("animals.staff_animal", animal_id=a.id),
            )
            for a in animals
        ]
    return hits


CHANNELS = (
    ("online", _l("Pelo portal")),
    ("clinic", _l("Clínica credenciada")),
    ("counter", _l("Balcão do CCZ")),
)


def _registrations(period: Period) -> list[tuple[str, str, str]]:
    query = select(
        Animal.registered_on,
        Animal.species,
        Animal.api_client_id,
        Animal.registered_by_id,
        Animal.owner_id,
    ).where(Animal.registered_on >= period.start, Animal.registered_on <= period.end)
    if period.district:
        query = query.join(User, Animal.owner_id == User.id).where(
            func.lower(User.district) == period.district.lower()
        )
    rows = []
    for registered_on, species, client_id, by_id, owner_id in db.session.execute(query):
        if client_id is not None:
            channel = "clinic"
        elif by_id is not None and by_id != owner_id:
            channel = "counter"  # staff registered it for the owner
        else:
            channel = "online"
        rows.append((month_key(registered_on), species, channel))
    return rows


def registrations_by_species(period: Period) -> ChartData:
    counts: Counter[tuple[str, str]] = Counter(
        (month, species) for month, species, _c in _registrations(period)
    )
    return monthly(period, [(s.value, SPECIES_PLURAL_LABELS[s.value]) for s in Species], counts)


def registrations_by_channel(period: Period) -> ChartData:
    counts: Counter[tuple[str, str]] = Counter(
        (month, channel) for month, _s, channel in _registrations(period)
    )
    return monthly(period, CHANNELS, counts)
