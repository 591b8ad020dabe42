"""RGA rules: registering dogs and cats, the household limit, transfers, second copies, death.

One rule lives in one place and the web wizard, the establishment API, the staff area and the
adoption domain all call these functions. They take model objects and values (never ``request``),
``flush`` (never commit) and raise :class:`AnimalError` (``field``, ``code``, ``message``); field
names are the API's JSON paths ("animal.birth_date", "owner.cpf", "rabies_vaccination.date"), and
the web views map them onto their form fields.

Stable entry points other domains call (keep the signatures):

* :func:`register_animal` — issue an RGA to an owner (the adoption domain issues one to an adopter,
  or uses :func:`register_animal_for_adoption`);
* :func:`transfer_animal` — move an animal that already has an RGA to a new owner;
* :func:`household_count`, :func:`check_household_limit` — the limit of DOMAIN §4;
* :func:`licensed_limit` — what a valid excess-animal licence allows (rule in the licences domain).

Where an animal lives: ``Animal.residence_key`` is its owner's normalised address. When an owner's
address changes, a ``before_flush`` hook (bottom of this module) moves their active and pending
animals with them, so the household count is always taken where the animals are.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from email_validator import EmailNotValidError, validate_email
from flask import current_app, has_request_context, url_for
from flask_babel import gettext as _
from sqlalchemy import event, func, inspect, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from portal.blueprints.animals import provisional
from portal.blueprints.animals.rga import InvalidRgaNumber, format_rga, normalise_rga
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    ApiClient,
    ContactSuggestion,
    CopyKind,
    CopyStatus,
    DocumentCopyRequest,
    FinderMessage,
    OwnershipTransfer,
    PaymentItem,
    RgaCounter,
    Role,
    StoredFile,
    TransferStatus,
    User,
    Vaccination,
)
from portal.models.base import utcnow
from portal.models.user import CONTACT_FIELDS
from portal.profiles.schema import Profile
from portal.services.clock import current_profile, local_today  # noqa: F401  (re-exported)
from portal.services.dates import add_months, age_in_days
from portal.services.identity import clean_cep, clean_cpf, mask_cpf, residence_key
from portal.services.links import strip_links
from portal.services.mail import send_email
from portal.urls import absolute_url  # noqa: F401  (re-exported)

SPECIES = ("dog", "cat")
SEXES = ("male", "female")
SIZES = ("small", "medium", "large")
COUNTED_STATUSES = (AnimalStatus.ACTIVE, AnimalStatus.PENDING)
MAX_AGE_YEARS = 30  # a birth date older than this is a typing error, not a very old dog
RABIES_REVACCINATION_MONTHS = 12  # BJP 12-13: yearly rabies shot unless the vet says otherwise
UF_CODES = frozenset(
    "AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO".split())


# ---------------------------------------------------------------------------------------------
# Errors and input data
# ---------------------------------------------------------------------------------------------


class AnimalError(ValueError):
    """A rule or input problem about one field.

    ``field`` is a JSON path of the API's input ("animal.microchip"), ``code`` one of
    ``invalid_cpf``, ``household_limit``, ``age``, ``missing_vaccination``,
    ``duplicate_microchip``, ``required``, ``invalid`` (plus ``not_found`` / ``not_allowed`` for
    transfers). Several problems at once travel in :class:`AnimalErrors`; always iterate
    :attr:`errors`.
    """

    def __init__(self, field: str | None, code: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.message = message

    @property
    def errors(self) -> list[AnimalError]:
        return [self]

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "code": self.code, "message": self.message}


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
    """The residence would go above the household limit (DOMAIN §4).

    ``article`` cites the rule; ``licence_url`` links to the licence request when the profile has
    a licence and the licences domain is installed, else None.
    """

    def __init__(self, message: str, article: str, licence_url: str | None,
                 code: str = "household_limit") -> None:
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


# current_profile, local_today (portal.services.clock) and absolute_url (portal.urls) are
# imported above and re-exported: callers use ``services.local_today()`` as before.


def _clean(text: str | None) -> str | None:
    text = " ".join((text or "").split())
    return text or None


def normalise_microchip(text: str | None) -> str | None:
    """Digits and letters only, upper case: "985 112-003" and "985112003" are the same chip."""
    value = "".join(ch for ch in (text or "").upper() if ch.isalnum())
    return value or None


def normalise_crmv(text: str | None) -> str:
    """"crmv sp 1234" -> "CRMV-SP 1234" when the state is given; otherwise the cleaned text."""
    value = " ".join((text or "").upper().replace("-", " ").replace("/", " ").split())
    parts = value.split()
    if parts and parts[0] == "CRMV":
        parts = parts[1:]
    if len(parts) >= 2 and parts[0] in UF_CODES:
        return f"CRMV-{parts[0]} {' '.join(parts[1:])}"
    return " ".join(parts)


def owner_residence_key(person: User) -> str | None:
    """The residence key of a person's address, or None when the address is incomplete."""
    if not (clean_cep(person.cep or "") and (person.street or "").strip()
            and (person.number or "").strip()):
        return None
    return residence_key(person.cep, person.street, person.number, person.complement)


def species_label(species: str) -> str:
    return {"dog": _("Cão"), "cat": _("Gato")}.get(species, species)


def sex_label(sex: str, species: str | None = None) -> str:
    return {"male": _("Macho"), "female": _("Fêmea")}.get(sex, sex)


def size_label(size: str | None) -> str:
    return {"small": _("Pequeno"), "medium": _("Médio"), "large": _("Grande")}.get(size or "", "")


def status_label(status: str) -> str:
    return {"active": _("Ativo"), "pending": _("Pendente (aguardando vacinação)"),
            "closed": _("Encerrado (baixa por óbito)")}.get(status, status)


def find_by_rga(text: str) -> Animal | None:
    """The animal with this number. Raises InvalidRgaNumber for a malformed or mistyped one."""
    number = normalise_rga(text)
    return db.session.scalar(select(Animal).where(Animal.rga == number))


# ---------------------------------------------------------------------------------------------
# Age window (BJP 2 §2; GRU 14 §3; VV 12 §6)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgeCheck:
    late: bool
    window: tuple[date, date] | None  # first and last day of the window, when the law has one


def check_age(profile: Profile, birth_date: date | None, today: date, *,
              at_purchase: bool = False) -> AgeCheck:
    """Check a birth date against the registration window of the profile.

    The window "between the 3rd and the 6th month" runs from the day the animal completes
    ``window_start_months`` months to the day it completes ``window_end_months`` months. Older
    animals are registered late and flagged, never refused (BJP 2 §2; GRU 14 §3; VV 12 §6). Younger
    ones are refused, except when an establishment registers the animal at its sale
    (``at_purchase``: GRU 14 §1 makes the sale an exception to the window; VV 12 §7).

    Raises AnimalError(field "animal.birth_date", code "required" | "age").
    """
    if birth_date is None:
        raise AnimalError("animal.birth_date", "required",
                          _("Informe a data de nascimento (real ou aproximada)."))
    if birth_date > today:
        raise AnimalError("animal.birth_date", "age",
                          _("A data de nascimento não pode estar no futuro."))
    if birth_date < add_months(today, -12 * MAX_AGE_YEARS):
        raise AnimalError("animal.birth_date", "age", _(
            "Confira a data de nascimento: o animal teria mais de %(years)d anos.",
            years=MAX_AGE_YEARS))
    rule = profile.registration
    if rule.window_start_months is None or rule.window_end_months is None:
        return AgeCheck(late=False, window=None)
    start = add_months(birth_date, rule.window_start_months)
    end = add_months(birth_date, rule.window_end_months)
    allow_young = at_purchase and rule.at_purchase
    if today < start and not allow_young:
        # BJP 2 §2; GRU 14 §3; VV 12 §6: registration starts in the 3rd month of age
        raise AnimalError("animal.birth_date", "age", _(
            "O registro é feito a partir do %(months)dº mês de idade (%(article)s). "
            "Este animal poderá ser registrado a partir de %(day)s.",
            months=rule.window_start_months, article=rule.cite("window_start_months"),
            day=start.strftime("%d/%m/%Y")))
    return AgeCheck(late=today > end, window=(start, end))


