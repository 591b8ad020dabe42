"""Registering a dog or cat and issuing its RGA number (GRU 14 §4; BJP 4), the registration fee
(BJP 11 a; GRU 22 I), and the staff steps that activate a pending registration (BJP 6 §ú).

Stable entry points other domains call (keep the signatures): :func:`register_animal` with a
:class:`RegistrationRequest` (the adoption, impound and licences domains issue RGAs through it)
and :func:`register_animal_for_adoption`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from flask_babel import gettext as _
from sqlalchemy import func, select, update

from portal.blueprints.animals import provisional
from portal.blueprints.animals.common import (
    AnimalData,
    AnimalError,
    AnimalErrors,
    VaccinationData,
    owner_residence_key,
)
from portal.blueprints.animals.household import check_household_limit, counts_for_household
from portal.blueprints.animals.rga import format_rga
from portal.blueprints.animals.validation import (
    AgeCheck,
    check_age,
    check_microchip_free,
    check_vaccination_current,
    current_vaccination,
    rabies_required,
    vaccination_is_current,
    validate_animal_data,
    validate_vaccination,
)
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    ApiClient,
    PaymentItem,
    RgaCounter,
    User,
    Vaccination,
)
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.dates import term_of_months_ends
from portal.services.locks import hold, insert_if_absent
from portal.wiring import wiring

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
    bump = (
        update(RgaCounter)
        .where(RgaCounter.species == species, RgaCounter.year == year)
        .values(last_value=RgaCounter.last_value + 1)
        .returning(RgaCounter.last_value)
        .execution_options(synchronize_session=False)
    )
    value = db.session.execute(bump).scalar_one_or_none()
    if value is None:
        insert_if_absent(RgaCounter, species=species, year=year, last_value=0)
        value = db.session.execute(bump).scalar_one()
    return int(value)


def issue_rga(species: str, today: date) -> str:
    """A new RGA number for a species, never issued before (GRU 14 §4; BJP 4)."""
    return format_rga(species, today.year, next_sequence(species, today.year))


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------


def price_cents(profile: Profile, key: str, on: date) -> int | None:
    """The city's price in force on ``on`` (staff-edited, else the profile's), or None when the law
    charges nothing for ``key``."""
    from portal.services.fees import price_list

    return next((e.amount_cents for e in price_list(profile, on) if e.key == key), None)


def _add_vaccination(
    animal: Animal,
    data: VaccinationData,
    *,
    recorded_by: User | None,
    api_client: ApiClient | None,
    at_ccz: bool,
) -> Vaccination:
    vaccination = Vaccination(
        vaccine="rabies",
        vaccine_name=data.vaccine_name,
        batch=data.batch,
        manufacturer=data.manufacturer,
        manufactured_on=data.manufactured_on,
        expires_on=data.expires_on,
        applied_on=data.applied_on,
        next_due_on=data.next_due_on,
        establishment=data.establishment,
        vet_name=data.vet_name,
        vet_crmv=data.vet_crmv,
        at_ccz=at_ccz,
        recorded_by_id=recorded_by.id if recorded_by else None,
        api_client_id=api_client.id if api_client else None,
    )
    animal.vaccinations.append(vaccination)
    return vaccination


@dataclass(frozen=True)
class RegistrationRequest:
    """One registration to make (the wizard, the API, staff, adoption, impound, the demo data).

    ``registered_by`` is the person who typed it (the owner, a staff member), ``api_client`` the
    accredited establishment when it came through the API (its monthly report: BJP 9; GRU 20; the
    establishment pays the fee: BJP 11 a, GRU 22 §2). ``vaccinate_at_ccz``: no rabies proof now,
    the shot is given at the CCZ and the registration waits for it (BJP 6 §ú; GRU 15 V).
    ``charge_fee=False`` skips the fee (the adoption domain: the animal is delivered registered,
    VV 12 §3, GRU 88 §2). ``guard_resubmission`` (the web wizard): a second submission of the same
    form — a double tap on "Confirmar", a retried request — raises :class:`AlreadyRegistered` with
    the animal the first one created, instead of issuing a second RGA for the same animal.
    """

    owner: User
    data: AnimalData
    vaccination: VaccinationData | None
    registered_by: User | None
    profile: Profile
    today: date
    vaccinate_at_ccz: bool = False
    api_client: ApiClient | None = None
    charge_fee: bool = True
    guard_resubmission: bool = False


def register_animal(request: RegistrationRequest) -> Animal:
    """Register a dog or cat to ``request.owner`` and issue its RGA number.

    Rules, in order: required fields; duplicate microchip; age window (late registrations are
    flagged: BJP 2 §2, GRU 14 §3, VV 12 §6); household limit at the owner's residence (GRU 37;
    BJP 17);
    rabies proof, or ``vaccinate_at_ccz`` which leaves the registration *pending* until staff
    record the shot (BJP 6 §ú; GRU 15 V); then the number (:func:`issue_rga`) and, when the
    profile charges for it, a pending payment item of kind "registration" (BJP 11 a; GRU 22 I).

    The owner's address must be complete: it is the residence the animal is counted at.
    Raises AnimalError / AnimalErrors / HouseholdLimitExceeded. Flushes; the caller commits.
    """
    _check_registrable(request)
    age = _check_age(request)
    key = _check_residence(request)
    status = _initial_status(request)
    animal = _new_animal(request, status=status, late=age.late, residence_key=key)
    fee = _charge_registration(request, animal)
    # The number is valid now, the RGA provisional until paid and its proof checked (provisional.py)
    provisional.start(
        animal,
        fee=fee,
        vaccinated=request.vaccination is not None,
        api_client=request.api_client,
        registered_by=request.registered_by,
    )
    db.session.flush()
    if request.api_client is not None:
        # Who registered through the API is recorded here, so every caller gets it exactly once
        audit.record(
            "animal.registered_by_api",
            animal,
            detail={"rga": animal.rga, "api_client_id": request.api_client.id},
        )
    return animal


def _check_registrable(request: RegistrationRequest) -> None:
    """The fields, then a repeated submission, the microchip and what enforcement recorded."""
    data, vaccination = request.data, request.vaccination
    problems = validate_animal_data(data)
    if vaccination is not None:
        problems += validate_vaccination(
            vaccination, birth_date=data.birth_date, today=request.today
        )
    if problems:
        raise AnimalErrors(problems)
    if request.guard_resubmission:
        _refuse_resubmission(request.owner, data)
    check_microchip_free(data.microchip)
    _check_consequences(request.owner, data)


def _check_age(request: RegistrationRequest) -> AgeCheck:
    """The age window; an establishment registers at the sale (BJP 2 §2, GRU 14 §3, VV 12 §6)."""
    assert request.data.birth_date is not None  # validate_animal_data
    client = request.api_client
    at_purchase = client is not None and client.kind == "establishment"
    return check_age(
        request.profile, request.data.birth_date, request.today, at_purchase=at_purchase
    )


def _check_residence(request: RegistrationRequest) -> str:
    """The residence the animal is counted at, and its household limit (GRU 37; BJP 17)."""
    profile, owner, today = request.profile, request.owner, request.today
    key = owner_residence_key(owner)
    if key is None:
        raise AnimalError(
            "owner.address",
            "required",
            _("Informe o endereço completo (CEP, logradouro e número) de onde o animal vai morar."),
        )
    assert request.data.birth_date is not None  # validate_animal_data
    # Only animals older than the threshold count (GRU 37 "idade superior a 120 dias").
    extra = 1 if counts_for_household(request.data.birth_date, today, profile) else 0
    check_household_limit(profile, owner, extra=extra, on=today)
    return key


def _initial_status(request: RegistrationRequest) -> AnimalStatus:
    """Active with a current rabies proof; pending when the CCZ gives the shot (BJP 6 §ú)."""
    profile = request.profile
    if request.vaccination is not None:
        check_vaccination_current(profile, request.vaccination, request.today)
    elif request.vaccinate_at_ccz:
        return AnimalStatus.PENDING  # BJP 6 §ú: vaccinated at the CCZ, then activated
    elif rabies_required(profile):
        raise AnimalError(
            "rabies_vaccination",
            "missing_vaccination",
            _(
                "Informe a vacinação antirrábica em dia ou escolha vacinar no CCZ (%(article)s).",
                article=profile.registration.cite("rabies_proof_required"),
            ),
        )
    return AnimalStatus.ACTIVE


def _new_animal(
    request: RegistrationRequest, *, status: AnimalStatus, late: bool, residence_key: str
) -> Animal:
    data, client, today = request.data, request.api_client, request.today
    animal = Animal(
        # GRU 14 §4; BJP 4: one number per animal, for life
        rga=issue_rga(data.species, today),
        species=data.species,
        name=data.name,
        sex=data.sex,
        breed=data.breed,
        color=data.color,
        birth_date=data.birth_date,
        birth_date_estimated=data.birth_date_estimated,
        size=data.size,
        weight_grams=data.weight_grams,
        sterilized=data.sterilized,
        microchip=data.microchip,
        photo=data.photo,
        status=status,
        registered_on=today,
        late_registration=late,
        activated_at=utcnow() if status == AnimalStatus.ACTIVE else None,
        owner=request.owner,
        residence_key=residence_key,
        registered_by=request.registered_by,
        api_client_id=client.id if client else None,
    )
    db.session.add(animal)
    if request.vaccination is not None:
        _add_vaccination(
            animal,
            request.vaccination,
            recorded_by=request.registered_by,
            api_client=client,
            at_ccz=False,
        )
    db.session.flush()
    return animal


def _charge_registration(request: RegistrationRequest, animal: Animal) -> PaymentItem | None:
    """The registration fee, when the profile charges one (BJP 11 a; GRU 22 I)."""
    profile, client = request.profile, request.api_client
    if not (request.charge_fee and profile.registration.fee):
        return None
    amount = price_cents(profile, "registration", request.today)
    if amount is None:
        return None
    from portal.blueprints.billing.services import create_payment_item

    # BJP 11 a; GRU 22 I, §2: the establishment pays for registrations it makes (its web
    # account, when it has one, sees the item; the owner does not)
    return create_payment_item(
        kind="registration",
        amount_cents=amount,
        description=_(
            "Registro do animal %(name)s (RGA %(rga)s)", name=animal.name, rga=animal.rga
        ),
        payer=client.user if client is not None else request.owner,
        subject_type="animal",
        subject_id=animal.id,
        breakdown=[
            {
                "label": _("Registro Geral do Animal (RGA)"),
                "amount_cents": amount,
                "article": profile.prices["registration"].article,
            }
        ],
        api_client_id=client.id if client else None,
    )


RESUBMISSION_WINDOW = timedelta(minutes=10)


class AlreadyRegistered(AnimalError):
    """The same owner registered this very animal moments ago (a repeated submission)."""

    def __init__(self, animal: Animal) -> None:
        super().__init__(
            None,
            "already_registered",
            _("Este animal já foi registrado: RGA %(rga)s.", rga=animal.rga),
        )
        self.animal = animal


def _check_consequences(owner: User, data: AnimalData) -> None:
    """VV 23 V (no animal at all) and GRU 88 §4, VV 23 III b, BJP 30 §ú II, CABO 39 §4 (not that
    animal again): what the enforcement procedure recorded on the owner, read here."""
    refused = wiring().refusal_to_register(owner.cpf, data.microchip)  # enforcement
    if refused is not None:
        raise AnimalError("owner.cpf", "consequence", refused[1])


def _refuse_resubmission(owner: User, data: AnimalData) -> None:
    """Raise AlreadyRegistered when ``owner`` registered an animal with the same name, species and
    birth date in the last minutes. The owner is held first (:func:`portal.services.locks.hold`),
    so two simultaneous submissions run one after the other and the second one sees the first
    one's animal."""
    hold(f"owner:{owner.id}")
    since = utcnow() - RESUBMISSION_WINDOW
    earlier = db.session.scalars(
        select(Animal)
        .where(
            Animal.owner_id == owner.id,
            Animal.species == data.species,
            func.lower(Animal.name) == (data.name or "").lower(),
            Animal.birth_date == data.birth_date,
            Animal.status != AnimalStatus.CLOSED,
            Animal.registered_at >= since,
        )
        .order_by(Animal.id)
    ).first()
    if earlier is not None:
        raise AlreadyRegistered(earlier)


