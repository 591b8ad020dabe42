"""The hand-over (VV 28 §1; GRU 88 §2; GRU 18 §1): the animal's health confirmed, the RGA issued
or transferred with the listing's vaccination and photo, the adoption fee charged, the other
applications closed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal.blueprints.adoption.eligibility import (
    approval_blockers,
    check_eligibility,
)
from portal.blueprints.adoption.errors import AdoptionError, InvalidData
from portal.blueprints.adoption.listings import close_open_applications
from portal.blueprints.adoption.workflow import (
    NotEligible,
    absolute_url,
    notify_applicant,
    record_step,
    require_status,
)
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    Animal,
    ApplicationStatus,
    Listing,
    ListingState,
    User,
)
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.fees import AdoptionInputs, FeeError, compute_fee
from portal.services.money import format_brl


class DeliveryRefused(AdoptionError):
    """The animal is not ready to be handed over; ``problems`` are (field, message, article)."""

    def __init__(self, problems: list[tuple[str, str, str]]) -> None:
        super().__init__(problems[0][0], "not_ready", problems[0][1])
        self.problems = problems


# The animal is delivered vaccinated, dewormed and sterilized. VV 28 §1 asks for all three; CABO 14
# and GRU 85 only the vaccination; the portal requires all three everywhere, cites the local law
# where it has the requirement (profile ``adoption.delivered``) and calls it programme policy
# otherwise.
DELIVERY_CONDITIONS = {
    "vaccinated": _l("O animal precisa estar vacinado para ser entregue."),
    "dewormed": _l("O animal precisa estar vermifugado para ser entregue."),
    "sterilized": _l("O animal precisa estar esterilizado para ser entregue."),
}


def delivery_article(profile: Profile, condition: str) -> tuple[str, bool]:
    """The citation for a delivery condition and whether the local law itself requires it; ""
    when it is the adoption programme's own rule (no article to cite)."""
    if condition in profile.adoption.delivered:
        return profile.adoption.cite("delivered"), True
    return "", False


DELIVERY_WORDS = {
    "vaccinated": _l("vacinação"),
    "dewormed": _l("vermifugação"),
    "sterilized": _l("castração"),
}


def delivery_citations(profile: Profile) -> list[tuple[str, bool, list[str]]]:
    """(article, in the local law, conditions) for the page that explains the hand-over."""
    grouped: dict[tuple[str, bool], list[str]] = {}
    for condition in DELIVERY_CONDITIONS:
        grouped.setdefault(delivery_article(profile, condition), []).append(
            str(DELIVERY_WORDS[condition])
        )
    return [(article, local, words) for (article, local), words in grouped.items()]


def delivery_problems(profile: Profile, listing: Listing) -> list[tuple[str, str, str]]:
    """What keeps the animal from being handed over: (field, message, article)."""
    problems = []
    for condition, message in DELIVERY_CONDITIONS.items():
        if not getattr(listing, condition):
            article, local = delivery_article(profile, condition)
            suffix = "" if local else " " + _("(regra do programa de adoção)")
            problems.append((condition, str(message) + suffix, article))
    return problems


@dataclass
class HealthRecord:
    """What the hand-over form confirms about the animal's health, with dates, and optionally the
    rabies shot's record (BJP 13 §1 fields) so the new RGA is active at once."""

    vaccinated: bool
    vaccinated_on: date | None
    dewormed: bool
    dewormed_on: date | None
    sterilized: bool
    sterilized_on: date | None
    rabies_vaccine: str = ""
    rabies_batch: str = ""
    rabies_vet_name: str = ""
    rabies_vet_crmv: str = ""

    @property
    def has_rabies_record(self) -> bool:
        return any(
            v.strip()
            for v in (
                self.rabies_vaccine,
                self.rabies_batch,
                self.rabies_vet_name,
                self.rabies_vet_crmv,
            )
        )


