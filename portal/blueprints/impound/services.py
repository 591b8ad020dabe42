"""Impound and reclaim rules (issue 14; DOMAIN §6, §8, §12).

Capture → custody with its hold deadline (the date engine, ``portal.services.dates``) → reclaim
with the fee (the fee service, ``portal.services.fees``) paid through billing → release after the
checks the profile's law asks for; or, after the deadline, a destination in the profile's order.
The capture count per animal (GRU 83 §ú, 84, 113) opens a definitive apprehension, which the
enforcement domain (issue 13) carries on through :func:`open_definitive_apprehension` and
:func:`decide_definitive_apprehension`.

Federal Lei 14.228/2021 is above every municipal article: a dog or cat is never offered
euthanasia unless a veterinarian's technical report (laudo) states a serious incurable disease or
an infectious condition that puts human or animal health at risk.

Services take model objects and values, flush (never commit) and raise DomainError.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import IO, Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Animal,
    Capture,
    CaptureCertificate,
    CaptureCounter,
    CapturePhoto,
    CaptureStatus,
    CertificateStatus,
    CustodyType,
    DestinationDecision,
    LostAnimalAlert,
    PaymentItem,
    ReclaimRecord,
    ReclaimStatus,
    ReleaseRecord,
    User,
)
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.dates import deadline, impound_release_date, term_of_years_ends
from portal.services.fees import Fee, FeeError, compute_fee
from portal.services.mail import send_email
from portal.services.municipal_holidays import municipal_holidays
from portal.urls import absolute_url

from .apprehension import (  # noqa: F401 (re-exported: staff views and tests use services.*)
    decide_definitive_apprehension,
    definitive_upheld,
    open_definitive_apprehension,
)

SPECIES = ("dog", "cat", "other")
SIZES = ("small", "medium", "large")
SEXES = ("male", "female", "unknown")
CONDITIONS = ("good", "ill", "injured", "serious")
REASONS = ("loose", "aggressive", "observation", "invader")
RABIES = ("proof", "vaccinated", "waived")
DESTINATIONS = ("adoption", "ngo_donation", "community_return", "auction", "euthanasia")
PUBLIC_DAYS = 30  # "Animais recolhidos": captures of the last 30 days
# Lei 14.228/2021: the federal article the portal cites for dogs and cats.
FEDERAL_EUTHANASIA = "Lei federal 14.228/2021, art. 1º e 2º"
# GRU 87 §ú: the apprehension takes effect after the final decision; the "next step" shown.
SETTLEMENT_SUBJECT = "capture"


def species_label(value: str) -> str:
    return {"dog": _("Cão"), "cat": _("Gato"), "other": _("Outro animal")}.get(value, value)


def size_label(value: str) -> str:
    return {
        "small": _("Pequeno porte"),
        "medium": _("Médio porte"),
        "large": _("Grande porte"),
    }.get(value, value)


def sex_label(value: str) -> str:
    return {"male": _("Macho"), "female": _("Fêmea"), "unknown": _("Não identificado")}.get(
        value, value
    )


def condition_label(value: str) -> str:
    return {
        "good": _("Bom estado"),
        "ill": _("Doente"),
        "injured": _("Ferido"),
        "serious": _("Estado grave"),
    }.get(value, value)


def custody_label(value: str) -> str:
    return {
        CustodyType.ORDINARY: _("Guarda comum"),
        CustodyType.OBSERVATION: _("Observação antirrábica"),
        CustodyType.AGGRESSIVE: _("Animal agressivo"),
    }.get(value, value)


def reason_label(value: str) -> str:
    return {
        "loose": _("Solto ou desacompanhado em via pública"),
        "aggressive": _("Animal agressivo ou mordedor"),
        "observation": _("Observação de raiva após agressão"),
        "invader": _("Animal invasor de propriedade"),
    }.get(value, value)


def status_label(value: str) -> str:
    return {
        CaptureStatus.IN_CUSTODY: _("Sob guarda do CCZ"),
        CaptureStatus.DEFINITIVE_PENDING: _("Apreensão definitiva em andamento"),
        CaptureStatus.RELEASED: _("Devolvido ao proprietário"),
        CaptureStatus.DESTINED: _("Destinado"),
    }.get(value, value)


def destination_label(value: str) -> str:
    return {
        "adoption": _("Adoção (anúncio do CCZ)"),
        "ngo_donation": _("Doação a ONG de proteção animal"),
        "community_return": _("Devolução à comunidade com cuidador"),
        "auction": _("Leilão em hasta pública"),
        "euthanasia": _("Eutanásia (somente com laudo veterinário)"),
    }.get(value, value)


def rabies_label(value: str | None) -> str:
    return {
        "proof": _("Vacina antirrábica em dia comprovada"),
        "vaccinated": _("Vacinado contra raiva no CCZ"),
        "waived": _("Vacinação dispensada pela autoridade sanitária"),
    }.get(value or "", "—")


def reason_article(profile: Profile, reason: str) -> str:
    """The article a capture reason rests on, from the profile's impound rule."""
    rule = profile.impound
    if reason == "observation" and rule.observation_days:
        return rule.cite("observation_days")  # CAB 30; GRU 61
    return rule.article


