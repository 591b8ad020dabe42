"""Second copies of the card or the tag (BJP 8; GRU 19) and the death report that closes an RGA
(GRU 21; BJP 10)."""

from __future__ import annotations

from datetime import date, timedelta

from flask_babel import gettext as _

from portal.blueprints.animals.common import AnimalError, clean_text
from portal.blueprints.animals.registration import price_cents
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    CopyKind,
    CopyStatus,
    DocumentCopyRequest,
    TransferStatus,
    User,
)
from portal.models.base import utcnow
from portal.profiles.schema import PriceKey, Profile
from portal.services import audit

# ---------------------------------------------------------------------------------------------
# Second copy (BJP 8; GRU 19) and death (GRU 21; BJP 10)
# ---------------------------------------------------------------------------------------------


def provisional_valid_until(profile: Profile, requested_on: date) -> date | None:
    """Last day the second-copy request serves as the animal's ID: 45 days in GRU 19 §1, 60 in
    BJP 8 §ú, counted from the request (start day excluded). None where the law has none."""
    if profile.provisional_id is None:
        return None
    return requested_on + timedelta(days=profile.provisional_id.validity_days)


def request_copy(
    animal: Animal,
    kind: str,
    *,
    requested_by: User,
    profile: Profile,
    today: date,
    reason: str | None = None,
) -> DocumentCopyRequest:
    """Ask for a second copy of the card or the tag (BJP 8; GRU 19). The request is a provisional
    ID until :func:`provisional_valid_until`; a public price applies where the city has one
    (BJP 11 b; GRU 22 II). Raises AnimalError."""
    if kind not in (CopyKind.CARD, CopyKind.TAG):
        raise AnimalError("kind", "invalid", _("Escolha carteira ou plaqueta."))
    if animal.is_closed:
        raise AnimalError(None, "invalid", _("Este RGA está encerrado (baixa)."))
    copy = DocumentCopyRequest(
        animal=animal,
        kind=kind,
        reason=clean_text(reason),
        requested_on=today,
        requested_by_id=requested_by.id,
        # BJP 8 §ú (60 d); GRU 19 §1 (45 d): the request is the ID meanwhile
        valid_until=provisional_valid_until(profile, today),
    )
    db.session.add(copy)
    db.session.flush()
    # BJP 11 b; GRU 22 II: the second copy has a public price
    price_key: PriceKey = "card_copy" if kind == CopyKind.CARD else "tag_copy"
    amount = price_cents(profile, price_key, today)
    if amount is not None:
        from portal.blueprints.billing.services import create_payment_item

        label = (
            _("Segunda via da carteira do RGA")
            if kind == CopyKind.CARD
            else _("Segunda via da plaqueta do RGA")
        )
        item = create_payment_item(
            kind=price_key,
            amount_cents=amount,
            description=f"{label} {animal.rga} ({animal.name})",
            payer=animal.owner,
            subject_type="animal",
            subject_id=animal.id,
            breakdown=[
                {
                    "label": label,
                    "amount_cents": amount,
                    "article": profile.prices[price_key].article,
                }
            ],
        )
        copy.payment_item_id = item.id
    return copy


def mark_copy_issued(copy: DocumentCopyRequest, staff: User) -> None:
    """Staff hand over the second copy (GRU 19 §2: within the provisional validity)."""
    if copy.status == CopyStatus.ISSUED:
        raise AnimalError(None, "invalid", _("Esta segunda via já foi emitida."))
    copy.status = CopyStatus.ISSUED
    copy.issued_at = utcnow()
    copy.issued_by_id = staff.id
    db.session.flush()
    audit.record("animal.copy_issued", copy.animal, detail={"copy_id": copy.id, "kind": copy.kind})


def report_death(
    animal: Animal, *, reported_by: User, died_on: date | None, today: date, note: str | None = None
) -> None:
    """Close the RGA (*baixa*) after a death reported by the owner or a vet (GRU 21; BJP 10).

    The record stays and the number is never issued again (GRU 14 §4). Pending transfers are
    cancelled. Raises AnimalError("died_on", ...)."""
    if animal.is_closed:
        raise AnimalError(None, "invalid", _("A baixa deste RGA já foi registrada."))
    if died_on is None:
        raise AnimalError("died_on", "required", _("Informe a data do óbito."))
    if died_on > today:
        raise AnimalError("died_on", "invalid", _("A data do óbito não pode estar no futuro."))
    if died_on < animal.birth_date:
        raise AnimalError(
            "died_on", "invalid", _("A data do óbito não pode ser anterior ao nascimento.")
        )
    animal.status = AnimalStatus.CLOSED  # GRU 21; BJP 10: baixa, the row and number stay
    animal.closed_at = utcnow()
    animal.closed_reason = "death"
    animal.died_on = died_on
    animal.closed_note = clean_text(note)
    animal.closed_by_id = reported_by.id
    for transfer in animal.transfers:
        if transfer.status == TransferStatus.PENDING:
            transfer.status = TransferStatus.CANCELLED
            transfer.decided_at = utcnow()
    db.session.flush()
    audit.record("animal.closed", animal, detail={"rga": animal.rga, "reason": "death"})
