"""Checks of what is typed for a registration, shared by the service, the web wizard's steps and the
API: required fields and allowed values, the age window (BJP 2 §2; GRU 14 §3; VV 12 §6), the rabies
vaccination (BJP 13 §1), a microchip already registered, a vaccine no longer current.

One check, one function: the wizard calls these at each step and :func:`register_animal` calls
them again at the end, so the same input gets the same message in both places.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.animals.common import (
    MAX_AGE_YEARS,
    SEXES,
    SIZES,
    SPECIES,
    AnimalData,
    AnimalError,
    VaccinationData,
    clean_text,
    normalise_crmv,
    normalise_microchip,
)
from portal.extensions import db
from portal.models import (
    Animal,
    Vaccination,
)
from portal.profiles.schema import Profile
from portal.services.clock import current_profile
from portal.services.dates import add_months

# ---------------------------------------------------------------------------------------------
# Age window (BJP 2 §2; GRU 14 §3; VV 12 §6)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AgeCheck:
    late: bool
    window: tuple[date, date] | None  # first and last day of the window, when the law has one


def check_age(
    profile: Profile, birth_date: date | None, today: date, *, at_purchase: bool = False
) -> AgeCheck:
    """Check a birth date against the registration window of the profile.

    The window "between the 3rd and the 6th month" runs from the day the animal completes
    ``window_start_months`` months to the day it completes ``window_end_months`` months. Older
    animals are registered late and flagged, never refused (BJP 2 §2; GRU 14 §3; VV 12 §6). Younger
    ones are refused, except when an establishment registers the animal at its sale
    (``at_purchase``: GRU 14 §1 makes the sale an exception to the window; VV 12 §7).

    Raises AnimalError(field "animal.birth_date", code "required" | "age").
    """
    if birth_date is None:
        raise AnimalError(
            "animal.birth_date", "required", _("Informe a data de nascimento (real ou aproximada).")
        )
    if birth_date > today:
        raise AnimalError(
            "animal.birth_date", "age", _("A data de nascimento não pode estar no futuro.")
        )
    if birth_date < add_months(today, -12 * MAX_AGE_YEARS):
        raise AnimalError(
            "animal.birth_date",
            "age",
            _(
                "Confira a data de nascimento: o animal teria mais de %(years)d anos.",
                years=MAX_AGE_YEARS,
            ),
        )
    rule = profile.registration
    if rule.window_start_months is None or rule.window_end_months is None:
        return AgeCheck(late=False, window=None)
    start = add_months(birth_date, rule.window_start_months)
    end = add_months(birth_date, rule.window_end_months)
    allow_young = at_purchase and rule.at_purchase
    if today < start and not allow_young:
        # BJP 2 §2; GRU 14 §3; VV 12 §6: registration starts in the 3rd month of age
        raise AnimalError(
            "animal.birth_date",
            "age",
            _(
                "O registro é feito a partir do %(months)dº mês de idade (%(article)s). "
                "Este animal poderá ser registrado a partir de %(day)s.",
                months=rule.window_start_months,
                article=rule.cite("window_start_months"),
                day=start.strftime("%d/%m/%Y"),
            ),
        )
    return AgeCheck(late=today > end, window=(start, end))


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


def validate_animal_data(data: AnimalData) -> list[AnimalError]:
    """Required fields and allowed values of the animal; every problem at once."""
    problems: list[AnimalError] = []
    data.name = clean_text(data.name) or ""
    data.breed = clean_text(data.breed)
    data.color = clean_text(data.color)
    data.microchip = normalise_microchip(data.microchip)
    required = _("Campo obrigatório.")
    if not data.name:
        problems.append(AnimalError("animal.name", "required", _("Informe o nome do animal.")))
    elif len(data.name) > 100:
        problems.append(AnimalError("animal.name", "invalid", _("Nome longo demais (máx. 100).")))
    if data.species not in SPECIES:
        problems.append(
            AnimalError(
                "animal.species",
                "required" if not data.species else "invalid",
                _("Escolha a espécie: cão ou gato."),
            )
        )
    if data.sex not in SEXES:
        problems.append(
            AnimalError(
                "animal.sex",
                "required" if not data.sex else "invalid",
                _("Escolha o sexo: macho ou fêmea."),
            )
        )
    if not data.breed:
        problems.append(
            AnimalError(
                "animal.breed", "required", _("Informe a raça (ou SRD, sem raça definida).")
            )
        )
    if not data.color:
        problems.append(AnimalError("animal.color", "required", required))
    if data.size not in SIZES:
        problems.append(
            AnimalError(
                "animal.size",
                "required" if not data.size else "invalid",
                _("Escolha o porte: pequeno, médio ou grande."),
            )
        )
    if data.weight_grams is not None and not 50 <= data.weight_grams <= 150_000:
        problems.append(
            AnimalError(
                "animal.weight_kg",
                "invalid",
                _("Peso fora do esperado: informe em quilos, ex.: 12,5."),
            )
        )
    if data.microchip and not (9 <= len(data.microchip) <= 15):
        problems.append(
            AnimalError(
                "animal.microchip",
                "invalid",
                _(
                    "Número do microchip inválido: são de 9 a 15 letras ou números "
                    "(em geral 15 dígitos)."
                ),
            )
        )
    if data.birth_date is None:
        problems.append(
            AnimalError(
                "animal.birth_date",
                "required",
                _("Informe a data de nascimento (real ou aproximada)."),
            )
        )
    return problems


def validate_vaccination(
    data: VaccinationData,
    *,
    birth_date: date | None,
    today: date,
    prefix: str = "rabies_vaccination",
) -> list[AnimalError]:
    """Fields of BJP 13 §1 present and consistent; fills in the next due date (yearly)."""
    problems: list[AnimalError] = []
    data.vaccine_name = clean_text(data.vaccine_name) or ""
    data.batch = clean_text(data.batch) or ""
    data.vet_name = clean_text(data.vet_name) or ""
    data.vet_crmv = normalise_crmv(data.vet_crmv)
    data.manufacturer = clean_text(data.manufacturer)
    data.establishment = clean_text(data.establishment)
    if data.applied_on is None:
        problems.append(
            AnimalError(f"{prefix}.date", "required", _("Informe a data da vacinação."))
        )
    elif data.applied_on > today:
        problems.append(
            AnimalError(
                f"{prefix}.date", "invalid", _("A data da vacinação não pode estar no futuro.")
            )
        )
    elif birth_date and birth_date <= today and data.applied_on < birth_date:
        problems.append(
            AnimalError(
                f"{prefix}.date", "invalid", _("A vacinação não pode ser anterior ao nascimento.")
            )
        )
    if not data.vaccine_name:
        problems.append(
            AnimalError(f"{prefix}.vaccine", "required", _("Informe o nome da vacina."))
        )
    if not data.batch:
        problems.append(
            AnimalError(f"{prefix}.batch", "required", _("Informe a partida (lote) da vacina."))
        )
    if not data.vet_name:
        problems.append(
            AnimalError(
                f"{prefix}.vet_name",
                "required",
                _("Informe o nome do(a) médico(a) veterinário(a)."),
            )
        )
    if not data.vet_crmv:
        problems.append(
            AnimalError(
                f"{prefix}.vet_crmv",
                "required",
                _("Informe o número do CRMV do(a) veterinário(a)."),
            )
        )
    elif not any(ch.isdigit() for ch in data.vet_crmv) or len(data.vet_crmv) > 40:
        problems.append(
            AnimalError(
                f"{prefix}.vet_crmv", "invalid", _("CRMV inválido: use o formato CRMV-SP 12345.")
            )
        )
    if data.manufactured_on and data.expires_on and data.expires_on < data.manufactured_on:
        problems.append(
            AnimalError(
                f"{prefix}.expires_on",
                "invalid",
                _("A validade não pode ser anterior à fabricação."),
            )
        )
    if data.applied_on and data.expires_on and data.expires_on < data.applied_on:
        problems.append(
            AnimalError(
                f"{prefix}.expires_on",
                "invalid",
                _("A vacina estava vencida na data da aplicação."),
            )
        )
    if data.applied_on and data.next_due_on and data.next_due_on <= data.applied_on:
        problems.append(
            AnimalError(
                f"{prefix}.next_due", "invalid", _("A revacinação deve ser depois da aplicação.")
            )
        )
    if data.applied_on and not problems and data.next_due_on is None:
        data.next_due_on = next_rabies_due(data.applied_on)
    return problems


def next_rabies_due(applied_on: date, profile: Profile | None = None) -> date:
    """When the next rabies shot is due if the vet gave no date: the law's interval (BJP 13,
    VV 52: yearly) or, where the law sets none, the programme's (``profile.programme``)."""
    months, _article = (profile or current_profile()).revaccination_months()
    return add_months(applied_on, months)