def register_animal_for_adoption(
    *,
    adopter: User,
    data: AnimalData,
    vaccination: VaccinationData | None,
    registered_by: User | None,
    profile: Profile,
    today: date,
    api_client: ApiClient | None = None,
) -> Animal:
    """Issue an RGA to the adopter of an animal that has none (delivered registered: VV 28 §1,
    GRU 88 §2). No registration fee: the adoption covers it (VV 12 §3). Without a
    vaccination the registration stays pending until staff record the shot.

    Same errors as :func:`register_animal` (household limit included)."""
    return register_animal(
        RegistrationRequest(
            owner=adopter,
            data=data,
            vaccination=vaccination,
            vaccinate_at_ccz=vaccination is None,
            registered_by=registered_by,
            api_client=api_client,
            profile=profile,
            today=today,
            charge_fee=False,
        )
    )


def renewal_due(animal: Animal, profile: Profile) -> date | None:
    """Where the law registers dogs and cats every year (CABO 19), the day a year after the
    registration; None elsewhere or for a closed RGA. CABO 19 §ú leaves the procedure to a decree,
    so the portal only shows the date; it does not expire the RGA."""
    if not profile.registration.yearly_renewal or animal.is_closed:
        return None
    return term_of_months_ends(animal.registered_on, 12)  # Código Civil art. 132 §3