# ---------------------------------------------------------------------------------------------
# Deadlines
# ---------------------------------------------------------------------------------------------


def hold_deadline(
    profile: Profile,
    *,
    size: str,
    captured_on: date,
    tagged: bool,
    custody_type: str,
    holidays: Sequence[date] | None = None,
) -> date:
    """The last day the owner can reclaim, through the one date engine.

    Observation custody (CAB 14, 30; GRU 61): the observation days run first, calendar days; then
    the owner has ``observation_reclaim_hours`` (CAB 14: 48 hours), or the ordinary hold.
    """
    rule = profile.impound
    days_off = list(holidays) if holidays is not None else municipal_holidays([captured_on])
    if custody_type == CustodyType.OBSERVATION and rule.observation_days:
        observed = deadline(
            captured_on,
            rule.observation_days,
            "calendar",
            state=profile.state,
            municipal_holidays=days_off,
            moves_to_business_day=rule.moves_to_business_day,
        )
        if rule.observation_reclaim_hours:
            # CAB 14: 48 hours after the observation: whole days, counted like any term.
            return deadline(
                observed,
                -(-rule.observation_reclaim_hours // 24),
                "calendar",
                state=profile.state,
                municipal_holidays=days_off,
                moves_to_business_day=rule.moves_to_business_day,
            )
        return impound_release_date(profile, size, observed, tagged, days_off)  # type: ignore[arg-type]
    return impound_release_date(profile, size, captured_on, tagged, days_off)  # type: ignore[arg-type]


def observation_ends(profile: Profile, capture: Capture) -> date | None:
    """The last day of a rabies observation (CAB 14, 30; GRU 61); None for other custody."""
    rule = profile.impound
    if capture.custody_type != CustodyType.OBSERVATION or not rule.observation_days:
        return None
    return deadline(
        capture.captured_on,
        rule.observation_days,
        "calendar",
        state=profile.state,
        municipal_holidays=municipal_holidays([capture.captured_on]),
        moves_to_business_day=rule.moves_to_business_day,
    )


def capture_day_counts(profile: Profile) -> bool:
    """For the rules page: whether the capture day is day 1 of the hold (BJP 25 §1-2)."""
    return profile.impound.counting == "calendar_inclusive"


# ---------------------------------------------------------------------------------------------
# Capture count (GRU 83 §ú, 84 §1-2, §4, 113)
# ---------------------------------------------------------------------------------------------


def count_in_period(capture_days: Iterable[date], on: date, period_years: int | None) -> int:
    """Captures on or before ``on`` that have not prescribed by ``on``.

    GRU 84 §1 II, 113: each capture weighs on the animal for five years from its day (Código
    Civil art. 132 §3 for terms in years); a capture whose period ended before ``on`` no longer
    counts. 2021-03-15, 2023-02-01, 2026-03-10 → 3; 2020-12-01, 2023-05-05, 2026-01-20 → 2.
    ``period_years`` None: the law sets no period, every capture counts.
    """
    return sum(
        1
        for day in capture_days
        if day <= on and (period_years is None or on <= term_of_years_ends(day, period_years))
    )


def capture_count(
    profile: Profile, animal_id: int | None, on: date, *, exclude_id: int | None = None
) -> int:
    """Captures of one animal that count on ``on``, whoever owned it (GRU 83 §ú, 84 §2).

    The count restarts after a definitive apprehension was decided and the animal destined
    (GRU 84 §4): only captures after the last such one count.
    """
    if animal_id is None:
        return 0
    rows = db.session.execute(
        select(Capture.id, Capture.captured_on, Capture.count_reset)
        .where(Capture.animal_id == animal_id)
        .order_by(Capture.captured_on, Capture.id)
    ).all()
    days: list[date] = []
    for capture_id, day, reset in rows:
        if capture_id == exclude_id:
            continue
        if reset:
            days = []  # GRU 84 §4: "cessa o ônus apreensivo com a destinação"
            continue
        days.append(day)
    rule = profile.impound.capture_count
    return count_in_period(days, on, rule.period_years if rule else None)


# ---------------------------------------------------------------------------------------------
# Capture
# ---------------------------------------------------------------------------------------------


@dataclass
class CaptureData:
    species: str
    size: str
    sex: str
    color: str
    place: str
    district: str
    captured_at: datetime  # UTC-aware
    captured_on: date  # the municipality's day of ``captured_at``
    reason: str
    condition: str
    custody_type: str = CustodyType.ORDINARY
    tag_read: str | None = None
    microchip: str | None = None
    condition_note: str | None = None
    latitude: float | None = None
    longitude: float | None = None
    photos: list[tuple[IO[bytes], str | None]] = field(default_factory=list)


def _next_protocol(year: int) -> str:
    counter = db.session.get(CaptureCounter, year, with_for_update=True)
    if counter is None:
        counter = CaptureCounter(year=year, last_value=0)
        db.session.add(counter)
    counter.last_value += 1
    db.session.flush()
    return f"CAP-{year}-{counter.last_value:06d}"


def lookup_animal(tag_read: str | None, microchip: str | None) -> Animal | None:
    """The registered animal behind a tag or microchip read in the field (looked up at once)."""
    from portal.blueprints.animals.rga import InvalidRgaNumber
    from portal.blueprints.animals.services import find_by_rga, normalise_microchip

    if tag_read and tag_read.strip():
        try:
            found = find_by_rga(tag_read)
        except InvalidRgaNumber:
            raise DomainError(
                "tag_read",
                "invalid_rga",
                _("Número de RGA inválido: confira o que está na plaqueta."),
            ) from None
        if found is not None:
            return found
    chip = normalise_microchip(microchip) if microchip else None
    if chip:
        return db.session.scalar(select(Animal).where(Animal.microchip == chip))
    return None


def record_capture(profile: Profile, data: CaptureData, *, agent: User, today: date) -> Capture:
    """Record a capture, compute its deadline and count, e-mail an identified owner."""
    _check_capture(data, today)
    animal = lookup_animal(data.tag_read, data.microchip)
    from portal.blueprints.animals.services import normalise_microchip

    capture = Capture(
        protocol=_next_protocol(data.captured_on.year),
        species=data.species,
        size=data.size,
        sex=data.sex,
        color=data.color.strip(),
        tag_read=(data.tag_read or "").strip() or None,
        microchip=normalise_microchip(data.microchip) if data.microchip else None,
        tagged=bool(data.tag_read and data.tag_read.strip()),
        animal_id=animal.id if animal else None,
        owner_id=animal.owner_id if animal else None,
        place=data.place.strip(),
        district=data.district.strip(),
        latitude=data.latitude,
        longitude=data.longitude,
        captured_at=data.captured_at,
        captured_on=data.captured_on,
        reason=data.reason,
        reason_article=reason_article(profile, data.reason),
        condition=data.condition,
        condition_note=(data.condition_note or "").strip() or None,
        custody_type=data.custody_type,
        agent_id=agent.id,
        deadline_on=hold_deadline(
            profile,
            size=data.size,
            captured_on=data.captured_on,
            tagged=bool(data.tag_read and data.tag_read.strip()),
            custody_type=data.custody_type,
        ),
    )
    db.session.add(capture)
    db.session.flush()
    # GRU 83 §ú, 84 §1: this capture's number within the period, whoever owns the animal now.
    capture.capture_number = capture_count(profile, capture.animal_id, capture.captured_on)
    capture.capture_number = max(capture.capture_number, 1)
    _store_photos(capture, data.photos)
    audit.record(
        "impound.captured",
        capture,
        detail={
            "protocol": capture.protocol,
            "animal_id": capture.animal_id,
            "capture_number": capture.capture_number,
            "deadline": capture.deadline_on.isoformat(),
        },
    )
    rule = profile.impound.capture_count
    if rule and capture.animal_id and capture.capture_number >= rule.definitive_at:
        # GRU 84 §1 II, 87 III: the third capture within the period.
        open_definitive_apprehension(
            capture,
            article=rule.cite("definitive_at"),
            reason=_(
                "%(n)sª captura do animal dentro do prazo de %(years)s anos contado da primeira "
                "captura.",
                n=capture.capture_number,
                years=rule.period_years,
            ),
            actor=agent,
            notify=False,
        )
    if capture.owner is not None and capture.owner.email:
        _email_owner_captured(profile, capture)
    _match_alerts(capture)
    return capture


def _check_capture(data: CaptureData, today: date) -> None:
    checks = [
        ("species", data.species in SPECIES),
        ("size", data.size in SIZES),
        ("sex", data.sex in SEXES),
        ("reason", data.reason in REASONS),
        ("condition", data.condition in CONDITIONS),
        ("custody_type", data.custody_type in set(CustodyType)),
    ]
    for name, ok in checks:
        if not ok:
            raise DomainError(name, "invalid", _("Escolha uma das opções."))
    if not data.color.strip():
        raise DomainError("color", "required", _("Informe a cor ou pelagem."))
    if not data.place.strip():
        raise DomainError("place", "required", _("Informe o endereço ou ponto de referência."))
    if not data.district.strip():
        raise DomainError("district", "required", _("Informe o bairro."))
    if data.captured_on > today:
        raise DomainError("captured_at", "future", _("A data da captura não pode estar no futuro."))


def _store_photos(capture: Capture, photos: list[tuple[IO[bytes], str | None]]) -> None:
    from portal.services.uploads import UploadError, store_image

    for position, (stream, filename) in enumerate(photos):
        try:
            stored = store_image(
                stream, purpose="capture", owner_id=None, public=True, filename=filename
            )
        except UploadError as err:
            raise DomainError("photos", "invalid_photo", err.message) from None
        capture.photos.append(CapturePhoto(stored_file_id=stored.id, position=position))
    db.session.flush()


def _email_owner_captured(profile: Profile, capture: Capture) -> None:
    owner = capture.owner
    assert owner is not None
    lines = [
        _("Olá, %(name)s.", name=owner.full_name),
        "",
        _(
            "O animal de RGA %(rga)s foi recolhido pelo Centro de Controle de Zoonoses de "
            "%(city)s em %(day)s, no bairro %(district)s (protocolo %(protocol)s).",
            rga=capture.animal.rga if capture.animal else "—",
            city=profile.municipality,
            day=capture.captured_on.strftime("%d/%m/%Y"),
            district=capture.district,
            protocol=capture.protocol,
        ),
        _(
            "Motivo: %(reason)s (%(article)s).",
            reason=reason_label(capture.reason),
            article=capture.reason_article,
        ),
        _(
            "Ele está sob a guarda do CCZ. Prazo para o resgate: até %(day)s.",
            day=capture.deadline_on.strftime("%d/%m/%Y"),
        ),
        "",
    ]
    if capture.status == CaptureStatus.DEFINITIVE_PENDING:
        lines.append(
            _(
                "Este caso abriu um procedimento de apreensão definitiva (%(article)s): "
                "o animal fica sob a guarda do CCZ até a decisão final e não pode ser "
                "resgatado antes dela. Você será notificado e poderá apresentar defesa.",
                article=capture.definitive_article,
            )
        )
    else:
        lines.append(
            _(
                "Para resgatar, inicie o resgate pelo portal e pague a taxa, ou vá ao CCZ "
                "com documento com foto e o comprovante de vacinação antirrábica: %(url)s",
                url=absolute_url("impound.my_capture", protocol=capture.protocol),
            )
        )
    send_email(
        owner.email,
        _("Seu animal foi recolhido pelo CCZ (%(protocol)s)", protocol=capture.protocol),
        "\n".join(lines),
    )
    audit.record("impound.owner_notified", capture, detail={"protocol": capture.protocol})


# ---------------------------------------------------------------------------------------------
# Custody list
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CustodyRow:
    capture: Capture
    days_left: int
    next_step: str


def next_step(capture: Capture, today: date) -> str:
    if capture.status == CaptureStatus.DEFINITIVE_PENDING:
        return _(
            "Aguardar a decisão da apreensão definitiva (%(article)s)",
            article=capture.definitive_article,
        )
    if definitive_upheld(capture):
        return _("Decidir a destinação (apreensão definitiva mantida)")
    open_reclaim = active_reclaim(capture)
    if open_reclaim is not None:
        if open_reclaim.status == ReclaimStatus.PAID:
            return _("Liberar: conferir e registrar a devolução")
        return _("Aguardar o pagamento do resgate")
    if capture.custody_type == CustodyType.OBSERVATION and today <= capture.deadline_on:
        return _("Observação antirrábica em curso")
    if today > capture.deadline_on:
        return _("Prazo vencido: decidir a destinação")
    return _("Aguardar o proprietário até o fim do prazo")


def custody_rows(today: date) -> list[CustodyRow]:
    found = db.session.scalars(
        select(Capture)
        .where(Capture.status.in_([CaptureStatus.IN_CUSTODY, CaptureStatus.DEFINITIVE_PENDING]))
        .order_by(Capture.deadline_on, Capture.id)
    )
    return [CustodyRow(c, (c.deadline_on - today).days, next_step(c, today)) for c in found]


def find_by_protocol(protocol: str) -> Capture | None:
    return db.session.scalar(select(Capture).where(Capture.protocol == protocol.strip().upper()))


def active_reclaim(capture: Capture) -> ReclaimRecord | None:
    return next(
        (r for r in capture.reclaims if r.status in (ReclaimStatus.STARTED, ReclaimStatus.PAID)),
        None,
    )


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
) -> Fee:
    """The reclaim fee from the one fee service (daily rates, repeats, free windows, exemptions)."""
    inputs: dict[str, Any] = {
        "size": capture.size,
        "apprehended_on": capture.captured_on,
        "reclaimed_on": on,
        "capture_number": capture.capture_number,
        "tagged": capture.tagged,
        "exemption": exemption or None,
        "expenses": expenses or None,
    }
    if away_from_home is not None:
        inputs["away_from_home"] = away_from_home
    elif capture.capture_number > 1:
        inputs["away_from_home"] = capture.reason != "invader"  # VV 22 §6: caught away from home
    try:
        return compute_fee(profile, "reclaim", inputs, on)
    except FeeError as err:
        raise DomainError(err.field, err.code, err.message) from None


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
    from portal.blueprints.animals.services import AnimalData, AnimalError, register_animal

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
            owner=reclaim.claimant,
            data=data,
            vaccination=None,
            vaccinate_at_ccz=True,
            registered_by=staff,
            api_client=None,
            profile=profile,
            today=today,
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
    profile: Profile, reclaim: ReclaimRecord, status: str, *, staff: User, today: date
) -> None:
    """GRU 85; BJP 27: vaccinated against rabies before release, or the proof checked."""
    if status not in RABIES:
        raise DomainError("rabies", "invalid", _("Escolha uma das opções."))
    if status == "proof":
        from portal.blueprints.animals.services import current_vaccination

        animal = reclaim.capture.animal
        if animal is None or current_vaccination(animal, today) is None:
            raise DomainError(
                "rabies",
                "no_proof",
                _(
                    "Não há vacinação antirrábica em dia no RGA: vacine o animal no CCZ ou registre "
                    "o comprovante no RGA."
                ),
            )
    reclaim.rabies = status
    db.session.flush()
    audit.record(
        "impound.rabies_checked", reclaim.capture, detail={"rabies": status}, actor_id=staff.id
    )


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
            "nesse prazo determina a apreensão definitiva (%(a2)s); e de que, ainda que eu "
            "aliene o animal, esse ônus o acompanha (GRU 84 §2).",
            n=capture.capture_number,
            years=rule.period_years,
            a1=rule.cite("period_years"),
            limit=rule.definitive_at,
            a2=rule.cite("definitive_at"),
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
    db.session.flush()
    audit.record(
        "impound.released",
        capture,
        detail={"protocol": capture.protocol, "capture_count": capture.capture_number},
    )
    return record