# ---------------------------------------------------------------------------------------------
# Household limit (DOMAIN §4: GRU 37; BJP 17; CAB 31; CABO 33 §ú; VV 2 has none)
# ---------------------------------------------------------------------------------------------

def licensed_limit(profile: Profile, residence_key: str, on: date) -> int | None:
    """The limit a valid excess-animal licence gives this residence on ``on``, or None without one
    (the rule itself lives in ``portal.blueprints.licences.services.household_allowance``)."""
    from portal.blueprints.licences.services import household_allowance

    allowance = household_allowance(profile, residence_key, on)
    if allowance is None or allowance.licence is None:
        return None
    return allowance.limit


def counts_for_household(animal_birth: date, on: date, profile: Profile) -> bool:
    """True when an animal born on ``animal_birth`` is old enough to count on ``on``
    (GRU 37: "idade superior a 120 dias"; BJP 17 and others: 90 days)."""
    return on >= animal_birth and age_in_days(animal_birth, on) > profile.household.min_age_days


def household_count(residence_key: str, on: date, profile: Profile) -> int:
    """Dogs and cats older than ``profile.household.min_age_days`` on ``on`` living at the
    residence, whoever owns them, active or pending (DOMAIN §4). Closed RGAs do not count."""
    # "older than N days": (on - birth).days > N  <=>  birth < on - N days
    threshold = on - timedelta(days=profile.household.min_age_days)
    return db.session.scalar(
        select(func.count(Animal.id)).where(
            Animal.residence_key == residence_key,
            Animal.status.in_([s.value for s in COUNTED_STATUSES]),
            Animal.species.in_(SPECIES),
            Animal.birth_date < threshold,
        )
    ) or 0


def _licence_url(profile: Profile) -> str | None:
    if profile.household.above_limit not in ("licence", "kennel"):
        return None
    if "licences.request" not in current_app.view_functions:
        return None
    if not has_request_context():  # a service called from the CLI or a job: the path is enough
        return current_app.url_map.bind("localhost").build("licences.request")
    return url_for("licences.request")


def check_household_limit(profile: Profile, person: User, *, extra: int = 1,
                          on: date | None = None, housing_type: str | None = None) -> None:
    """Refuse when ``extra`` more counted animals at ``person``'s residence would pass what the
    residence may keep (DOMAIN §4): the plain limit, or what its valid licence allows
    (``licences.services.household_allowance``: the named animals above the limit are never
    replaced, GRU 37 §1 II, BJP 17 §5; never above the licence's cap).

    ``extra`` is how many animals the operation adds that count (older than the profile's age
    threshold); 0 means nothing to check. ``housing_type`` overrides the person's own.
    Raises HouseholdLimitExceeded (LicenceNewAcquisition where a valid licence forbids any new
    dog or cat, GRU 37 §1 III), or AnimalError("owner.address", "required") when the person has
    no usable address.
    """
    from portal.blueprints.licences.services import household_allowance

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
        raise AnimalError("owner.address", "required", _(
            "Informe o endereço completo (CEP, logradouro e número) de onde o animal vai morar."))
    on = on or local_today(profile)
    allowance = household_allowance(profile, key, on)
    assert allowance is not None  # rule.limit is set
    if allowance.inside_request:
        return  # a licence request registers its own animals and checks the numbers itself
    licence, licence_rule = allowance.licence, profile.licence
    if licence is not None and licence_rule is not None and licence_rule.new_acquisition_cancels:
        # GRU 37 §1 III: "sob pena de cancelamento da licença, não poderão ser adquiridos novos"
        raise LicenceNewAcquisition(_(
            "Esta residência tem licença especial válida até %(day)s. Enquanto ela valer, não "
            "podem ser adquiridos novos cães ou gatos: um novo animal cancelaria a licença "
            "(%(article)s).", day=licence.valid_until.strftime("%d/%m/%Y"),  # type: ignore[union-attr]
            article=licence_rule.cite("new_acquisition_cancels")),
            licence_rule.cite("new_acquisition_cancels"))
    limit = allowance.limit
    count = household_count(key, on, profile)
    if count + extra <= limit:
        return
    article = rule.article
    if licence is not None and licence_rule is not None:
        cited = licence_rule.cite("never_replaced_above") if licence_rule.never_replaced_above \
            else licence_rule.article
        message = _("Este endereço já tem %(count)d cães e gatos com mais de %(days)d dias; a "
                    "licença da residência permite %(limit)d agora (%(article)s).", count=count,
                    days=rule.min_age_days, limit=limit, article=cited)
        if licence_rule.never_replaced_above is not None:
            message += " " + _("Os animais da licença acima de %(n)d não podem ser substituídos "
                               "quando morrem, se perdem ou são doados.",
                               n=licence_rule.never_replaced_above)
        raise HouseholdLimitExceeded(message, cited, None)
    message = _("Este endereço já tem %(count)d cães e gatos com mais de %(days)d dias e o limite "
                "por residência é %(limit)d (%(article)s).", count=count, days=rule.min_age_days,
                limit=limit, article=article)
    if rule.above_limit == "licence":
        message += " " + _("Para manter mais animais, é preciso pedir a licença especial "
                           "(%(article)s).", article=rule.cite("above_limit"))
    elif rule.above_limit == "kennel":
        message += " " + _("Acima desse número a residência passa a ser canil particular, com "
                           "vistoria e laudo anual do órgão sanitário (%(article)s).",
                           article=profile.licence.article if profile.licence else article)
    else:
        message += " " + _("A lei não permite manter mais animais na mesma residência.")
    raise HouseholdLimitExceeded(message, article, _licence_url(profile))


# ---------------------------------------------------------------------------------------------
# RGA numbers
# ---------------------------------------------------------------------------------------------


def next_sequence(species: str, year: int) -> int:
    """The next RGA sequence for a species and year, safe under concurrent registrations.

    An atomic ``UPDATE ... SET last_value = last_value + 1 RETURNING last_value`` takes the row
    lock on PostgreSQL until the registering transaction ends, so two registrations of the same
    species and year can never read the same value. The first registration of a year creates the
    row with ``INSERT ... ON CONFLICT DO NOTHING`` (a concurrent creator waits, then finds it).
    """
    bump = (update(RgaCounter)
            .where(RgaCounter.species == species, RgaCounter.year == year)
            .values(last_value=RgaCounter.last_value + 1)
            .returning(RgaCounter.last_value)
            .execution_options(synchronize_session=False))
    value = db.session.execute(bump).scalar_one_or_none()
    if value is None:
        dialect = db.session.get_bind().dialect.name
        insert = pg_insert if dialect == "postgresql" else sqlite_insert
        db.session.execute(insert(RgaCounter).values(species=species, year=year, last_value=0)
                           .on_conflict_do_nothing())
        value = db.session.execute(bump).scalar_one()
    return int(value)


