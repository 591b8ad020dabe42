"""The household limit (GRU 37; BJP 17; CAB 31; CABO 33 §ú; VV 2 has none) and where an
animal lives.

``Animal.residence_key`` is its owner's normalised address; the count is taken there, whoever owns
the animals. When an owner's address changes the code that changes it calls
:func:`move_animals_with_owner` (profile page, registration wizard, clinic API, accepted contact
suggestion), so the animals are counted where they now live.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import TYPE_CHECKING

from flask import current_app, has_request_context, url_for
from flask_babel import gettext as _
from sqlalchemy import func, select

from portal.blueprints.animals.common import (
    COUNTED_STATUSES,
    SPECIES,
    AnimalError,
    HouseholdLimitExceeded,
    LicenceNewAcquisition,
    owner_residence_key,
)
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    User,
)
from portal.profiles.schema import Profile
from portal.services.clock import local_today
from portal.services.dates import age_in_days
from portal.services.locks import hold
from portal.wiring import Allowance, wiring

if TYPE_CHECKING:
    from portal.models import ReducedHouseholdLimit

# ---------------------------------------------------------------------------------------------
# Household limit (GRU 37; BJP 17; CAB 31; CABO 33 §ú; VV 2 has none)
# ---------------------------------------------------------------------------------------------


def licensed_limit(profile: Profile, residence_key: str, on: date) -> int | None:
    """The limit a valid excess-animal licence gives this residence on ``on``, or None without one
    (the rule itself lives in ``licences.services.household_allowance``, asked through the
    wiring)."""
    allowance = wiring().allowance(profile, residence_key, on)
    if allowance is None or allowance.licence is None:
        return None
    return allowance.limit


def counts_for_household(animal_birth: date, on: date, profile: Profile) -> bool:
    """True when an animal born on ``animal_birth`` is old enough to count on ``on``
    (GRU 37: "idade superior a 120 dias"; BJP 17 and others: 90 days)."""
    return on >= animal_birth and age_in_days(animal_birth, on) > profile.household.min_age_days


def household_count(residence_key: str, on: date, profile: Profile) -> int:
    """Dogs and cats older than ``profile.household.min_age_days`` on ``on`` living at the
    residence, whoever owns them, active or pending (GRU 37 §2; BJP 17). Closed RGAs do not
    count."""
    # "older than N days": (on - birth).days > N  <=>  birth < on - N days
    threshold = on - timedelta(days=profile.household.min_age_days)
    return (
        db.session.scalar(
            select(func.count(Animal.id)).where(
                Animal.residence_key == residence_key,
                Animal.status.in_([s.value for s in COUNTED_STATUSES]),
                Animal.species.in_(SPECIES),
                Animal.birth_date < threshold,
            )
        )
        or 0
    )


def _licence_url(profile: Profile) -> str | None:
    if profile.household.above_limit not in ("licence", "kennel"):
        return None
    if "licences.request" not in current_app.view_functions:
        return None
    if not has_request_context():  # a service called from the CLI or a job: the path is enough
        return current_app.url_map.bind("localhost").build("licences.request")
    return url_for("licences.request")


def check_household_limit(
    profile: Profile,
    person: User,
    *,
    extra: int = 1,
    on: date | None = None,
    housing_type: str | None = None,
) -> None:
    """Refuse when ``extra`` more counted animals at ``person``'s residence would pass what the
    residence may keep (GRU 37 §2; BJP 17): the plain limit, or what its valid licence allows
    (``licences.services.household_allowance``: the named animals above the limit are never
    replaced, GRU 37 §1 II, BJP 17 §5; never above the licence's cap).

    ``extra`` is how many animals the operation adds that count (older than the profile's age
    threshold); 0 means nothing to check. ``housing_type`` overrides the person's own.
    Raises HouseholdLimitExceeded (LicenceNewAcquisition where a valid licence forbids any new
    dog or cat, GRU 37 §1 III), or AnimalError("owner.address", "required") when the person has
    no usable address.
    """
    rule = profile.household
    if rule.limit is None:
        return  # VV 2: no limit per residence
    housing = housing_type or person.housing_type or "house"
    if housing in rule.excluded_housing:
        return  # GRU 37 §2: flats in condominium buildings follow other legislation
    if extra <= 0:
        return
    key = owner_residence_key(person)
    if key is None:
        raise AnimalError(
            "owner.address",
            "required",
            _("Informe o endereço completo (CEP, logradouro e número) de onde o animal vai morar."),
        )
    # Two registrations (or transfers, adoptions) to one residence at the same instant are counted
    # one after the other: the second one counts the first one's animal (GRU 37 §2; BJP 17).
    hold(f"residence:{key}")
    on = on or local_today(profile)
    allowance = wiring().allowance(profile, key, on)
    assert allowance is not None  # rule.limit is set
    if allowance.inside_request:
        return  # a licence request registers its own animals and checks the numbers itself
    licence, licence_rule = allowance.licence, profile.licence
    if licence is not None and licence_rule is not None and licence_rule.new_acquisition_cancels:
        # GRU 37 §1 III: "sob pena de cancelamento da licença, não poderão ser adquiridos novos"
        raise LicenceNewAcquisition(
            _(
                "Esta residência tem licença especial válida até %(day)s. Enquanto ela valer, não "
                "podem ser adquiridos novos cães ou gatos: um novo animal cancelaria a licença "
                "(%(article)s).",
                day=licence.valid_until.strftime("%d/%m/%Y"),  # type: ignore[union-attr]
                article=licence_rule.cite("new_acquisition_cancels"),
            ),
            licence_rule.cite("new_acquisition_cancels"),
        )
    limit = allowance.limit
    count = household_count(key, on, profile)
    if count + extra <= limit:
        return
    article = rule.article
    if allowance.reduction is not None:
        raise HouseholdLimitExceeded(
            _reduced_message(profile, allowance, count), rule.cite("agent_may_reduce"), None
        )
    if licence is not None and licence_rule is not None:
        cited = (
            licence_rule.cite("never_replaced_above")
            if licence_rule.never_replaced_above
            else licence_rule.article
        )
        message = _(
            "Este endereço já tem %(count)d cães e gatos com mais de %(days)d dias; a "
            "licença da residência permite %(limit)d agora (%(article)s).",
            count=count,
            days=rule.min_age_days,
            limit=limit,
            article=cited,
        )
        if licence_rule.never_replaced_above is not None:
            message += " " + _(
                "Os animais da licença acima de %(n)d não podem ser substituídos "
                "quando morrem, se perdem ou são doados.",
                n=licence_rule.never_replaced_above,
            )
        raise HouseholdLimitExceeded(message, cited, None)
    message = _(
        "Este endereço já tem %(count)d cães e gatos com mais de %(days)d dias e o limite "
        "por residência é %(limit)d (%(article)s).",
        count=count,
        days=rule.min_age_days,
        limit=limit,
        article=article,
    )
    closed_on = profile.licence.requests_accepted_until if profile.licence else None
    if rule.above_limit == "licence" and closed_on is not None and on > closed_on:
        # BJP 17 §6: requests were open for 12 months from the law's publication; no link to a
        # request page that would refuse everyone
        message += " " + _(
            "A lei deu prazo até %(day)s para pedir a licença especial; esse prazo terminou e "
            "todos devem se enquadrar no limite (%(article)s).",
            day=closed_on.strftime("%d/%m/%Y"),
            article=profile.licence.cite("requests_accepted_until"),  # type: ignore[union-attr]
        )
        raise HouseholdLimitExceeded(message, article, None)
    if rule.above_limit == "licence":
        # GRU 37 §1; BJP 17 §3: the licence's own article, not the limit's
        message += " " + _(
            "Para manter mais animais, é preciso pedir a licença especial (%(article)s).",
            article=rule.cites.get("above_limit")
            or (profile.licence.article if profile.licence else article),
        )
    elif rule.above_limit == "kennel":
        message += " " + _(
            "Acima desse número a residência passa a ser canil particular, com "
            "vistoria e laudo anual do órgão sanitário (%(article)s).",
            article=profile.licence.article if profile.licence else article,
        )
    else:
        message += " " + _("A lei não permite manter mais animais na mesma residência.")
    raise HouseholdLimitExceeded(message, article, _licence_url(profile))


def _reduced_message(profile: Profile, allowance: Allowance, count: int) -> str:
    """BJP 17 §1: the refusal names the technical report that lowered the residence's number.
    No licence link: a licence does not lift a reduction, only a new assessment does."""
    reduction = allowance.reduction
    assert reduction is not None
    return _(
        "Este endereço já tem %(count)d cães e gatos com mais de %(days)d dias e o limite desta "
        "residência foi reduzido para %(limit)d pelo laudo técnico nº %(report)d, de %(day)s "
        "(%(article)s). Só o CCZ, com nova avaliação, pode alterar esse número.",
        count=count,
        days=profile.household.min_age_days,
        limit=reduction.max_animals,
        report=reduction.id,
        day=reduction.report_on.strftime("%d/%m/%Y"),
        article=profile.household.cite("agent_may_reduce"),
    )


@dataclass(frozen=True)
class HouseholdNote:
    """What "Meus animais" tells a household about its own residence."""

    text: str
    article: str
    reduction: ReducedHouseholdLimit | None = None  # BJP 17 §1: with the report to download


def household_notes(profile: Profile, person: User) -> list[HouseholdNote]:
    """The rules that bind this person's residence beyond the plain limit: a number lowered by
    the agent's report (BJP 17 §1), the condominium's convention for a flat (CAB 25)."""
    rule, notes = profile.household, []
    reduction = wiring().reduction(profile, owner_residence_key(person))
    if reduction is not None and rule.limit is not None:
        notes.append(
            HouseholdNote(
                _(
                    "O limite de cães e gatos com mais de %(days)d dias na sua residência foi "
                    "reduzido de %(limit)d para %(n)d pelo laudo técnico de %(day)s. Motivo: "
                    "%(reason)s",
                    days=rule.min_age_days,
                    limit=rule.limit,
                    n=reduction.max_animals,
                    day=reduction.report_on.strftime("%d/%m/%Y"),
                    reason=reduction.reason,
                ),
                rule.cite("agent_may_reduce"),
                reduction,
            )
        )
    if rule.condo_convention and rule.limit and person.housing_type == "apartment_condo":
        notes.append(HouseholdNote(condo_convention_text(profile), rule.cite("condo_convention")))
    return notes


def condo_convention_text(profile: Profile) -> str:
    """CAB 25: a flat follows its building's convention on top of the limit (CAB 31 has no
    exception for flats). The portal cannot read the convention: the household checks it."""
    return _(
        "Em apartamento de condomínio, vale o limite de %(limit)d cães e gatos e também a "
        "convenção do condomínio, que pode ser mais restritiva. O portal não tem acesso à "
        "convenção: confira-a com o síndico.",
        limit=profile.household.limit or 0,
    )


# ---------------------------------------------------------------------------------------------
# Animals move with their owner
# ---------------------------------------------------------------------------------------------


def move_animals_with_owner(person: User) -> None:
    """The person's address has just changed: their active and pending animals now live at the new
    residence, so the household count follows them (GRU 37 §2; BJP 17). A closed RGA stays where
    it ended.

    Called explicitly wherever an address is written (the profile page, the registration wizard,
    an establishment correcting the record it created, an accepted contact suggestion); nothing
    moves on its own. Does nothing while the address is incomplete. Flushes."""
    key = owner_residence_key(person)
    if key is None or person.id is None:
        return
    animals = db.session.scalars(
        select(Animal).where(Animal.owner_id == person.id, Animal.status != AnimalStatus.CLOSED)
    ).all()
    for animal in animals:
        if animal.residence_key != key:
            animal.residence_key = key
    db.session.flush()