# ---------------------------------------------------------------------------------------------
# Destinations (CABO 13; CAB 9, 11, 15-16, 20; VV 19-21; BJP 25 §3-4; GRU 86, 88, 90)
# ---------------------------------------------------------------------------------------------


def destinations_offered(
    profile: Profile, capture: Capture, *, incurable_laudo: bool = False
) -> list[str]:
    """The destinations the law allows for this animal, in the profile's order of priority.

    Lei 14.228/2021: euthanasia appears only when a vet's laudo states a serious incurable
    disease or infectious risk — never for a healthy dog or cat.
    """
    rule = profile.impound
    offered = []
    for destination in rule.destinations:
        if destination == "auction" and capture.size not in rule.auction_sizes:
            continue  # CAB 11 II, 20: medium and large animals
        if destination == "community_return" and capture.species not in ("dog", "cat"):
            continue
        offered.append(destination)
    if incurable_laudo:
        offered.append("euthanasia")
    return offered


@dataclass
class DestinationData:
    destination: str
    reason: str
    vet_report: str | None = None
    vet_crmv: str | None = None
    lab_exam: str | None = None
    incurable: bool = False  # the laudo states a serious incurable/infectious condition
    organization_id: int | None = None
    carer_name: str | None = None
    listing_name: str | None = None


