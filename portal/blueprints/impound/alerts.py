"""For owners of lost animals: the public "Animais recolhidos" list (no exact address)
and "Perdi meu animal" alerts e-mailed when a capture matches."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.orm import selectinload

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Animal,
    Capture,
    CaptureStatus,
    LostAnimalAlert,
    User,
)
from portal.services import audit
from portal.services.mail import send_email
from portal.urls import absolute_url

from .labels import PUBLIC_DAYS, SIZES, SPECIES, species_label

# ---------------------------------------------------------------------------------------------
# Public pages: "Animais recolhidos" and "Perdi meu animal"
# ---------------------------------------------------------------------------------------------


def recent_captures(
    today: date, *, species: str | None = None, district: str | None = None, size: str | None = None
) -> list[Capture]:
    """Animals captured in the last 30 days and still with the CCZ (no exact address shown)."""
    query = (
        select(Capture)
        .where(
            Capture.captured_on >= today - timedelta(days=PUBLIC_DAYS),
            Capture.status.in_([CaptureStatus.IN_CUSTODY, CaptureStatus.DEFINITIVE_PENDING]),
        )
        .order_by(Capture.captured_on.desc(), Capture.id.desc())
        .options(selectinload(Capture.photos))  # one query for the list's thumbnails, not one a row
    )
    if species in SPECIES:
        query = query.where(Capture.species == species)
    if size in SIZES:
        query = query.where(Capture.size == size)
    if district:
        query = query.where(func.lower(Capture.district).contains(district.strip().lower()))
    return list(db.session.scalars(query.limit(200)))


@dataclass
class AlertData:
    species: str
    lost_on: date
    color: str | None = None
    district: str | None = None
    microchip: str | None = None
    rga: str | None = None
    description: str | None = None
    animal_id: int | None = None


def create_alert(user: User, data: AlertData, today: date) -> LostAnimalAlert:
    if data.species not in SPECIES:
        raise DomainError("species", "invalid", _("Escolha uma das opções."))
    if data.lost_on > today:
        raise DomainError("lost_on", "future", _("A data não pode estar no futuro."))
    if data.animal_id is not None:
        animal = db.session.get(Animal, data.animal_id)
        if animal is None or animal.owner_id != user.id:
            raise DomainError("animal_id", "invalid", _("Escolha um dos seus animais."))
        data.species, data.rga = animal.species, animal.rga
        data.microchip = data.microchip or animal.microchip
        data.color = data.color or animal.color
    alert = LostAnimalAlert(
        user_id=user.id,
        animal_id=data.animal_id,
        species=data.species,
        color=(data.color or "").strip() or None,
        district=(data.district or "").strip() or None,
        microchip=(data.microchip or "").strip() or None,
        rga=(data.rga or "").strip() or None,
        description=(data.description or "").strip() or None,
        lost_on=data.lost_on,
    )
    db.session.add(alert)
    db.session.flush()
    audit.record("impound.alert_created", alert)
    for capture in recent_captures(today, species=data.species):
        if _matches(alert, capture):
            _email_match(alert, capture)
            break
    return alert


def _matches(alert: LostAnimalAlert, capture: Capture) -> bool:
    if alert.species != capture.species or capture.captured_on < alert.lost_on:
        return False
    if alert.microchip and capture.microchip and alert.microchip == capture.microchip:
        return True
    if alert.rga and capture.animal is not None and capture.animal.rga == alert.rga:
        return True
    if alert.rga and capture.tag_read and capture.tag_read.replace(" ", "") == alert.rga:
        return True
    color_ok = bool(alert.color) and _fold(alert.color) in _fold(capture.color)
    district_ok = bool(alert.district) and _fold(alert.district) == _fold(capture.district)
    return color_ok and district_ok


def _fold(text: str | None) -> str:
    import unicodedata

    plain = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode()
    return " ".join(plain.lower().split())


def _match_alerts(capture: Capture) -> None:
    alerts = db.session.scalars(
        select(LostAnimalAlert).where(
            LostAnimalAlert.active.is_(True), LostAnimalAlert.species == capture.species
        )
    )
    for alert in alerts:
        if _matches(alert, capture):
            _email_match(alert, capture)


def _email_match(alert: LostAnimalAlert, capture: Capture) -> None:
    person = db.session.get(User, alert.user_id)
    alert.last_match_capture_id = capture.id
    if person is None or not person.email:
        return
    send_email(
        person.email,
        _("Um animal parecido com o seu foi recolhido pelo CCZ"),
        "\n".join(
            [
                _("Olá, %(name)s.", name=person.full_name),
                "",
                _(
                    "O CCZ recolheu em %(day)s, no bairro %(district)s, um animal parecido com o "
                    "que você perdeu (%(species)s, %(color)s). Prazo para o resgate: até "
                    "%(deadline)s.",
                    day=capture.captured_on.strftime("%d/%m/%Y"),
                    district=capture.district,
                    species=species_label(capture.species),
                    color=capture.color,
                    deadline=capture.deadline_on.strftime("%d/%m/%Y"),
                ),
                _(
                    "Veja a foto e o que levar para o resgate: %(url)s",
                    url=absolute_url("impound.public_capture", protocol=capture.protocol),
                ),
            ]
        ),
    )
    db.session.flush()
    audit.record(
        "impound.alert_matched", alert, detail={"protocol": capture.protocol}, actor_id=None
    )
