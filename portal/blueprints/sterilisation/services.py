"""The sterilisation programme's rules (VV 7-10; GRU 8; BJP 32).

A person books a castration for one of their dogs or cats on a surgery day that still has a free
place, or joins the waitlist (for one site or any). A place that frees — a new day, more places on
a day, a cancellation — goes to the oldest request waiting for it, who is told by e-mail. On the
day the CCZ records the outcome: sterilised (by a veterinarian with CRMV, VV 10 §4; the RGA record
says so), not fit for surgery after the clinical exam (VV 9; the person may book again) or no-show.

Every function takes model objects and values, flushes, audits, and raises
:class:`SterilisationError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, or_, select

from portal.blueprints.animals.common import normalise_crmv
from portal.blueprints.sterilisation import notices
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    BookingStatus,
    SterilisationBooking,
    SterilisationSite,
    SterilisationSlot,
    User,
)
from portal.models.animal import Species
from portal.models.sterilisation import OPEN_BOOKING
from portal.profiles.base import is_silent
from portal.profiles.schema import Profile, SterilisationRule
from portal.services import audit, locks

PARTNER_LABELS = {
    "ccz": _l("Centro de Controle de Zoonoses"),
    "university": _l("Universidade"),
    "vet_establishment": _l("Estabelecimento veterinário"),
    "ngo": _l("ONG de proteção animal"),
    "professional_body": _l("Entidade de classe"),
}
STATUS_LABELS = {
    BookingStatus.WAITLISTED.value: _l("Na fila de espera"),
    BookingStatus.BOOKED.value: _l("Agendada"),
    BookingStatus.DONE.value: _l("Castração realizada"),
    BookingStatus.UNFIT.value: _l("Não apto à cirurgia no exame clínico"),
    BookingStatus.NO_SHOW.value: _l("Não compareceu"),
    BookingStatus.CANCELLED.value: _l("Cancelada"),
}
OUTCOMES = (BookingStatus.DONE, BookingStatus.UNFIT, BookingStatus.NO_SHOW)
MAX_CAPACITY = 200  # a surgery day of a mobile unit is tens of animals: a bigger figure is a typo


class SterilisationError(DomainError):
    pass


def partner_label(kind: str) -> str:
    return str(PARTNER_LABELS.get(kind, kind))


def status_label(status: str) -> str:
    return str(STATUS_LABELS.get(status, status))


def rule_of(profile: Profile) -> SterilisationRule:
    if profile.sterilisation is None:
        raise SterilisationError(
            None,
            "not_in_profile",
            _("A lei deste município não prevê programa de castração."),
        )
    return profile.sterilisation


# -- what a person may book ---------------------------------------------------------------------


def open_slots(today: date) -> list[SterilisationSlot]:
    """Surgery days after today at active sites that still have a free place, soonest first."""
    taken = (
        select(func.count(SterilisationBooking.id))
        .where(
            SterilisationBooking.slot_id == SterilisationSlot.id,
            SterilisationBooking.status != BookingStatus.CANCELLED,
        )
        .scalar_subquery()
    )
    return list(
        db.session.scalars(
            select(SterilisationSlot)
            .join(SterilisationSite)
            .where(
                SterilisationSite.active.is_(True),
                SterilisationSlot.day > today,
                SterilisationSlot.capacity > taken,
            )
            .order_by(SterilisationSlot.day, SterilisationSite.name, SterilisationSlot.id)
        )
    )


def active_sites() -> list[SterilisationSite]:
    return list(
        db.session.scalars(
            select(SterilisationSite)
            .where(SterilisationSite.active.is_(True))
            .order_by(SterilisationSite.district, SterilisationSite.name)
        )
    )


def bookable_animals(person: User) -> list[Animal]:
    """The person's dogs and cats that are not sterilised, not closed and not already booked."""
    booked = select(SterilisationBooking.animal_id).where(
        SterilisationBooking.animal_id.is_not(None),
        SterilisationBooking.status.in_(OPEN_BOOKING),
    )
    return list(
        db.session.scalars(
            select(Animal)
            .where(
                Animal.owner_id == person.id,
                Animal.status != AnimalStatus.CLOSED,
                Animal.sterilized.is_(False),
                Animal.id.not_in(booked),
            )
            .order_by(Animal.name)
        )
    )