def decide_destination(
    profile: Profile, capture: Capture, data: DestinationData, *, actor: User, today: date
) -> DestinationDecision:
    """Record where the animal goes, who decided and why."""
    if capture.status == CaptureStatus.DEFINITIVE_PENDING:
        raise DomainError(
            None,
            "definitive_pending",
            _(
                "Aguarde a decisão final da apreensão definitiva (%(article)s).",
                article=capture.definitive_article,
            ),
        )
    if capture.status != CaptureStatus.IN_CUSTODY:
        raise DomainError(None, "not_in_custody", _("Este animal não está sob a guarda do CCZ."))
    if active_reclaim(capture) is not None:
        raise DomainError(None, "reclaim_open", _("Há um resgate em andamento para este animal."))
    laudo = bool((data.vet_report or "").strip())
    is_vet = actor.has_role("vet")
    before = today <= capture.deadline_on and not definitive_upheld(capture)
    if before:
        # BJP 25 §4; CAB 9; GRU 90: only a vet, with a technical report, for a seriously ill or
        # injured animal, and where the law gives that power.
        if not (
            profile.impound.vet_early_destination
            and is_vet
            and laudo
            and capture.condition in ("ill", "injured", "serious")
        ):
            raise DomainError(
                "destination",
                "before_deadline",
                _(
                    "O prazo de resgate vai até %(day)s. Antes dele, só o médico veterinário decide "
                    "a destinação de um animal gravemente doente ou ferido, com laudo técnico.",
                    day=capture.deadline_on.strftime("%d/%m/%Y"),
                ),
            )
    if not data.reason.strip():
        raise DomainError("reason", "required", _("Explique o motivo da decisão."))
    incurable_laudo = data.incurable and laudo and is_vet
    if data.destination not in destinations_offered(
        profile, capture, incurable_laudo=incurable_laudo
    ):
        if data.destination == "euthanasia":
            # Lei 14.228/2021, art. 1º-2º: never for a healthy dog or cat; the laudo is required.
            raise DomainError(
                "destination",
                "euthanasia_refused",
                _(
                    "Eutanásia só com laudo do médico veterinário responsável que ateste doença "
                    "grave incurável ou doença infectocontagiosa com risco à saúde humana ou animal "
                    "(%(law)s).",
                    law=FEDERAL_EUTHANASIA,
                ),
            )
        raise DomainError(
            "destination", "not_allowed", _("Esta destinação não é prevista para este animal.")
        )
    if data.destination == "euthanasia" and not (data.vet_crmv or "").strip():
        raise DomainError("vet_crmv", "required", _("Informe o CRMV do veterinário."))
    decision = DestinationDecision(
        capture=capture,
        destination=data.destination,
        reason=data.reason.strip(),
        before_deadline=before,
        vet_report=(data.vet_report or "").strip() or None,
        vet_crmv=(data.vet_crmv or "").strip() or None,
        lab_exam=(data.lab_exam or "").strip() or None,
        decided_by_id=actor.id,
    )
    if data.destination == "ngo_donation":
        _check_ngo(data.organization_id)  # BJP 25 §3 I: an approved animal-protection NGO
        decision.organization_id = data.organization_id
    if data.destination == "community_return":
        if not (data.carer_name or "").strip():
            raise DomainError(
                "carer_name",
                "required",
                _("Informe o cuidador responsável na comunidade (BJP 25 §3 II; VV 19)."),
            )
        decision.carer_name = data.carer_name.strip()  # type: ignore[union-attr]
    db.session.add(decision)
    if data.destination == "adoption":
        decision.listing_id = _adoption_draft(capture, data.listing_name, actor, today).id
    capture.status = CaptureStatus.DESTINED
    db.session.flush()
    audit.record(
        "impound.destined",
        capture,
        detail={
            "destination": data.destination,
            "before_deadline": before,
            "vet_report": decision.vet_report is not None,
        },
    )
    return decision


