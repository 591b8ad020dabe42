"""The household: what a residence may keep with or without a licence (GRU 37 §1 II-III; BJP 17
§5), the RGAs waiting for a licence, and the households above the limit."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, timedelta

from flask_babel import gettext as _
from sqlalchemy import func, select

from portal.blueprints.licences.common import COUNTED, SPECIES
from portal.extensions import db
from portal.models import (
    Animal,
    ExcessLicence,
    LicenceAnimal,
    LicenceStatus,
    ReducedHouseholdLimit,
    User,
)
from portal.models.licence import OPEN_STATUSES
from portal.profiles.schema import Profile
from portal.services import audit
from portal.wiring import Allowance

# ---------------------------------------------------------------------------------------------
# The household (one service: animals.services.check_household_limit asks here)
# ---------------------------------------------------------------------------------------------

# Set while a licence request registers its own animals: the request checks the numbers itself.
_registering_for: ContextVar[str | None] = ContextVar("licence_registering_for", default=None)


@contextmanager
def registering_inside_request(residence_key: str) -> Iterator[None]:
    token = _registering_for.set(residence_key)
    try:
        yield
    finally:
        _registering_for.reset(token)


def valid_licence(residence_key: str, on: date) -> ExcessLicence | None:
    """The licence in force at the residence on ``on`` (the latest, when a renewal overlaps)."""
    return db.session.scalar(
        select(ExcessLicence)
        .where(
            ExcessLicence.residence_key == residence_key,
            ExcessLicence.status == LicenceStatus.APPROVED,
            ExcessLicence.valid_from <= on,
            ExcessLicence.valid_until >= on,
        )
        .order_by(ExcessLicence.valid_until.desc(), ExcessLicence.id.desc())
    )


def covered_still_counted(licence: ExcessLicence, on: date, profile: Profile) -> int:
    """The licence's named animals still alive at the residence and old enough to count."""
    threshold = on - timedelta(days=profile.household.min_age_days)
    return (
        db.session.scalar(
            select(func.count(LicenceAnimal.id))
            .join(Animal, Animal.id == LicenceAnimal.animal_id)
            .where(
                LicenceAnimal.licence_id == licence.id,
                LicenceAnimal.covered.is_(True),
                Animal.residence_key == licence.residence_key,
                Animal.status.in_([s.value for s in COUNTED]),
                Animal.birth_date < threshold,
            )
        )
        or 0
    )


def household_allowance(profile: Profile, residence_key: str, on: date) -> Allowance | None:
    """The allowance of a residence; None where the law sets no limit (VV 2). A reduction after
    a technical report (BJP 17 §1) caps it, licence or not: the report judges the house itself."""
    from portal.blueprints.licences.reduction import reduced_limit

    allowance = _licensed_allowance(profile, residence_key, on)
    if allowance is None or allowance.inside_request:
        return allowance
    reduction = reduced_limit(profile, residence_key)  # BJP 17 §1
    if reduction is not None and reduction.max_animals < allowance.limit:
        return Allowance(
            limit=reduction.max_animals, licence=allowance.licence, reduction=reduction
        )
    return allowance


def _licensed_allowance(profile: Profile, residence_key: str, on: date) -> Allowance | None:
    """The plain limit, or what a valid licence allows (GRU 37 §1 II; BJP 17 §5)."""
    base = profile.household.limit
    if base is None:
        return None
    if _registering_for.get() == residence_key:
        return Allowance(limit=10**6, inside_request=True)
    rule = profile.licence
    if rule is None:
        return Allowance(limit=base)
    licence = valid_licence(residence_key, on)
    if licence is None or licence.max_animals is None:
        return Allowance(limit=base)  # expired or cancelled: back to the plain limit
    cap = licence.max_animals
    if rule.never_replaced_above is None:
        return Allowance(limit=max(cap, base), licence=licence)  # CAB kennel: the laudo's number
    # GRU 37 §1 II; BJP 17 §5: above the plain limit only the named animals, never replaced.
    floor = rule.never_replaced_above
    named_above = max(0, covered_still_counted(licence, on, profile) - floor)
    return Allowance(limit=min(cap, max(base, floor + named_above)), licence=licence)


