"""Listings: the checked fields (web form and API alike), create and update, the manual
state changes and who manages a listing."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import or_, select

from portal.blueprints.adoption.errors import AdoptionError, InvalidData
from portal.blueprints.adoption.organizations import organizations_of
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    Listing,
    ListingState,
    Organization,
    User,
)
from portal.models.adoption import OPEN_APPLICATION_STATUSES
from portal.models.animal import SEX_LABELS, SIZE_LABELS, SPECIES_LABELS
from portal.models.base import utcnow
from portal.services import audit
from portal.services.dates import add_months
from portal.services.identity import _fold as fold_words  # the shared address-word normaliser

MAX_AGE_MONTHS = 30 * 12  # no dog or cat is older: a typo guard for estimated ages


SPECIES = SPECIES_LABELS


SEXES = SEX_LABELS


SIZES = SIZE_LABELS


TEMPERAMENT = {
    "good_with_children": _l("Convive bem com crianças"),
    "good_with_dogs": _l("Convive bem com cães"),
    "good_with_cats": _l("Convive bem com gatos"),
}


STATE_LABELS: dict[str, Any] = {
    ListingState.DRAFT: _l("Rascunho"),
    ListingState.PUBLISHED: _l("Publicado"),
    ListingState.RESERVED: _l("Reservado"),
    ListingState.ADOPTED: _l("Adotado"),
    ListingState.WITHDRAWN: _l("Retirado"),
}


# States an owner may move a listing to by hand. "reserved" and "adopted" only follow from the
# application workflow (approval, hand-over), so they are never a manual target.
MANUAL_TRANSITIONS: dict[str, frozenset[str]] = {
    ListingState.DRAFT: frozenset({ListingState.PUBLISHED, ListingState.WITHDRAWN}),
    ListingState.PUBLISHED: frozenset({ListingState.DRAFT, ListingState.WITHDRAWN}),
    ListingState.WITHDRAWN: frozenset({ListingState.DRAFT, ListingState.PUBLISHED}),
    ListingState.RESERVED: frozenset(),
    ListingState.ADOPTED: frozenset(),
}


def managed_listings(
    user: User, state: str | None = None, limit: int = 300
) -> tuple[list[Listing], list[AdoptionApplication]]:
    """The listings a user manages (their NGOs', plus the CCZ's for staff), most recently changed
    first, and the open applications to them, oldest first."""
    org_ids = [o.id for o in organizations_of(user)]
    owned = [Listing.organization_id.in_(org_ids)] if org_ids else []
    if user.is_staff:
        owned.append(Listing.organization_id.is_(None))
    if not owned:
        return [], []
    stmt = select(Listing).where(or_(*owned))
    if state in STATE_LABELS:
        stmt = stmt.where(Listing.state == state)
    listings = list(db.session.scalars(stmt.order_by(Listing.updated_at.desc()).limit(limit)))
    pending = list(
        db.session.scalars(
            select(AdoptionApplication)
            .join(Listing)
            .where(or_(*owned), AdoptionApplication.status.in_(OPEN_APPLICATION_STATUSES))
            .order_by(AdoptionApplication.submitted_at)
        )
    )
    return listings, pending


def may_manage(user: User, listing: Listing) -> bool:
    """NGO listings are managed by the NGO's members; CCZ listings by CCZ staff."""
    if listing.organization_id is None:
        return user.is_staff
    return user.has_role("ngo") and any(
        o.id == listing.organization_id for o in organizations_of(user)
    )


@dataclass
class ListingData:
    """Validated listing fields, from the web form or the API alike (see :func:`listing_data`)."""

    name: str
    species: str
    sex: str
    birth_date: date
    birth_date_estimated: bool
    size: str
    color: str
    district: str
    breed: str = "SRD"
    story: str = ""
    good_with_children: bool = False
    good_with_dogs: bool = False
    good_with_cats: bool = False
    vaccinated: bool = False
    vaccinated_on: date | None = None
    dewormed: bool = False
    dewormed_on: date | None = None
    sterilized: bool = False
    sterilized_on: date | None = None
    held_since: date | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def _as_date(value: Any, name: str, errors: list[tuple[str, str, str]]) -> date | None:
    if value in (None, ""):
        return None
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    errors.append((name, "invalid_date", _("Data inválida: use o formato AAAA-MM-DD.")))
    return None


def _as_bool(value: Any, name: str, errors: list[tuple[str, str, str]]) -> bool:
    if value in (None, ""):
        return False
    if isinstance(value, bool):
        return value
    errors.append((name, "invalid_type", _("Use true ou false.")))
    return False


def _text(
    raw: Mapping[str, Any],
    name: str,
    max_len: int,
    errors: list[tuple[str, str, str]],
    required: bool,
    label: str,
) -> str:
    value = raw.get(name)
    if value is None:
        value = ""
    if not isinstance(value, str):
        errors.append((name, "invalid_type", _("%(label)s deve ser um texto.", label=label)))
        return ""
    value = value.strip()
    if required and not value:
        errors.append((name, "required", _("Informe %(label)s.", label=label)))
    elif len(value) > max_len:
        errors.append(
            (
                name,
                "too_long",
                _("%(label)s: no máximo %(max)d caracteres.", label=label, max=max_len),
            )
        )
    return value


