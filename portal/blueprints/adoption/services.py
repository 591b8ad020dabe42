"""Adoption rules for NGOs, listings, photos, proofs and bars (DOMAIN §5).

Views (web and API) and the CLI call these functions; each takes model objects and plain values,
flushes, and raises :class:`AdoptionError` (or a subclass) with a Portuguese message and the field
it belongs to. Applications, eligibility and the hand-over live in
:mod:`portal.blueprints.adoption.applications` and :mod:`portal.blueprints.adoption.eligibility`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import IO, Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, or_, select

from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApiClient,
    ApplicantDocument,
    BarKind,
    DocumentKind,
    DocumentStatus,
    Listing,
    ListingPhoto,
    ListingState,
    Organization,
    OrganizationMember,
    OrganizationStatus,
    PersonBar,
    StoredFile,
    User,
)
from portal.models.adoption import OPEN_APPLICATION_STATUSES
from portal.models.base import utcnow
from portal.services import audit
from portal.services.clock import local_today  # noqa: F401  (re-exported)
from portal.services.dates import add_months
from portal.services.identity import _fold as fold_words  # the shared address-word normaliser
from portal.services.identity import clean_cep, clean_cnpj, clean_cpf
from portal.services.mail import send_email
from portal.services.uploads import UploadError, file_path, store_document, store_image

MAX_PHOTOS = 8
MAX_AGE_MONTHS = 30 * 12  # no dog or cat is older: a typo guard for estimated ages
PHOTO_PURPOSE = "listing_photo"
DOCUMENT_PURPOSE = "adoption_document"

SPECIES = {"dog": _l("Cão"), "cat": _l("Gato")}
SEXES = {"male": _l("Macho"), "female": _l("Fêmea")}
SIZES = {"small": _l("Pequeno"), "medium": _l("Médio"), "large": _l("Grande")}
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


# local_today (the law's dates — 90-day proof, age — are local) is portal.services.clock's.


class AdoptionError(Exception):
    """A rule refused the action. ``field`` names the input it concerns (None: the whole form)."""

    def __init__(self, message: str, field: str | None = None, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


class InvalidData(AdoptionError):
    """Several field errors at once: ``errors`` is a list of (field, code, message)."""

    def __init__(self, errors: list[tuple[str, str, str]]) -> None:
        super().__init__(errors[0][2], errors[0][0], errors[0][1])
        self.errors = errors


# ---------------------------------------------------------------------------------------------
# Organisations (NGOs)
# ---------------------------------------------------------------------------------------------


@dataclass
class OrganizationData:
    legal_name: str
    cnpj: str
    responsible_name: str
    email: str
    phone: str
    cep: str
    street: str
    number: str
    district: str
    city: str
    state: str
    trade_name: str = ""
    complement: str = ""


def request_organization(user: User, data: OrganizationData) -> Organization:
    """A citizen asks to register an NGO; it waits for staff approval. Raises AdoptionError."""
    cnpj = clean_cnpj(data.cnpj)
    if cnpj is None:
        raise AdoptionError(_("CNPJ inválido: confira os 14 dígitos."), "cnpj")
    if db.session.scalar(select(Organization.id).where(Organization.cnpj == cnpj)) is not None:
        raise AdoptionError(
            _("Já existe uma entidade cadastrada com este CNPJ."), "cnpj", "duplicate"
        )
    cep = clean_cep(data.cep)
    if cep is None:
        raise AdoptionError(_("CEP deve ter 8 dígitos, por exemplo 07000-000."), "cep")
    org = Organization(
        legal_name=data.legal_name.strip(),
        trade_name=data.trade_name.strip() or None,
        cnpj=cnpj,
        responsible_name=data.responsible_name.strip(),
        email=data.email.strip().lower(),
        phone=data.phone.strip() or None,
        cep=cep,
        street=data.street.strip(),
        number=data.number.strip(),
        complement=data.complement.strip() or None,
        district=data.district.strip(),
        city=data.city.strip(),
        state=data.state,
        status=OrganizationStatus.PENDING,
        requested_by_id=user.id,
    )
    org.members.append(OrganizationMember(user_id=user.id))
    db.session.add(org)
    db.session.flush()
    audit.record("adoption.organization_requested", org, actor_id=user.id)
    if user.email:
        send_email(
            user.email,
            _("Cadastro de ONG recebido"),
            _(
                "Recebemos o pedido de cadastro de %(name)s. A equipe do CCZ vai conferir os "
                "dados e avisar por e-mail.",
                name=org.display_name,
            ),
        )
    return org


def approve_organization(org: Organization, staff: User) -> Organization:
    """Staff approve an NGO: its members receive the ``ngo`` role. Raises AdoptionError."""
    if org.status == OrganizationStatus.APPROVED:
        raise AdoptionError(_("Esta ONG já está aprovada."), code="already_approved")
    org.status = OrganizationStatus.APPROVED
    org.refusal_reason = None
    org.reviewed_by_id = staff.id
    org.reviewed_at = utcnow()
    for member in org.members:
        member.user.add_role("ngo")
    db.session.flush()
    audit.record("adoption.organization_approved", org, actor_id=staff.id)
    for member in org.members:
        if member.user.email:
            send_email(
                member.user.email,
                _("ONG aprovada no portal do CCZ"),
                _(
                    "O cadastro de %(name)s foi aprovado. Você já pode publicar animais para "
                    'adoção e analisar os pedidos em "Gestão de adoções".',
                    name=org.display_name,
                ),
            )
    return org


def refuse_organization(org: Organization, staff: User, reason: str) -> Organization:
    """Staff refuse an NGO registration with a reason sent to the requester."""
    if not reason.strip():
        raise AdoptionError(_("Informe o motivo da recusa."), "reason", "required")
    org.status = OrganizationStatus.REFUSED
    org.refusal_reason = reason.strip()
    org.reviewed_by_id = staff.id
    org.reviewed_at = utcnow()
    db.session.flush()
    audit.record("adoption.organization_refused", org, actor_id=staff.id)
    if org.requested_by and org.requested_by.email:
        send_email(
            org.requested_by.email,
            _("Cadastro de ONG não aprovado"),
            _(
                "O cadastro de %(name)s não foi aprovado. Motivo: %(reason)s",
                name=org.display_name,
                reason=org.refusal_reason,
            ),
        )
    return org


def link_api_client(client: ApiClient) -> Organization:
    """``create-api-client --kind ngo --name X``: link the approved NGO named X, or create one.

    Staff create the token, so an organisation made here is approved at once; its CNPJ can be
    filled in later by staff. Only an already approved NGO is ever linked: a pending or refused
    registration of the same name keeps its state, and its requester gets no role from a token
    (approving is a staff decision with its own review, :func:`approve_organization`).
    """
    name = client.name.strip()
    org = db.session.scalar(
        select(Organization)
        .where(
            (func.lower(Organization.legal_name) == name.lower())
            | (func.lower(Organization.trade_name) == name.lower()),
            Organization.status == OrganizationStatus.APPROVED,
        )
        .order_by(Organization.id)
        .limit(1)
    )
    if org is None:
        org = Organization(
            legal_name=name,
            responsible_name=name,
            status=OrganizationStatus.APPROVED,
            reviewed_at=utcnow(),
        )
        db.session.add(org)
    org.api_client = client
    if client.user_id is not None and all(m.user_id != client.user_id for m in org.members):
        org.members.append(OrganizationMember(user_id=client.user_id))
    db.session.flush()
    for member in org.members:
        member.user.add_role("ngo")
    audit.record("adoption.organization_api_client", org, detail={"api_client_id": client.id})
    return org


def add_member(org: Organization, user: User, staff: User) -> OrganizationMember:
    """Staff link one more account to an NGO (a volunteer who will review applications)."""
    if any(m.user_id == user.id for m in org.members):
        raise AdoptionError(_("Esta pessoa já está ligada à ONG."), "email", "duplicate")
    member = OrganizationMember(user_id=user.id)
    org.members.append(member)
    db.session.flush()
    if org.is_approved:
        user.add_role("ngo")
    audit.record(
        "adoption.organization_member_added", org, actor_id=staff.id, detail={"user_id": user.id}
    )
    return member


def animal_id_for_rga(text: str) -> int:
    """The RGA record typed by staff (for a GRU 88 §4 bar). Raises AdoptionError."""
    from portal.blueprints.animals.rga import InvalidRgaNumber
    from portal.blueprints.animals.services import find_by_rga

    try:
        animal = find_by_rga(text)
    except InvalidRgaNumber as err:
        raise AdoptionError(
            _("Número de RGA inválido: confira o número e o dígito."), "rga", "invalid"
        ) from err
    if animal is None:
        raise AdoptionError(_("Nenhum animal com este RGA."), "rga", "not_found")
    return animal.id


def organizations_of(user: User) -> list[Organization]:
    """Approved NGOs the user acts for."""
    return list(
        db.session.scalars(
            select(Organization)
            .join(OrganizationMember)
            .where(
                OrganizationMember.user_id == user.id,
                Organization.status == OrganizationStatus.APPROVED,
            )
            .order_by(Organization.id)
        )
    )


def organizations_for_review() -> list[Organization]:
    """Staff's list: registrations waiting for a decision first, then the newest."""
    return list(
        db.session.scalars(
            select(Organization).order_by(
                (Organization.status != OrganizationStatus.PENDING), Organization.id.desc()
            )
        )
    )