def issue_rga(species: str, today: date) -> str:
    """A new RGA number for a species, never issued before (GRU 14 §4; BJP 4)."""
    return format_rga(species, today.year, next_sequence(species, today.year))


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def validate_animal_data(data: AnimalData) -> list[AnimalError]:
    """Required fields and allowed values of the animal; every problem at once."""
    problems: list[AnimalError] = []
    data.name = _clean(data.name) or ""
    data.breed = _clean(data.breed)
    data.color = _clean(data.color)
    data.microchip = normalise_microchip(data.microchip)
    required = _("Campo obrigatório.")
    if not data.name:
        problems.append(AnimalError("animal.name", "required", _("Informe o nome do animal.")))
    elif len(data.name) > 100:
        problems.append(AnimalError("animal.name", "invalid", _("Nome longo demais (máx. 100).")))
    if data.species not in SPECIES:
        problems.append(AnimalError("animal.species", "required" if not data.species else "invalid",
                                    _("Escolha a espécie: cão ou gato.")))
    if data.sex not in SEXES:
        problems.append(AnimalError("animal.sex", "required" if not data.sex else "invalid",
                                    _("Escolha o sexo: macho ou fêmea.")))
    if not data.breed:
        problems.append(AnimalError("animal.breed", "required",
                                    _("Informe a raça (ou SRD, sem raça definida).")))
    if not data.color:
        problems.append(AnimalError("animal.color", "required", required))
    if data.size not in SIZES:
        problems.append(AnimalError("animal.size", "required" if not data.size else "invalid",
                                    _("Escolha o porte: pequeno, médio ou grande.")))
    if data.weight_grams is not None and not 50 <= data.weight_grams <= 150_000:
        problems.append(AnimalError("animal.weight_kg", "invalid",
                                    _("Peso fora do esperado: informe em quilos, ex.: 12,5.")))
    if data.microchip and not (9 <= len(data.microchip) <= 15):
        problems.append(AnimalError("animal.microchip", "invalid", _(
            "Número do microchip inválido: são de 9 a 15 letras ou números "
            "(em geral 15 dígitos).")))
    if data.birth_date is None:
        problems.append(AnimalError("animal.birth_date", "required",
                                    _("Informe a data de nascimento (real ou aproximada).")))
    return problems


def validate_vaccination(data: VaccinationData, *, birth_date: date | None, today: date,
                         prefix: str = "rabies_vaccination") -> list[AnimalError]:
    """Fields of BJP 13 §1 present and consistent; fills in the next due date (yearly)."""
    problems: list[AnimalError] = []
    data.vaccine_name = _clean(data.vaccine_name) or ""
    data.batch = _clean(data.batch) or ""
    data.vet_name = _clean(data.vet_name) or ""
    data.vet_crmv = normalise_crmv(data.vet_crmv)
    data.manufacturer = _clean(data.manufacturer)
    data.establishment = _clean(data.establishment)
    if data.applied_on is None:
        problems.append(AnimalError(f"{prefix}.date", "required",
                                    _("Informe a data da vacinação.")))
    elif data.applied_on > today:
        problems.append(AnimalError(f"{prefix}.date", "invalid",
                                    _("A data da vacinação não pode estar no futuro.")))
    elif birth_date and birth_date <= today and data.applied_on < birth_date:
        problems.append(AnimalError(f"{prefix}.date", "invalid",
                                    _("A vacinação não pode ser anterior ao nascimento.")))
    if not data.vaccine_name:
        problems.append(AnimalError(f"{prefix}.vaccine", "required",
                                    _("Informe o nome da vacina.")))
    if not data.batch:
        problems.append(AnimalError(f"{prefix}.batch", "required",
                                    _("Informe a partida (lote) da vacina.")))
    if not data.vet_name:
        problems.append(AnimalError(f"{prefix}.vet_name", "required",
                                    _("Informe o nome do(a) médico(a) veterinário(a).")))
    if not data.vet_crmv:
        problems.append(AnimalError(f"{prefix}.vet_crmv", "required",
                                    _("Informe o número do CRMV do(a) veterinário(a).")))
    elif not any(ch.isdigit() for ch in data.vet_crmv) or len(data.vet_crmv) > 40:
        problems.append(AnimalError(f"{prefix}.vet_crmv", "invalid",
                                    _("CRMV inválido: use o formato CRMV-SP 12345.")))
    if data.manufactured_on and data.expires_on and data.expires_on < data.manufactured_on:
        problems.append(AnimalError(f"{prefix}.expires_on", "invalid",
                                    _("A validade não pode ser anterior à fabricação.")))
    if data.applied_on and data.expires_on and data.expires_on < data.applied_on:
        problems.append(AnimalError(f"{prefix}.expires_on", "invalid",
                                    _("A vacina estava vencida na data da aplicação.")))
    if data.applied_on and data.next_due_on and data.next_due_on <= data.applied_on:
        problems.append(AnimalError(f"{prefix}.next_due", "invalid",
                                    _("A revacinação deve ser depois da aplicação.")))
    if data.applied_on and not problems and data.next_due_on is None:
        # BJP 12: revaccinate as the laboratory recommends; a yearly shot is the default
        data.next_due_on = add_months(data.applied_on, RABIES_REVACCINATION_MONTHS)
    return problems


def vaccination_is_current(applied_on: date, next_due_on: date | None, today: date) -> bool:
    due = next_due_on or add_months(applied_on, RABIES_REVACCINATION_MONTHS)
    return applied_on <= today <= due


def current_vaccination(animal: Animal, today: date) -> Vaccination | None:
    for vaccination in animal.vaccinations:
        if vaccination_is_current(vaccination.applied_on, vaccination.next_due_on, today):
            return vaccination
    return None


def rabies_required(profile: Profile) -> bool:
    """Whether registration needs a rabies proof or a shot at registration (BJP 6; GRU 15 V)."""
    rule = profile.registration
    return rule.rabies_proof_required or rule.vaccinate_at_registration


def microchip_taken(microchip: str | None, *, except_id: int | None = None) -> bool:
    if not microchip:
        return False
    query = select(Animal.id).where(Animal.microchip == microchip)
    if except_id is not None:
        query = query.where(Animal.id != except_id)
    return db.session.scalar(query) is not None


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------


def _price_cents(profile: Profile, key: str, on: date) -> int | None:
    """The city's price in force on ``on`` (staff-edited, else the profile's), or None when the law
    charges nothing for ``key``."""
    from portal.services.fees import price_list

    return next((e.amount_cents for e in price_list(profile, on) if e.key == key), None)


def _add_vaccination(animal: Animal, data: VaccinationData, *, recorded_by: User | None,
                     api_client: ApiClient | None, at_ccz: bool) -> Vaccination:
    vaccination = Vaccination(
        vaccine="rabies", vaccine_name=data.vaccine_name, batch=data.batch,
        manufacturer=data.manufacturer, manufactured_on=data.manufactured_on,
        expires_on=data.expires_on, applied_on=data.applied_on, next_due_on=data.next_due_on,
        establishment=data.establishment, vet_name=data.vet_name, vet_crmv=data.vet_crmv,
        at_ccz=at_ccz, recorded_by_id=recorded_by.id if recorded_by else None,
        api_client_id=api_client.id if api_client else None)
    animal.vaccinations.append(vaccination)
    return vaccination