# The RGA domain names vaccination fields by their API path; the hand-over form by its own names.
_RGA_FIELDS = {
    "rabies_vaccination.date": "vaccinated_on",
    "rabies_vaccination.vaccine": "rabies_vaccine",
    "rabies_vaccination.batch": "rabies_batch",
    "rabies_vaccination.vet_name": "rabies_vet_name",
    "rabies_vaccination.vet_crmv": "rabies_vet_crmv",
    "owner.address": "address",
}


def adoption_fee(profile: Profile, listing: Listing, on: date) -> tuple[int, list[dict]] | None:
    """The municipal adoption fee for ``listing`` on ``on`` and its breakdown, or None.

    The amount comes from the one fee service (the city's price list, unit values in force on
    ``on``). Only CCZ animals pay the municipal fee: BJP 28 and CAB 17 charge for animals the CCZ
    hands over, and an NGO's own animals are not the city's. CAB 17 charges per day held, counted
    from ``held_since`` (or the first publication). Raises AdoptionError when the fee cannot be
    computed (e.g. the UFM of that day is not entered yet).
    """
    if profile.adoption.fee is None or listing.organization_id is not None:
        return None
    days_held = None
    if profile.adoption.fee_per == "day_held":  # CAB 17: "por cabeça e por dia de apreensão"
        # The local day of the first publication (published_at is UTC; 22:00 in São Paulo is
        # already the next day in UTC, which would drop a day held).
        from portal.services.clock import local_date

        start = listing.held_since or (
            local_date(listing.published_at) if listing.published_at else on
        )
        days_held = max(1, (on - start).days)
    try:
        fee = compute_fee(profile, "adoption", AdoptionInputs(days_held=days_held), on)
    except FeeError as err:
        raise AdoptionError(
            "fee",
            err.code,
            _(
                "Não foi possível calcular a taxa de adoção: %(reason)s Cadastre o "
                "valor que falta antes de registrar a entrega.",
                reason=err.message,
            ),
        ) from err
    return fee.total_cents, fee.breakdown()


def _register_animal(
    profile: Profile,
    application: AdoptionApplication,
    reviewer: User,
    health: HealthRecord,
    on: date,
) -> Animal:
    """Issue the adopter's RGA, or transfer the animal's existing one (VV 28 §1; GRU 88 §2;
    GRU 18 §1). The listing's vaccination (when, and who: the NGO or the CCZ) and its cover photo
    go into the RGA; the NGO / CCZ vouches for the vaccination, so the RGA waits for no proof
    check and is never a late registration. Raises InvalidData with the RGA domain's
    problems on the hand-over's fields."""
    from portal.blueprints.animals import provisional
    from portal.blueprints.animals import services as rga

    listing, adopter = application.listing, application.applicant
    vaccination = None
    if health.has_rabies_record:
        vaccination = rga.VaccinationData(
            applied_on=listing.vaccinated_on,
            vaccine_name=health.rabies_vaccine,
            batch=health.rabies_batch,
            vet_name=health.rabies_vet_name,
            vet_crmv=health.rabies_vet_crmv,
        )
    try:
        if listing.animal is not None:
            animal = listing.animal
            if vaccination is not None:
                rga.record_vaccination(
                    animal, vaccination, recorded_by=reviewer, at_ccz=False, today=on
                )
            animal.sterilized = animal.sterilized or listing.sterilized
            rga.transfer_animal(animal, adopter, immediate=True, profile=profile, today=on)
        else:
            animal = rga.register_animal_for_adoption(
                adopter=adopter,
                registered_by=reviewer,
                profile=profile,
                today=on,
                vaccination=vaccination,
                data=rga.AnimalData(
                    name=listing.name,
                    species=listing.species,
                    sex=listing.sex,
                    birth_date=listing.birth_date,
                    birth_date_estimated=listing.birth_date_estimated,
                    breed=listing.breed or "SRD",
                    color=listing.color,
                    size=listing.size,
                    sterilized=listing.sterilized,
                    photo=provisional.copy_photo(listing.cover, adopter.id),
                ),
            )
            listing.animal = animal
        if animal.photo is None and listing.cover is not None:
            animal.photo = provisional.copy_photo(listing.cover, adopter.id)
        provisional.vouch_at_handover(
            animal,
            applied_on=listing.vaccinated_on if listing.vaccinated else None,
            vouched_by=listing.owner_name,
            at_ccz=listing.is_ccz,
            recorded_by=reviewer,
            profile=profile,
            today=on,
        )
    except rga.AnimalError as err:
        raise InvalidData(
            [(_RGA_FIELDS.get(e.field or "", "rga"), e.code, e.message) for e in err.errors]
        ) from err
    return animal