def _check_ngo(organization_id: int | None) -> None:
    from portal.models import Organization

    org = db.session.get(Organization, organization_id) if organization_id else None
    if org is None or not org.is_approved:
        raise DomainError(
            "organization_id", "not_approved", _("Escolha uma ONG aprovada pelo CCZ.")
        )


def _adoption_draft(capture: Capture, name: str | None, actor: User, today: date) -> Any:
    """A CCZ adoption listing draft carrying the capture's photos and health record."""
    from portal.blueprints.adoption.services import ListingData, create_listing
    from portal.models import ListingPhoto
    from portal.services.dates import add_months

    if capture.species not in ("dog", "cat"):
        raise DomainError(
            "destination", "not_allowed", _("O anúncio de adoção do portal é para cães e gatos.")
        )
    data = ListingData(
        name=(name or "").strip() or _("Animal %(protocol)s", protocol=capture.protocol),
        species=capture.species,
        sex=capture.sex if capture.sex != "unknown" else "male",
        birth_date=add_months(today, -24),
        birth_date_estimated=True,
        size=capture.size,
        color=capture.color,
        district=capture.district,
        held_since=capture.captured_on,
        story=_(
            "Recolhido pelo CCZ em %(day)s (protocolo %(protocol)s). Estado: %(state)s.",
            day=capture.captured_on.strftime("%d/%m/%Y"),
            protocol=capture.protocol,
            state=condition_label(capture.condition),
        ),
    )
    listing = create_listing(None, actor, data)
    for photo in capture.photos:
        listing.photos.append(
            ListingPhoto(stored_file_id=photo.stored_file_id, position=photo.position)
        )
    db.session.flush()
    return listing