@dataclass
class BookingRequest:
    """What the person chose: one of their RGA animals, or an animal described (no RGA yet, or a
    community animal they care for); a day, or the waitlist (for one site or any)."""

    animal: Animal | None = None
    animal_name: str = ""
    species: str = ""
    sex: str = ""
    community: bool = False
    community_place: str | None = None
    slot: SterilisationSlot | None = None
    preferred_site: SterilisationSite | None = None


def _check_animal(person: User, request: BookingRequest, rule: SterilisationRule) -> None:
    animal = request.animal
    if animal is not None:
        if animal.owner_id != person.id or animal.status == AnimalStatus.CLOSED:
            raise SterilisationError(
                "animal", "not_yours", _("Escolha um dos seus animais com RGA ativo.")
            )
        if animal.sterilized:
            raise SterilisationError(
                "animal", "already_sterilised", _("Este animal já consta como castrado no RGA.")
            )
        open_booking = db.session.scalar(
            select(SterilisationBooking.id).where(
                SterilisationBooking.animal_id == animal.id,
                SterilisationBooking.status.in_(OPEN_BOOKING),
            )
        )
        if open_booking is not None:
            raise SterilisationError(
                "animal",
                "already_booked",
                _("Este animal já tem castração agendada ou está na fila de espera."),
            )
        return
    if request.species not in (Species.DOG, Species.CAT):
        # VV 7 II; GRU 8; BJP 32: the programme is for dogs and cats
        raise SterilisationError("species", "species", _("O programa castra cães e gatos."))
    if not request.animal_name.strip():
        raise SterilisationError(
            "animal_name", "name_required", _("Diga o nome ou um apelido do animal.")
        )
    if request.community:
        if not rule.community_animals:
            raise SterilisationError(
                "community",
                "community_not_in_law",
                _("O programa deste município atende animais com tutor."),
            )
        if not (request.community_place or "").strip():
            # VV 10 §4: a community animal "em situação de rua mas com responsável"
            raise SterilisationError(
                "community_place",
                "place_required",
                _("Diga onde o animal comunitário vive (rua, praça, bairro)."),
            )


def request_booking(
    person: User, request: BookingRequest, *, profile: Profile, today: date
) -> SterilisationBooking:
    """Book a place on ``request.slot``, or join the waitlist when no day is chosen.

    Raises SterilisationError: the city has no programme; the animal is not the person's, is
    already sterilised or already booked; a described animal is not a dog or cat, has no name, or
    is a community animal without a place; the day is past, closed or full.
    """
    rule = rule_of(profile)
    _check_animal(person, request, rule)
    animal = request.animal
    booking = SterilisationBooking(
        requester=person,
        animal=animal,
        species=animal.species if animal else request.species,
        sex=animal.sex if animal else request.sex,
        animal_name=animal.name if animal else request.animal_name.strip(),
        community=False if animal else request.community,
        community_place=None if animal or not request.community else request.community_place,
        preferred_site=request.preferred_site,
        status=BookingStatus.WAITLISTED,
    )
    if request.slot is not None:
        _take_place(booking, request.slot, today)
    db.session.add(booking)
    db.session.flush()
    audit.record(
        "sterilisation.requested",
        booking,
        detail={"status": booking.status, "slot": request.slot.id if request.slot else None},
        actor_id=person.id,
    )
    notices.mail_requested(booking)
    return booking


def _take_place(booking: SterilisationBooking, slot: SterilisationSlot, today: date) -> None:
    if slot.day <= today or not slot.site.active:
        raise SterilisationError(
            "slot", "slot_closed", _("Este dia não está mais aberto. Escolha outro.")
        )
    locks.hold(f"sterilisation-slot-{slot.id}")  # two people taking the last place at once
    db.session.refresh(slot)
    if slot.free < 1:
        raise SterilisationError(
            "slot",
            "slot_full",
            _("As vagas deste dia acabaram. Escolha outro dia ou entre na fila de espera."),
        )
    booking.slot = slot
    booking.status = BookingStatus.BOOKED
    booking.booked_at = datetime.now(UTC)


def cancel_booking(
    booking: SterilisationBooking, actor: User, *, today: date, reason: str | None = None
) -> None:
    """The person (or the CCZ) gives up a place or leaves the waitlist; a day still ahead passes
    the place to the waitlist.

    Raises SterilisationError when the booking is closed or its day has passed.
    """
    if not booking.is_open:
        raise SterilisationError(None, "closed", _("Este pedido já foi encerrado."))
    slot = booking.slot
    if slot is not None and slot.day < today:
        raise SterilisationError(
            None, "day_passed", _("O dia da castração já passou: o CCZ registra o resultado.")
        )
    booking.status = BookingStatus.CANCELLED
    booking.closed_at = datetime.now(UTC)
    booking.note = reason
    db.session.flush()
    by_requester = actor.id == booking.requester_id
    audit.record("sterilisation.cancelled", booking, detail={"by_requester": by_requester})
    if slot is not None:
        db.session.refresh(slot)
        fill_from_waitlist(slot, today=today)


