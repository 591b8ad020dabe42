"""The RGA domain's shared vocabulary: its errors, the input records the web wizard, the API and
the other domains fill in, and small helpers (normalising a microchip or a CRMV, the residence key
of an owner, labels, finding an animal by its number).

Errors carry ``field`` (a JSON path of the API's input, "animal.microchip"), ``code`` and
``message``; the web views map the field onto their form fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.animals.rga import normalise_rga
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    StoredFile,
    User,
)
from portal.models import animal as animal_models
from portal.models.base import UF_CODES
from portal.services.identity import clean_cep, residence_key

SPECIES = ("dog", "cat")
SEXES = ("male", "female")
SIZES = ("small", "medium", "large")
COUNTED_STATUSES = (AnimalStatus.ACTIVE, AnimalStatus.PENDING)
MAX_AGE_YEARS = 30  # a birth date older than this is a typing error, not a very old dog


# ---------------------------------------------------------------------------------------------
# Errors and input data
# ---------------------------------------------------------------------------------------------


class AnimalError(DomainError, ValueError):
    """A rule or input problem about one field: ``AnimalError(field, code, message)``.

    ``field`` is a JSON path of the API's input ("animal.microchip"), ``code`` one of
    ``invalid_cpf``, ``household_limit``, ``age``, ``missing_vaccination``,
    ``duplicate_microchip``, ``required``, ``invalid`` (plus ``not_found`` / ``not_allowed`` for
    transfers). Several problems at once travel in :class:`AnimalErrors`; always iterate
    :attr:`errors`. Still a ValueError for callers that caught it as one.
    """

    @property
    def errors(self) -> list[AnimalError]:
        return [self]

    def as_dict(self) -> dict[str, Any]:
        return self.as_api()


class AnimalErrors(AnimalError):
    """Several field problems found together (input validation reports them all at once)."""

    def __init__(self, errors: list[AnimalError]) -> None:
        first = errors[0]
        super().__init__(first.field, first.code, first.message)
        self._errors = errors

    @property
    def errors(self) -> list[AnimalError]:
        return list(self._errors)


class HouseholdLimitExceeded(AnimalError):
    """The residence would go above the household limit (GRU 37; BJP 17; CAB 31; CABO 33 §ú).

    ``article`` cites the rule; ``licence_url`` links to the licence request when the profile has
    a licence and the licences domain is installed, else None.
    """

    def __init__(
        self, message: str, article: str, licence_url: str | None, code: str = "household_limit"
    ) -> None:
        super().__init__("owner.address", code, message)
        self.article = article
        self.licence_url = licence_url


class LicenceNewAcquisition(HouseholdLimitExceeded):
    """GRU 37 §1 III: while the residence's licence is valid no new dog or cat may be acquired
    ("sob pena de cancelamento da licença"). Code ``licence_new_acquisition``; a refusal for the
    licence's cap itself stays ``household_limit``."""

    def __init__(self, message: str, article: str) -> None:
        super().__init__(message, article, None, code="licence_new_acquisition")


@dataclass
class AnimalData:
    """The animal's fields as typed (BJP 3 a; GRU 15 I c; VV 12 §2). Strings are stripped here."""

    name: str
    species: str  # "dog" | "cat"
    sex: str  # "male" | "female"
    birth_date: date | None
    birth_date_estimated: bool = False
    breed: str | None = None
    color: str | None = None
    size: str | None = None  # "small" | "medium" | "large"
    weight_grams: int | None = None
    sterilized: bool = False
    microchip: str | None = None
    photo: StoredFile | None = None


@dataclass
class VaccinationData:
    """A rabies vaccination record with the fields of BJP 13 §1."""

    applied_on: date | None
    vaccine_name: str
    batch: str
    vet_name: str
    vet_crmv: str
    manufacturer: str | None = None
    manufactured_on: date | None = None
    expires_on: date | None = None
    next_due_on: date | None = None
    establishment: str | None = None


@dataclass
class OwnerData:
    """An owner as an establishment sends it (GRU 15 I d; BJP 3 a)."""

    name: str
    cpf: str
    email: str
    rg: str | None = None
    birth_date: date | None = None
    phone: str | None = None
    address: dict[str, str | None] = field(default_factory=dict)


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def clean_text(text: str | None) -> str | None:
    """Inner runs of spaces collapsed, ends stripped; None when nothing is left."""
    text = " ".join((text or "").split())
    return text or None


def normalise_microchip(text: str | None) -> str | None:
    """Digits and letters only, upper case: "985 112-003" and "985112003" are the same chip."""
    value = "".join(ch for ch in (text or "").upper() if ch.isalnum())
    return value or None


def normalise_crmv(text: str | None) -> str:
    """ "crmv sp 1234" -> "CRMV-SP 1234" when the state is given; otherwise the cleaned text."""
    value = " ".join((text or "").upper().replace("-", " ").replace("/", " ").split())
    parts = value.split()
    if parts and parts[0] == "CRMV":
        parts = parts[1:]
    if len(parts) >= 2 and parts[0] in UF_CODES:
        return f"CRMV-{parts[0]} {' '.join(parts[1:])}"
    return " ".join(parts)


def owner_residence_key(person: User) -> str | None:
    """The residence key of a person's address, or None when the address is incomplete."""
    if not (
        clean_cep(person.cep or "")
        and (person.street or "").strip()
        and (person.number or "").strip()
    ):
        return None
    return residence_key(person.cep, person.street, person.number, person.complement)


# The labels are defined once next to their enums (portal/models/animal.py).
species_label = animal_models.species_label
sex_label = animal_models.sex_label
size_label = animal_models.size_label


def status_label(status: str) -> str:
    return {
        "active": _("Ativo"),
        "pending": _("Pendente (aguardando vacinação)"),
        "closed": _("Encerrado (baixa por óbito)"),
    }.get(status, status)


def find_by_rga(text: str) -> Animal | None:
    """The animal with this number. Raises InvalidRgaNumber for a malformed or mistyped one."""
    number = normalise_rga(text)
    return db.session.scalar(select(Animal).where(Animal.rga == number))
