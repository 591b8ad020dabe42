"""Bars on a person, recorded by staff by CPF (VV 23 V; VV 23 III b; BJP 30 §ú; GRU 88 §4)."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.blueprints.adoption.errors import AdoptionError, InvalidData
from portal.extensions import db
from portal.models import (
    BarKind,
    Listing,
    PersonBar,
    User,
)
from portal.models.base import utcnow
from portal.services import audit
from portal.services.identity import clean_cpf


def animal_id_for_rga(text: str) -> int:
    """The RGA record typed by staff (for a GRU 88 §4 bar). Raises AdoptionError."""
    from portal.blueprints.animals.rga import InvalidRgaNumber
    from portal.blueprints.animals.services import find_by_rga

    try:
        animal = find_by_rga(text)
    except InvalidRgaNumber as err:
        raise AdoptionError(
            "rga", "invalid", _("Número de RGA inválido: confira o número e o dígito.")
        ) from err
    if animal is None:
        raise AdoptionError("rga", "not_found", _("Nenhum animal com este RGA."))
    return animal.id


# Plain names: the bars page cites the profile's own article for each (adoption/bars.html).
BAR_LABELS: dict[str, Any] = {
    BarKind.COMMITMENT_NEVER_KEEP: _l("Termo de compromisso de não mais ter animais"),
    BarKind.LOST_POSSESSION_MALTREATMENT: _l("Perda da posse de animal por maus-tratos"),
    BarKind.CAUSED_DEFINITIVE_APPREHENSION: _l("Deu causa à apreensão definitiva de um animal"),
}


def record_bar(
    cpf: str,
    kind: str,
    reason: str,
    staff: User,
    *,
    listing: Listing | None = None,
    animal_id: int | None = None,
    person_name: str | None = None,
) -> PersonBar:
    """Record that the person with ``cpf`` may not adopt. Raises AdoptionError.

    A GRU 88 §4 bar names the animal (its listing or its RGA record) and blocks only that one.
    """
    clean = clean_cpf(cpf)
    errors = []
    if clean is None:
        errors.append(("cpf", "invalid", _("CPF inválido: confira os dígitos.")))
    if kind not in BAR_LABELS:
        errors.append(("kind", "invalid_choice", _("Escolha o tipo de impedimento.")))
    if not reason.strip():
        errors.append(("reason", "required", _("Descreva o motivo e o documento de origem.")))
    if kind == BarKind.CAUSED_DEFINITIVE_APPREHENSION and listing is None and animal_id is None:
        errors.append(
            (
                "listing_id",
                "required",
                _("Informe o anúncio ou o RGA do animal apreendido (GRU 88 §4)."),
            )
        )
    if errors:
        raise InvalidData(errors)
    assert clean is not None
    bar = PersonBar(
        cpf=clean,
        kind=kind,
        reason=reason.strip(),
        listing=listing,
        animal_id=animal_id if animal_id is not None else (listing.animal_id if listing else None),
        person_name=(person_name or "").strip() or None,
        recorded_by_id=staff.id,
    )
    db.session.add(bar)
    db.session.flush()
    audit.record("adoption.bar_recorded", bar, actor_id=staff.id, detail={"kind": kind})
    return bar


def revoke_bar(bar: PersonBar, staff: User, reason: str) -> PersonBar:
    if not reason.strip():
        raise AdoptionError("reason", "required", _("Informe o motivo do cancelamento."))
    if bar.revoked_at is not None:
        raise AdoptionError(None, "already_revoked", _("Este impedimento já foi cancelado."))
    bar.revoked_at = utcnow()
    bar.revoked_by_id = staff.id
    bar.revoke_reason = reason.strip()
    db.session.flush()
    audit.record("adoption.bar_revoked", bar, actor_id=staff.id)
    return bar


def recent_bars(limit: int = 50) -> list[PersonBar]:
    return list(db.session.scalars(select(PersonBar).order_by(PersonBar.id.desc()).limit(limit)))


def bars_for_cpf(cpf: str) -> list[PersonBar]:
    clean = clean_cpf(cpf)
    if clean is None:
        raise AdoptionError("cpf", "invalid", _("CPF inválido: confira os dígitos."))
    return list(
        db.session.scalars(
            select(PersonBar).where(PersonBar.cpf == clean).order_by(PersonBar.id.desc())
        )
    )
