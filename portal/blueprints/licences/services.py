"""Excess-animal licences (issue 11; DOMAIN §4): the rules.

* **The household.** :func:`household_allowance` is what the one household check
  (``animals.services.check_household_limit``, used by registration on the web and through the
  clinic API, transfers, adoption eligibility and hand-over) asks about a residence. Without a valid
  licence the allowance is the profile's plain limit. A valid licence names its animals: the
  household keeps the plain limit plus the *named* animals above it still alive at the residence,
  never more than the licence's cap — so when a licensed animal above the limit dies, is lost or
  given away the allowance drops with it (GRU 37 §1 II; BJP 17 §5: "nunca poderão ser
  substituídos"). Where the profile says so, any new dog or cat while the licence is valid is
  refused, because it would cancel the licence (GRU 37 §1 III). An expired or cancelled licence
  puts the household back under the plain limit.
* **The request** lists every animal at the residence (the RGAs of every owner at that address,
  each confirmed) and may register the animals above the limit that could not be registered yet:
  their RGAs are issued by the animals domain's own ``register_animal`` and stay provisional until
  the licence is approved (:func:`rga_hold`). Rabies proofs, sterilisation proofs where the profile
  asks for them (GRU 37 §1 I), housing description and photos, and the number asked for (never
  above the profile's cap: GRU 37 §1, 10; BJP 17 §3, 15). BJP 17 §6 closed first requests 12
  months after the law's publication (``requests_accepted_until``).
* **The CCZ** assigns an agent, schedules and records the inspection, asks for more, and decides:
  approve with the cap and the animals covered (a lower number than asked after a technical report,
  BJP 17 §1), or refuse with a reason; it may cancel a licence with a reason. Cabeceira Grande's
  private kennel gets its yearly laudo through the same flow after the inspection (CAB 31 §2).
* **Validity.** A calendar year: the same date next year (a licence from 29 February ends on 28
  February, DOMAIN §10). The renewal is asked for inside the profile's window before expiry (GRU 37
  §1 V: 30 days); decided before expiry it starts the day after the old one ends, decided after it
  starts on the decision day.

Functions take model objects and values, flush (never commit), audit, e-mail, and raise
:class:`LicenceError`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import IO

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import func, select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    ExcessLicence,
    LicenceAnimal,
    LicenceEvent,
    LicenceFile,
    LicenceInspection,
    LicenceStatus,
    User,
)
from portal.models.base import utcnow
from portal.models.licence import OPEN_STATUSES
from portal.profiles.schema import LicenceRule, Profile
from portal.services import audit
from portal.services.dates import add_months
from portal.services.mail import send_email
from portal.urls import absolute_url

COUNTED = (AnimalStatus.ACTIVE, AnimalStatus.PENDING)
SPECIES = ("dog", "cat")
CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"  # no 0/O, 1/I: read aloud and typed by hand


class LicenceError(DomainError):
    pass


def rule_of(profile: Profile) -> LicenceRule:
    """The profile's licence rule. CABO (forbidden above the limit) and VV (no limit) have none."""
    if profile.licence is None:
        raise LicenceError(
            None, "not_in_profile", _("A lei deste município não prevê licença para mais animais.")
        )
    return profile.licence


