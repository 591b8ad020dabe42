"""A populated portal for the security walkers: the demo data plus, for the demo citizen, one of
every private object (transfer, second copy, exemption request, adoption application, applicant
documents, a paid item with its receipt), and a second citizen who owns nothing."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import date

import pytest
from sqlalchemy import select

from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    Animal,
    DocumentCopyRequest,
    ExemptionRequest,
    Listing,
    OwnershipTransfer,
    PaymentItem,
    StoredFile,
    User,
)
from portal.services.uploads import store_document
from tests import factories


@dataclass
class World:
    victim: User
    victim_cpf: str
    rgas: list[str]
    private_files: list[StoredFile]
    max_id: int
    ids: list[int]  # every primary key in use: PostgreSQL sequences do not restart between tests
    extra: dict = field(default_factory=dict)


def build_world(app) -> World:  # type: ignore[no-untyped-def]
    from tests.factories import add_document

    result = app.test_cli_runner().invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    victim = db.session.scalar(select(User).where(User.email == "cidada@demo.ccz"))
    neighbour = db.session.scalar(select(User).where(User.email == "vizinho@demo.ccz"))
    animals = db.session.scalars(select(Animal).where(Animal.owner_id == victim.id)).all()
    thor = animals[0]
    db.session.add(
        OwnershipTransfer(animal_id=thor.id, from_owner_id=victim.id, to_owner_id=neighbour.id)
    )
    db.session.add(
        DocumentCopyRequest(
            animal_id=thor.id,
            kind="card",
            requested_on=date.today(),
            requested_by_id=victim.id,
            valid_until=date.today(),
        )
    )
    item = db.session.scalars(select(PaymentItem).where(PaymentItem.payer_id == victim.id)).first()
    proof = store_document(
        io.BytesIO(b"%PDF-1.4\n/JS (app.alert(1))\n"),
        purpose="exemption_proof",
        owner_id=None,
        filename="prova.pdf",
    )
    db.session.add(
        ExemptionRequest(
            item_id=item.id,
            requester_id=victim.id,
            code="x",
            label="Isenção",
            article="GRU 23",
            proof_file_id=proof.id,
        )
    )
    from tests.factories import make_item

    paid = make_item(victim)
    paid.status = "paid"
    listing = db.session.scalars(select(Listing)).first()
    db.session.add(
        AdoptionApplication(
            listing_id=listing.id, applicant_id=victim.id, answers={}, eligibility=[]
        )
    )
    add_document(victim, "identity")
    add_document(victim, "proof_of_address")
    db.session.commit()
    files = db.session.scalars(select(StoredFile).where(StoredFile.public.is_(False))).all()
    ids: set[int] = set()
    for table in db.metadata.sorted_tables:
        if "id" in table.c:
            ids.update(db.session.scalars(select(table.c.id)).all())
    max_id = max(ids, default=0)
    return World(
        victim=victim,
        victim_cpf=victim.cpf,
        rgas=[a.rga for a in animals if a.rga],
        private_files=list(files),
        max_id=max_id,
        ids=sorted(ids),
    )


@pytest.fixture
def world(app) -> World:  # type: ignore[no-untyped-def]
    return build_world(app)


@pytest.fixture
def stranger() -> User:
    person = factories.user(roles=("citizen",), full_name="Estranho Curioso")
    db.session.commit()
    return person


ESTABLISHMENT_ACTIONS = ["aprovar", "recusar", "renovar", "credenciar", "descredenciar", "baixa"]


def named_argument_values(app, rule, arg: str) -> list[str] | None:  # type: ignore[no-untyped-def]
    """Real values for the string arguments of the newer domains' routes (queue and chart keys,
    a report protocol, an establishment action), or None for an argument this does not know."""
    from portal.models import MaltreatmentReport

    registry = app.extensions["workspace_queues"]
    if arg == "key":
        return list(registry.queues) if "/filas/" in rule.rule else list(registry.charts)
    if arg == "action":
        return ESTABLISHMENT_ACTIONS
    if arg == "protocol" and ("recolhimentos" in rule.rule or "recolhidos" in rule.rule):
        from portal.models import Capture

        return list(db.session.scalars(select(Capture.protocol))) or ["CAP-2026-000001"]
    if arg == "code" and rule.rule.startswith(("/certidoes/", "/api/v1/certificates/")):
        from portal.models import CaptureCertificate

        return list(db.session.scalars(select(CaptureCertificate.code))) or ["CNC-NAOEXISTE"]
    if arg == "protocol":
        return list(db.session.scalars(select(MaltreatmentReport.protocol))) or ["DEN-2026-000001"]
    if arg == "code" and rule.rule.startswith("/licencas/"):
        from portal.models.licence import ExcessLicence

        return list(db.session.scalars(select(ExcessLicence.code))) or ["nao-existe"]
    return None