def residence_animals(residence_key: str) -> list[Animal]:
    """Every dog and cat living at the residence, whoever owns it (GRU 37; BJP 17)."""
    return list(
        db.session.scalars(
            select(Animal)
            .where(
                Animal.residence_key == residence_key,
                Animal.species.in_(SPECIES),
                Animal.status.in_([s.value for s in COUNTED]),
            )
            .order_by(Animal.registered_at, Animal.id)
        )
    )


def counted(animals: Sequence[Animal], on: date, profile: Profile) -> int:
    threshold = on - timedelta(days=profile.household.min_age_days)
    return sum(1 for a in animals if a.birth_date < threshold)


def rga_hold(animal: Animal) -> tuple[str, str] | None:
    """Why an RGA issued inside a licence request cannot be definitive yet, or None.

    Called by ``animals.provisional`` (the provisional RGA): the animal is above the plain
    limit, so its registration stands only if the licence is approved and names it."""
    if animal.id is None:
        return None
    link = db.session.scalar(
        select(LicenceAnimal)
        .where(LicenceAnimal.animal_id == animal.id, LicenceAnimal.registered_inside.is_(True))
        .order_by(LicenceAnimal.id.desc())
    )
    if link is None:
        return None
    licence = link.licence
    if licence.status in OPEN_STATUSES:
        return (
            "licence",
            _(
                "Aguardando a decisão do CCZ sobre o pedido de licença nº "
                "%(id)d: o registro fica definitivo se a licença for aprovada.",
                id=licence.id,
            ),
        )
    if licence.status in (LicenceStatus.APPROVED, LicenceStatus.CANCELLED) and link.covered:
        return None
    if licence.status == LicenceStatus.APPROVED:
        return (
            "licence_not_covered",
            _(
                "A licença nº %(id)d foi aprovada sem incluir este animal: a residência está acima "
                "do limite com ele. Procure o CCZ.",
                id=licence.id,
            ),
        )
    return (
        "licence_refused",
        _(
            "O pedido de licença nº %(id)d não foi aprovado: a residência está acima do limite com "
            "este animal. Procure o CCZ.",
            id=licence.id,
        ),
    )


# ---------------------------------------------------------------------------------------------
# What staff watch
# ---------------------------------------------------------------------------------------------


def household_viewed(first: Animal) -> None:
    """Staff opened a residence above the limit (its animals and owners): audited."""
    audit.record("licence.household_viewed", first)


def households_above_limit(profile: Profile, on: date):  # type: ignore[no-untyped-def]
    """A ``select`` of one animal per residence (the first registered) whose counted dogs and
    cats are above the plain limit (or its reduced number, BJP 17 §1) and which holds no valid
    licence (GRU 37 §1: an expired, cancelled or refused licence puts it back under the limit)."""
    limit = profile.household.limit
    threshold = on - timedelta(days=profile.household.min_age_days)
    counted_animals = (
        select(func.min(Animal.id))
        .where(
            Animal.status.in_([s.value for s in COUNTED]),
            Animal.species.in_(SPECIES),
            Animal.birth_date < threshold,
        )
        .group_by(Animal.residence_key)
    )
    if profile.household.agent_may_reduce:
        # BJP 17 §1: a residence is above its own, reduced number once the report lowered it
        reduced = (
            select(ReducedHouseholdLimit.residence_key, ReducedHouseholdLimit.max_animals)
            .where(ReducedHouseholdLimit.lifted_at.is_(None))
            .subquery()
        )
        over = (
            counted_animals.outerjoin(reduced, reduced.c.residence_key == Animal.residence_key)
            .group_by(reduced.c.max_animals)
            .having(func.count(Animal.id) > func.coalesce(reduced.c.max_animals, limit or 10**6))
        )
    else:
        over = counted_animals.having(func.count(Animal.id) > (limit or 10**6))
    licensed = select(ExcessLicence.residence_key).where(
        ExcessLicence.status == LicenceStatus.APPROVED,
        ExcessLicence.valid_from <= on,
        ExcessLicence.valid_until >= on,
    )
    query = (
        select(Animal)
        .join(User, User.id == Animal.owner_id)
        .where(Animal.id.in_(over), Animal.residence_key.not_in(licensed))
    )
    if profile.household.excluded_housing:
        query = query.where(
            func.coalesce(User.housing_type, "house").not_in(
                list(profile.household.excluded_housing)
            )
        )
    return query
