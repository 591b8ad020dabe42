"""Transfers of an animal that has an RGA to a new owner (BJP 7; GRU 18; VV 13): immediate
(adoption, documented sale) or offered to a citizen who accepts; the household limit is checked at
the new owner's residence (GRU 37; BJP 17). :func:`transfer_animal` is called by the adoption
domain."""

from __future__ import annotations

from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.animals.common import AnimalError, owner_residence_key
from portal.blueprints.animals.household import check_household_limit, counts_for_household
from portal.extensions import db
from portal.models import (
    Animal,
    OwnershipTransfer,
    TransferStatus,
    User,
)
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services.clock import current_profile, local_today
from portal.services.identity import clean_cpf
from portal.services.mail import send_email
from portal.urls import absolute_url

# ---------------------------------------------------------------------------------------------
# Transfers (BJP 7; GRU 18; VV 13)
# ---------------------------------------------------------------------------------------------


def _complete_transfer(transfer: OwnershipTransfer, profile: Profile, today: date) -> None:
    animal = transfer.animal
    new_owner = transfer.to_owner
    new_key = owner_residence_key(new_owner)
    if new_key is None:
        raise AnimalError(
            "owner.address",
            "required",
            _(
                "Complete o seu endereço (CEP, logradouro e número) no seu perfil antes de "
                "aceitar: é onde o animal vai morar."
            ),
        )
    counts = counts_for_household(animal.birth_date, today, profile)
    moving_in = 1 if counts and animal.residence_key != new_key else 0
    # GRU 37; BJP 17: the limit holds at the new home
    check_household_limit(profile, new_owner, extra=moving_in, on=today)
    animal.owner = new_owner
    animal.residence_key = new_key
    # BJP 7; GRU 18: the record is updated, responsibility passes to the new owner now
    transfer.status = TransferStatus.ACCEPTED
    transfer.accepted_at = transfer.decided_at = utcnow()


def transfer_article(profile: Profile) -> str | None:
    """The article keeping the previous owner responsible until the transfer is accepted (BJP 7
    §ú; GRU 18 §2); None where the law says nothing and it is the portal's own procedure."""
    return profile.transfer_article()


def transfer_animal(
    animal: Animal,
    new_owner: User,
    *,
    immediate: bool,
    profile: Profile | None = None,
    today: date | None = None,
    reason: str = "adoption",
) -> OwnershipTransfer:
    """Move an animal that has an RGA to ``new_owner``.

    ``immediate=True`` (adoption completed, sale documented: GRU 18 §1) changes the owner now,
    after checking the household limit at the new owner's residence. ``immediate=False`` opens a
    pending transfer the new owner accepts in "Meus animais"; until then the previous owner stays
    responsible (BJP 7 §ú; GRU 18 §2). Any other pending transfer of the animal is cancelled.

    Raises AnimalError (closed RGA, same owner, new owner without address) or
    HouseholdLimitExceeded. Flushes; the caller commits.
    """
    profile = profile or current_profile()
    today = today or local_today(profile)
    if animal.is_closed:
        raise AnimalError(
            None, "invalid", _("Este RGA está encerrado (baixa) e não pode ser transferido.")
        )
    if new_owner.id == animal.owner_id:
        raise AnimalError("cpf", "invalid", _("O animal já pertence a esta pessoa."))
    for other in animal.transfers:
        if other.status == TransferStatus.PENDING:
            other.status = TransferStatus.CANCELLED
            other.decided_at = utcnow()
    transfer = OwnershipTransfer(
        animal=animal, from_owner=animal.owner, to_owner=new_owner, reason=reason
    )
    db.session.add(transfer)
    if immediate:
        _complete_transfer(transfer, profile, today)
    db.session.flush()
    return transfer


def request_transfer(
    animal: Animal, owner: User, new_owner_cpf: str, *, profile: Profile, today: date
) -> OwnershipTransfer:
    """The owner offers the animal to another citizen, found by CPF; they must accept.

    Raises AnimalError(field "cpf": invalid_cpf, not_found, invalid)."""
    if animal.owner_id != owner.id:
        raise AnimalError(None, "not_allowed", _("Só o proprietário pode transferir o animal."))
    cpf = clean_cpf(new_owner_cpf or "")
    if cpf is None:
        raise AnimalError("cpf", "invalid_cpf", _("CPF inválido: confira os 11 dígitos."))
    new_owner = db.session.scalar(select(User).where(User.cpf == cpf))
    if new_owner is None or not new_owner.active:
        raise AnimalError(
            "cpf",
            "not_found",
            _(
                "Não encontramos um cadastro com este CPF. Peça ao novo proprietário que crie uma "
                "conta no portal e tente de novo."
            ),
        )
    transfer = transfer_animal(
        animal, new_owner, immediate=False, profile=profile, today=today, reason="citizen"
    )
    if new_owner.email:
        send_email(
            new_owner.email,
            _("Transferência de animal para você"),
            _(
                "Olá, %(name)s.\n\n%(from)s quer transferir para você o animal %(animal)s "
                '(RGA %(rga)s).\nPara aceitar ou recusar, entre no portal do CCZ, em "Meus '
                'animais":\n%(link)s\n\nEnquanto você não aceitar, o proprietário atual continua '
                "responsável pelo animal.",
                name=new_owner.full_name,
                **{"from": owner.full_name},
                animal=animal.name,
                rga=animal.rga,
                link=absolute_url("animals.my_animals"),
            ),
        )
    return transfer


def accept_transfer(
    transfer: OwnershipTransfer, user: User, *, profile: Profile, today: date
) -> None:
    """The new owner accepts: ownership and residence change now (BJP 7; GRU 18).

    Raises AnimalError (not theirs, no longer pending) or HouseholdLimitExceeded."""
    if transfer.to_owner_id != user.id:
        raise AnimalError(None, "not_allowed", _("Esta transferência não é para você."))
    if transfer.status != TransferStatus.PENDING or transfer.animal.is_closed:
        raise AnimalError(None, "invalid", _("Esta transferência não está mais pendente."))
    previous = transfer.from_owner
    _complete_transfer(transfer, profile, today)
    db.session.flush()
    if previous.email:
        send_email(
            previous.email,
            _("Transferência aceita"),
            _(
                "Olá, %(name)s.\n\n%(new)s aceitou a transferência do animal %(animal)s "
                "(RGA %(rga)s). A partir de agora a responsabilidade pelo animal é do novo "
                "proprietário.",
                name=previous.full_name,
                new=user.full_name,
                animal=transfer.animal.name,
                rga=transfer.animal.rga,
            ),
        )


def decline_transfer(transfer: OwnershipTransfer, user: User) -> None:
    """The new owner refuses, or the current owner withdraws the offer."""
    if user.id not in (transfer.to_owner_id, transfer.from_owner_id):
        raise AnimalError(None, "not_allowed", _("Esta transferência não é sua."))
    if transfer.status != TransferStatus.PENDING:
        raise AnimalError(None, "invalid", _("Esta transferência não está mais pendente."))
    transfer.status = (
        TransferStatus.DECLINED if user.id == transfer.to_owner_id else TransferStatus.CANCELLED
    )
    transfer.decided_at = utcnow()
    db.session.flush()


def pending_transfers_to(user: User) -> list[OwnershipTransfer]:
    return list(
        db.session.scalars(
            select(OwnershipTransfer)
            .where(
                OwnershipTransfer.to_owner_id == user.id,
                OwnershipTransfer.status == TransferStatus.PENDING,
            )
            .order_by(OwnershipTransfer.id)
        )
    )
