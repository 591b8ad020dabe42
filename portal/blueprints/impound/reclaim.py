"""Reclaim and release (GRU 82 §2-3, 84, 85; CABO 41, 44; CAB 17, 19; VV 22; BJP 26-28):
the fee from the fee service, the payment through billing, registration and rabies vaccination
on reclaim, the agent's confirmation that the cause ended and the release term."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

from flask_babel import gettext as _
from sqlalchemy import or_, select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Animal,
    Capture,
    CaptureStatus,
    PaymentItem,
    ReclaimRecord,
    ReclaimStatus,
    ReleaseRecord,
    User,
    Vaccination,
)
from portal.models.base import utcnow
from portal.profiles.base import SIZE_CLASSES
from portal.profiles.schema import Profile, SizeClass
from portal.services import audit
from portal.services.fees import Expense, Fee, FeeError, ReclaimInputs, compute_fee

from .apprehension import definitive_upheld
from .capture import active_reclaim
from .deadlines import legal_size, observation_ends
from .labels import RABIES, SETTLEMENT_SUBJECT

if TYPE_CHECKING:
    from portal.blueprints.animals.common import VaccinationData

# ---------------------------------------------------------------------------------------------
# Reclaim (GRU 82 §2-3, 84, 85; CABO 41, 44; CAB 17, 19; VV 22; BJP 26-28)
# ---------------------------------------------------------------------------------------------


def reclaim_fee(
    profile: Profile,
    capture: Capture,
    on: date,
    *,
    exemption: str | None = None,
    expenses: list[dict[str, Any]] | None = None,
    away_from_home: bool | None = None,
    claimant: User | None = None,
) -> Fee:
    """The reclaim fee from the one fee service (daily rates, repeats, free windows, exemptions).

    ``claimant``: who reclaims, the owner when the capture has none on record (CAB 19 §2 counts
    the owner's earlier captures too)."""
    owner_captures: tuple[SizeClass, ...] = ()
    if any(charge.repeat_counts_owner for charge in profile.reclaim.charges):
        owner_id = capture.owner_id or (claimant.id if claimant is not None else None)
        owner_captures = tuple(owner_earlier_captures(profile, capture, owner_id))
    if away_from_home is None and capture.capture_number > 1:
        away_from_home = capture.reason != "invader"  # VV 22 §6: caught away from home
    inputs = ReclaimInputs(
        size=legal_size(profile, capture),  # GRU 10 XV; CAB 12, 19: by species
        apprehended_on=capture.captured_on,
        reclaimed_on=on,
        capture_number=capture.capture_number,
        owner_captures=owner_captures,
        tagged=capture.tagged,
        away_from_home=away_from_home,
        expenses=tuple(_expense(e) for e in expenses or ()),
        exemption=exemption or None,
    )
    try:
        return compute_fee(profile, "reclaim", inputs, on)
    except FeeError as err:
        raise DomainError(err.field, err.code, err.message) from None


def _expense(kept: dict[str, Any]) -> Expense:
    """One of the CCZ's expenses as the reclaim keeps it (``ReclaimRecord.expenses``: its kind and
    integer centavos, above zero: the counter form checks them)."""
    return Expense(kept["kind"], kept["amount_cents"])


def owner_earlier_captures(
    profile: Profile, capture: Capture, owner_id: int | None
) -> list[SizeClass]:
    """CAB 19 §2: the owner's earlier offences, one per earlier capture day of any animal of the
    owner (recorded as its owner, or reclaimed by them), with the largest legal size class caught
    that day. A reincidência is a new offence after an earlier one: two horses caught together, or
    a second animal caught the same day, are one occasion, not a repeat."""
    if owner_id is None:
        return []
    reclaimed = select(ReclaimRecord.capture_id).where(
        ReclaimRecord.claimant_id == owner_id, ReclaimRecord.status != ReclaimStatus.CANCELLED
    )
    earlier = db.session.scalars(
        select(Capture).where(
            or_(Capture.owner_id == owner_id, Capture.id.in_(reclaimed)),
            Capture.captured_on < capture.captured_on,
        )
    )
    by_day: dict[date, SizeClass] = {}
    for other in earlier:
        size = legal_size(profile, other)
        known = by_day.get(other.captured_on)
        if known is None or SIZE_CLASSES.index(size) > SIZE_CLASSES.index(known):
            by_day[other.captured_on] = size
    return list(by_day.values())


def check_reclaimable(capture: Capture, today: date) -> None:
    if capture.status == CaptureStatus.DEFINITIVE_PENDING:
        raise DomainError(
            None,
            "definitive_pending",
            _(
                "Este animal está em procedimento de apreensão definitiva (%(article)s) e não pode "
                "ser resgatado até a decisão final.",
                article=capture.definitive_article,
            ),
        )
    if capture.status != CaptureStatus.IN_CUSTODY or definitive_upheld(capture):
        raise DomainError(None, "not_reclaimable", _("Este animal não pode mais ser resgatado."))
    if active_reclaim(capture) is not None:
        raise DomainError(None, "already_started", _("Já há um resgate em andamento."))


def start_reclaim(
    profile: Profile,
    capture: Capture,
    *,
    claimant: User,
    channel: str,
    started_by: User,
    today: date,
    exemption: str | None = None,
    expenses: list[dict[str, Any]] | None = None,
    away_from_home: bool | None = None,
) -> ReclaimRecord:
    """Open a reclaim and its payment item (guia or Stripe, as billing does everywhere).

    Online, only the owner of the animal's RGA may start it (GRU 82 §2: "somente o proprietário
    ou seu representante legal"); at the counter staff check the documents.
    """
    check_reclaimable(capture, today)
    observed = observation_ends(profile, capture)
    if observed is not None and today <= observed:
        # CAB 14; GRU 61: the owner takes it back only after the observation.
        raise DomainError(
            None,
            "under_observation",
            _(
                "O animal está em observação de raiva até %(day)s; o resgate só pode ser feito "
                "depois dela (%(article)s).",
                day=observed.strftime("%d/%m/%Y"),
                article=profile.impound.cite("observation_days"),
            ),
        )
    if channel == "online" and (capture.animal is None or capture.animal.owner_id != claimant.id):
        raise DomainError(
            None,
            "not_owner",
            _(
                "Só o proprietário do RGA pode iniciar o resgate pelo portal. Sem RGA, vá ao CCZ "
                "com documento com foto: o animal é registrado no resgate."
            ),
        )
    fee = reclaim_fee(
        profile,
        capture,
        today,
        exemption=exemption,
        expenses=expenses,
        away_from_home=away_from_home,
        claimant=claimant,
    )
    from portal.blueprints.billing.services import create_item_for_fee

    reclaim = ReclaimRecord(
        capture=capture,
        claimant_id=claimant.id,
        channel=channel,
        animal_id=capture.animal_id,
        exemption=exemption or None,
        expenses=expenses or None,
        started_by_id=started_by.id,
    )
    db.session.add(reclaim)
    db.session.flush()
    item = create_item_for_fee(
        fee,
        description=_("Resgate do animal (protocolo %(protocol)s)", protocol=capture.protocol),
        payer=claimant,
        subject_type=SETTLEMENT_SUBJECT,
        subject_id=capture.id,
    )
    reclaim.payment_item_id = item.id
    if item.status in ("paid", "exempt"):
        reclaim.status = ReclaimStatus.PAID
    db.session.flush()
    audit.record(
        "impound.reclaim_started",
        capture,
        detail={
            "protocol": capture.protocol,
            "channel": channel,
            "amount_cents": item.amount_cents,
            "exemption": exemption,
        },
    )
    return reclaim


def on_item_settled(item: PaymentItem) -> None:
    """Billing settlement listener: a paid reclaim awaits the release."""
    if item.subject_type != SETTLEMENT_SUBJECT:
        return
    reclaim = db.session.scalar(
        select(ReclaimRecord).where(
            ReclaimRecord.payment_item_id == item.id, ReclaimRecord.status == ReclaimStatus.STARTED
        )
    )
    if reclaim is not None:
        reclaim.status = ReclaimStatus.PAID
        db.session.flush()
        from .notices import reclaim_paid

        reclaim_paid(reclaim)  # next step: collect the animal at the CCZ (issue 25)


def register_on_reclaim(
    profile: Profile,
    reclaim: ReclaimRecord,
    *,
    name: str,
    birth_date: date,
    staff: User,
    today: date,
) -> Animal:
    """GRU 84; BJP 26 §ú: an unregistered dog or cat leaves with an RGA (the RGA domain's own
    registration; the rabies shot is recorded there when given at the CCZ)."""
    from portal.blueprints.animals.services import (
        AnimalData,
        AnimalError,
        RegistrationRequest,
        register_animal,
    )

    capture = reclaim.capture
    if capture.species not in ("dog", "cat"):
        raise DomainError(None, "not_registrable", _("Só cães e gatos recebem RGA."))
    if reclaim.animal_id is not None:
        raise DomainError(None, "already_registered", _("Este animal já tem RGA."))
    data = AnimalData(
        name=name,
        species=capture.species,
        sex=capture.sex if capture.sex != "unknown" else "male",
        birth_date=birth_date,
        birth_date_estimated=True,
        color=capture.color,
        breed="SRD",
        size=capture.size,
        microchip=capture.microchip,
    )
    try:
        animal = register_animal(
            RegistrationRequest(
                owner=reclaim.claimant,
                data=data,
                vaccination=None,
                vaccinate_at_ccz=True,
                registered_by=staff,
                api_client=None,
                profile=profile,
                today=today,
            )
        )
    except AnimalError as err:
        raise DomainError(
            getattr(err, "field", None),
            getattr(err, "code", "invalid"),
            str(getattr(err, "message", err)),
        ) from None
    reclaim.animal_id = animal.id
    reclaim.registered_on_reclaim = True
    capture.animal_id = animal.id
    capture.owner_id = reclaim.claimant_id
    db.session.flush()
    audit.record("impound.registered_on_reclaim", capture, detail={"rga": animal.rga})
    return animal


def record_rabies(
    profile: Profile,
    reclaim: ReclaimRecord,
    status: str,
    *,
    staff: User,
    today: date,
    vaccination: VaccinationData | None = None,
) -> None:
    """GRU 85; BJP 27 §ú: vaccinated against rabies before release, or the proof checked.

    "Vacinado no CCZ" writes the shot on the animal's RGA through the RGA domain's own
    :func:`record_vaccination` (BJP 13 §1 fields), so the RGA shows it and a registration made on
    reclaim becomes active."""
    if status not in RABIES:
        raise DomainError("rabies", "invalid", _("Escolha uma das opções."))
    animal = reclaim.capture.animal
    if status == "proof":
        from portal.blueprints.animals.services import current_vaccination

        if animal is None or current_vaccination(animal, today) is None:
            raise DomainError(
                "rabies",
                "no_proof",
                _(
                    "Não há vacinação antirrábica em dia no RGA: vacine o animal no CCZ ou "
                    "registre o comprovante no RGA."
                ),
            )
    if status == "vaccinated" and reclaim.capture.species in ("dog", "cat"):
        # GRU 85: the shot given at the CCZ goes on the RGA (registered first if it had none).
        reclaim.vaccination_id = _vaccinate(animal, vaccination, staff=staff, today=today).id
    reclaim.rabies = status
    db.session.flush()
    audit.record(
        "impound.rabies_checked",
        reclaim.capture,
        detail={"rabies": status, "vaccination_id": reclaim.vaccination_id},
        actor_id=staff.id,
    )


def _vaccinate(
    animal: Animal | None, data: VaccinationData | None, *, staff: User, today: date
) -> Vaccination:
    from portal.blueprints.animals.services import AnimalError, AnimalErrors, record_vaccination

    if animal is None:
        raise DomainError(
            "rabies",
            "not_registered",
            _("Registre o animal (RGA) antes de registrar a vacina aplicada no CCZ."),
        )
    if data is None:
        raise DomainError(
            "vaccine_name", "required", _("Informe a vacina, a partida e o veterinário.")
        )
    try:
        return record_vaccination(animal, data, recorded_by=staff, at_ccz=True, today=today)
    except AnimalErrors as err:
        first = err.errors[0]
        field = _VACCINE_FIELDS.get(first.field or "", "rabies")
        raise DomainError(field, first.code, first.message) from None
    except AnimalError as err:
        raise DomainError("rabies", err.code, err.message) from None


# The RGA domain's error fields → the fields of the impound vaccination form.
_VACCINE_FIELDS = {
    "rabies_vaccination.date": "rabies",
    "rabies_vaccination.vaccine": "vaccine_name",
    "rabies_vaccination.batch": "batch",
    "rabies_vaccination.vet_name": "vet_name",
    "rabies_vaccination.vet_crmv": "vet_crmv",
    "rabies_vaccination.expires_on": "expires_on",
}


def confirm_cause_ended(capture: Capture, *, agent: User) -> None:
    """CABO 10 §ú f; CAB 8 §ú; GRU 82 §1: the agent states that the cause of the capture ended."""
    capture.cause_ended_by_id = agent.id
    capture.cause_ended_at = utcnow()
    db.session.flush()
    audit.record("impound.cause_ended", capture, detail={"protocol": capture.protocol})


def release_term(profile: Profile, capture: Capture) -> str:
    """The term the owner signs (GRU 84 §1-2): the count and what the next capture means."""
    text = _("Declaro ter recebido o animal do protocolo %(protocol)s.", protocol=capture.protocol)
    rule = profile.impound.capture_count
    if rule:
        text += " " + _(
            "Estou ciente de que o animal foi capturado %(n)s vez(es) pelo CCZ no prazo de "
            "%(years)s anos contado da primeira captura (%(a1)s); de que a %(limit)sª captura "
            "nesse prazo determina a apreensão definitiva (%(a2)s).",
            n=capture.capture_number,
            years=rule.period_years,
            a1=rule.cite("period_years"),
            limit=rule.definitive_at,
            a2=rule.cite("definitive_at"),
        )
        if rule.follows_animal:
            text += " " + _(
                "Estou ciente também de que, ainda que eu aliene o animal, esse ônus o acompanha "
                "(%(a)s).",
                a=rule.cite("follows_animal"),
            )
    return text


def release(
    profile: Profile, capture: Capture, *, signed_by_name: str, staff: User, today: date
) -> ReleaseRecord:
    """Hand the animal back: paid, registered and vaccinated where the law says, cause ended."""
    reclaim = active_reclaim(capture)
    if reclaim is None or reclaim.status != ReclaimStatus.PAID:
        raise DomainError(None, "not_paid", _("O resgate ainda não foi pago."))
    if capture.status != CaptureStatus.IN_CUSTODY:
        raise DomainError(None, "not_in_custody", _("Este animal não está sob a guarda do CCZ."))
    if profile.impound.release_requires_cause_ended and capture.cause_ended_at is None:
        raise DomainError(
            None,
            "cause_not_ended",
            _(
                "Um agente precisa confirmar que não persistem as causas da captura (%(article)s).",
                article=profile.impound.cite("release_requires_cause_ended"),
            ),
        )
    pet = capture.species in ("dog", "cat")
    if pet and profile.reclaim.registered_on_reclaim and reclaim.animal_id is None:
        raise DomainError(
            None,
            "not_registered",
            _(
                "Registre o animal (RGA) antes de liberá-lo (%(article)s).",
                article=profile.reclaim.cite("registered_on_reclaim"),
            ),
        )
    if pet and profile.reclaim.vaccinated_before_release and reclaim.rabies is None:
        raise DomainError(
            "rabies",
            "rabies_missing",
            _(
                "Confira ou aplique a vacina antirrábica antes de liberar (%(article)s).",
                article=profile.reclaim.cite("vaccinated_before_release"),
            ),
        )
    if (
        profile.reclaim.repeat_requires_sterilisation
        and capture.capture_number > 1
        and not (capture.animal is not None and capture.animal.sterilized)
    ):
        # VV 22 §6: a repeat capture goes home only sterilised (recorded on the RGA).
        raise DomainError(
            None,
            "sterilisation_required",
            _(
                "Nova apreensão: o animal só é devolvido esterilizado (%(article)s). Registre a "
                "esterilização no RGA antes de liberar.",
                article=profile.reclaim.cite("repeat_requires_sterilisation"),
            ),
        )
    if not signed_by_name.strip():
        raise DomainError("signed_by_name", "required", _("Informe o nome de quem assina o termo."))
    record = ReleaseRecord(
        capture=capture,
        reclaim_id=reclaim.id,
        released_by_id=staff.id,
        signed_by_name=signed_by_name.strip(),
        capture_count_stated=capture.capture_number,
        term_text=release_term(profile, capture),
    )
    db.session.add(record)
    reclaim.status = ReclaimStatus.RELEASED
    capture.status = CaptureStatus.RELEASED
    from .euthanasia import withdraw_open_proposals

    withdraw_open_proposals(capture)  # back with its owner: no laudo pending for the NGOs
    db.session.flush()
    audit.record(
        "impound.released",
        capture,
        detail={"protocol": capture.protocol, "capture_count": capture.capture_number},
    )
    from .notices import released

    released(capture, record, reclaim)
    return record