def fill_from_waitlist(slot: SterilisationSlot, *, today: date) -> list[SterilisationBooking]:
    """Give the day's free places to the oldest requests waiting for its site or for any site, and
    tell each person by e-mail."""
    if slot.day <= today or not slot.site.active:
        return []
    locks.hold(f"sterilisation-slot-{slot.id}")
    db.session.refresh(slot)
    if slot.free < 1:
        return []
    waiting = db.session.scalars(
        select(SterilisationBooking)
        .where(
            SterilisationBooking.status == BookingStatus.WAITLISTED,
            or_(
                SterilisationBooking.preferred_site_id.is_(None),
                SterilisationBooking.preferred_site_id == slot.site_id,
            ),
        )
        .order_by(SterilisationBooking.created_at, SterilisationBooking.id)
        .limit(slot.free)
    ).all()
    for booking in waiting:
        booking.slot = slot
        booking.status = BookingStatus.BOOKED
        booking.booked_at = datetime.now(UTC)
        audit.record("sterilisation.from_waitlist", booking, detail={"slot": slot.id})
        notices.mail_booked_from_waitlist(booking)
    db.session.flush()
    return list(waiting)


# -- the CCZ's side --------------------------------------------------------------------------------


@dataclass
class SiteData:
    name: str
    partner_kind: str
    address: str
    district: str
    phone: str | None = None
    instructions: str | None = None


def save_site(
    site: SterilisationSite | None, data: SiteData, actor: User, *, profile: Profile
) -> SterilisationSite:
    """Create a site (``site`` None) or change one. The partner must be of a kind the law names
    (VV 9 §ú; GRU 8; BJP 32)."""
    rule = rule_of(profile)
    if data.partner_kind not in rule.partner_kinds:
        raise SterilisationError(
            "partner_kind",
            "partner_kind",
            _("A lei deste município não prevê este tipo de parceiro (%(article)s).")
            % {"article": rule.cite("partner_kinds")},
        )
    if site is None:
        site = SterilisationSite()
        db.session.add(site)
    site.name = data.name.strip()
    site.partner_kind = data.partner_kind
    site.address = data.address.strip()
    site.district = data.district.strip()
    site.phone = (data.phone or "").strip() or None
    site.instructions = (data.instructions or "").strip() or None
    db.session.flush()
    audit.record("sterilisation.site_saved", site, detail={"name": site.name})
    return site


def set_site_active(site: SterilisationSite, active: bool, *, today: date) -> None:
    """Open or close a site; one with people booked on a day ahead cannot close until they are
    moved or cancelled."""
    if not active:
        ahead = db.session.scalar(
            select(func.count(SterilisationBooking.id))
            .join(SterilisationSlot)
            .where(
                SterilisationSlot.site_id == site.id,
                SterilisationSlot.day >= today,
                SterilisationBooking.status == BookingStatus.BOOKED,
            )
        )
        if ahead:
            raise SterilisationError(
                None,
                "has_bookings",
                _(
                    "Há %(count)d castração(ões) agendada(s) neste local a partir de hoje: "
                    "cancele-as antes de desativar o local."
                )
                % {"count": ahead},
            )
    site.active = active
    db.session.flush()
    audit.record("sterilisation.site_active", site, detail={"active": active})


def add_slot(
    site: SterilisationSite, day: date, capacity: int, actor: User, *, today: date
) -> SterilisationSlot:
    """Open a surgery day at a site; its places go first to the waitlist."""
    if not site.active:
        raise SterilisationError("site", "site_inactive", _("Este local está desativado."))
    if day <= today:
        raise SterilisationError("day", "day_past", _("Abra dias a partir de amanhã."))
    _check_capacity(capacity, 0)
    exists = db.session.scalar(
        select(SterilisationSlot.id).where(
            SterilisationSlot.site_id == site.id, SterilisationSlot.day == day
        )
    )
    if exists is not None:
        raise SterilisationError(
            "day", "slot_exists", _("Este local já tem este dia aberto: altere as vagas dele.")
        )
    slot = SterilisationSlot(site=site, day=day, capacity=capacity, created_by_id=actor.id)
    db.session.add(slot)
    db.session.flush()
    detail = {"day": day.isoformat(), "capacity": capacity}
    audit.record("sterilisation.slot_opened", slot, detail=detail)
    fill_from_waitlist(slot, today=today)
    return slot


