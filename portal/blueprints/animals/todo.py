"""The RGA domain's part of the citizen's to-do list: transfers offered to the
person, registrations waiting for a vaccination or a proof check, provisional IDs of second
copies ready to download. Unpaid fees come from billing's provider. Wired in ``hooks.py``."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from flask import url_for
from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.animals import provisional
from portal.extensions import db
from portal.models import Animal, AnimalStatus, CopyStatus, DocumentCopyRequest, User
from portal.services.todo import TodoItem


def animal_todo(user: User) -> Iterator[TodoItem]:
    from portal.blueprints.animals.transfers import pending_transfers_to
    from portal.services.clock import local_today

    for offer in pending_transfers_to(user):
        yield TodoItem(
            "transfer",
            _(
                "%(name)s quer transferir %(animal)s (RGA %(rga)s) para você: aceite ou recuse.",
                name=offer.from_owner.full_name,
                animal=offer.animal.name,
                rga=offer.animal.rga,
            ),
            url_for("animals.transfer_review", transfer_id=offer.id),
            _("Responder"),
            order=20,
        )

    animals = db.session.scalars(
        select(Animal)
        .where(
            Animal.owner_id == user.id,
            Animal.status != AnimalStatus.CLOSED,
            Animal.provisional.is_(True),
        )
        .order_by(Animal.name)
    ).all()
    for animal in animals:
        detail = url_for("animals.detail", rga=animal.rga)
        for item in provisional.missing(animal):
            if item.code in ("vaccination", "proof_refused"):
                yield TodoItem(
                    "vaccination",
                    _(
                        "Leve %(animal)s (RGA %(rga)s) ao CCZ para comprovar ou fazer a vacinação "
                        "antirrábica.",
                        animal=animal.name,
                        rga=animal.rga,
                    ),
                    detail,
                    _("Ver o que falta"),
                    order=30,
                )
            elif item.code == "proof":
                yield TodoItem(
                    "proof",
                    _(
                        "Comprovante de vacinação de %(animal)s aguardando conferência do CCZ.",
                        animal=animal.name,
                    ),
                    detail,
                    _("Acompanhar"),
                    order=40,
                )

    today = local_today()
    for copy in _downloadable_copies(user, today):
        label = _("carteira") if copy.kind == "card" else _("plaqueta")
        yield TodoItem(
            "copy",
            _(
                "Documento provisório da segunda via da %(what)s de %(animal)s pronto para baixar "
                "(válido até %(day)s).",
                what=label,
                animal=copy.animal.name,
                day=copy.valid_until.strftime("%d/%m/%Y") if copy.valid_until else "",
            ),
            url_for("animals.copy_pdf", copy_id=copy.id),
            _("Baixar"),
            order=60,
        )


def _downloadable_copies(user: User, today: date) -> list[DocumentCopyRequest]:
    """Second copies still being made whose request serves as the animal's ID meanwhile
    (BJP 8 §ú; GRU 19 §1)."""
    return list(
        db.session.scalars(
            select(DocumentCopyRequest)
            .join(Animal, DocumentCopyRequest.animal_id == Animal.id)
            .where(
                Animal.owner_id == user.id,
                Animal.status != AnimalStatus.CLOSED,
                DocumentCopyRequest.status == CopyStatus.REQUESTED,
                DocumentCopyRequest.valid_until.is_not(None),
                DocumentCopyRequest.valid_until >= today,
            )
            .order_by(DocumentCopyRequest.id)
        )
    )
