"""Provisional and definitive RGA: the number is issued at once, the registration is
trusted only once it is paid and its rabies proof checked.

An RGA is **provisional** until both hold:

* its fee is settled — ``Animal.fee_item`` is paid or exempted, or there is none (the profile or
  the price list charges nothing; an adoption without a fee). Billing tells us through
  ``wiring(app).settlement_listener`` (:func:`on_fee_settled`);
* its rabies proof is checked (``Animal.proof_status``): by CCZ staff from the queue
  (:func:`accept_proof`), or at once when an accredited establishment registered it through the
  API, when CCZ staff gave or recorded the shot, or when the NGO / CCZ handed it over vaccinated at
  an adoption (:func:`vouch_at_handover`). Where the profile asks for no proof and none was given,
  there is nothing to check.

The number and the tag are valid meanwhile; the card says "PROVISÓRIO", the owner's page says what
is missing, and the owner gets an e-mail when the RGA becomes definitive. A definitive RGA never
goes back to provisional. The rules here only ``flush``; the caller commits.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import select

from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    ApiClient,
    PaymentItem,
    PaymentStatus,
    ProofStatus,
    StoredFile,
    User,
    Vaccination,
)
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.mail import send_email
from portal.wiring import wiring

# A fee no longer owed: paid, or exempted by staff (a zero-price item is created exempt).
SETTLED = frozenset({PaymentStatus.PAID, PaymentStatus.EXEMPT})


@dataclass(frozen=True)
class Missing:
    """One thing between a provisional RGA and a definitive one, as the owner reads it."""

    code: str  # "fee", "fee_by_establishment", "fee_processing", "proof", "proof_refused",
    #            "vaccination"
    message: str
    url: str | None = None
    action: str | None = None

    @property
    def staff_message(self) -> str:
        """The same, as CCZ staff read it (the owner's text speaks to the owner)."""
        return {
            "fee": _("taxa de registro não paga"),
            "fee_by_establishment": _("taxa de registro a pagar pelo estabelecimento"),
            "fee_processing": _("pagamento da taxa em processamento"),
            "proof": _("comprovante de vacinação a conferir"),
            "proof_refused": _(
                "comprovante recusado: aguardando vacinação ou carteira de vacinação no CCZ"
            ),
            "vaccination": _("vacinação antirrábica no CCZ"),
        }.get(self.code, self.message)


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


def fee_item(animal: Animal) -> PaymentItem | None:
    return db.session.get(PaymentItem, animal.fee_item_id) if animal.fee_item_id else None


def fee_settled(animal: Animal) -> bool:
    item = fee_item(animal)
    return item is None or item.status in SETTLED


def proof_ok(animal: Animal) -> bool:
    """A checked proof, or (status active without a proof) none required by the profile."""
    if animal.proof_status is None:
        return animal.status == AnimalStatus.ACTIVE
    return animal.proof_status == ProofStatus.CHECKED


def licence_hold(animal: Animal) -> Missing | None:
    """An RGA issued inside an excess-animal licence request is above the household
    limit, so it stays provisional until the licence is approved and names it."""
    hold = wiring().hold_on_registration(animal)  # licences.services.rga_hold
    return Missing(*hold) if hold is not None else None


def ready(animal: Animal) -> bool:
    return (
        not animal.is_closed
        and animal.status == AnimalStatus.ACTIVE
        and proof_ok(animal)
        and fee_settled(animal)
        and licence_hold(animal) is None
    )


def missing(animal: Animal) -> list[Missing]:
    """What the owner (or staff) still has to see done, in the order it is usually done."""
    if animal.is_closed or not animal.provisional:
        return []
    from portal.blueprints.billing.services import is_responsible  # billing is optional

    out: list[Missing] = []
    item = fee_item(animal)
    if item is not None and item.status not in SETTLED:
        if item.status == PaymentStatus.PROCESSING:
            out.append(
                Missing(
                    "fee_processing",
                    _(
                        "Pagamento da taxa em processamento: o registro fica definitivo assim "
                        "que ele for confirmado."
                    ),
                )
            )
        elif item.api_client_id is not None and not is_responsible(item, animal.owner):
            # GRU 22 §2; BJP 11 a: the establishment that registered it pays
            out.append(
                Missing(
                    "fee_by_establishment",
                    _("Taxa de registro a ser paga pelo estabelecimento que fez o registro."),
                )
            )
        else:
            out.append(
                Missing(
                    "fee",
                    _(
                        "Pagar a taxa de registro (%(amount)s) ou pedir isenção.",
                        amount=_brl(item.amount_cents),
                    ),
                    url=_url("billing.item", item_id=item.id),
                    action=_("Pagar a taxa"),
                )
            )
    if animal.proof_status == ProofStatus.AWAITING:
        out.append(
            Missing(
                "proof",
                _(
                    "Comprovante de vacinação antirrábica aguardando conferência do CCZ. Você não "
                    "precisa fazer nada: avisaremos por e-mail."
                ),
            )
        )
    elif animal.proof_status == ProofStatus.REFUSED:
        out.append(
            Missing(
                "proof_refused",
                _(
                    "O CCZ não aceitou o comprovante de vacinação (%(reason)s). Leve o animal "
                    "ao CCZ com a carteira de vacinação, ou para vacinar, e informe o número do "
                    "RGA.",
                    reason=animal.proof_refused_reason or "—",
                ),
            )
        )
    if animal.status == AnimalStatus.PENDING and animal.proof_status != ProofStatus.REFUSED:
        out.append(
            Missing(
                "vaccination", _("Vacinação antirrábica no CCZ: leve o animal com o número do RGA.")
            )
        )
    if (hold := licence_hold(animal)) is not None:
        out.append(hold)
    return out


def state_label(animal: Animal) -> str:
    """The registration's situation in a word or two, honest about a provisional RGA."""
    from portal.blueprints.animals.common import status_label

    if animal.status == AnimalStatus.ACTIVE and animal.provisional:
        return _("Provisório (aguardando conferência do CCZ)")
    return status_label(animal.status)


def state_tag(animal: Animal) -> str:
    """The br-tag colour of :func:`state_label`."""
    if animal.is_closed:
        return "danger"
    if animal.status == AnimalStatus.PENDING or animal.provisional:
        return "warning"
    return "success"


# ---------------------------------------------------------------------------------------------
# Transitions
# ---------------------------------------------------------------------------------------------


def start(
    animal: Animal,
    *,
    fee: PaymentItem | None,
    vaccinated: bool,
    api_client: ApiClient | None,
    registered_by: User | None = None,
) -> None:
    """Set the provisional state of a just-registered animal (called by ``register_animal``).

    A vaccination typed by the owner waits for staff; one sent by an accredited establishment
    through the API (it answers for it: BJP 9; GRU 20), or typed by CCZ staff at the counter for
    someone else, is taken as checked."""
    animal.fee_item_id = fee.id if fee is not None else None
    if vaccinated:
        by_staff = (
            registered_by is not None
            and registered_by.is_staff
            and registered_by.id != animal.owner_id
        )
        if (api_client is not None and api_client.kind == "establishment") or by_staff:
            animal.proof_status = ProofStatus.CHECKED
            animal.proof_checked_at = utcnow()
            animal.proof_checked_by_id = registered_by.id if by_staff and registered_by else None
        else:
            animal.proof_status = ProofStatus.AWAITING
    animal.provisional = not ready(animal)
    if not animal.provisional:
        animal.definitive_at = utcnow()


def refresh(animal: Animal, *, notify: bool = True) -> bool:
    """Make ``animal`` definitive when nothing is missing any more; the owner is told by e-mail
    (unless ``notify`` is False). Returns True when it just became definitive."""
    if not animal.provisional or not ready(animal):
        return False
    animal.provisional = False
    animal.definitive_at = utcnow()
    db.session.flush()
    if notify:
        _email_definitive(animal)
    return True


def _mark_checked(animal: Animal, by: User | None) -> None:
    animal.proof_status = ProofStatus.CHECKED
    animal.proof_checked_at = utcnow()
    animal.proof_checked_by_id = by.id if by is not None else None
    animal.proof_refused_reason = None


def vaccination_checked(animal: Animal, by: User | None) -> None:
    """CCZ staff gave or recorded a rabies shot, or approved the registration: the proof is
    theirs. Called by ``record_vaccination`` and ``approve_registration``."""
    _mark_checked(animal, by)
    refresh(animal)


def accept_proof(animal: Animal, staff: User) -> bool:
    """Staff checked the owner's vaccination record. Returns True when the RGA became definitive.

    Raises AnimalError when there is no proof waiting."""
    from portal.blueprints.animals.common import AnimalError

    if animal.is_closed or animal.proof_status != ProofStatus.AWAITING:
        raise AnimalError(None, "invalid", _("Este registro não tem comprovante a conferir."))
    _mark_checked(animal, staff)
    db.session.flush()
    audit.record("animal.proof_accepted", animal, detail={"rga": animal.rga})
    return refresh(animal)


def refuse_proof(animal: Animal, staff: User, reason: str) -> None:
    """Staff refuse the owner's vaccination record, with a reason the owner reads by e-mail. The
    number stays; the registration waits for the shot at the CCZ like one registered without a
    vaccine (BJP 6 §ú; GRU 15 V). Raises AnimalError (field "reason")."""
    from portal.blueprints.animals.common import AnimalError
    from portal.urls import absolute_url

    reason = " ".join((reason or "").split())
    if animal.is_closed or animal.proof_status != ProofStatus.AWAITING:
        raise AnimalError(None, "invalid", _("Este registro não tem comprovante a conferir."))
    if not reason:
        raise AnimalError(
            "reason", "required", _("Informe o motivo da recusa: ele é enviado ao proprietário.")
        )
    animal.proof_status = ProofStatus.REFUSED
    animal.proof_refused_reason = reason[:500]
    animal.proof_checked_at = utcnow()
    animal.proof_checked_by_id = staff.id
    animal.status = AnimalStatus.PENDING
    animal.provisional = True
    db.session.flush()
    audit.record("animal.proof_refused", animal, detail={"rga": animal.rga})
    owner = animal.owner
    if owner.email:
        with force_locale("pt_BR"):
            send_email(
                owner.email,
                _("Comprovante de vacinação não aceito – RGA %(rga)s", rga=animal.rga),
                _(
                    "Olá, %(name)s.\n\nA equipe do CCZ conferiu a vacinação antirrábica "
                    "informada no registro de %(animal)s (RGA %(rga)s) e não pôde "
                    "aceitá-la:\n\n%(reason)s\n\n"
                    "O número do RGA continua valendo, mas o registro fica provisório até a "
                    "vacinação ser comprovada. Leve o animal ao CCZ, com a carteira de "
                    "vacinação ou para vacinar, e informe o número do RGA.\n\n"
                    "Acompanhe em:\n%(link)s\n\n"
                    "Centro de Controle de Zoonoses",
                    name=owner.full_name.split()[0],
                    animal=animal.name,
                    rga=animal.rga,
                    reason=reason,
                    link=absolute_url("animals.detail", rga=animal.rga),
                ),
            )


def attach_fee(animal: Animal, item: PaymentItem | None) -> None:
    """The charge the RGA waits for (the adoption fee at a hand-over; None: nothing to pay)."""
    animal.fee_item_id = item.id if item is not None else None


def on_fee_settled(item: PaymentItem) -> None:
    """Billing's settlement listener: the RGAs waiting for this item may become definitive."""
    with db.session.no_autoflush:
        animals = db.session.scalars(
            select(Animal).where(Animal.fee_item_id == item.id, Animal.provisional.is_(True))
        ).all()
    for animal in animals:
        refresh(animal)


def proofs_to_check() -> list[Animal]:
    """The staff queue: registrations whose owner-typed vaccination waits for a check, oldest
    first."""
    return list(
        db.session.scalars(
            select(Animal)
            .where(
                Animal.proof_status == ProofStatus.AWAITING, Animal.status != AnimalStatus.CLOSED
            )
            .order_by(Animal.registered_at, Animal.id)
        )
    )


# ---------------------------------------------------------------------------------------------
# Adoption hand-over (VV 28 §1; GRU 88 §2)
# ---------------------------------------------------------------------------------------------


def vouch_at_handover(
    animal: Animal,
    *,
    applied_on: date | None,
    vouched_by: str,
    at_ccz: bool,
    recorded_by: User | None,
    profile: Profile,
    today: date,
) -> None:
    """The NGO or the CCZ hands the animal over vaccinated (VV 28 §1; CABO 14; GRU 85): the
    listing's vaccination (when, who) goes into the RGA and stands as a checked proof, and a
    hand-over is never a late registration (the adopter did not delay anything).

    Raises AnimalError("rabies_vaccination.date") when the law needs a current rabies shot and
    the date given is missing or too old."""
    from portal.blueprints.animals.common import AnimalError
    from portal.blueprints.animals.validation import (
        current_vaccination,
        next_rabies_due,
        rabies_required,
        vaccination_is_current,
    )

    current = current_vaccination(animal, today)
    if current is None and applied_on is not None:
        vaccination = Vaccination(
            vaccine="rabies",
            vaccine_name=_("Antirrábica"),
            batch="",
            vet_name="",
            vet_crmv="",
            applied_on=applied_on,
            establishment=vouched_by,
            vouched_by=vouched_by,
            next_due_on=next_rabies_due(applied_on, profile),
            at_ccz=at_ccz,
            recorded_by_id=recorded_by.id if recorded_by else None,
        )
        animal.vaccinations.append(vaccination)
        if vaccination_is_current(applied_on, vaccination.next_due_on, today):
            current = vaccination
    if current is None and rabies_required(profile):
        article = profile.registration.cite("rabies_proof_required")
        if applied_on is None:
            message = _(
                "Informe a data da vacinação: ela vai para o RGA (%(article)s).", article=article
            )
        else:
            message = _(
                "A vacinação informada está vencida. Vacine o animal antes da entrega "
                "(%(article)s).",
                article=article,
            )
        raise AnimalError("rabies_vaccination.date", "missing_vaccination", message)
    if current is not None:
        if animal.status == AnimalStatus.PENDING:
            animal.status = AnimalStatus.ACTIVE
            animal.activated_at = utcnow()
        _mark_checked(animal, recorded_by)
    animal.late_registration = False
    db.session.flush()


def copy_photo(stored: StoredFile | None, owner_id: int) -> StoredFile | None:
    """A copy of a listing photo for the RGA: the listing's own file may be removed later by the
    NGO. None when there is no photo or its file is gone."""
    from portal.services.uploads import UploadError, file_path, store_image

    if stored is None:
        return None
    path = file_path(stored, "large") or next((file_path(stored, v) for v in stored.variants), None)
    if path is None or not path.exists():
        return None
    try:
        with path.open("rb") as fh:
            return store_image(
                fh,
                purpose="animal_photo",
                owner_id=owner_id,
                public=True,
                filename=stored.original_name,
            )
    except (OSError, UploadError):
        return None


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _brl(cents: int) -> str:
    from portal.services.money import format_brl

    return format_brl(cents)


def _url(endpoint: str, **values: Any) -> str:
    from flask import url_for

    return url_for(endpoint, **values)


def _email_definitive(animal: Animal) -> None:
    from portal.urls import absolute_url

    owner = animal.owner
    if not owner.email:
        return
    with force_locale("pt_BR"):
        send_email(
            owner.email,
            _("RGA %(rga)s definitivo", rga=animal.rga),
            _(
                "Olá, %(name)s.\n\nO registro de %(animal)s (RGA %(rga)s) foi conferido e agora é "
                'definitivo. Baixe a carteira atualizada, sem a marca "PROVISÓRIO", em:\n'
                "%(link)s\n\nCentro de Controle de Zoonoses",
                name=owner.full_name.split()[0],
                animal=animal.name,
                rga=animal.rga,
                link=absolute_url("animals.detail", rga=animal.rga),
            ),
        )