def organizations_requested_by(user: User) -> list[Organization]:
    """Every NGO the user belongs to, whatever its review state (their registration page)."""
    return list(
        db.session.scalars(
            select(Organization)
            .join(OrganizationMember)
            .where(OrganizationMember.user_id == user.id)
            .order_by(Organization.id)
        )
    )


def organization_for_client(client: ApiClient) -> Organization | None:
    """The approved NGO an API token acts for."""
    return db.session.scalar(
        select(Organization).where(
            Organization.api_client_id == client.id,
            Organization.status == OrganizationStatus.APPROVED,
        )
    )


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


# ---------------------------------------------------------------------------------------------
# Listings
# ---------------------------------------------------------------------------------------------


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
        raise AdoptionError(_("A ONG ainda não foi aprovada pelo CCZ."), code="not_approved")
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
        raise AdoptionError(_("Um animal já adotado não pode ser alterado."), code="adopted")
    _apply(listing, data)
    db.session.flush()
    return listing


def add_photo(
    listing: Listing, stream: IO[bytes], filename: str | None, actor_id: int | None
) -> ListingPhoto:
    """Store one photo (checked and cleaned by ``store_image``) at the end of the gallery.

    Raises AdoptionError (field ``photo``) for a bad file or a full gallery.
    """
    if len(listing.photos) >= MAX_PHOTOS:
        raise AdoptionError(
            _("Cada anúncio pode ter no máximo %(max)d fotos.", max=MAX_PHOTOS), "photo", "too_many"
        )
    try:
        stored = store_image(
            stream, purpose=PHOTO_PURPOSE, owner_id=actor_id, public=True, filename=filename
        )
    except UploadError as err:
        raise AdoptionError(err.message, "photo", "invalid_image") from err
    position = max((p.position for p in listing.photos), default=-1) + 1
    photo = ListingPhoto(stored_file=stored, position=position)
    listing.photos.append(photo)
    db.session.flush()
    return photo