def register_animal(*, owner: User, data: AnimalData, vaccination: VaccinationData | None,
                    vaccinate_at_ccz: bool, registered_by: User | None,
                    api_client: ApiClient | None, profile: Profile, today: date,
                    charge_fee: bool = True, guard_resubmission: bool = False) -> Animal:
    """Register a dog or cat to ``owner`` and issue its RGA number.

    ``guard_resubmission`` (the web wizard): a second submission of the same form — a double tap
    on "Confirmar", a retried request — raises :class:`AlreadyRegistered` with the animal the first
    one created, instead of issuing a second RGA for the same animal.

    Rules, in order: required fields; duplicate microchip; age window (late registrations are
    flagged: BJP 2 §2, GRU 14 §3, VV 12 §6); household limit at the owner's residence (DOMAIN §4);
    rabies proof, or ``vaccinate_at_ccz`` which leaves the registration *pending* until staff
    record the shot (BJP 6 §ú; GRU 15 V); then the number (:func:`issue_rga`) and, when the
    profile charges for it, a pending payment item of kind "registration" (BJP 11 a; GRU 22 I).

    ``registered_by`` is the person who typed it (the owner, a staff member), ``api_client`` the
    accredited establishment when it came through the API (its monthly report: BJP 9; GRU 20; the
    establishment pays the fee: BJP 11 a, GRU 22 §2). ``charge_fee=False`` skips the fee (the
    adoption domain: the animal is delivered registered, VV 12 §3, GRU 88 §2).

    The owner's address must be complete: it is the residence the animal is counted at.
    Raises AnimalError / AnimalErrors / HouseholdLimitExceeded. Flushes; the caller commits.
    """
    problems = validate_animal_data(data)
    if vaccination is not None:
        problems += validate_vaccination(vaccination, birth_date=data.birth_date, today=today)
    if problems:
        raise AnimalErrors(problems)
    if guard_resubmission:
        _refuse_resubmission(owner, data)
    if microchip_taken(data.microchip):
        raise AnimalError("animal.microchip", "duplicate_microchip",
                          _("Este microchip já está registrado em outro animal."))
    assert data.birth_date is not None  # validate_animal_data
    at_purchase = api_client is not None and api_client.kind == "establishment"
    age = check_age(profile, data.birth_date, today, at_purchase=at_purchase)

    key = owner_residence_key(owner)
    if key is None:
        raise AnimalError("owner.address", "required", _(
            "Informe o endereço completo (CEP, logradouro e número) de onde o animal vai morar."))
    # Only animals older than the threshold count (GRU 37 "idade superior a 120 dias").
    extra = 1 if counts_for_household(data.birth_date, today, profile) else 0
    check_household_limit(profile, owner, extra=extra, on=today)

    status = AnimalStatus.ACTIVE
    if vaccination is not None:
        if rabies_required(profile) and not vaccination_is_current(
                vaccination.applied_on, vaccination.next_due_on, today):  # type: ignore[arg-type]
            raise AnimalError("rabies_vaccination.date", "missing_vaccination", _(
                "A vacina antirrábica informada está vencida. Vacine o animal ou escolha "
                "vacinar no CCZ (%(article)s).", article=profile.registration.cite(
                    "rabies_proof_required")))
    elif vaccinate_at_ccz:
        status = AnimalStatus.PENDING  # BJP 6 §ú: vaccinated at the CCZ, then activated
    elif rabies_required(profile):
        raise AnimalError("rabies_vaccination", "missing_vaccination", _(
            "Informe a vacinação antirrábica em dia ou escolha vacinar no CCZ (%(article)s).",
            article=profile.registration.cite("rabies_proof_required")))

    animal = Animal(
        # GRU 14 §4; BJP 4: one number per animal, for life
        rga=issue_rga(data.species, today), species=data.species, name=data.name, sex=data.sex,
        breed=data.breed, color=data.color, birth_date=data.birth_date,
        birth_date_estimated=data.birth_date_estimated, size=data.size,
        weight_grams=data.weight_grams, sterilized=data.sterilized, microchip=data.microchip,
        photo=data.photo, status=status, registered_on=today, late_registration=age.late,
        activated_at=utcnow() if status == AnimalStatus.ACTIVE else None,
        owner=owner, residence_key=key, registered_by=registered_by,
        api_client_id=api_client.id if api_client else None)
    db.session.add(animal)
    if vaccination is not None:
        _add_vaccination(animal, vaccination, recorded_by=registered_by, api_client=api_client,
                         at_ccz=False)
    db.session.flush()

    fee = None
    if charge_fee and profile.registration.fee:
        amount = _price_cents(profile, "registration", today)
        if amount is not None:
            from portal.blueprints.billing.services import create_payment_item

            # BJP 11 a; GRU 22 I, §2: the establishment pays for registrations it makes (its web
            # account, when it has one, sees the item; the owner does not)
            fee = create_payment_item(
                kind="registration", amount_cents=amount,
                description=_("Registro do animal %(name)s (RGA %(rga)s)", name=animal.name,
                              rga=animal.rga),
                payer=api_client.user if api_client is not None else owner,
                subject_type="animal", subject_id=animal.id,
                breakdown=[{"label": _("Registro Geral do Animal (RGA)"), "amount_cents": amount,
                            "article": profile.prices["registration"].article}],
                api_client_id=api_client.id if api_client else None)
    # Issue 8: the number is valid now, the RGA provisional until paid and its proof checked
    provisional.start(animal, fee=fee, vaccinated=vaccination is not None, api_client=api_client,
                      registered_by=registered_by)
    db.session.flush()
    return animal


RESUBMISSION_WINDOW = timedelta(minutes=10)


class AlreadyRegistered(AnimalError):
    """The same owner registered this very animal moments ago (a repeated submission)."""

    def __init__(self, animal: Animal) -> None:
        super().__init__(None, "already_registered", _(
            "Este animal já foi registrado: RGA %(rga)s.", rga=animal.rga))
        self.animal = animal


def _refuse_resubmission(owner: User, data: AnimalData) -> None:
    """Raise AlreadyRegistered when ``owner`` registered an animal with the same name, species and
    birth date in the last minutes. The owner's row is locked first (a no-op UPDATE: row lock on
    PostgreSQL, write lock on SQLite), so two simultaneous submissions run one after the other and
    the second one sees the first one's animal."""
    db.session.execute(update(User).where(User.id == owner.id).values(id=User.id)
                       .execution_options(synchronize_session=False))
    since = utcnow() - RESUBMISSION_WINDOW
    earlier = db.session.scalars(select(Animal).where(
        Animal.owner_id == owner.id, Animal.species == data.species,
        func.lower(Animal.name) == (data.name or "").lower(),
        Animal.birth_date == data.birth_date, Animal.status != AnimalStatus.CLOSED,
        Animal.registered_at >= since).order_by(Animal.id)).first()
    if earlier is not None:
        raise AlreadyRegistered(earlier)


