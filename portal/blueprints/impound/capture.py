"""Capture and custody: recording a capture in the field (identification looked up at
once, photos, deadline, count, the owner e-mailed), and the kennel's custody list."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import IO

from flask_babel import gettext as _
from sqlalchemy import or_, select
from sqlalchemy.orm import selectinload

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Animal,
    Capture,
    CaptureCounter,
    CapturePhoto,
    CaptureStatus,
    CustodyType,
    ReclaimRecord,
    ReclaimStatus,
    StoredFile,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import local_date
from portal.services.mail import send_email
from portal.urls import absolute_url

from .alerts import _match_alerts
from .apprehension import definitive_upheld, open_definitive_apprehension
from .deadlines import capture_count, hold_deadline
from .from_report import report_for_capture, tell_reporter_collected
from .labels import CONDITIONS, REASONS, SEXES, SIZES, SPECIES, reason_article, reason_label

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
    # sent with this post, or held by the form's draft across a refused post (issue 25)
    photos: list[tuple[IO[bytes], str | None] | StoredFile] = field(default_factory=list)
    report_protocol: str | None = None  # the maus-tratos report whose inspection asked for it


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
    report = report_for_capture(data.report_protocol) if data.report_protocol else None
    animal = lookup_animal(data.tag_read, data.microchip)
    from portal.blueprints.animals.services import normalise_microchip

    _check_not_in_custody(animal, normalise_microchip(data.microchip) if data.microchip else None)

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
        report_id=report.id if report else None,
        deadline_on=hold_deadline(
            profile,
            size=data.size,
            captured_on=data.captured_on,
            tagged=bool(data.tag_read and data.tag_read.strip()),
            custody_type=data.custody_type,
            species=data.species,  # GRU 10 XV: the legal class comes from the species
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
            "report": report.protocol if report else None,
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
    if report is not None:
        tell_reporter_collected(report, capture, agent)
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


CUSTODY_STATUSES = (CaptureStatus.IN_CUSTODY, CaptureStatus.DEFINITIVE_PENDING)


def _check_not_in_custody(animal: Animal | None, microchip: str | None) -> None:
    """An animal already "Sob guarda" of the CCZ cannot be captured again (issue 25): the agent
    has read the tag or chip of an animal that is in the kennel, not loose in the street."""
    matches = []
    if animal is not None:
        matches.append(Capture.animal_id == animal.id)
    if microchip:
        matches.append(Capture.microchip == microchip)
    if not matches:
        return
    held = db.session.scalar(
        select(Capture)
        .where(or_(*matches), Capture.status.in_(CUSTODY_STATUSES))
        .order_by(Capture.id)
        .limit(1)
    )
    if held is not None:
        raise DomainError(
            "tag_read" if animal is not None else "microchip",
            "already_in_custody",
            _(
                "Este animal já está sob a guarda do CCZ (captura %(protocol)s, de %(day)s): "
                "não pode ser capturado de novo. Confira a plaqueta ou o microchip.",
                protocol=held.protocol,
                day=held.captured_on.strftime("%d/%m/%Y"),
            ),
        )


def _store_photos(
    capture: Capture, photos: list[tuple[IO[bytes], str | None] | StoredFile]
) -> None:
    from portal.services.uploads import UploadError, store_image

    for position, photo in enumerate(photos):
        if isinstance(photo, StoredFile):  # already checked and stored: now the capture's
            photo.purpose, photo.owner_id, photo.public = "capture", None, True
            capture.photos.append(CapturePhoto(stored_file_id=photo.id, position=position))
            continue
        stream, filename = photo
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
    assert owner is not None and owner.email
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
    if capture.status == CaptureStatus.RELEASED and capture.release is not None:
        return _(
            "Nenhum: caso encerrado. Animal devolvido a %(name)s em %(day)s.",
            name=capture.release.signed_by_name,
            day=local_date(capture.release.released_at).strftime("%d/%m/%Y"),
        )
    if capture.status == CaptureStatus.DESTINED:
        latest = max(capture.destinations, key=lambda d: d.id or 0, default=None)
        if latest is not None and latest.destination == "auction" and not latest.auction_outcome:
            # CAB 20: a failed auction opens the destinations after it
            return _("Registrar o resultado do leilão em hasta pública")
        return _("Nenhum: caso encerrado, com a destinação decidida abaixo.")
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


def captures_of_animal(animal: Animal) -> list[Capture]:
    """The captures of an animal while its present owner had it, newest first (the owner's page;
    an earlier owner's captures stay private, though they still count: GRU 84 §2)."""
    return list(
        db.session.scalars(
            select(Capture)
            .where(Capture.animal_id == animal.id, Capture.owner_id == animal.owner_id)
            .order_by(Capture.captured_on.desc(), Capture.id.desc())
        )
    )


def captures_of_user(user: User) -> list[Capture]:
    """The captures a citizen follows, newest first: of animals recorded as theirs on the day, and
    those they reclaimed (an animal without RGA registered to them at the counter)."""
    claimed = select(ReclaimRecord.capture_id).where(ReclaimRecord.claimant_id == user.id)
    return list(
        db.session.scalars(
            select(Capture)
            .where(or_(Capture.owner_id == user.id, Capture.id.in_(claimed)))
            .order_by(Capture.captured_on.desc(), Capture.id.desc())
            # the cards and the to-do read these for every capture: one query each, not a row each
            .options(
                selectinload(Capture.animal),
                selectinload(Capture.release),
                selectinload(Capture.reclaims),
            )
        )
    )


def find_by_protocol(protocol: str) -> Capture | None:
    return db.session.scalar(select(Capture).where(Capture.protocol == protocol.strip().upper()))


def active_reclaim(capture: Capture) -> ReclaimRecord | None:
    return next(
        (r for r in capture.reclaims if r.status in (ReclaimStatus.STARTED, ReclaimStatus.PAID)),
        None,
    )