# ---------------------------------------------------------------------------------------------
# Public pages: "Animais recolhidos" and "Perdi meu animal"
# ---------------------------------------------------------------------------------------------


def recent_captures(
    today: date, *, species: str | None = None, district: str | None = None, size: str | None = None
) -> list[Capture]:
    """Animals captured in the last 30 days and still with the CCZ (no exact address shown)."""
    query = (
        select(Capture)
        .where(
            Capture.captured_on >= today - timedelta(days=PUBLIC_DAYS),
            Capture.status.in_([CaptureStatus.IN_CUSTODY, CaptureStatus.DEFINITIVE_PENDING]),
        )
        .order_by(Capture.captured_on.desc(), Capture.id.desc())
    )
    if species in SPECIES:
        query = query.where(Capture.species == species)
    if size in SIZES:
        query = query.where(Capture.size == size)
    if district:
        query = query.where(func.lower(Capture.district).contains(district.strip().lower()))
    return list(db.session.scalars(query.limit(200)))


@dataclass
class AlertData:
    species: str
    lost_on: date
    color: str | None = None
    district: str | None = None
    microchip: str | None = None
    rga: str | None = None
    description: str | None = None
    animal_id: int | None = None


def create_alert(user: User, data: AlertData, today: date) -> LostAnimalAlert:
    if data.species not in SPECIES:
        raise DomainError("species", "invalid", _("Escolha uma das opções."))
    if data.lost_on > today:
        raise DomainError("lost_on", "future", _("A data não pode estar no futuro."))
    if data.animal_id is not None:
        animal = db.session.get(Animal, data.animal_id)
        if animal is None or animal.owner_id != user.id:
            raise DomainError("animal_id", "invalid", _("Escolha um dos seus animais."))
        data.species, data.rga = animal.species, animal.rga
        data.microchip = data.microchip or animal.microchip
        data.color = data.color or animal.color
    alert = LostAnimalAlert(
        user_id=user.id,
        animal_id=data.animal_id,
        species=data.species,
        color=(data.color or "").strip() or None,
        district=(data.district or "").strip() or None,
        microchip=(data.microchip or "").strip() or None,
        rga=(data.rga or "").strip() or None,
        description=(data.description or "").strip() or None,
        lost_on=data.lost_on,
    )
    db.session.add(alert)
    db.session.flush()
    audit.record("impound.alert_created", alert)
    for capture in recent_captures(today, species=data.species):
        if _matches(alert, capture):
            _email_match(alert, capture)
            break
    return alert