def register_animal_for_adoption(*, adopter: User, data: AnimalData,
                                 vaccination: VaccinationData | None, registered_by: User | None,
                                 profile: Profile, today: date,
                                 api_client: ApiClient | None = None) -> Animal:
    """Issue an RGA to the adopter of an animal that has none (DOMAIN §5: delivered registered,
    VV 28 §1, GRU 88 §2). No registration fee: the adoption covers it (VV 12 §3). Without a
    vaccination the registration stays pending until staff record the shot.

    Same errors as :func:`register_animal` (household limit included)."""
    return register_animal(owner=adopter, data=data, vaccination=vaccination,
                           vaccinate_at_ccz=vaccination is None, registered_by=registered_by,
                           api_client=api_client, profile=profile, today=today, charge_fee=False)


def renewal_due(animal: Animal, profile: Profile) -> date | None:
    """Where the law registers dogs and cats every year (CABO 19), the day a year after the
    registration; None elsewhere or for a closed RGA. CABO 19 §ú leaves the procedure to a decree,
    so the portal only shows the date; it does not expire the RGA."""
    if not profile.registration.yearly_renewal or animal.is_closed:
        return None
    return add_months(animal.registered_on, 12)


def fees_of(animal: Animal) -> list[PaymentItem]:
    return list(db.session.scalars(select(PaymentItem).where(
        PaymentItem.subject_type == "animal", PaymentItem.subject_id == animal.id)
        .order_by(PaymentItem.id)))


def find_or_create_owner(data: OwnerData, api_client: ApiClient | None = None) -> User:
    """The person with this CPF, or a new citizen record without password (created by
    ``api_client``) that they claim at sign-up through a link sent to its e-mail.

    Only the establishment that created a record may still correct it, until it is claimed.
    Anyone else's record keeps its contact data (e-mail, phone, address): a changed e-mail would
    hand the account to whoever reads it. Different values wait as a ContactSuggestion the person
    accepts or dismisses; other empty fields (and a wholly empty address) are filled.

    Raises AnimalErrors with fields under "owner."."""
    problems: list[AnimalError] = []
    cpf = clean_cpf(data.cpf or "")
    if not (data.cpf or "").strip():
        problems.append(AnimalError("owner.cpf", "required", _("Informe o CPF do proprietário.")))
    elif cpf is None:
        problems.append(AnimalError("owner.cpf", "invalid_cpf",
                                    _("CPF inválido: confira os 11 dígitos.")))
    name = _clean(data.name)
    if not name:
        problems.append(AnimalError("owner.name", "required",
                                    _("Informe o nome do proprietário.")))
    email: str | None = None
    if not (data.email or "").strip():
        problems.append(AnimalError("owner.email", "required", _(
            "Informe o e-mail do proprietário: com ele a pessoa acessa o cadastro no portal.")))
    else:
        try:
            checked = validate_email(data.email.strip(), check_deliverability=False)
            email = checked.normalized.lower()
        except EmailNotValidError:
            problems.append(AnimalError("owner.email", "invalid", _("E-mail inválido.")))
    address = {k: _clean(v) for k, v in (data.address or {}).items()}
    cep = clean_cep(address.get("cep") or "")
    for key, message in (("street", _("Informe o logradouro.")), ("number", _("Informe o número.")),
                         ("district", _("Informe o bairro.")), ("city", _("Informe a cidade."))):
        if not address.get(key):
            problems.append(AnimalError(f"owner.address.{key}", "required", message))
    if not address.get("cep"):
        problems.append(AnimalError("owner.address.cep", "required", _("Informe o CEP.")))
    elif cep is None:
        problems.append(AnimalError("owner.address.cep", "invalid",
                                    _("CEP deve ter 8 dígitos, por exemplo 07000-000.")))
    state = (address.get("state") or "").upper() or None
    if state is not None and state not in UF_CODES:
        problems.append(AnimalError("owner.address.state", "invalid", _("UF inválida.")))
    if problems:
        raise AnimalErrors(problems)

    person = db.session.scalar(select(User).where(User.cpf == cpf))
    holder = db.session.scalar(select(User).where(func.lower(User.email) == email))
    if holder is not None and holder is not person:
        raise AnimalError("owner.email", "invalid", _(
            "Este e-mail já pertence a outra pessoa cadastrada. Confira o e-mail com o "
            "proprietário."))
    fields = {"full_name": name, "rg": _clean(data.rg), "birth_date": data.birth_date,
              "email": email, "phone": _clean(data.phone), "cep": cep,
              "street": address.get("street"), "number": address.get("number"),
              "complement": address.get("complement"), "district": address.get("district"),
              "city": address.get("city"), "state": state}
    client_id = api_client.id if api_client is not None else None
    if person is None:
        person = User(cpf=cpf, housing_type="house", created_by_api_client_id=client_id, **fields)
        person.add_role(Role.CITIZEN)
        db.session.add(person)
    elif (not person.has_account and client_id is not None
          and person.created_by_api_client_id == client_id):
        for attr, value in fields.items():
            if value is not None:
                setattr(person, attr, value)
    else:
        # The address is one block: filling only the empty pieces (say the complement) of an
        # account holder's address from another address made up a dwelling that does not exist
        # and moved their animals to it. It is taken whole, and only when they have none.
        address_fields = ("cep", "street", "number", "complement", "district", "city", "state")
        has_address = any(getattr(person, attr) for attr in ("cep", "street", "number"))
        for attr, value in fields.items():
            if attr in ("email", "phone") or (attr in address_fields and has_address):
                continue
            if value is not None and getattr(person, attr) in (None, ""):
                setattr(person, attr, value)
        if api_client is not None:
            _suggest_contact(person, api_client, fields)
    db.session.flush()
    return person


def _suggest_contact(person: User, api_client: ApiClient, fields: dict[str, Any]) -> None:
    """Keep the contact data an establishment sent for someone else's record, for the person to
    accept or dismiss on their profile (issue 8: an API client never changes it)."""
    changes = {name: value for name in CONTACT_FIELDS
               if (value := fields.get(name)) and value != getattr(person, name)}
    if not changes:
        return
    pending = db.session.scalars(select(ContactSuggestion).where(
        ContactSuggestion.user_id == person.id, ContactSuggestion.api_client_id == api_client.id,
        ContactSuggestion.resolved_at.is_(None)))
    if any(old.changes() == changes for old in pending):
        return  # the same suggestion again (a retried request)
    db.session.add(ContactSuggestion(user_id=person.id, api_client_id=api_client.id,
                                     source_name=api_client.name,
                                     **{name: fields.get(name) for name in CONTACT_FIELDS}))


def update_owner_address(person: User, *, cep: str, street: str, number: str,
                         complement: str | None, district: str, city: str, state: str,
                         housing_type: str | None) -> None:
    """Save the address confirmed in the registration wizard on the person's profile.

    Their animals move with them (see the flush hook at the end of this module)."""
    person.cep = clean_cep(cep)
    person.street = _clean(street)
    person.number = _clean(number)
    person.complement = _clean(complement)
    person.district = _clean(district)
    person.city = _clean(city)
    person.state = (state or "").upper() or None
    if housing_type:
        person.housing_type = housing_type
    db.session.flush()


# ---------------------------------------------------------------------------------------------
# Vaccination and activation (staff)
# ---------------------------------------------------------------------------------------------