def new_code() -> str:
    """A public code: 12 random characters (60 bits), grouped to be read aloud."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def normalise_code(text: str) -> str:
    raw = "".join(ch for ch in (text or "").upper() if ch.isalnum())
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}" if len(raw) == 12 else raw


def document_name(profile: Profile) -> str:
    rule = profile.licence
    if rule is not None and rule.document == "kennel_laudo":
        return _("laudo de canil particular")
    return _("licença especial")


# ---------------------------------------------------------------------------------------------
# Terms
# ---------------------------------------------------------------------------------------------


def term_end(valid_from: date, rule: LicenceRule) -> date:
    """GRU 37 §1 IV; CAB 31 §2: one year is the same date next year (29 Feb -> 28 Feb)."""
    return add_months(valid_from, rule.validity_months)


def is_valid(licence: ExcessLicence, on: date) -> bool:
    return (
        licence.status == LicenceStatus.APPROVED
        and licence.valid_from is not None
        and licence.valid_until is not None
        and licence.valid_from <= on <= licence.valid_until
    )


def public_status(licence: ExcessLicence, on: date) -> str | None:
    """``valid``, ``expired`` or ``cancelled``; None for a request never approved (not public).
    A licence approved to start later (a renewal decided early) is reported valid from its day."""
    if licence.status == LicenceStatus.CANCELLED:
        return "cancelled"
    if licence.status != LicenceStatus.APPROVED or licence.valid_until is None:
        return None
    return "expired" if on > licence.valid_until else "valid"


def status_label(licence: ExcessLicence, on: date) -> str:
    if licence.status == LicenceStatus.APPROVED:
        assert licence.valid_from is not None and licence.valid_until is not None
        if on < licence.valid_from:
            return _(
                "Aprovada (vale a partir de %(day)s)", day=licence.valid_from.strftime("%d/%m/%Y")
            )
        return _("Válida") if on <= licence.valid_until else _("Vencida")
    labels: dict[str, str] = {
        LicenceStatus.REQUESTED: _("Em análise no CCZ"),
        LicenceStatus.INFO_REQUESTED: _("Aguardando sua resposta"),
        LicenceStatus.REFUSED: _("Recusada"),
        LicenceStatus.CANCELLED: _("Cancelada"),
        LicenceStatus.WITHDRAWN: _("Desistência"),
    }
    return labels.get(licence.status, licence.status)


def event_label(action: str) -> str:
    return {
        "requested": _("Pedido enviado"),
        "renewal_requested": _("Renovação pedida"),
        "assigned": _("Agente designado"),
        "inspection_scheduled": _("Vistoria agendada"),
        "inspected": _("Vistoria registrada"),
        "info_requested": _("CCZ pediu mais informações"),
        "info_answered": _("Resposta enviada"),
        "approved": _("Aprovada"),
        "refused": _("Recusada"),
        "cancelled": _("Cancelada"),
    }.get(action, action)


@dataclass(frozen=True)
class RenewalWindow:
    opens: date
    closes: date

    def contains(self, day: date) -> bool:
        return self.opens <= day <= self.closes


def renewal_window(licence: ExcessLicence, profile: Profile) -> RenewalWindow | None:
    """GRU 37 §1 V: the renewal is asked for within the 30 days before the licence expires."""
    rule = profile.licence
    if (
        rule is None
        or licence.status != LicenceStatus.APPROVED
        or licence.valid_until is None
        or rule.renewal_window_days is None
    ):
        return None
    opens = licence.valid_until - timedelta(days=rule.renewal_window_days)
    return RenewalWindow(opens, licence.valid_until)


def renewal_of(licence: ExcessLicence) -> ExcessLicence | None:
    """The renewal asked for (or granted) from this licence, if any (not refused nor withdrawn)."""
    return db.session.scalar(
        select(ExcessLicence)
        .where(
            ExcessLicence.renews_id == licence.id,
            ExcessLicence.status.not_in([LicenceStatus.REFUSED, LicenceStatus.WITHDRAWN]),
        )
        .order_by(ExcessLicence.id.desc())
    )


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


@dataclass(frozen=True)
class Allowance:
    """How many counted dogs and cats a residence may keep on a day, and why."""

    limit: int
    licence: ExcessLicence | None = None
    inside_request: bool = False  # a licence request is registering its animals: it checks


def household_allowance(profile: Profile, residence_key: str, on: date) -> Allowance | None:
    """The allowance of a residence; None where the law sets no limit (VV 2)."""
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
    """Every dog and cat living at the residence, whoever owns it (DOMAIN §4)."""
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

    Called by ``animals.provisional`` (issue 8's provisional RGA): the animal is above the plain
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
# The citizen's request
# ---------------------------------------------------------------------------------------------


@dataclass
class Upload:
    stream: IO[bytes]
    filename: str | None


@dataclass
class ListedAnimal:
    """An animal already registered at the residence, as the citizen confirms it."""

    animal_id: int
    confirmed: bool
    rabies_proof: Upload | None = None
    sterilisation_proof: Upload | None = None


@dataclass
class NewAnimal:
    """An animal above the limit, registered inside the request (its RGA waits for the licence)."""

    data: object  # animals.services.AnimalData
    vaccination: object | None  # animals.services.VaccinationData
    vaccinate_at_ccz: bool = False
    sterilisation_proof: Upload | None = None


@dataclass
class RequestData:
    animals_requested: int
    housing_description: str
    listed: list[ListedAnimal] = field(default_factory=list)
    new: list[NewAnimal] = field(default_factory=list)
    photos: list[Upload] = field(default_factory=list)


def open_request(residence_key: str) -> ExcessLicence | None:
    return db.session.scalar(
        select(ExcessLicence).where(
            ExcessLicence.residence_key == residence_key,
            ExcessLicence.status.in_([s.value for s in OPEN_STATUSES]),
        )
    )


def _event(
    licence: ExcessLicence,
    action: str,
    actor: User | None,
    note: str | None = None,
    **detail: object,
) -> None:
    licence.events.append(
        LicenceEvent(
            action=action, note=note, detail=detail or None, actor_id=actor.id if actor else None
        )
    )


def _store_proof(upload: Upload | None, owner: User, purpose: str):  # type: ignore[no-untyped-def]
    from portal.services.uploads import UploadError, store_document

    if upload is None:
        return None
    try:
        return store_document(
            upload.stream, purpose=purpose, owner_id=owner.id, filename=upload.filename
        )
    except UploadError as err:
        raise LicenceError(None, "invalid_upload", str(err)) from None


def _residence(user: User) -> str:
    from portal.blueprints.animals.services import owner_residence_key

    key = owner_residence_key(user)
    if key is None:
        raise LicenceError(
            "address",
            "required",
            _(
                "Complete o seu endereço (CEP, logradouro e número) no seu cadastro: a licença é da "
                "residência."
            ),
        )
    return key


def request_licence(
    user: User,
    data: RequestData,
    *,
    profile: Profile,
    today: date,
    renews: ExcessLicence | None = None,
) -> ExcessLicence:
    """A household asks for the licence (GRU 37 §1 I; BJP 17 §3-4; CAB 31 §2), or its renewal.

    Raises LicenceError (or the animals domain's AnimalError for an animal registered inside)."""
    from portal.blueprints.animals import services as animals

    rule = rule_of(profile)
    household = profile.household
    key = _residence(user)
    assert household.limit is not None  # a profile with a licence has a limit
    if (user.housing_type or "house") in household.excluded_housing:
        raise LicenceError(
            None,
            "not_applicable",
            _(
                "O limite de animais não vale para o seu tipo de moradia (%(article)s): não é "
                "preciso pedir licença.",
                article=household.cite("excluded_housing"),
            ),
        )
    if (
        renews is None
        and rule.requests_accepted_until is not None
        and today > rule.requests_accepted_until
    ):
        # BJP 17 §6: 12 months from the publication; after that everyone fits the limit
        raise LicenceError(
            None,
            "requests_closed",
            _(
                "O prazo para pedir a licença terminou em %(day)s (%(article)s). Depois dele, todos "
                "os proprietários devem se enquadrar no limite de %(limit)d animais.",
                day=rule.requests_accepted_until.strftime("%d/%m/%Y"),
                article=rule.cite("requests_accepted_until"),
                limit=household.limit,
            ),
        )
    if open_request(key) is not None:
        raise LicenceError(
            None,
            "already_requested",
            _("Já existe um pedido de licença em análise para esta residência."),
        )
    if renews is not None:
        window = renewal_window(renews, profile)
        if renews.holder_id != user.id or window is None:
            raise LicenceError(None, "not_renewable", _("Esta licença não pode ser renovada."))
        if not window.contains(today):
            raise LicenceError(
                None,
                "outside_renewal_window",
                _(
                    "A renovação só pode ser pedida de %(start)s a %(end)s (%(article)s).",
                    start=window.opens.strftime("%d/%m/%Y"),
                    end=window.closes.strftime("%d/%m/%Y"),
                    article=rule.cite("renewal_window_days"),
                ),
            )
        if renewal_of(renews) is not None:
            raise LicenceError(None, "already_requested", _("A renovação já foi pedida."))
        if data.new:
            raise LicenceError(
                None,
                "no_new_on_renewal",
                _(
                    "A renovação cobre os animais da licença atual; novos animais não podem ser "
                    "incluídos."
                ),
            )
    else:
        current = valid_licence(key, today)
        if current is not None:
            raise LicenceError(
                None,
                "already_licensed",
                _(
                    "Esta residência já tem licença válida até %(day)s. Peça a renovação no prazo.",
                    day=current.valid_until.strftime("%d/%m/%Y"),
                ),
            )  # type: ignore[union-attr]

    problems: list[LicenceError] = []
    at_home = {a.id: a for a in residence_animals(key)}
    listed = {item.animal_id: item for item in data.listed}
    for animal_id, animal in at_home.items():
        item = listed.get(animal_id)
        if item is None or not item.confirmed:
            # GRU 37 §1 I; BJP 17 §4: the RGA numbers of all the animals
            problems.append(
                LicenceError(
                    f"animal-{animal_id}",
                    "not_confirmed",
                    _(
                        "Confirme que %(name)s (RGA %(rga)s) vive na residência. Se o animal morreu ou foi "
                        'doado, comunique isso em "Meus animais" antes de pedir a licença.',
                        name=animal.name,
                        rga=animal.rga,
                    ),
                )
            )
    needs_rabies = "rabies_proofs" in rule.requires
    needs_sterilisation = "sterilisation_proofs" in rule.requires
    for animal_id, item in listed.items():
        pet = at_home.get(animal_id)
        if pet is None:
            problems.append(
                LicenceError(
                    None,
                    "not_at_residence",
                    _("Um dos animais informados não está registrado neste endereço."),
                )
            )
            continue
        if (
            needs_rabies
            and item.rabies_proof is None
            and animals.current_vaccination(pet, today) is None
        ):
            problems.append(
                LicenceError(
                    f"animal-{animal_id}",
                    "rabies_proof",
                    _(
                        "Envie o comprovante de vacinação antirrábica de %(name)s: não há vacina em dia "
                        "no registro (%(article)s).",
                        name=pet.name,
                        article=rule.cite("requires"),
                    ),
                )
            )
        if needs_sterilisation and item.sterilisation_proof is None:
            problems.append(
                LicenceError(
                    f"animal-{animal_id}",
                    "sterilisation_proof",
                    _(
                        "Envie o comprovante de esterilização de %(name)s (%(article)s).",
                        name=pet.name,
                        article=rule.cite("requires"),
                    ),
                )
            )
    for index, new in enumerate(data.new):
        if needs_sterilisation and new.sterilisation_proof is None:
            problems.append(
                LicenceError(
                    f"new-{index}",
                    "sterilisation_proof",
                    _(
                        "Envie o comprovante de esterilização do novo animal %(n)d (%(article)s).",
                        n=index + 1,
                        article=rule.cite("requires"),
                    ),
                )
            )
    description = " ".join((data.housing_description or "").split())
    if "housing_description" in rule.requires or "inspection" in rule.requires:
        if len(description) < 20:
            problems.append(
                LicenceError(
                    "housing_description",
                    "required",
                    _(
                        "Descreva o alojamento e os cuidados com os animais (espaço, abrigo, limpeza, "
                        "alimentação) em pelo menos 20 caracteres."
                    ),
                )
            )
    total = len(at_home) + len(data.new)
    if data.animals_requested <= household.limit:
        problems.append(
            LicenceError(
                "animals_requested",
                "not_above_limit",
                _(
                    "A licença é para mais de %(limit)d animais (%(article)s); até esse número não é "
                    "preciso pedir.",
                    limit=household.limit,
                    article=household.article,
                ),
            )
        )
    if rule.max_animals is not None and data.animals_requested > rule.max_animals:
        problems.append(
            LicenceError(
                "animals_requested",
                "above_cap",
                _(
                    "A licença permite no máximo %(max)d animais (%(article)s).",
                    max=rule.max_animals,
                    article=rule.cite("max_animals"),
                ),
            )
        )
    if total > data.animals_requested:
        problems.append(
            LicenceError(
                "animals_requested",
                "fewer_than_listed",
                _(
                    "A residência tem %(total)d animais na lista: peça ao menos esse número.",
                    total=total,
                ),
            )
        )
    if problems:
        raise LicenceErrors(problems)

    licence = ExcessLicence(
        code=new_code(),
        kind="kennel" if rule.document == "kennel_laudo" else "licence",
        holder_id=user.id,
        residence_key=key,
        address_line=user.address_line,
        animals_requested=data.animals_requested,
        housing_description=description,
        requested_on=today,
        renews_id=renews.id if renews else None,
    )
    db.session.add(licence)
    db.session.flush()
    for animal_id, item in listed.items():
        animal = at_home[animal_id]
        licence.animals.append(
            LicenceAnimal(
                animal_id=animal.id,
                rabies_on_record=animals.current_vaccination(animal, today) is not None,
                rabies_proof=_store_proof(item.rabies_proof, user, "licence_proof"),
                sterilisation_proof=_store_proof(item.sterilisation_proof, user, "licence_proof"),
            )
        )
    with registering_inside_request(key):
        for index, new in enumerate(data.new):
            try:
                animal = animals.register_animal(
                    owner=user,
                    data=new.data,
                    vaccination=new.vaccination,  # type: ignore[arg-type]
                    vaccinate_at_ccz=new.vaccinate_at_ccz,
                    registered_by=user,
                    api_client=None,
                    profile=profile,
                    today=today,
                )
            except animals.AnimalError as err:
                raise LicenceErrors(
                    [
                        LicenceError(
                            f"new-{index}",
                            e.code,
                            _("Novo animal %(n)d: %(message)s", n=index + 1, message=e.message),
                        )
                        for e in err.errors
                    ]
                ) from None
            if not animal.provisional:  # the licence decides: definitive only if approved
                animal.provisional = True
                animal.definitive_at = None
            licence.animals.append(
                LicenceAnimal(
                    animal_id=animal.id,
                    registered_inside=True,
                    rabies_on_record=new.vaccination is not None,
                    sterilisation_proof=_store_proof(
                        new.sterilisation_proof, user, "licence_proof"
                    ),
                )
            )
    for photo in data.photos:
        from portal.services.uploads import UploadError, store_image

        try:
            stored = store_image(
                photo.stream,
                purpose="licence_photo",
                owner_id=user.id,
                public=False,
                filename=photo.filename,
            )
        except UploadError as err:
            raise LicenceError("photos", "invalid_upload", str(err)) from None
        licence.files.append(LicenceFile(stored_file_id=stored.id, kind="housing"))
    _charge(licence, user, profile, today)
    db.session.flush()
    action = "renewal_requested" if renews else "requested"
    _event(licence, action, user, animals=total, asked=data.animals_requested)
    if renews is None:
        audit.record("licence.requested", licence, detail={"asked": data.animals_requested})
    else:
        audit.record("licence.renewal_requested", licence, detail={"renews": renews.id})
    _notify(
        licence,
        _("Pedido de %(doc)s recebido", doc=document_name(profile)),
        _(
            "Recebemos o seu pedido nº %(id)d para manter %(n)d cães e gatos em %(address)s. O CCZ "
            "vai analisar e agendar a vistoria; avisaremos a cada passo.",
            id=licence.id,
            n=data.animals_requested,
            address=licence.address_line,
        ),
    )
    return licence


class LicenceErrors(LicenceError):
    """Several problems found at once (the form shows each next to its animal or field)."""

    def __init__(self, errors: list[LicenceError]) -> None:
        super().__init__(errors[0].field, errors[0].code, errors[0].message)
        self.errors = errors


def _charge(licence: ExcessLicence, payer: User, profile: Profile, today: date) -> None:
    """The fee, where the city's price list has one (GRU 22; BJP 11 leave prices to the city)."""
    if "licence" not in profile.prices:
        return
    from portal.blueprints.billing.services import create_item_for_fee
    from portal.services.fees import compute_fee

    fee = compute_fee(profile, "licence", {}, today)
    item = create_item_for_fee(
        fee,
        description=_(
            "Licença especial para animais acima do limite (pedido nº %(id)d)", id=licence.id
        ),
        payer=payer,
        subject_type="excess_licence",
        subject_id=licence.id,
    )
    licence.fee_item_id = item.id


def answer_info(
    licence: ExcessLicence, user: User, answer: str, photos: Sequence[Upload] = ()
) -> None:
    """The citizen answers the CCZ's request for more information."""
    if licence.holder_id != user.id:
        raise LicenceError(None, "not_allowed", _("Este pedido não é seu."))
    if licence.status != LicenceStatus.INFO_REQUESTED:
        raise LicenceError(
            None, "not_waiting", _("O CCZ não está aguardando resposta neste pedido.")
        )
    answer = (answer or "").strip()
    if not answer:
        raise LicenceError("answer", "required", _("Escreva a sua resposta."))
    from portal.services.uploads import UploadError, store_document

    for photo in photos:
        try:
            stored = store_document(
                photo.stream, purpose="licence_proof", owner_id=user.id, filename=photo.filename
            )
        except UploadError as err:
            raise LicenceError("files", "invalid_upload", str(err)) from None
        licence.files.append(LicenceFile(stored_file_id=stored.id, kind="answer"))
    licence.info_answer = answer[:4000]
    licence.status = LicenceStatus.REQUESTED
    db.session.flush()
    _event(licence, "info_answered", user, note=answer[:4000])
    audit.record("licence.info_answered", licence)


# ---------------------------------------------------------------------------------------------
# The CCZ
# ---------------------------------------------------------------------------------------------


def _must_be_open(licence: ExcessLicence) -> None:
    if licence.status not in OPEN_STATUSES:
        raise LicenceError(None, "not_open", _("Este pedido já foi decidido."))


def assign(licence: ExcessLicence, agent: User, staff: User) -> None:
    _must_be_open(licence)
    if not agent.has_role("agent", "vet", "coordinator"):
        raise LicenceError("agent_id", "not_agent", _("Escolha um agente sanitário."))
    licence.assigned_agent_id = agent.id
    db.session.flush()
    _event(licence, "assigned", staff, agent=agent.full_name)
    audit.record("licence.assigned", licence, detail={"agent_id": agent.id})


def schedule_inspection(
    licence: ExcessLicence, agent: User, day: date, staff: User, *, today: date
) -> LicenceInspection:
    _must_be_open(licence)
    if day < today:
        raise LicenceError("scheduled_for", "past_date", _("Agende para hoje ou uma data futura."))
    if not agent.has_role("agent", "vet", "coordinator"):
        raise LicenceError("agent_id", "not_agent", _("Escolha um agente sanitário."))
    inspection = LicenceInspection(agent_id=agent.id, scheduled_for=day)
    licence.inspections.append(inspection)
    licence.assigned_agent_id = agent.id
    db.session.flush()
    _event(licence, "inspection_scheduled", staff, day=day.isoformat(), agent=agent.full_name)
    audit.record("licence.inspection_scheduled", licence, detail={"day": day.isoformat()})
    _notify(
        licence,
        _("Vistoria agendada"),
        _(
            "A vistoria da residência para o pedido nº %(id)d foi agendada para %(day)s.",
            id=licence.id,
            day=day.strftime("%d/%m/%Y"),
        ),
    )
    return inspection


def record_inspection(
    licence: ExcessLicence,
    agent: User,
    *,
    inspected_on: date,
    checklist: dict[str, bool],
    findings: str,
    satisfactory: bool,
    profile: Profile,
    today: date,
    photos: Sequence[Upload] = (),
) -> LicenceInspection:
    """The agent's visit (BJP 17 §1: number and size of the animals, care, space, hygiene)."""
    rule = rule_of(profile)
    if licence.status not in OPEN_STATUSES:
        raise LicenceError(None, "not_open", _("Este pedido já foi decidido."))
    if inspected_on > today:
        raise LicenceError(
            "inspected_on", "future_date", _("A data da vistoria não pode ser no futuro.")
        )
    findings = (findings or "").strip()
    if not findings:
        raise LicenceError("findings", "required", _("Descreva o que foi verificado."))
    known = {item.code for item in rule.checklist}
    inspection = next((i for i in reversed(licence.inspections) if i.inspected_on is None), None)
    if inspection is None:
        inspection = LicenceInspection(agent_id=agent.id, scheduled_for=inspected_on)
        licence.inspections.append(inspection)
    inspection.agent_id = agent.id
    inspection.inspected_on = inspected_on
    inspection.checklist = {code: bool(checklist.get(code)) for code in known}
    inspection.findings = findings[:4000]
    inspection.satisfactory = satisfactory
    inspection.recorded_at = utcnow()
    db.session.flush()
    from portal.services.uploads import UploadError, store_image

    for photo in photos:
        try:
            stored = store_image(
                photo.stream,
                purpose="licence_photo",
                owner_id=None,
                public=False,
                filename=photo.filename,
            )
        except UploadError as err:
            raise LicenceError("photos", "invalid_upload", str(err)) from None
        licence.files.append(
            LicenceFile(stored_file_id=stored.id, kind="inspection", inspection_id=inspection.id)
        )
    db.session.flush()
    _event(
        licence,
        "inspected",
        agent,
        satisfactory=satisfactory,
        inspected_on=inspected_on.isoformat(),
    )
    audit.record("licence.inspected", licence, detail={"satisfactory": satisfactory})
    _notify(
        licence,
        _("Vistoria realizada"),
        _(
            "O CCZ realizou a vistoria da residência em %(day)s para o pedido nº %(id)d. Agora o "
            "pedido segue para a decisão.",
            day=inspected_on.strftime("%d/%m/%Y"),
            id=licence.id,
        ),
    )
    return inspection


def ask_info(licence: ExcessLicence, staff: User, question: str) -> None:
    _must_be_open(licence)
    question = (question or "").strip()
    if not question:
        raise LicenceError("question", "required", _("Escreva o que o cidadão deve informar."))
    licence.info_request = question[:4000]
    licence.info_answer = None
    licence.status = LicenceStatus.INFO_REQUESTED
    db.session.flush()
    _event(licence, "info_requested", staff, note=question[:4000])
    audit.record("licence.info_requested", licence)
    _notify(
        licence,
        _("O CCZ precisa de mais informações"),
        _(
            "Sobre o seu pedido nº %(id)d, o CCZ pede:\n\n%(question)s\n\nResponda no portal.",
            id=licence.id,
            question=question,
        ),
    )


def approve(
    licence: ExcessLicence,
    staff: User,
    *,
    max_animals: int,
    covered_ids: Sequence[int] | None,
    reason: str | None,
    profile: Profile,
    today: date,
) -> None:
    """Approve with the cap and the animals covered; a lower number than asked needs the
    technical report's reason (BJP 17 §1). A renewal decided before the old licence ends starts
    the day after it; decided later, on the decision day."""
    rule = rule_of(profile)
    _must_be_open(licence)
    household = profile.household
    assert household.limit is not None
    inspected = [i for i in licence.inspections if i.inspected_on is not None]
    if ("inspection" in rule.requires or rule.document == "kennel_laudo") and not any(
        i.satisfactory for i in inspected
    ):
        # CAB 31 §2: the kennel works only after the agent's technical inspection
        raise LicenceError(
            None,
            "inspection_required",
            _(
                "Registre uma vistoria satisfatória antes de aprovar (%(article)s).",
                article=rule.article,
            ),
        )
    if max_animals <= household.limit:
        raise LicenceError(
            "max_animals",
            "not_above_limit",
            _(
                "Para até %(limit)d animais não é preciso licença: recuse o pedido explicando.",
                limit=household.limit,
            ),
        )
    if rule.max_animals is not None and max_animals > rule.max_animals:
        raise LicenceError(
            "max_animals",
            "above_cap",
            _(
                "A lei permite no máximo %(max)d animais (%(article)s).",
                max=rule.max_animals,
                article=rule.cite("max_animals"),
            ),
        )
    if max_animals > licence.animals_requested:
        raise LicenceError(
            "max_animals",
            "above_requested",
            _("O número aprovado não pode passar do pedido (%(n)d).", n=licence.animals_requested),
        )
    reason = (reason or "").strip() or None
    if max_animals < licence.animals_requested:
        if not inspected:
            # BJP 17 §1: the number is reduced on the agent's technical report
            raise LicenceError(
                "max_animals",
                "report_required",
                _(
                    "Para aprovar um número menor que o pedido, registre antes a vistoria (laudo "
                    "técnico)."
                ),
            )
        if reason is None:
            raise LicenceError(
                "reason", "required", _("Explique por que o número aprovado é menor que o pedido.")
            )
    by_id = {link.id: link for link in licence.animals}
    chosen = set(by_id) if covered_ids is None else set(covered_ids)
    if not chosen <= set(by_id):
        raise LicenceError("covered", "invalid", _("Escolha animais da lista do pedido."))
    if len(chosen) > max_animals:
        raise LicenceError(
            "covered",
            "too_many",
            _("Marque no máximo %(n)d animais para a licença.", n=max_animals),
        )
    start = today
    if (
        licence.renews is not None
        and licence.renews.valid_until is not None
        and licence.renews.valid_until >= today
    ):
        start = licence.renews.valid_until + timedelta(days=1)
    licence.status = LicenceStatus.APPROVED
    licence.max_animals = max_animals
    licence.reduction_reason = reason if max_animals < licence.animals_requested else None
    licence.valid_from = start
    licence.valid_until = term_end(start, rule)
    licence.decided_at = utcnow()
    licence.decided_on = today
    licence.decided_by_id = staff.id
    for link_id, link in by_id.items():
        link.covered = link_id in chosen
    db.session.flush()
    from portal.blueprints.animals import provisional
    from portal.models import ProofStatus

    for link in licence.animals:
        if link.registered_inside and link.covered:
            if link.animal.proof_status == ProofStatus.AWAITING:
                # GRU 37 §1 I; BJP 17 §4: the rabies proofs were part of the request the agent
                # decided on; the approval is the CCZ's check of them
                provisional.vaccination_checked(link.animal, staff)
            else:
                provisional.refresh(link.animal)
    _event(
        licence,
        "approved",
        staff,
        note=reason,
        max_animals=max_animals,
        valid_from=start.isoformat(),
        valid_until=licence.valid_until.isoformat(),
    )
    audit.record("licence.approved", licence, detail={"max_animals": max_animals})
    lower = ""
    if max_animals < licence.animals_requested:
        lower = "\n\n" + _("O número aprovado é menor que o pedido: %(reason)s", reason=reason)
    _notify(
        licence,
        _("%(doc)s aprovada", doc=document_name(profile).capitalize()),
        _(
            "O seu pedido nº %(id)d foi aprovado para até %(n)d cães e gatos, de %(start)s a "
            "%(end)s. Baixe o documento com o QR code de conferência no portal.",
            id=licence.id,
            n=max_animals,
            start=start.strftime("%d/%m/%Y"),
            end=licence.valid_until.strftime("%d/%m/%Y"),
        )
        + lower,
    )


def refuse(licence: ExcessLicence, staff: User, reason: str, *, today: date) -> None:
    _must_be_open(licence)
    reason = (reason or "").strip()
    if not reason:
        raise LicenceError("reason", "required", _("Explique o motivo da recusa."))
    licence.status = LicenceStatus.REFUSED
    licence.refusal_reason = reason[:4000]
    licence.decided_at = utcnow()
    licence.decided_on = today
    licence.decided_by_id = staff.id
    db.session.flush()
    _event(licence, "refused", staff, note=reason)
    audit.record("licence.refused", licence)
    _notify(
        licence,
        _("Pedido de licença recusado"),
        _(
            "O seu pedido nº %(id)d foi recusado. Motivo: %(reason)s\n\nA residência deve se "
            "enquadrar no limite de animais.",
            id=licence.id,
            reason=reason,
        ),
    )


def cancel(licence: ExcessLicence, staff: User, reason: str, *, today: date) -> None:
    """Cancel a licence with a reason (GRU 37 §1 III: a new acquisition; a finding at an
    inspection). The household goes back under the plain limit."""
    if licence.status != LicenceStatus.APPROVED:
        raise LicenceError(None, "not_approved", _("Só uma licença aprovada pode ser cancelada."))
    reason = (reason or "").strip()
    if not reason:
        raise LicenceError("reason", "required", _("Explique o motivo do cancelamento."))
    licence.status = LicenceStatus.CANCELLED
    licence.cancelled_at = utcnow()
    licence.cancelled_on = today
    licence.cancellation_reason = reason[:4000]
    db.session.flush()
    _event(licence, "cancelled", staff, note=reason)
    audit.record("licence.cancelled", licence)
    _notify(
        licence,
        _("Licença cancelada"),
        _(
            "A licença nº %(id)d foi cancelada pelo CCZ. Motivo: %(reason)s\n\nA residência volta "
            "ao limite comum de animais.",
            id=licence.id,
            reason=reason,
        ),
    )


def _notify(licence: ExcessLicence, subject: str, text: str) -> None:
    holder = licence.holder or db.session.get(User, licence.holder_id)
    if holder is None or not holder.email:
        return
    with force_locale("pt_BR"):
        send_email(
            holder.email,
            subject,
            _(
                'Olá, %(name)s.\n\n%(text)s\n\nAcompanhe em "Minhas licenças":\n%(link)s\n\n'
                "Centro de Controle de Zoonoses",
                name=holder.full_name.split()[0],
                text=text,
                link=absolute_url("licences.mine"),
            ),
        )


# ---------------------------------------------------------------------------------------------
# What staff watch
# ---------------------------------------------------------------------------------------------


def households_above_limit(profile: Profile, on: date):  # type: ignore[no-untyped-def]
    """A ``select`` of one animal per residence (the first registered) whose counted dogs and
    cats are above the plain limit and which holds no valid licence (DOMAIN §4: an expired,
    cancelled or refused licence puts it back under the limit)."""
    limit = profile.household.limit
    threshold = on - timedelta(days=profile.household.min_age_days)
    over = (
        select(func.min(Animal.id))
        .where(
            Animal.status.in_([s.value for s in COUNTED]),
            Animal.species.in_(SPECIES),
            Animal.birth_date < threshold,
        )
        .group_by(Animal.residence_key)
        .having(func.count(Animal.id) > (limit or 10**6))
    )
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


def find(term: str) -> list[ExcessLicence]:
    """Staff search: a licence's public code or its request number."""
    term = (term or "").strip()
    if term.isdigit():
        if len(term) > 9:  # a CPF or a phone number, never a request number (int4 on PostgreSQL)
            return []
        found = db.session.get(ExcessLicence, int(term))
        return [found] if found else []
    code = normalise_code(term)
    if len(code) != 14:
        return []
    found = db.session.scalar(select(ExcessLicence).where(ExcessLicence.code == code))
    return [found] if found else []