def _matches(alert: LostAnimalAlert, capture: Capture) -> bool:
    if alert.species != capture.species or capture.captured_on < alert.lost_on:
        return False
    if alert.microchip and capture.microchip and alert.microchip == capture.microchip:
        return True
    if alert.rga and capture.animal is not None and capture.animal.rga == alert.rga:
        return True
    if alert.rga and capture.tag_read and capture.tag_read.replace(" ", "") == alert.rga:
        return True
    color_ok = bool(alert.color) and _fold(alert.color) in _fold(capture.color)
    district_ok = bool(alert.district) and _fold(alert.district) == _fold(capture.district)
    return color_ok and district_ok


def _fold(text: str | None) -> str:
    import unicodedata

    plain = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode()
    return " ".join(plain.lower().split())


def _match_alerts(capture: Capture) -> None:
    alerts = db.session.scalars(
        select(LostAnimalAlert).where(
            LostAnimalAlert.active.is_(True), LostAnimalAlert.species == capture.species
        )
    )
    for alert in alerts:
        if _matches(alert, capture):
            _email_match(alert, capture)


def _email_match(alert: LostAnimalAlert, capture: Capture) -> None:
    person = db.session.get(User, alert.user_id)
    alert.last_match_capture_id = capture.id
    if person is None or not person.email:
        return
    send_email(
        person.email,
        _("Um animal parecido com o seu foi recolhido pelo CCZ"),
        "\n".join(
            [
                _("Olá, %(name)s.", name=person.full_name),
                "",
                _(
                    "O CCZ recolheu em %(day)s, no bairro %(district)s, um animal parecido com o que você "
                    "perdeu (%(species)s, %(color)s). Prazo para o resgate: até %(deadline)s.",
                    day=capture.captured_on.strftime("%d/%m/%Y"),
                    district=capture.district,
                    species=species_label(capture.species),
                    color=capture.color,
                    deadline=capture.deadline_on.strftime("%d/%m/%Y"),
                ),
                _(
                    "Veja a foto e o que levar para o resgate: %(url)s",
                    url=absolute_url("impound.public_capture", protocol=capture.protocol),
                ),
            ]
        ),
    )
    db.session.flush()
    audit.record(
        "impound.alert_matched", alert, detail={"protocol": capture.protocol}, actor_id=None
    )


# ---------------------------------------------------------------------------------------------
# Certidão negativa de captura (GRU 84 §3, §5)
# ---------------------------------------------------------------------------------------------