def record_vaccination(animal: Animal, data: VaccinationData, *, recorded_by: User | None,
                       at_ccz: bool, today: date,
                       api_client: ApiClient | None = None) -> Vaccination:
    """Add a rabies vaccination (BJP 13 §1 fields). A pending registration becomes active when the
    shot is current (BJP 6 §ú). Raises AnimalErrors (fields "rabies_vaccination.*")."""
    if animal.is_closed:
        raise AnimalError(None, "invalid", _("Este RGA está encerrado (baixa)."))
    problems = validate_vaccination(data, birth_date=animal.birth_date, today=today)
    if problems:
        raise AnimalErrors(problems)
    vaccination = _add_vaccination(animal, data, recorded_by=recorded_by, api_client=api_client,
                                   at_ccz=at_ccz)
    is_current = vaccination_is_current(data.applied_on, data.next_due_on,  # type: ignore[arg-type]
                                        today)
    if animal.status == AnimalStatus.PENDING and is_current:
        _activate(animal)
    db.session.flush()
    if is_current and (at_ccz or (api_client is not None and api_client.kind == "establishment")):
        provisional.vaccination_checked(animal, recorded_by)  # issue 8: given/recorded by the CCZ
    return vaccination


def _activate(animal: Animal) -> None:
    animal.status = AnimalStatus.ACTIVE
    animal.activated_at = utcnow()


def approve_registration(animal: Animal, *, approved_by: User, profile: Profile,
                         today: date) -> None:
    """Staff activate a pending registration. Where the law asks for a rabies proof, a current
    vaccination must be on record (BJP 6; GRU 15 V). Raises AnimalError."""
    if animal.status != AnimalStatus.PENDING:
        raise AnimalError(None, "invalid", _("Este registro não está pendente."))
    if rabies_required(profile) and current_vaccination(animal, today) is None:
        raise AnimalError("rabies_vaccination", "missing_vaccination", _(
            "Registre antes a vacinação antirrábica (%(article)s).",
            article=profile.registration.cite("rabies_proof_required")))
    _activate(animal)
    db.session.flush()
    provisional.vaccination_checked(animal, approved_by)  # issue 8: staff checked the proof


# ---------------------------------------------------------------------------------------------
# Transfers (BJP 7; GRU 18; VV 13)
# ---------------------------------------------------------------------------------------------


def _complete_transfer(transfer: OwnershipTransfer, profile: Profile, today: date) -> None:
    animal = transfer.animal
    new_owner = transfer.to_owner
    new_key = owner_residence_key(new_owner)
    if new_key is None:
        raise AnimalError("owner.address", "required", _(
            "Complete o seu endereço (CEP, logradouro e número) no seu perfil antes de aceitar: "
            "é onde o animal vai morar."))
    counts = counts_for_household(animal.birth_date, today, profile)
    moving_in = 1 if counts and animal.residence_key != new_key else 0
    check_household_limit(profile, new_owner, extra=moving_in, on=today)  # DOMAIN §4 at new home
    animal.owner = new_owner
    animal.residence_key = new_key
    # BJP 7; GRU 18: the record is updated, responsibility passes to the new owner now
    transfer.status = TransferStatus.ACCEPTED
    transfer.accepted_at = transfer.decided_at = utcnow()


# Where each law keeps the previous owner responsible until the record is updated.
TRANSFER_ARTICLES = {"BJP": "BJP 7 §ú", "GRU": "GRU 18 §2", "VV": "VV 13"}


def transfer_article(profile: Profile) -> str | None:
    return TRANSFER_ARTICLES.get(profile.law_key)


def transfer_animal(animal: Animal, new_owner: User, *, immediate: bool,
                    profile: Profile | None = None, today: date | None = None,
                    reason: str = "adoption") -> OwnershipTransfer:
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
        raise AnimalError(None, "invalid", _("Este RGA está encerrado (baixa) e não pode ser "
                                             "transferido."))
    if new_owner.id == animal.owner_id:
        raise AnimalError("cpf", "invalid", _("O animal já pertence a esta pessoa."))
    for other in animal.transfers:
        if other.status == TransferStatus.PENDING:
            other.status = TransferStatus.CANCELLED
            other.decided_at = utcnow()
    transfer = OwnershipTransfer(animal=animal, from_owner=animal.owner, to_owner=new_owner,
                                 reason=reason)
    db.session.add(transfer)
    if immediate:
        _complete_transfer(transfer, profile, today)
    db.session.flush()
    return transfer


def request_transfer(animal: Animal, owner: User, new_owner_cpf: str, *, profile: Profile,
                     today: date) -> OwnershipTransfer:
    """The owner offers the animal to another citizen, found by CPF; they must accept.

    Raises AnimalError(field "cpf": invalid_cpf, not_found, invalid)."""
    if animal.owner_id != owner.id:
        raise AnimalError(None, "not_allowed", _("Só o proprietário pode transferir o animal."))
    cpf = clean_cpf(new_owner_cpf or "")
    if cpf is None:
        raise AnimalError("cpf", "invalid_cpf", _("CPF inválido: confira os 11 dígitos."))
    new_owner = db.session.scalar(select(User).where(User.cpf == cpf))
    if new_owner is None or not new_owner.active:
        raise AnimalError("cpf", "not_found", _(
            "Não encontramos um cadastro com este CPF. Peça ao novo proprietário que crie uma "
            "conta no portal e tente de novo."))
    transfer = transfer_animal(animal, new_owner, immediate=False, profile=profile, today=today,
                               reason="citizen")
    if new_owner.email:
        send_email(new_owner.email, _("Transferência de animal para você"), _(
            "Olá, %(name)s.\n\n%(from)s quer transferir para você o animal %(animal)s "
            "(RGA %(rga)s).\nPara aceitar ou recusar, entre no portal do CCZ, em \"Meus "
            "animais\":\n%(link)s\n\nEnquanto você não aceitar, o proprietário atual continua "
            "responsável pelo animal.", name=new_owner.full_name, **{"from": owner.full_name},
            animal=animal.name, rga=animal.rga, link=absolute_url("animals.my_animals")))
    return transfer


def accept_transfer(transfer: OwnershipTransfer, user: User, *, profile: Profile,
                    today: date) -> None:
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
        send_email(previous.email, _("Transferência aceita"), _(
            "Olá, %(name)s.\n\n%(new)s aceitou a transferência do animal %(animal)s (RGA %(rga)s). "
            "A partir de agora a responsabilidade pelo animal é do novo proprietário.",
            name=previous.full_name, new=user.full_name, animal=transfer.animal.name,
            rga=transfer.animal.rga))


def decline_transfer(transfer: OwnershipTransfer, user: User) -> None:
    """The new owner refuses, or the current owner withdraws the offer."""
    if user.id not in (transfer.to_owner_id, transfer.from_owner_id):
        raise AnimalError(None, "not_allowed", _("Esta transferência não é sua."))
    if transfer.status != TransferStatus.PENDING:
        raise AnimalError(None, "invalid", _("Esta transferência não está mais pendente."))
    transfer.status = (TransferStatus.DECLINED if user.id == transfer.to_owner_id
                       else TransferStatus.CANCELLED)
    transfer.decided_at = utcnow()
    db.session.flush()


def pending_transfers_to(user: User) -> list[OwnershipTransfer]:
    return list(db.session.scalars(select(OwnershipTransfer).where(
        OwnershipTransfer.to_owner_id == user.id,
        OwnershipTransfer.status == TransferStatus.PENDING).order_by(OwnershipTransfer.id)))