def _choice(
    raw: Mapping[str, Any],
    name: str,
    choices: Mapping[str, Any],
    errors: list[tuple[str, str, str]],
    label: str,
) -> str:
    value = raw.get(name)
    if value in (None, ""):
        errors.append((name, "required", _("Informe %(label)s.", label=label)))
        return ""
    if not isinstance(value, str) or value not in choices:
        errors.append(
            (
                name,
                "invalid_choice",
                _(
                    "%(label)s: use um destes valores: %(values)s.",
                    label=label,
                    values=", ".join(choices),
                ),
            )
        )
        return ""
    return str(value)


def listing_data(raw: Mapping[str, Any], on: date) -> ListingData:
    """Check listing input (API JSON names) and return it clean. Raises InvalidData.

    ``birth_date`` (real) or ``age_months`` (estimated, turned into a date as of ``on``);
    ``temperament`` is a list of ``good_with_children``/``good_with_dogs``/``good_with_cats``
    (``children``/``dogs``/``cats`` also accepted).
    """
    errors: list[tuple[str, str, str]] = []
    name = _text(raw, "name", 80, errors, True, _("o nome do animal"))
    species = _choice(raw, "species", SPECIES, errors, _("a espécie"))
    sex = _choice(raw, "sex", SEXES, errors, _("o sexo"))
    size = _choice(raw, "size", SIZES, errors, _("o porte"))
    color = _text(raw, "color", 80, errors, True, _("a cor/pelagem"))
    breed = _text(raw, "breed", 100, errors, False, _("a raça")) or "SRD"
    district = _text(raw, "district", 100, errors, True, _("o bairro"))
    story = _text(raw, "story", 4000, errors, False, _("a história"))

    birth = _as_date(raw.get("birth_date"), "birth_date", errors)
    age_months = raw.get("age_months")
    estimated = False
    if age_months not in (None, "") and birth is not None:
        errors.append(
            (
                "birth_date",
                "ambiguous",
                _("Informe a data de nascimento ou a idade estimada, não as duas."),
            )
        )
    elif age_months not in (None, ""):
        if isinstance(age_months, bool) or not isinstance(age_months, int) or age_months < 0:
            errors.append(
                (
                    "age_months",
                    "invalid",
                    _("A idade estimada deve ser um número inteiro de meses."),
                )
            )
        elif age_months > MAX_AGE_MONTHS:
            errors.append(("age_months", "too_old", _("Idade estimada acima de 30 anos: confira.")))
        else:
            birth, estimated = add_months(on, -age_months), True
    elif birth is None and not any(f == "birth_date" for f, _c, _m in errors):
        errors.append(
            (
                "birth_date",
                "required",
                _("Informe a data de nascimento ou a idade estimada em meses."),
            )
        )
    if birth is not None and birth > on:
        errors.append(("birth_date", "future", _("A data de nascimento não pode estar no futuro.")))
    elif birth is not None and add_months(birth, MAX_AGE_MONTHS) < on:
        errors.append(
            ("birth_date", "too_old", _("Data de nascimento de mais de 30 anos: confira."))
        )
    if isinstance(raw.get("birth_date_estimated"), bool) and birth is not None and not estimated:
        estimated = raw["birth_date_estimated"]

    temperament = raw.get("temperament") or []
    flags = {key: False for key in TEMPERAMENT}
    if not isinstance(temperament, list | tuple):
        errors.append(
            ("temperament", "invalid_type", _('Use uma lista, por exemplo ["good_with_children"].'))
        )
    else:
        for tag in temperament:
            key = (
                ""
                if not isinstance(tag, str)
                else (tag if tag in TEMPERAMENT else f"good_with_{tag}")
            )
            if key not in TEMPERAMENT:
                errors.append(
                    (
                        "temperament",
                        "invalid_choice",
                        _(
                            "Temperamento desconhecido: %(tag)s. Use good_with_children, "
                            "good_with_dogs ou good_with_cats.",
                            tag=str(tag)[:40],
                        ),
                    )
                )
                continue
            flags[key] = True
    for key in TEMPERAMENT:  # the web form sends each tag as its own checkbox
        if raw.get(key) is True:
            flags[key] = True

    health: dict[str, Any] = {}
    for item in ("vaccinated", "dewormed", "sterilized"):
        flag = _as_bool(raw.get(item), item, errors)
        when = _as_date(raw.get(f"{item}_on"), f"{item}_on", errors)
        if when is not None and when > on:
            errors.append((f"{item}_on", "future", _("A data não pode estar no futuro.")))
        health[item] = flag or when is not None
        health[f"{item}_on"] = when
    held_since = _as_date(raw.get("held_since"), "held_since", errors)
    if held_since is not None and held_since > on:
        errors.append(("held_since", "future", _("A data não pode estar no futuro.")))

    if errors:
        raise InvalidData(errors)
    assert birth is not None
    return ListingData(
        name=name,
        species=species,
        sex=sex,
        birth_date=birth,
        birth_date_estimated=estimated,
        size=size,
        color=color,
        district=district,
        breed=breed,
        story=story,
        held_since=held_since,
        good_with_children=flags["good_with_children"],
        good_with_dogs=flags["good_with_dogs"],
        good_with_cats=flags["good_with_cats"],
        vaccinated=health["vaccinated"],
        vaccinated_on=health["vaccinated_on"],
        dewormed=health["dewormed"],
        dewormed_on=health["dewormed_on"],
        sterilized=health["sterilized"],
        sterilized_on=health["sterilized_on"],
    )