def certificates_offered(profile: Profile) -> bool:
    return profile.impound.capture_certificate and profile.impound.capture_count is not None


def request_certificate(
    profile: Profile, rga: str, *, requester: User, exam_on: date, today: date
) -> CaptureCertificate:
    """GRU 84 §3: anyone who means to acquire an animal asks for its certidão; 84 §5: the animal
    is brought, contained, to the CCZ for the exam on ``exam_on`` (a business day)."""
    from portal.blueprints.animals.rga import InvalidRgaNumber
    from portal.blueprints.animals.services import find_by_rga
    from portal.services.dates import business_days_calendar

    if not certificates_offered(profile):
        raise DomainError(None, "not_offered", _("Esta lei não prevê a certidão."))
    try:
        animal = find_by_rga(rga)
    except InvalidRgaNumber:
        animal = None
    if animal is None:
        raise DomainError("rga", "unknown", _("Não encontramos um animal com este RGA."))
    calendar = business_days_calendar(profile.state, municipal_holidays([exam_on]))
    if exam_on <= today or not calendar(exam_on):
        raise DomainError(
            "exam_on",
            "not_business_day",
            _("Escolha um dia útil a partir de amanhã para levar o animal ao CCZ."),
        )
    cert = CaptureCertificate(
        code=_certificate_code(), animal_id=animal.id, requester_id=requester.id, exam_on=exam_on
    )
    db.session.add(cert)
    db.session.flush()
    audit.record("impound.certificate_requested", cert, detail={"rga": animal.rga})
    return cert


def _certificate_code() -> str:
    alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "CNC-" + "".join(secrets.choice(alphabet) for _ in range(10))


def issue_certificate(
    profile: Profile,
    cert: CaptureCertificate,
    *,
    confirmed: bool,
    note: str,
    staff: User,
    today: date,
) -> CaptureCertificate:
    """After the exam (tag, microchip, description): the captures within the period, or none."""
    if cert.status != CertificateStatus.REQUESTED:
        raise DomainError(None, "already_decided", _("Este pedido já foi concluído."))
    cert.examined_by_id = staff.id
    cert.exam_note = note.strip() or None
    if not confirmed:
        if not note.strip():
            raise DomainError("note", "required", _("Explique por que o animal não confere."))
        cert.status = CertificateStatus.REFUSED
    else:
        rule = profile.impound.capture_count
        assert rule is not None
        cert.status = CertificateStatus.ISSUED
        cert.issued_on = today
        cert.period_to = today
        cert.period_from = (
            today.replace(year=today.year - rule.period_years)
            if not (today.month == 2 and today.day == 29)
            else date(today.year - rule.period_years, 2, 28)
        )
        cert.captures_in_period = capture_count(profile, cert.animal_id, today)  # GRU 84 §3, 113
    db.session.flush()
    audit.record("impound.certificate_decided", cert, detail={"status": cert.status})
    return cert


def certificate_by_code(code: str) -> CaptureCertificate | None:
    return db.session.scalar(
        select(CaptureCertificate).where(
            CaptureCertificate.code == code.strip().upper(),
            CaptureCertificate.status == CertificateStatus.ISSUED,
        )
    )


def certificate_json(cert: CaptureCertificate) -> dict[str, Any]:
    """What the public check shows: nothing about the owner or the requester."""
    return {
        "code": cert.code,
        "rga": cert.animal.rga,
        "captures_in_period": cert.captures_in_period,
        "period_from": cert.period_from.isoformat() if cert.period_from else None,
        "period_to": cert.period_to.isoformat() if cert.period_to else None,
        "issued_on": cert.issued_on.isoformat() if cert.issued_on else None,
    }


def export_personal_data(user: User) -> list[dict[str, Any]]:
    """LGPD data download: the person's lost-animal alerts, certidão requests and captures of
    their animals (the exact capture place included: it is about their animal)."""
    alerts = db.session.scalars(select(LostAnimalAlert).where(LostAnimalAlert.user_id == user.id))
    certs = db.session.scalars(
        select(CaptureCertificate).where(CaptureCertificate.requester_id == user.id)
    )
    captures = db.session.scalars(select(Capture).where(Capture.owner_id == user.id))
    return [
        *(
            {
                "aviso_animal_perdido": a.id,
                "especie": a.species,
                "cor": a.color,
                "bairro": a.district,
                "perdido_em": a.lost_on,
            }
            for a in alerts
        ),
        *(
            {"certidao": c.code, "rga": c.animal.rga, "situacao": c.status, "exame_em": c.exam_on}
            for c in certs
        ),
        *(
            {
                "captura": c.protocol,
                "recolhido_em": c.captured_on,
                "local": c.place,
                "bairro": c.district,
                "situacao": c.status,
            }
            for c in captures
        ),
    ]