# ---------------------------------------------------------------------------------------------
# Second copy (BJP 8; GRU 19) and death (GRU 21; BJP 10)
# ---------------------------------------------------------------------------------------------


def provisional_valid_until(profile: Profile, requested_on: date) -> date | None:
    """Last day the second-copy request serves as the animal's ID: 45 days in GRU 19 §1, 60 in
    BJP 8 §ú, counted from the request (start day excluded). None where the law has none."""
    if profile.provisional_id is None:
        return None
    return requested_on + timedelta(days=profile.provisional_id.validity_days)


def request_copy(animal: Animal, kind: str, *, requested_by: User, profile: Profile, today: date,
                 reason: str | None = None) -> DocumentCopyRequest:
    """Ask for a second copy of the card or the tag (BJP 8; GRU 19). The request is a provisional
    ID until :func:`provisional_valid_until`; a public price applies where the city has one
    (BJP 11 b; GRU 22 II). Raises AnimalError."""
    if kind not in (CopyKind.CARD, CopyKind.TAG):
        raise AnimalError("kind", "invalid", _("Escolha carteira ou plaqueta."))
    if animal.is_closed:
        raise AnimalError(None, "invalid", _("Este RGA está encerrado (baixa)."))
    copy = DocumentCopyRequest(animal=animal, kind=kind, reason=_clean(reason),
                               requested_on=today, requested_by_id=requested_by.id,
                               # BJP 8 §ú (60 d); GRU 19 §1 (45 d): the request is the ID meanwhile
                               valid_until=provisional_valid_until(profile, today))
    db.session.add(copy)
    db.session.flush()
    price_key = "card_copy" if kind == CopyKind.CARD else "tag_copy"  # BJP 11 b; GRU 22 II
    amount = _price_cents(profile, price_key, today)
    if amount is not None:
        from portal.blueprints.billing.services import create_payment_item

        label = _("Segunda via da carteira do RGA") if kind == CopyKind.CARD else _(
            "Segunda via da plaqueta do RGA")
        item = create_payment_item(
            kind=price_key, amount_cents=amount,
            description=f"{label} {animal.rga} ({animal.name})", payer=animal.owner,
            subject_type="animal", subject_id=animal.id,
            breakdown=[{"label": label, "amount_cents": amount,
                        "article": profile.prices[price_key].article}])  # type: ignore[index]
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


def report_death(animal: Animal, *, reported_by: User, died_on: date | None, today: date,
                 note: str | None = None) -> None:
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
        raise AnimalError("died_on", "invalid",
                          _("A data do óbito não pode ser anterior ao nascimento."))
    animal.status = AnimalStatus.CLOSED  # GRU 21; BJP 10: baixa, the row and number stay
    animal.closed_at = utcnow()
    animal.closed_reason = "death"
    animal.died_on = died_on
    animal.closed_note = _clean(note)
    animal.closed_by_id = reported_by.id
    for transfer in animal.transfers:
        if transfer.status == TransferStatus.PENDING:
            transfer.status = TransferStatus.CANCELLED
            transfer.decided_at = utcnow()
    db.session.flush()


# ---------------------------------------------------------------------------------------------
# Public page and finder messages
# ---------------------------------------------------------------------------------------------


def public_data(animal: Animal) -> dict[str, Any]:
    """What anyone may see of a registration: never the owner's name, CPF, address or phone."""
    photo = None
    if animal.photo is not None and animal.photo.public:
        photo = absolute_url("files.serve", token=animal.photo.token, variant="medium")
    return {
        "rga": animal.rga,
        "name": animal.name,
        "species": animal.species,
        "status": animal.status,
        # issue 8: number issued, registration not yet paid and checked (status stays as it was)
        "provisional": animal.provisional,
        "photo_url": photo,
        "public_url": absolute_url("animals.public_rga", number=animal.rga),
    }


def relay_finder_message(animal: Animal, *, finder_name: str | None, finder_contact: str,
                         message: str) -> FinderMessage:
    """Send a finder's message to the owner by e-mail. The finder learns nothing about the owner;
    the owner gets the finder's contact and decides whether to answer. Raises AnimalError.

    Links are taken out of everything relayed: the e-mail comes from the city's address, and a
    stranger must not use it to send the owner to a phishing page ("pague o resgate aqui").
    """
    contact = _clean(finder_contact)
    text = strip_links((message or "").strip())
    finder_name = strip_links(_clean(finder_name)) or None
    problems = []
    if not contact:
        problems.append(AnimalError("contact", "required", _(
            "Informe um telefone ou e-mail para o proprietário falar com você.")))
    elif strip_links(contact) != contact:
        problems.append(AnimalError("contact", "link", _(
            "Informe um telefone ou e-mail; links não são enviados ao proprietário.")))
    if not text:
        problems.append(AnimalError("message", "required",
                                    _("Escreva onde e quando encontrou o animal.")))
    if problems:
        raise AnimalErrors(problems)
    if animal.is_closed:
        raise AnimalError(None, "invalid", _("Este RGA está encerrado."))
    record = FinderMessage(animal=animal, finder_name=_clean(finder_name),
                           finder_contact=contact or "", message=text[:2000])
    db.session.add(record)
    owner = animal.owner
    if owner.email:
        send_email(owner.email, _("Alguém encontrou %(animal)s", animal=animal.name), _(
            "Olá, %(owner)s.\n\nUma pessoa abriu a página pública do RGA %(rga)s (%(animal)s) e "
            "deixou esta mensagem:\n\n%(message)s\n\nNome: %(name)s\nContato: %(contact)s\n\n"
            "O portal não mostrou a ela seu nome, CPF, endereço ou telefone. Responda somente se "
            "quiser.", owner=owner.full_name, rga=animal.rga, animal=animal.name,
            message=text[:2000], name=record.finder_name or _("(não informado)"),
            contact=contact))
        record.delivered = True
    db.session.flush()
    return record


# ---------------------------------------------------------------------------------------------
# Lists, staff search, monthly report, LGPD
# ---------------------------------------------------------------------------------------------


def animals_of(user: User) -> list[Animal]:
    return list(db.session.scalars(select(Animal).where(Animal.owner_id == user.id)
                                   .order_by(Animal.status == AnimalStatus.CLOSED, Animal.name)))


def pending_registrations() -> list[Animal]:
    return list(db.session.scalars(select(Animal).where(Animal.status == AnimalStatus.PENDING)
                                   .order_by(Animal.registered_at)))


def open_copy_requests() -> list[DocumentCopyRequest]:
    return list(db.session.scalars(select(DocumentCopyRequest).where(
        DocumentCopyRequest.status == CopyStatus.REQUESTED).order_by(
        DocumentCopyRequest.valid_until, DocumentCopyRequest.id)))


SEARCH_KINDS = ("rga", "microchip", "cpf", "name")