def _check_capacity(capacity: int, taken: int) -> None:
    if capacity < max(taken, 1) or capacity > MAX_CAPACITY:
        raise SterilisationError(
            "capacity",
            "capacity",
            _("Informe de %(low)d a %(high)d vagas (%(taken)d já ocupadas).")
            % {"low": max(taken, 1), "high": MAX_CAPACITY, "taken": taken},
        )


def change_capacity(slot: SterilisationSlot, capacity: int, *, today: date) -> None:
    """More places go to the waitlist; fewer never below the places already taken."""
    if slot.day < today:
        raise SterilisationError("capacity", "day_passed", _("Este dia já passou."))
    _check_capacity(capacity, slot.taken)
    before = slot.capacity
    slot.capacity = capacity
    db.session.flush()
    audit.record("sterilisation.slot_capacity", slot, detail={"from": before, "to": capacity})
    fill_from_waitlist(slot, today=today)


def record_outcome(
    booking: SterilisationBooking,
    outcome: str,
    actor: User,
    *,
    profile: Profile,
    today: date,
    vet_name: str | None = None,
    vet_crmv: str | None = None,
    note: str | None = None,
) -> None:
    """What happened on the day. Sterilised: the surgeon and CRMV are required (VV 10 §4) and the
    animal's RGA record is marked sterilised. Not fit: the clinical exam's finding is required
    (VV 9); the person may book again.

    Raises SterilisationError: not booked, day not come, unknown outcome, missing vet or finding.
    """
    rule = rule_of(profile)
    if booking.status != BookingStatus.BOOKED or booking.slot is None:
        raise SterilisationError(
            None, "not_booked", _("Só se registra o resultado de um agendamento.")
        )
    if booking.slot.day > today:
        raise SterilisationError(
            None, "not_yet", _("O resultado se registra no dia da castração ou depois.")
        )
    if outcome not in OUTCOMES:
        raise SterilisationError("outcome", "outcome", _("Escolha o resultado."))
    if outcome == BookingStatus.DONE:
        crmv = normalise_crmv(vet_crmv)
        surgeon = rule.cites.get("surgeon")  # VV 10 §4: a veterinarian registered with the CFMV
        if not (vet_name or "").strip():
            message = _("Informe o médico veterinário que operou.")
            if surgeon:
                message = _("Informe o médico veterinário que operou (%(article)s).") % {
                    "article": surgeon
                }
            raise SterilisationError("vet_name", "vet_required", message)
        if not any(ch.isdigit() for ch in crmv):
            raise SterilisationError(
                "vet_crmv", "crmv", _("Informe o CRMV do veterinário, por exemplo CRMV-ES 1234.")
            )
        booking.vet_name = (vet_name or "").strip()
        booking.vet_crmv = crmv
        if booking.animal is not None:
            booking.animal.sterilized = True
            audit.record("animal.sterilised", booking.animal, detail={"booking": booking.id})
    elif outcome == BookingStatus.UNFIT and rule.clinical_exam and not (note or "").strip():
        exam = rule.cite("clinical_exam")  # VV 9; the CCZ's practice where the law is silent
        message = _("Descreva o que o exame clínico encontrou.")
        if not is_silent(exam):
            message = _("Descreva o que o exame clínico encontrou (%(article)s).") % {
                "article": exam
            }
        raise SterilisationError("note", "finding_required", message)
    booking.status = outcome
    booking.note = (note or "").strip() or None
    booking.outcome_on = today
    booking.outcome_by = actor
    booking.closed_at = datetime.now(UTC)
    db.session.flush()
    audit.record("sterilisation.outcome", booking, detail={"outcome": outcome})
    notices.mail_outcome(booking)


def year_count(year: int) -> int:
    """Animals sterilised in the programme in a calendar year (VV 10 §1 counts a year)."""
    return int(
        db.session.scalar(
            select(func.count(SterilisationBooking.id)).where(
                SterilisationBooking.status == BookingStatus.DONE,
                SterilisationBooking.outcome_on >= date(year, 1, 1),
                SterilisationBooking.outcome_on <= date(year, 12, 31),
            )
        )
        or 0
    )