def delete_stored_files(files: Iterable[StoredFile]) -> None:
    """Remove the files of uploads from disk (after a rollback, or when a photo is removed)."""
    for stored in files:
        for variant in list(stored.variants):
            path = file_path(stored, variant)
            if path is not None:
                path.unlink(missing_ok=True)


def remove_photo(listing: Listing, photo_id: int) -> None:
    """Remove a photo; a published listing keeps at least one."""
    photo = next((p for p in listing.photos if p.id == photo_id), None)
    if photo is None:
        raise AdoptionError(_("Foto não encontrada."), "photo", "not_found")
    visible = listing.state in (ListingState.PUBLISHED, ListingState.RESERVED)
    if visible and len(listing.photos) == 1:
        raise AdoptionError(
            _("Um anúncio publicado precisa de pelo menos uma foto."), "photo", "min_photos"
        )
    stored = photo.stored_file
    listing.photos.remove(photo)
    db.session.flush()
    db.session.delete(stored)
    db.session.flush()
    delete_stored_files([stored])


def move_photo(listing: Listing, photo_id: int, offset: int) -> None:
    """Move a photo one place up (-1) or down (+1); the first one is the cover."""
    photos = sorted(listing.photos, key=lambda p: p.position)
    index = next((i for i, p in enumerate(photos) if p.id == photo_id), None)
    if index is None:
        raise AdoptionError(_("Foto não encontrada."), "photo", "not_found")
    target = index + offset
    if 0 <= target < len(photos):
        photos[index], photos[target] = photos[target], photos[index]
    for position, photo in enumerate(photos):
        photo.position = position
    db.session.flush()