def search_animals(kind: str, term: str, *, limit: int = 50) -> list[Animal]:
    """Staff search by RGA, microchip, owner CPF or animal / owner name. Raises AnimalError("q")."""
    term = (term or "").strip()
    if not term:
        raise AnimalError("q", "required", _("Digite o que procurar."))
    query = select(Animal)
    if kind == "rga":
        try:
            query = query.where(Animal.rga == normalise_rga(term))
        except InvalidRgaNumber as err:
            raise AnimalError("q", "invalid", rga_error_message(err)) from None
    elif kind == "microchip":
        query = query.where(Animal.microchip == normalise_microchip(term))
    elif kind == "cpf":
        cpf = clean_cpf(term)
        if cpf is None:
            raise AnimalError("q", "invalid_cpf", _("CPF inválido: confira os 11 dígitos."))
        query = query.join(User, Animal.owner_id == User.id).where(User.cpf == cpf)
    elif kind == "name":
        if len(term) < 2:
            raise AnimalError("q", "invalid", _("Digite ao menos 2 letras."))
        pattern = f"%{term.lower()}%"
        query = query.join(User, Animal.owner_id == User.id).where(
            or_(func.lower(Animal.name).like(pattern), func.lower(User.full_name).like(pattern)))
    else:
        raise AnimalError("kind", "invalid", _("Escolha o tipo de busca."))
    return list(db.session.scalars(query.order_by(Animal.registered_at.desc()).limit(limit)))


def rga_error_message(err: InvalidRgaNumber) -> str:
    if err.reason == "check_digit":
        return _("Número de RGA inválido: o dígito verificador não confere. Confira se não houve "
                 "erro de digitação.")
    return _("Número de RGA inválido: use o formato C-2026-000123-4 (C para cão, G para gato).")


def month_bounds(year: int, month: int, profile: Profile) -> tuple[datetime, datetime]:
    """The UTC instants where a calendar month starts and ends in the municipality's time zone."""
    tz = ZoneInfo(profile.timezone)
    start = datetime.combine(date(year, month, 1), time.min, tzinfo=tz)
    end = datetime.combine(add_months(date(year, month, 1), 1), time.min, tzinfo=tz)
    return start.astimezone(UTC), end.astimezone(UTC)


def registrations_of_month(client: ApiClient, year: int, month: int,
                           profile: Profile) -> list[Animal]:
    """The establishment's own registrations in a month: its monthly report (BJP 9; GRU 20)."""
    start, end = month_bounds(year, month, profile)
    return list(db.session.scalars(select(Animal).where(
        Animal.api_client_id == client.id, Animal.registered_at >= start,
        Animal.registered_at < end).order_by(Animal.registered_at, Animal.id)))


def report_row(animal: Animal) -> dict[str, Any]:
    """One line of the monthly report; the owner's CPF masked (the establishment has the form)."""
    return {
        "rga": animal.rga, "registered_on": animal.registered_on.isoformat(),
        "status": animal.status, "late_registration": animal.late_registration,
        "species": animal.species, "name": animal.name, "sex": animal.sex, "breed": animal.breed,
        "color": animal.color, "birth_date": animal.birth_date.isoformat(),
        "birth_date_estimated": animal.birth_date_estimated, "size": animal.size,
        "microchip": animal.microchip, "owner_name": animal.owner.full_name,
        "owner_cpf": mask_cpf(animal.owner.cpf),
        "rabies_vaccination_date": (animal.last_vaccination.applied_on.isoformat()
                                    if animal.last_vaccination else None),
    }


REPORT_COLUMNS = ("rga", "registered_on", "status", "late_registration", "species", "name", "sex",
                  "breed", "color", "birth_date", "birth_date_estimated", "size", "microchip",
                  "owner_name", "owner_cpf", "rabies_vaccination_date")


CSV_DELIMITER = ";"  # what Excel in pt-BR expects (the decimal separator there is the comma)


def _csv_cell(value: Any) -> Any:
    """Text an establishment typed ("=HYPERLINK(...)" as a name) must not run as a spreadsheet
    formula when the report is opened in Excel: such cells get a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def report_csv(rows: Iterable[dict[str, Any]]) -> str:
    """The monthly report as CSV for a spreadsheet: UTF-8 with a byte-order mark (without it Excel
    reads "Conceição" as "ConceiÃ§Ã£o") and ``;`` between columns (Excel pt-BR splits on it)."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.DictWriter(out, fieldnames=REPORT_COLUMNS, extrasaction="ignore",
                            delimiter=CSV_DELIMITER, lineterminator="\r\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _csv_cell(value) for key, value in row.items()})
    return out.getvalue()


def export_animals(user: User) -> list[dict[str, Any]]:
    """LGPD: the animals a person owns or owned, with their records."""
    owned = set(animals_of(user))
    past = db.session.scalars(select(Animal).join(OwnershipTransfer).where(
        OwnershipTransfer.from_owner_id == user.id,
        OwnershipTransfer.status == TransferStatus.ACCEPTED)).all()
    result = []
    for animal in sorted(owned | set(past), key=lambda a: a.id):
        result.append({
            "rga": animal.rga, "nome": animal.name, "especie": animal.species, "sexo": animal.sex,
            "raca": animal.breed, "cor": animal.color, "nascimento": animal.birth_date,
            "nascimento_estimado": animal.birth_date_estimated, "porte": animal.size,
            "peso_gramas": animal.weight_grams, "castrado": animal.sterilized,
            "microchip": animal.microchip, "situacao": animal.status,
            "registrado_em": animal.registered_at, "registro_tardio": animal.late_registration,
            "provisorio": animal.provisional, "definitivo_em": animal.definitive_at,
            "comprovante_vacina": animal.proof_status,
            "comprovante_recusado_motivo": animal.proof_refused_reason,
            "proprietario_atual": animal.owner_id == user.id,
            "baixa_em": animal.closed_at, "obito_em": animal.died_on,
            "vacinas": [{"vacina": v.vaccine_name, "partida": v.batch, "fabricante": v.manufacturer,
                         "aplicada_em": v.applied_on, "proxima_dose": v.next_due_on,
                         "veterinario": v.vet_name, "crmv": v.vet_crmv,
                         "estabelecimento": v.establishment} for v in animal.vaccinations],
            "transferencias": [{"de_mim": t.from_owner_id == user.id, "situacao": t.status,
                                "pedida_em": t.requested_at, "aceita_em": t.accepted_at}
                               for t in animal.transfers
                               if user.id in (t.from_owner_id, t.to_owner_id)],
            "segundas_vias": [{"tipo": c.kind, "pedida_em": c.requested_on,
                               "valida_ate": c.valid_until, "situacao": c.status}
                              for c in animal.copy_requests],
        })
    return result


# ---------------------------------------------------------------------------------------------
# Animals move with their owner
# ---------------------------------------------------------------------------------------------

_ADDRESS_FIELDS = ("cep", "street", "number", "complement")


@event.listens_for(Session, "before_flush")
def _move_animals_with_owner(session: Session, flush_context: Any, instances: Any) -> None:
    """When an owner's address changes (profile page, wizard, clinic update), their active and
    pending animals now live at the new residence: the household count must follow them."""
    for obj in list(session.dirty):
        if not isinstance(obj, User):
            continue
        state: Any = inspect(obj)
        if not any(state.attrs[name].history.has_changes() for name in _ADDRESS_FIELDS):
            continue
        key = owner_residence_key(obj)
        if key is None or obj.id is None:
            continue
        with session.no_autoflush:
            animals = session.scalars(select(Animal).where(
                Animal.owner_id == obj.id, Animal.status != AnimalStatus.CLOSED)).all()
        for animal in animals:
            if animal.residence_key != key:
                animal.residence_key = key
