"""The citizen's side: the request (GRU 37 §1 I; BJP 17 §3-4, §6; CAB 31 §2) or its renewal, its
fee, and the answer to the CCZ's questions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.licences.common import (
    LicenceError,
    LicenceErrors,
    Upload,
    document_name,
    new_code,
    notify_holder,
    record_event,
    rule_of,
)
from portal.blueprints.licences.household import (
    registering_inside_request,
    residence_animals,
    valid_licence,
)
from portal.blueprints.licences.terms import renewal_of, renewal_window
from portal.extensions import db
from portal.models import (
    Animal,
    ExcessLicence,
    LicenceAnimal,
    LicenceFile,
    LicenceStatus,
    StoredFile,
    User,
)
from portal.models.licence import OPEN_STATUSES
from portal.profiles.schema import LicenceRule, Profile
from portal.services import audit

# A proof or photo as sent with the form, or already held by the request's draft (stored and
# validated when it arrived: portal.services.drafts), which the request takes over.
Proof = Upload | StoredFile


@dataclass
class ListedAnimal:
    """An animal already registered at the residence, as the citizen confirms it."""

    animal_id: int
    confirmed: bool
    rabies_proof: Proof | None = None
    sterilisation_proof: Proof | None = None


@dataclass
class NewAnimal:
    """An animal above the limit, registered inside the request (its RGA waits for the licence)."""

    data: object  # animals.services.AnimalData
    vaccination: object | None  # animals.services.VaccinationData
    vaccinate_at_ccz: bool = False
    sterilisation_proof: Proof | None = None


@dataclass
class RequestData:
    animals_requested: int
    housing_description: str
    listed: list[ListedAnimal] = field(default_factory=list)
    new: list[NewAnimal] = field(default_factory=list)
    photos: list[Proof] = field(default_factory=list)


def open_request(residence_key: str) -> ExcessLicence | None:
    return db.session.scalar(
        select(ExcessLicence).where(
            ExcessLicence.residence_key == residence_key,
            ExcessLicence.status.in_([s.value for s in OPEN_STATUSES]),
        )
    )


def _store_proof(
    upload: Proof | None, owner: User, purpose: str, field: str | None = None
) -> StoredFile | None:
    from portal.services.uploads import UploadError, store_document

    if upload is None:
        return None
    if isinstance(upload, StoredFile):  # held by the draft: validated already, now the request's
        upload.purpose = purpose
        return upload
    try:
        return store_document(
            upload.stream, purpose=purpose, owner_id=owner.id, filename=upload.filename
        )
    except UploadError as err:
        raise LicenceError(field, "invalid_upload", str(err)) from None


def _residence(user: User) -> str:
    from portal.blueprints.animals.services import owner_residence_key

    key = owner_residence_key(user)
    if key is None:
        raise LicenceError(
            "address",
            "required",
            _(
                "Complete o seu endereço (CEP, logradouro e número) no seu cadastro: a licença "
                "é da residência."
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
    rule = rule_of(profile)
    key = _residence(user)
    _check_may_request(user, key, data, profile, today, renews)
    at_home = {a.id: a for a in residence_animals(key)}
    listed = {item.animal_id: item for item in data.listed}
    description = " ".join((data.housing_description or "").split())
    total = len(at_home) + len(data.new)
    problems = [
        *_animal_problems(rule, at_home, listed, data.new, today),
        *_request_problems(profile, data, description, total),
    ]
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
    _link_listed(licence, user, at_home, listed, today)
    _register_new(licence, user, key, data.new, profile, today)
    _store_housing_photos(licence, user, data.photos)
    _charge(licence, user, profile, today)
    db.session.flush()
    action = "renewal_requested" if renews else "requested"
    record_event(licence, action, user, animals=total, asked=data.animals_requested)
    if renews is None:
        audit.record("licence.requested", licence, detail={"asked": data.animals_requested})
    else:
        audit.record("licence.renewal_requested", licence, detail={"renews": renews.id})
    notify_holder(
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


def _check_may_request(
    user: User,
    key: str,
    data: RequestData,
    profile: Profile,
    today: date,
    renews: ExcessLicence | None,
) -> None:
    """The reasons to refuse the request as a whole, before looking at its animals."""
    rule = rule_of(profile)
    household = profile.household
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
                "O prazo para pedir a licença terminou em %(day)s (%(article)s). Depois dele, "
                "todos os proprietários devem se enquadrar no limite de %(limit)d animais.",
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
        _check_renewal(user, key, data, profile, today, renews)
        return
    current = valid_licence(key, today)
    if current is not None and current.valid_until is not None:
        raise LicenceError(
            None,
            "already_licensed",
            _(
                "Esta residência já tem licença válida até %(day)s. Peça a renovação no prazo.",
                day=current.valid_until.strftime("%d/%m/%Y"),
            ),
        )


def _check_renewal(
    user: User,
    key: str,
    data: RequestData,
    profile: Profile,
    today: date,
    renews: ExcessLicence,
) -> None:
    """GRU 37 §1 V: the holder renews inside the window, once, for the same animals at the same
    residence."""
    rule = rule_of(profile)
    window = renewal_window(renews, profile)
    if renews.holder_id != user.id or window is None:
        raise LicenceError(None, "not_renewable", _("Esta licença não pode ser renovada."))
    if renews.residence_key != key:
        # The licence is the residence's (its inspection, its animals): a new address asks anew.
        raise LicenceError(
            None,
            "other_residence",
            _(
                "Esta licença é do endereço %(address)s. No seu novo endereço, peça uma nova "
                "licença.",
                address=renews.address_line,
            ),
        )
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


def _animal_problems(
    rule: LicenceRule,
    at_home: dict[int, Animal],
    listed: dict[int, ListedAnimal],
    new_animals: Sequence[NewAnimal],
    today: date,
) -> list[LicenceError]:
    """Every animal at the residence confirmed, with the proofs the law asks for."""
    from portal.blueprints.animals import services as animals

    problems: list[LicenceError] = []
    for animal_id, animal in at_home.items():
        item = listed.get(animal_id)
        if item is None or not item.confirmed:
            # GRU 37 §1 I; BJP 17 §4: the RGA numbers of all the animals
            problems.append(
                LicenceError(
                    f"animal-{animal_id}",
                    "not_confirmed",
                    _(
                        "Confirme que %(name)s (RGA %(rga)s) vive na residência. Se o animal "
                        'morreu ou foi doado, comunique isso em "Meus animais" antes de pedir a '
                        "licença.",
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
                        "Envie o comprovante de vacinação antirrábica de %(name)s: não há vacina "
                        "em dia no registro (%(article)s).",
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
    for index, new in enumerate(new_animals):
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
    return problems


def _request_problems(
    profile: Profile, data: RequestData, description: str, total: int
) -> list[LicenceError]:
    """The housing description and the number asked for (GRU 37 §1, 10; BJP 17 §3, 15)."""
    rule = rule_of(profile)
    household = profile.household
    assert household.limit is not None
    problems: list[LicenceError] = []
    if "housing_description" in rule.requires or "inspection" in rule.requires:
        if len(description) < 20:
            problems.append(
                LicenceError(
                    "housing_description",
                    "required",
                    _(
                        "Descreva o alojamento e os cuidados com os animais (espaço, abrigo, "
                        "limpeza, alimentação) em pelo menos 20 caracteres."
                    ),
                )
            )
    if data.animals_requested <= household.limit:
        problems.append(
            LicenceError(
                "animals_requested",
                "not_above_limit",
                _(
                    "A licença é para mais de %(limit)d animais (%(article)s); até esse número "
                    "não é preciso pedir.",
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
    return problems


request_problems = _request_problems  # the request's second step checks the same rules early


def _link_listed(
    licence: ExcessLicence,
    user: User,
    at_home: dict[int, Animal],
    listed: dict[int, ListedAnimal],
    today: date,
) -> None:
    from portal.blueprints.animals import services as animals

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


def _register_new(
    licence: ExcessLicence,
    user: User,
    key: str,
    new_animals: Sequence[NewAnimal],
    profile: Profile,
    today: date,
) -> None:
    """Register the animals above the limit; their RGAs wait for the licence (rga_hold)."""
    from portal.blueprints.animals import services as animals

    with registering_inside_request(key):
        for index, new in enumerate(new_animals):
            try:
                animal = animals.register_animal(
                    animals.RegistrationRequest(
                        owner=user,
                        data=new.data,  # type: ignore[arg-type]
                        vaccination=new.vaccination,  # type: ignore[arg-type]
                        vaccinate_at_ccz=new.vaccinate_at_ccz,
                        registered_by=user,
                        api_client=None,
                        profile=profile,
                        today=today,
                    )
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
            _explain_fee(animal, licence, profile)
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


def _explain_fee(animal: Animal, licence: ExcessLicence, profile: Profile) -> None:
    """GRU 22 I; BJP 11 a: each dog or cat registered pays the registration's public price, the
    ones registered inside the request too (one registration each: the law charges per animal,
    and the licence itself has no price in GRU or BJP). The item says which animal and which
    request it is for, so a list of several equal amounts reads as what it is."""
    from portal.models import PaymentItem

    item = db.session.get(PaymentItem, animal.fee_item_id) if animal.fee_item_id else None
    if item is None:
        return
    price = profile.prices.get("registration")
    item.description = _(
        "Registro (RGA %(rga)s) de %(name)s, animal novo do pedido de licença nº %(id)d "
        "(preço público do registro, %(article)s)",
        rga=animal.rga,
        name=animal.name,
        id=licence.id,
        article=price.article if price is not None else profile.registration.cite("fee"),
    )[:300]


def _store_housing_photos(licence: ExcessLicence, user: User, photos: Sequence[Proof]) -> None:
    from portal.services.uploads import UploadError, store_image

    for photo in photos:
        if isinstance(photo, StoredFile):  # held by the draft
            photo.purpose = "licence_photo"
            licence.files.append(LicenceFile(stored_file_id=photo.id, kind="housing"))
            continue
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


def _charge(licence: ExcessLicence, payer: User, profile: Profile, today: date) -> None:
    """The fee, where the city's price list has one (GRU 22; BJP 11 leave prices to the city)."""
    if "licence" not in profile.prices:
        return
    from portal.blueprints.billing.services import create_item_for_fee
    from portal.services.fees import PriceInputs, compute_fee

    fee = compute_fee(profile, "licence", PriceInputs(), today)
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
    licence: ExcessLicence, user: User, answer: str, photos: Sequence[Proof] = ()
) -> None:
    """The citizen answers the CCZ's request for more information, with documents as sent or
    held by the form's draft across a refused post (issue 25)."""
    if licence.holder_id != user.id:
        raise LicenceError(None, "not_allowed", _("Este pedido não é seu."))
    if licence.status != LicenceStatus.INFO_REQUESTED:
        raise LicenceError(
            None, "not_waiting", _("O CCZ não está aguardando resposta neste pedido.")
        )
    answer = (answer or "").strip()
    if not answer:
        raise LicenceError("answer", "required", _("Escreva a sua resposta."))
    for photo in photos:
        stored = _store_proof(photo, user, "licence_proof", "files")
        assert stored is not None  # a file was given
        licence.files.append(LicenceFile(stored_file_id=stored.id, kind="answer"))
    licence.info_answer = answer[:4000]
    licence.status = LicenceStatus.REQUESTED
    db.session.flush()
    record_event(licence, "info_answered", user, note=answer[:4000])
    audit.record("licence.info_answered", licence)