def vaccination_is_current(applied_on: date, next_due_on: date | None, today: date) -> bool:
    due = next_due_on or next_rabies_due(applied_on)
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


def check_microchip_free(microchip: str | None) -> None:
    """Refuse a microchip that another animal already carries (one chip, one animal). The wizard's
    first step and :func:`register_animal` both call this. Raises AnimalError
    ("animal.microchip", "duplicate_microchip")."""
    if microchip_taken(microchip):
        raise duplicate_microchip_error()


def duplicate_microchip_error() -> AnimalError:
    """The error for a microchip already registered (also when the database's unique index is what
    caught it, in a race between two registrations)."""
    return AnimalError(
        "animal.microchip",
        "duplicate_microchip",
        _("Este microchip já está registrado em outro animal."),
    )


def check_rabies_proof(profile: Profile, data: VaccinationData | None, has_proof: bool) -> None:
    """GRU 15 V; BJP 6: where the law asks for the rabies proof, an owner who says the animal is
    vaccinated sends the card or proof (a photo or PDF) for staff to check; typed data alone is
    not the proof. Choosing to vaccinate at the CCZ needs none. Raises AnimalError
    ("rabies_vaccination.proof", "missing_proof")."""
    if data is None or has_proof or not profile.registration.rabies_proof_required:
        return
    raise AnimalError(
        "rabies_vaccination.proof",
        "missing_proof",
        _(
            "Envie uma foto ou o PDF da carteira de vacinação (%(article)s), ou escolha vacinar "
            "no CCZ.",
            article=profile.registration.cite("rabies_proof_required"),
        ),
    )


def check_vaccination_current(profile: Profile, data: VaccinationData, today: date) -> None:
    """Where the law asks for a rabies proof (BJP 6; GRU 15 V) the vaccination given must still be
    current today: a vaccine past its revaccination date does not register the animal. The wizard's
    vaccination step and :func:`register_animal` both call this. Raises AnimalError
    ("rabies_vaccination.date", "missing_vaccination")."""
    if data.applied_on is None or not rabies_required(profile):
        return
    if not vaccination_is_current(data.applied_on, data.next_due_on, today):
        raise AnimalError(
            "rabies_vaccination.date",
            "missing_vaccination",
            _(
                "A vacina antirrábica informada está vencida. Vacine o animal ou escolha "
                "vacinar no CCZ (%(article)s).",
                article=profile.registration.cite("rabies_proof_required"),
            ),
        )