def _apply(listing: Listing, data: ListingData) -> None:
    for name in (
        "name",
        "species",
        "sex",
        "birth_date",
        "birth_date_estimated",
        "size",
        "breed",
        "color",
        "district",
        "story",
        "good_with_children",
        "good_with_dogs",
        "good_with_cats",
        "vaccinated",
        "vaccinated_on",
        "dewormed",
        "dewormed_on",
        "sterilized",
        "sterilized_on",
        "held_since",
    ):
        setattr(listing, name, getattr(data, name))
    listing.district_key = district_key(data.district)


def district_key(district: str) -> str:
    """Neighbourhood names compared without accents, case or punctuation ("Jd. São João")."""
    return fold_words(district)[:100]


def create_listing(
    organization: Organization | None, author: User | None, data: ListingData
) -> Listing:
    """A new draft listing of an approved NGO, or of the CCZ when ``organization`` is None."""
    if organization is not None and not organization.is_approved:
        raise AdoptionError(None, "not_approved", _("A ONG ainda não foi aprovada pelo CCZ."))
    listing = Listing(
        organization=organization,
        created_by_id=author.id if author else None,
        state=ListingState.DRAFT,
    )
    _apply(listing, data)
    db.session.add(listing)
    db.session.flush()
    return listing


def update_listing(listing: Listing, data: ListingData) -> Listing:
    if listing.state == ListingState.ADOPTED:
        raise AdoptionError(None, "adopted", _("Um animal já adotado não pode ser alterado."))
    _apply(listing, data)
    db.session.flush()
    return listing


def change_state(listing: Listing, new_state: str, actor: User | None) -> Listing:
    """Move a listing by hand (publish, back to draft, withdraw). Raises AdoptionError.

    Publishing needs at least one photo and an approved NGO. Withdrawing closes the applications
    still waiting, telling each applicant.
    """
    if new_state not in STATE_LABELS:
        raise AdoptionError(
            "state", "invalid_choice", _("Estado desconhecido: use draft, published ou withdrawn.")
        )
    if new_state == listing.state:
        return listing
    if new_state in (ListingState.RESERVED, ListingState.ADOPTED):
        raise AdoptionError(
            "state",
            "invalid_transition",
            _(
                "Um anúncio fica reservado quando um pedido é aprovado e adotado "
                "quando a entrega é registrada; não é possível mudar isso à mão."
            ),
        )
    if new_state not in MANUAL_TRANSITIONS[listing.state]:
        raise AdoptionError(
            "state",
            "invalid_transition",
            _(
                'Não é possível passar de "%(old)s" para "%(new)s".',
                old=STATE_LABELS[listing.state],
                new=STATE_LABELS[new_state],
            ),
        )
    if new_state == ListingState.PUBLISHED:
        if not listing.photos:
            raise AdoptionError(
                "photos", "photo_required", _("Adicione pelo menos uma foto antes de publicar.")
            )
        if listing.organization is not None and not listing.organization.is_approved:
            raise AdoptionError(
                "state", "not_approved", _("A ONG ainda não foi aprovada pelo CCZ.")
            )
        if listing.published_at is None:
            listing.published_at = utcnow()  # "oldest waiting" counts from the first publication
    if new_state in (ListingState.WITHDRAWN, ListingState.DRAFT):
        close_open_applications(listing, actor, _("o anúncio deste animal foi retirado."))
    listing.state = new_state
    db.session.flush()
    audit.record(
        "adoption.listing_state",
        listing,
        detail={"state": new_state},
        actor_id=actor.id if actor else None,
    )
    return listing


def close_open_applications(
    listing: Listing, actor: User | None, reason: str, keep: AdoptionApplication | None = None
) -> None:
    """Close every application still open on ``listing`` (but ``keep``), telling each person."""
    from portal.blueprints.adoption.applications import close_application

    open_apps = db.session.scalars(
        select(AdoptionApplication).where(
            AdoptionApplication.listing_id == listing.id,
            AdoptionApplication.status.in_(OPEN_APPLICATION_STATUSES),
        )
    )
    for application in open_apps:
        if keep is None or application.id != keep.id:
            close_application(application, actor, reason)