def complete_adoption(
    profile: Profile,
    application: AdoptionApplication,
    reviewer: User,
    health: HealthRecord,
    on: date,
) -> AdoptionApplication:
    """Record the hand-over. Raises DeliveryRefused, NotEligible or AdoptionError.

    The animal must be vaccinated, dewormed and sterilised (VV 28 §1; CABO 14; GRU 85); every
    eligibility rule must still pass (the household may have grown since the approval). Then the
    RGA is issued to the adopter or transferred (VV 28 §1; GRU 88 §2), the adoption fee becomes a
    payment item, the listing is adopted and the other applications are closed.
    """
    from portal.blueprints.billing.services import create_payment_item

    require_status(application, ApplicationStatus.APPROVED)
    listing = application.listing
    for name in ("vaccinated", "dewormed", "sterilized"):
        flag, when = getattr(health, name), getattr(health, f"{name}_on")
        if when is not None and when > on:
            raise AdoptionError(f"{name}_on", "future", _("A data não pode estar no futuro."))
        setattr(listing, name, flag or when is not None)
        setattr(listing, f"{name}_on", when if (flag or when) else None)
    problems = delivery_problems(profile, listing)
    if problems:
        raise DeliveryRefused(problems)
    blockers = approval_blockers(
        check_eligibility(
            profile, application.applicant, listing, on, reviewer=True, application=application
        )
    )
    if blockers:
        raise NotEligible(blockers)

    from portal.blueprints.animals import provisional

    animal = _register_animal(profile, application, reviewer, health, on)
    application.rga_number = animal.rga
    fee = adoption_fee(profile, listing, on)
    item = None
    if fee is not None:
        amount, breakdown = fee
        item = create_payment_item(
            kind="adoption",
            amount_cents=amount,
            description=_("Adoção de %(animal)s", animal=listing.name),
            payer=application.applicant,
            subject_type="adoption_application",
            subject_id=application.id,
            breakdown=breakdown,
        )
        application.payment_item_id = item.id
    # The hand-over's RGA waits only for the adoption fee (none: definitive at once; the
    # adoption e-mail below already tells the adopter, so no second one now)
    provisional.attach_fee(animal, item)
    provisional.refresh(animal, notify=False)
    application.completed_at = utcnow()
    application.completed_by_id = reviewer.id
    record_step(application, ApplicationStatus.COMPLETED, reviewer)
    listing.state = ListingState.ADOPTED
    listing.adopted_at = application.completed_at
    db.session.flush()
    close_open_applications(
        listing, reviewer, _("este animal foi adotado por outra família."), keep=application
    )
    audit.record(
        "adoption.completed",
        application,
        actor_id=reviewer.id,
        detail={"listing_id": listing.id, "rga": application.rga_number},
    )
    leaflet = absolute_url("adoption.leaflet", application_id=application.id)
    text = _(
        "A adoção de %(animal)s está concluída. RGA: %(rga)s.\n\nLeia o folheto do adotante "
        "(cuidados, vacinação, esterilização e onde denunciar maus-tratos): %(link)s",
        animal=listing.name,
        rga=application.rga_number,
        link=leaflet,
    )
    if fee is not None:
        text += "\n\n" + _(
            'Taxa de adoção: %(amount)s, a pagar em "Pagar taxas".', amount=format_brl(fee[0])
        )
    notify_applicant(application, _("Adoção concluída – bem-vindo(a) à família!"), text)
    return application