def change_state(listing: Listing, new_state: str, actor: User | None) -> Listing:
    """Move a listing by hand (publish, back to draft, withdraw). Raises AdoptionError.

    Publishing needs at least one photo and an approved NGO. Withdrawing closes the applications
    still waiting, telling each applicant.
    """
    if new_state not in STATE_LABELS:
        raise AdoptionError(
            _("Estado desconhecido: use draft, published ou withdrawn."), "state", "invalid_choice"
        )
    if new_state == listing.state:
        return listing
    if new_state in (ListingState.RESERVED, ListingState.ADOPTED):
        raise AdoptionError(
            _(
                "Um anúncio fica reservado quando um pedido é aprovado e adotado "
                "quando a entrega é registrada; não é possível mudar isso à mão."
            ),
            "state",
            "invalid_transition",
        )
    if new_state not in MANUAL_TRANSITIONS[listing.state]:
        raise AdoptionError(
            _(
                'Não é possível passar de "%(old)s" para "%(new)s".',
                old=STATE_LABELS[listing.state],
                new=STATE_LABELS[new_state],
            ),
            "state",
            "invalid_transition",
        )
    if new_state == ListingState.PUBLISHED:
        if not listing.photos:
            raise AdoptionError(
                _("Adicione pelo menos uma foto antes de publicar."), "photos", "photo_required"
            )
        if listing.organization is not None and not listing.organization.is_approved:
            raise AdoptionError(
                _("A ONG ainda não foi aprovada pelo CCZ."), "state", "not_approved"
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


# ---------------------------------------------------------------------------------------------
# Applicant documents (VV 28 §2)
# ---------------------------------------------------------------------------------------------

DOCUMENT_LABELS: dict[str, Any] = {
    DocumentKind.IDENTITY: _l("Documento de identidade (RG ou CNH)"),
    DocumentKind.PROOF_OF_ADDRESS: _l("Comprovante de endereço"),
    DocumentKind.PROOF_OF_INCOME: _l("Comprovante de renda"),
}
DOCUMENT_STATUS_LABELS: dict[str, Any] = {
    DocumentStatus.PENDING: _l("Aguardando conferência"),
    DocumentStatus.ACCEPTED: _l("Aceito"),
    DocumentStatus.REFUSED: _l("Recusado"),
}


def upload_document(
    person: User,
    kind: str,
    stream: IO[bytes],
    filename: str | None,
    issued_on: date | None,
    on: date,
) -> ApplicantDocument:
    """Keep a proof (PDF or photo, private). A proof of address needs its issue date, at most
    90 days before ``on`` (VV 28 §2 "atualizado"). Raises AdoptionError."""
    from portal.blueprints.adoption.eligibility import PROOF_OF_ADDRESS_MAX_AGE_DAYS

    if kind not in DOCUMENT_LABELS:
        raise AdoptionError(_("Tipo de documento desconhecido."), "kind", "invalid_choice")
    if kind == DocumentKind.PROOF_OF_ADDRESS:
        if issued_on is None:
            raise AdoptionError(
                _("Informe a data de emissão do comprovante."), "issued_on", "required"
            )
        if issued_on > on:
            raise AdoptionError(
                _("A data de emissão não pode estar no futuro."), "issued_on", "future"
            )
        if (on - issued_on).days > PROOF_OF_ADDRESS_MAX_AGE_DAYS:  # VV 28 §2
            raise AdoptionError(
                _(
                    "Este comprovante foi emitido há mais de %(max)d dias. Envie um "
                    "emitido nos últimos %(max)d dias.",
                    max=PROOF_OF_ADDRESS_MAX_AGE_DAYS,
                ),
                "issued_on",
                "too_old",
            )
    try:
        stored = store_document(
            stream, purpose=DOCUMENT_PURPOSE, owner_id=person.id, filename=filename
        )
    except UploadError as err:
        raise AdoptionError(err.message, "file", "invalid_file") from err
    doc = ApplicantDocument(
        person_id=person.id,
        kind=kind,
        stored_file=stored,
        issued_on=issued_on if kind == DocumentKind.PROOF_OF_ADDRESS else None,
        status=DocumentStatus.PENDING,
    )
    db.session.add(doc)
    db.session.flush()
    return doc


def may_review_documents_of(user: User, person: User) -> bool:
    """Staff, or a member of an NGO to which ``person`` has an application still open.

    An NGO sees an applicant's proofs only while it has something to decide: once the application
    is cancelled, refused or completed, neither the proofs it saw nor any uploaded later (for
    another NGO's animal, say) open for it any more.
    """
    if user.is_staff:
        return True
    org_ids = [o.id for o in organizations_of(user)]
    if not org_ids:
        return False
    return (
        db.session.scalar(
            select(AdoptionApplication.id)
            .join(Listing)
            .where(
                AdoptionApplication.applicant_id == person.id,
                AdoptionApplication.status.in_(OPEN_APPLICATION_STATUSES),
                Listing.organization_id.in_(org_ids),
            )
            .limit(1)
        )
        is not None
    )


def application_documents(application: AdoptionApplication, user: User) -> list[ApplicantDocument]:
    """The proofs attached to ``application`` as ``user`` may see them on the review page.

    The applicant's proofs are shared by all their applications ("envie uma vez"), so an open
    application carries all of them; a closed one carries none for an NGO (staff keep access).
    """
    if not (application.is_open or user.is_staff):
        return []
    return documents_of(application.applicant)


def document_file_rule(user: User, stored: StoredFile) -> bool:
    """``register_file_access`` rule: an NGO opens the adoption proofs of a person only while that
    person's application to it is open; any other file of the person stays closed to it."""
    if stored.purpose != DOCUMENT_PURPOSE:
        return False
    doc = db.session.scalar(
        select(ApplicantDocument).where(ApplicantDocument.stored_file_id == stored.id)
    )
    return (
        doc is not None
        and doc.person_id == stored.owner_id
        and may_review_documents_of(user, doc.person)
    )


def review_document(
    doc: ApplicantDocument, reviewer: User, accept: bool, reason: str = ""
) -> ApplicantDocument:
    """Accept or refuse a proof; a refusal needs a reason, which is e-mailed to the person."""
    if not accept and not reason.strip():
        raise AdoptionError(_("Informe o motivo da recusa do documento."), "reason", "required")
    doc.status = DocumentStatus.ACCEPTED if accept else DocumentStatus.REFUSED
    doc.refusal_reason = None if accept else reason.strip()
    doc.reviewed_by_id = reviewer.id
    doc.reviewed_at = utcnow()
    db.session.flush()
    audit.record(
        "adoption.document_reviewed",
        doc,
        actor_id=reviewer.id,
        detail={"kind": doc.kind, "status": doc.status},
    )
    if not accept and doc.person.email:
        send_email(
            doc.person.email,
            _("Documento recusado no pedido de adoção"),
            _(
                "%(doc)s não foi aceito. Motivo: %(reason)s\nEnvie outro documento em "
                '"Minhas adoções".',
                doc=DOCUMENT_LABELS[doc.kind],
                reason=doc.refusal_reason,
            ),
        )
    return doc


def documents_of(person: User) -> list[ApplicantDocument]:
    return list(
        db.session.scalars(
            select(ApplicantDocument)
            .where(ApplicantDocument.person_id == person.id)
            .order_by(ApplicantDocument.id.desc())
        )
    )


# ---------------------------------------------------------------------------------------------
# Bars on a person (VV 23 V; VV 23 III b; BJP 30 §ú; GRU 88 §4)
# ---------------------------------------------------------------------------------------------

BAR_LABELS: dict[str, Any] = {
    BarKind.COMMITMENT_NEVER_KEEP: _l("Termo de compromisso de não mais ter animais (VV 23 V)"),
    BarKind.LOST_POSSESSION_MALTREATMENT: _l(
        "Perda da posse de animal por maus-tratos (VV 23 III b; BJP 30 §ú)"
    ),
    BarKind.CAUSED_DEFINITIVE_APPREHENSION: _l(
        "Deu causa à apreensão definitiva de um animal (GRU 88 §4)"
    ),
}


def record_bar(
    cpf: str,
    kind: str,
    reason: str,
    staff: User,
    *,
    listing: Listing | None = None,
    animal_id: int | None = None,
    person_name: str | None = None,
) -> PersonBar:
    """Record that the person with ``cpf`` may not adopt. Raises AdoptionError.

    A GRU 88 §4 bar names the animal (its listing or its RGA record) and blocks only that one.
    """
    clean = clean_cpf(cpf)
    errors = []
    if clean is None:
        errors.append(("cpf", "invalid", _("CPF inválido: confira os dígitos.")))
    if kind not in BAR_LABELS:
        errors.append(("kind", "invalid_choice", _("Escolha o tipo de impedimento.")))
    if not reason.strip():
        errors.append(("reason", "required", _("Descreva o motivo e o documento de origem.")))
    if kind == BarKind.CAUSED_DEFINITIVE_APPREHENSION and listing is None and animal_id is None:
        errors.append(
            (
                "listing_id",
                "required",
                _("Informe o anúncio ou o RGA do animal apreendido (GRU 88 §4)."),
            )
        )
    if errors:
        raise InvalidData(errors)
    assert clean is not None
    bar = PersonBar(
        cpf=clean,
        kind=kind,
        reason=reason.strip(),
        listing=listing,
        animal_id=animal_id if animal_id is not None else (listing.animal_id if listing else None),
        person_name=(person_name or "").strip() or None,
        recorded_by_id=staff.id,
    )
    db.session.add(bar)
    db.session.flush()
    audit.record("adoption.bar_recorded", bar, actor_id=staff.id, detail={"kind": kind})
    return bar


def revoke_bar(bar: PersonBar, staff: User, reason: str) -> PersonBar:
    if not reason.strip():
        raise AdoptionError(_("Informe o motivo do cancelamento."), "reason", "required")
    if bar.revoked_at is not None:
        raise AdoptionError(_("Este impedimento já foi cancelado."), code="already_revoked")
    bar.revoked_at = utcnow()
    bar.revoked_by_id = staff.id
    bar.revoke_reason = reason.strip()
    db.session.flush()
    audit.record("adoption.bar_revoked", bar, actor_id=staff.id)
    return bar


def recent_bars(limit: int = 50) -> list[PersonBar]:
    return list(db.session.scalars(select(PersonBar).order_by(PersonBar.id.desc()).limit(limit)))


def bars_for_cpf(cpf: str) -> list[PersonBar]:
    clean = clean_cpf(cpf)
    if clean is None:
        raise AdoptionError(_("CPF inválido: confira os dígitos."), "cpf")
    return list(
        db.session.scalars(
            select(PersonBar).where(PersonBar.cpf == clean).order_by(PersonBar.id.desc())
        )
    )
