"""Reading documents: "Minhas notificações", by number, the access code, the next deadline."""

from __future__ import annotations

from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from portal.blueprints.enforcement.addressees import addressee_filter
from portal.blueprints.enforcement.codes import code_matches, printed_code  # noqa: F401
from portal.blueprints.enforcement.petitions import petition_option
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    EnforcementKind,
    EnforcementStatus,
    PetitionKind,
    User,
)
from portal.models.billing import PAYABLE_STATUSES
from portal.profiles.schema import Profile
from portal.services.clock import local_date


def documents_for(user: User) -> list[EnforcementDocument]:
    """ "Minhas notificações": by CPF, by the CNPJ of the person's active cadastros, and by an
    accepted representation (``addressees``)."""
    return list(
        db.session.scalars(
            select(EnforcementDocument)
            .where(addressee_filter(user), EnforcementDocument.knowledge_on.is_not(None))
            .order_by(EnforcementDocument.issued_at.desc())
            # the list, the to-do and the export read each one's petitions, fine and parent
            .options(
                selectinload(EnforcementDocument.petitions),
                selectinload(EnforcementDocument.payment_item),
                selectinload(EnforcementDocument.parent).selectinload(
                    EnforcementDocument.petitions
                ),
            )
        )
    )


def by_number(number: str) -> EnforcementDocument | None:
    return db.session.scalar(
        select(EnforcementDocument).where(EnforcementDocument.number == number.strip())
    )


def current_deadline(doc: EnforcementDocument, profile: Profile) -> tuple[date | None, str]:
    """The next date that matters to the addressee, and what it is for."""
    if doc.kind == EnforcementKind.PRELIMINARY and doc.status == EnforcementStatus.OPEN:
        due = local_date(doc.comply_due_at) if doc.comply_due_at else None
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
