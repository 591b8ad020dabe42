"""What every part of the licence rules shares: the error, the profile's rule, public codes, the
document's name, the request's timeline, the e-mail to the holder and the registration fees of
the animals registered inside a request."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    ExcessLicence,
    LicenceAnimal,
    LicenceEvent,
    PaymentItem,
    User,
)
from portal.profiles.schema import LicenceRule, Profile
from portal.services.mail import send_email
from portal.urls import absolute_url

COUNTED = (AnimalStatus.ACTIVE, AnimalStatus.PENDING)
SPECIES = ("dog", "cat")
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud and typed by hand


class LicenceError(DomainError):
    pass


def rule_of(profile: Profile) -> LicenceRule:
    """The profile's licence rule. CABO (forbidden above the limit) and VV (no limit) have none."""
    if profile.licence is None:
        raise LicenceError(
            None, "not_in_profile", _("A lei deste município não prevê licença para mais animais.")
        )
    return profile.licence


def new_code() -> str:
    """A public code: 12 random characters (60 bits), grouped to be read aloud."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def normalise_code(text: str) -> str:
    raw = "".join(ch for ch in (text or "").upper() if ch.isalnum())
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}" if len(raw) == 12 else raw


def document_name(profile: Profile) -> str:
    rule = profile.licence
    if rule is not None and rule.document == "kennel_laudo":
        return _("laudo de canil particular")
    return _("licença especial")


class LicenceErrors(LicenceError):
    """Several problems found at once (the form shows each next to its animal or field)."""

    def __init__(self, errors: list[LicenceError]) -> None:
        super().__init__(errors[0].field, errors[0].code, errors[0].message)
        self.errors = errors


@dataclass
class Upload:
    stream: IO[bytes]
    filename: str | None


def record_event(
    licence: ExcessLicence,
    action: str,
    actor: User | None,
    note: str | None = None,
    **detail: object,
) -> None:
    licence.events.append(
        LicenceEvent(
            action=action, note=note, detail=detail or None, actor_id=actor.id if actor else None
        )
    )


def notify_holder(licence: ExcessLicence, subject: str, text: str) -> None:
    holder = licence.holder or db.session.get(User, licence.holder_id)
    if holder is None or not holder.email:
        return
    with force_locale("pt_BR"):
        send_email(
            holder.email,
            subject,
            _(
                'Olá, %(name)s.\n\n%(text)s\n\nAcompanhe em "Minhas licenças":\n%(link)s\n\n'
                "Centro de Controle de Zoonoses",
                name=holder.full_name.split()[0],
                text=text,
                link=absolute_url("licences.mine"),
            ),
        )


def inside_fees(licence_ids: Iterable[int]) -> dict[int, list[tuple[Animal, PaymentItem]]]:
    """GRU 22 I; BJP 11 a: the registration fee of each animal registered inside these requests,
    by request, in one query (the request page and the home to-do list read it)."""
    rows = db.session.execute(
        select(LicenceAnimal.licence_id, Animal, PaymentItem)
        .join(Animal, Animal.id == LicenceAnimal.animal_id)
        .join(PaymentItem, PaymentItem.id == Animal.fee_item_id)
        .where(
            LicenceAnimal.licence_id.in_(list(licence_ids)),
            LicenceAnimal.registered_inside.is_(True),
        )
        .order_by(LicenceAnimal.id)
    )
    out: dict[int, list[tuple[Animal, PaymentItem]]] = {}
    for licence_id, animal, item in rows:
        out.setdefault(licence_id, []).append((animal, item))
    return out