def fees_of(animal: Animal) -> list[PaymentItem]:
    return list(
        db.session.scalars(
            select(PaymentItem)
            .where(PaymentItem.subject_type == "animal", PaymentItem.subject_id == animal.id)
            .order_by(PaymentItem.id)
        )
    )


# ---------------------------------------------------------------------------------------------
# Vaccination and activation (staff)
# ---------------------------------------------------------------------------------------------


def record_vaccination(
    animal: Animal,
    data: VaccinationData,
    *,
    recorded_by: User | None,
    at_ccz: bool,
    today: date,
    api_client: ApiClient | None = None,
) -> Vaccination:
    """Add a rabies vaccination (BJP 13 §1 fields). A pending registration becomes active when the
    shot is current (BJP 6 §ú). Raises AnimalErrors (fields "rabies_vaccination.*")."""
    if animal.is_closed:
        raise AnimalError(None, "invalid", _("Este RGA está encerrado (baixa)."))
    problems = validate_vaccination(data, birth_date=animal.birth_date, today=today)
    if problems:
        raise AnimalErrors(problems)
    vaccination = _add_vaccination(
        animal, data, recorded_by=recorded_by, api_client=api_client, at_ccz=at_ccz
    )
    is_current = vaccination_is_current(vaccination.applied_on, vaccination.next_due_on, today)
    if animal.status == AnimalStatus.PENDING and is_current:
        _activate(animal)
    db.session.flush()
    # Audited here, not in a view, so every way in (staff page, reclaim, hand-over) leaves a trail.
    detail: dict[str, object] = {"rga": animal.rga}
    if api_client is not None:
        detail["api_client_id"] = api_client.id
    audit.record(
        "animal.vaccinated",
        animal,
        detail=detail,
        actor_id=recorded_by.id if recorded_by is not None else None,
    )
    if is_current and (at_ccz or (api_client is not None and api_client.kind == "establishment")):
        provisional.vaccination_checked(animal, recorded_by)  # given or recorded by the CCZ itself
    return vaccination


def _activate(animal: Animal) -> None:
    animal.status = AnimalStatus.ACTIVE
    animal.activated_at = utcnow()


def approve_registration(
    animal: Animal, *, approved_by: User, profile: Profile, today: date
) -> None:
    """Staff activate a pending registration. Where the law asks for a rabies proof, a current
    vaccination must be on record (BJP 6; GRU 15 V). Raises AnimalError."""
    if animal.status != AnimalStatus.PENDING:
        raise AnimalError(None, "invalid", _("Este registro não está pendente."))
    if rabies_required(profile) and current_vaccination(animal, today) is None:
        raise AnimalError(
            "rabies_vaccination",
            "missing_vaccination",
            _(
                "Registre antes a vacinação antirrábica (%(article)s).",
                article=profile.registration.cite("rabies_proof_required"),
            ),
        )
    _activate(animal)
    db.session.flush()
    audit.record("animal.approved", animal, detail={"rga": animal.rga})
    provisional.vaccination_checked(animal, approved_by)  # staff checked the proof
