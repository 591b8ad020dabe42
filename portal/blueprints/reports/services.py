"""The rules of maus-tratos reports: intake, duplicates, the state machine, inspection, privacy.

Services take model objects and values (never ``request``), ``flush`` and raise
:class:`ReportErrors` (input problems, with the field) or :class:`IllegalMove` (a state change the
state machine or the actor's role does not allow).

Who sees the reporter of a confidential report (:func:`may_see_reporter`): the coordinator, who
triages and may need to ask the reporter for details, and the agent assigned to the report, who may
need directions to the place. Nobody else: not admins (they run the system, not the case), not vets,
not other agents; never the reported person. Every view of the identity is audited.

An anonymous report stores nothing about the reporter: no contact row, photos without an owner or
a file name, no audit event with the signed-in account, no IP (the rate limiter keeps that in its
own memory only).
"""

from __future__ import annotations

import hashlib
import hmac
import io
import math
import secrets
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from typing import IO, Any
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from PIL import Image, UnidentifiedImageError
from sqlalchemy import func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from portal.blueprints.reports.labels import STATE_LABELS, category_label
from portal.extensions import db
from portal.models import (
    ApiClient,
    IdentityMode,
    Inspection,
    InspectionOutcome,
    MaltreatmentReport,
    ReportCounter,
    ReporterContact,
    ReportEvent,
    ReportPhoto,
    ReportState,
    User,
)
from portal.models.report import OPEN_STATES
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import current_profile, local_today  # noqa: F401  (re-exported)
from portal.services.identity import clean_cep, residence_key
from portal.services.mail import send_email
from portal.services.uploads import UploadError, store_image
from portal.urls import absolute_url

MAX_PHOTOS = 6
MAX_DESCRIPTION = 4000
MAX_INFO = 2000
MAX_ANIMALS = 500
DUPLICATE_DAYS = 30
DUPLICATE_METRES = 50
PHOTO_PURPOSE = "report_photo"
SPECIES = ("dog", "cat", "other")
FINDINGS = ("ok", "problem", "not_checked")
# Federal law above the municipal ones (DOMAIN §12): maus-tratos is a crime.
FEDERAL_CRIME = "Lei 9.605/98, art. 32"
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud on the phone


class ReportErrors(Exception):
    """Input problems: ``errors`` is a list of (field, code, message)."""

    def __init__(self, errors: list[tuple[str, str, str]]) -> None:
        super().__init__(errors)
        self.errors = errors


class IllegalMove(Exception):
    """The state machine or the actor's role does not allow this change."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class PhotoUpload:
    stream: IO[bytes]
    use_gps: bool = False  # the reporter agreed to place the pin from the photo's GPS


@dataclass
class ReportData:
    category: str = ""
    description: str = ""
    seen_on: date | None = None
    species: str | None = None
    animal_count: int | None = None
    cep: str | None = None
    street: str | None = None
    number: str | None = None
    complement: str | None = None
    district: str | None = None
    reference: str | None = None
    lat: float | None = None
    lng: float | None = None
    identity: str = IdentityMode.ANONYMOUS
    name: str | None = None
    email: str | None = None
    phone: str | None = None
    photos: list[PhotoUpload] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


# current_profile and local_today come from portal.services.clock (imported above).


def local_day_start(day: date, profile: Profile | None = None) -> datetime:
    profile = profile or current_profile()
    return datetime.combine(day, time.min, tzinfo=ZoneInfo(profile.timezone)).astimezone(UTC)


def _clean(text: str | None) -> str | None:
    text = (text or "").strip()
    return text or None


def distance_metres(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance (haversine); plenty for "within 50 m"."""
    r = 6_371_000.0
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def _hash_code(code: str) -> str:
    compact = code.strip().upper().replace("-", "").replace(" ", "")
    return hashlib.sha256(compact.encode()).hexdigest()


def new_tracking_code() -> str:
    """12 characters (~59 bits) in three groups, e.g. ``K7QM-3XPA-9RTD``."""
    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(12))
    return f"{raw[:4]}-{raw[4:8]}-{raw[8:]}"


def next_sequence(year: int) -> int:
    """The next protocol sequence of ``year``; row-locked like ``RgaCounter`` (see animals)."""
    bump = (
        update(ReportCounter)
        .where(ReportCounter.year == year)
        .values(last_value=ReportCounter.last_value + 1)
        .returning(ReportCounter.last_value)
        .execution_options(synchronize_session=False)
    )
    value = db.session.execute(bump).scalar_one_or_none()
    if value is None:
        dialect = db.session.get_bind().dialect.name
        insert = pg_insert if dialect == "postgresql" else sqlite_insert
        db.session.execute(
            insert(ReportCounter).values(year=year, last_value=0).on_conflict_do_nothing()
        )
        value = db.session.execute(bump).scalar_one()
    return int(value)


def issue_protocol(today: date) -> str:
    return f"DEN-{today.year}-{next_sequence(today.year):06d}"


def normalise_protocol(value: str) -> str:
    return (value or "").strip().upper().replace(" ", "")


def photo_gps(data: bytes) -> tuple[float, float] | None:
    """The GPS point in a photo's EXIF, read only when the reporter agreed (before stripping)."""
    try:
        with Image.open(io.BytesIO(data)) as image:
            gps = image.getexif().get_ifd(0x8825)
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError):
        return None
    try:

        def degrees(values: Any, ref: str) -> float:
            d, m, s = (float(v) for v in values)
            sign = -1 if ref in ("S", "W") else 1
            return sign * (d + m / 60 + s / 3600)

        lat = degrees(gps[2], gps[1])
        lng = degrees(gps[4], gps[3])
    except (KeyError, TypeError, ValueError, ZeroDivisionError):
        return None
    if not (-90 <= lat <= 90 and -180 <= lng <= 180) or (lat == 0 and lng == 0):
        return None
    return lat, lng


# ---------------------------------------------------------------------------------------------
# Intake
# ---------------------------------------------------------------------------------------------


def validate(profile: Profile, data: ReportData, today: date) -> list[tuple[str, str, str]]:
    """Every problem of a new report at once."""
    errors: list[tuple[str, str, str]] = []
    # The conducts the city's law calls maus-tratos (VV 3 IX; GRU 10 V; BJP 29; CABO 3 XI;
    # CAB 2 XIV).
    if profile.reports.category(data.category) is None:
        errors.append(("category", "category", _("Escolha o que está acontecendo.")))
    description = (data.description or "").strip()
    if len(description) < 10:
        errors.append(
            (
                "description",
                "short",
                _("Conte em poucas palavras o que você viu (pelo menos 10 letras)."),
            )
        )
    elif len(description) > MAX_DESCRIPTION:
        errors.append(
            (
                "description",
                "long",
                _("Texto longo demais: o limite é %(n)d caracteres.", n=MAX_DESCRIPTION),
            )
        )
    if data.seen_on is not None and data.seen_on > today:
        errors.append(("seen_on", "future", _("A data não pode estar no futuro.")))
    if data.species is not None and data.species not in SPECIES:
        errors.append(("species", "species", _("Escolha uma espécie da lista.")))
    if data.animal_count is not None and not 1 <= data.animal_count <= MAX_ANIMALS:
        errors.append(
            ("animal_count", "range", _("Informe um número entre 1 e %(n)d.", n=MAX_ANIMALS))
        )
    has_point = data.lat is not None and data.lng is not None
    if has_point and not (-90 <= data.lat <= 90 and -180 <= data.lng <= 180):  # type: ignore[operator]
        errors.append(("lat", "point", _("O ponto do mapa é inválido.")))
    if data.cep and clean_cep(data.cep) is None:
        errors.append(("cep", "cep", _("O CEP tem 8 dígitos.")))
    wants_gps = any(p.use_gps for p in data.photos)
    if not has_point and not wants_gps and not (_clean(data.street) or _clean(data.reference)):
        errors.append(
            (
                "street",
                "where",
                _(
                    "Diga onde: a rua (com número, se souber), um ponto de referência ou "
                    "um ponto no mapa."
                ),
            )
        )
    if len(data.photos) > MAX_PHOTOS:
        errors.append(("photos", "too_many", _("Envie no máximo %(n)d fotos.", n=MAX_PHOTOS)))
    if data.identity not in (IdentityMode.ANONYMOUS, IdentityMode.CONFIDENTIAL):
        errors.append(("identity", "identity", _("Escolha como quer se identificar.")))
    elif data.identity == IdentityMode.CONFIDENTIAL:
        if not _clean(data.name):
            errors.append(
                ("name", "required", _("Informe seu nome ou escolha a denúncia anônima."))
            )
        if not (_clean(data.email) or _clean(data.phone)):
            errors.append(
                ("email", "required", _("Informe um e-mail ou telefone para o CCZ falar com você."))
            )
        if _clean(data.email) and "@" not in (data.email or ""):
            errors.append(("email", "email", _("E-mail inválido.")))
    return errors


def _address_key(
    cep: str | None, street: str | None, number: str | None, complement: str | None
) -> str | None:
    if not _clean(street):
        return None
    return residence_key(cep, street, number, complement)


def find_duplicate(
    category: str,
    key: str | None,
    lat: float | None,
    lng: float | None,
    now: datetime,
    *,
    exclude_id: int | None = None,
) -> MaltreatmentReport | None:
    """An open report of the same category at the same place within 30 days, if any.

    Same place = the same normalised address, or map points at most 50 m apart.
    """
    since = now - timedelta(days=DUPLICATE_DAYS)
    candidates = db.session.scalars(
        select(MaltreatmentReport)
        .where(
            MaltreatmentReport.category == category,
            MaltreatmentReport.state.in_(list(OPEN_STATES)),
            MaltreatmentReport.created_at >= since,
        )
        .order_by(MaltreatmentReport.created_at)
    ).all()
    for report in candidates:
        if report.id == exclude_id:
            continue
        if key and report.residence_key == key:
            return report
        if (
            lat is not None
            and lng is not None
            and report.lat is not None
            and report.lng is not None
            and distance_metres(lat, lng, report.lat, report.lng) <= DUPLICATE_METRES
        ):
            return report
    return None


def _store_photos(
    report: MaltreatmentReport, photos: list[PhotoUpload], stage: str, field_name: str = "photos"
) -> tuple[float, float] | None:
    """Store photos (re-encoded, metadata dropped); return the first consented GPS point.

    Report photos never get an owner or the file's name: both could identify the reporter.
    """
    point = None
    for index, photo in enumerate(photos, start=1):
        data = photo.stream.read()
        if photo.use_gps and point is None:
            point = photo_gps(data)
        try:
            stored = store_image(
                io.BytesIO(data), purpose=PHOTO_PURPOSE, owner_id=None, public=False, filename=None
            )
        except UploadError as err:
            raise ReportErrors(
                [(field_name, "photo", _("Foto %(n)d: %(msg)s", n=index, msg=err.message))]
            ) from err
        report.photos.append(ReportPhoto(file=stored, stage=stage))
    return point


def duplicate_for(profile: Profile, data: ReportData, now: datetime) -> MaltreatmentReport | None:
    """The open report this one would duplicate (for the "join it instead?" offer)."""
    key = _address_key(data.cep, data.street, data.number, data.complement)
    return find_duplicate(data.category, key, data.lat, data.lng, now)


def create_report(
    profile: Profile,
    data: ReportData,
    *,
    today: date,
    user: User | None = None,
    join: MaltreatmentReport | None = None,
    api_client: ApiClient | None = None,
    source: str = "web",
) -> tuple[MaltreatmentReport, str]:
    """Record a report; return it with its tracking code (shown once, only its hash is kept).

    ``join``: the reporter accepted to join an open report of the same place; the new protocol
    is born merged into it (the reporter follows it through their own code). ``user`` is kept only
    for a confidential report ("Minhas denúncias"). Raises ReportErrors.
    """
    errors = validate(profile, data, today)
    if errors:
        raise ReportErrors(errors)
    code = new_tracking_code()
    report = MaltreatmentReport(
        protocol=issue_protocol(today),
        tracking_hash=_hash_code(code),
        identity=data.identity,
        source=source,
        api_client_id=api_client.id if api_client else None,
        category=data.category,
        description=data.description.strip(),
        seen_on=data.seen_on,
        species=data.species,
        animal_count=data.animal_count,
        cep=clean_cep(data.cep or ""),
        street=_clean(data.street),
        number=_clean(data.number),
        complement=_clean(data.complement),
        district=_clean(data.district),
        reference=_clean(data.reference),
        residence_key=_address_key(data.cep, data.street, data.number, data.complement),
        lat=data.lat,
        lng=data.lng,
        state=ReportState.TRIAGE,
    )
    db.session.add(report)
    point = _store_photos(report, data.photos, "report")
    if point is not None and report.lat is None:
        report.lat, report.lng = point
    if data.identity == IdentityMode.CONFIDENTIAL:
        report.contact = ReporterContact(
            user_id=user.id if user is not None else None,
            name=(data.name or "").strip(),
            email=_clean(data.email),
            phone=_clean(data.phone),
        )
    report.events.append(
        ReportEvent(
            kind="state", to_state=ReportState.TRIAGE, public=True, text=None, actor_id=None
        )
    )
    if join is not None and join.is_open and join.category == report.category:
        report.state = ReportState.MERGED
        report.merged_into = join
        report.events.append(
            ReportEvent(
                kind="state",
                from_state=ReportState.TRIAGE,
                to_state=ReportState.MERGED,
                public=True,
                text=_(
                    "Juntada pelo próprio denunciante ao protocolo %(p)s, do mesmo local.",
                    p=join.protocol,
                ),
            )
        )
        join.events.append(
            ReportEvent(
                kind="note",
                public=False,
                text=_("Nova denúncia %(p)s juntada a esta.", p=report.protocol),
            )
        )
    db.session.flush()
    if report.contact is not None and report.contact.email:
        _send_code(report, code)
    return report, code


def _send_code(report: MaltreatmentReport, code: str) -> None:
    assert report.contact is not None and report.contact.email
    body = _(
        "Recebemos sua denúncia de maus-tratos.\n\n"
        "Protocolo: %(protocol)s\nCódigo de acompanhamento: %(code)s\n\n"
        "Guarde o código: só com ele é possível acompanhar a denúncia em %(url)s\n\n"
        "Se o animal estiver em perigo imediato, ligue 190.",
        protocol=report.protocol,
        code=code,
        url=absolute_url("reports.track"),
    )
    send_email(report.contact.email, _("Denúncia %(p)s recebida", p=report.protocol), body)


# ---------------------------------------------------------------------------------------------
# Tracking by the reporter
# ---------------------------------------------------------------------------------------------


def find_tracked(protocol: str, code: str) -> MaltreatmentReport | None:
    """The report when protocol and code match; None otherwise, with the same work either way so
    that the answer (and its timing) does not tell whether the protocol exists."""
    digest = _hash_code(code or "")
    report = db.session.scalar(
        select(MaltreatmentReport).where(
            MaltreatmentReport.protocol == normalise_protocol(protocol)
        )
    )
    stored = report.tracking_hash if report is not None else "0" * 64
    if hmac.compare_digest(stored, digest) and report is not None:
        return report
    return None


def public_history(report: MaltreatmentReport) -> list[ReportEvent]:
    """What the reporter may read: public events of this report and, once merged, of the main one.

    No internal notes, no agent; the template shows only the date, the state label and the text.
    """
    events = [e for e in report.events if e.public]
    if report.merged_into is not None:
        events += [e for e in report.merged_into.events if e.public and e.kind != "reporter_info"]
    return sorted(events, key=lambda e: (e.at, e.id))


def public_state(report: MaltreatmentReport) -> str:
    """The state the reporter sees: a merged report shows the state of the one it joined."""
    target = report.merged_into if report.merged_into is not None else report
    return target.state


def add_reporter_info(
    report: MaltreatmentReport, text: str | None, photos: list[PhotoUpload]
) -> None:
    """The reporter adds information or photos through the tracking page. Raises ReportErrors."""
    text = _clean(text)
    errors: list[tuple[str, str, str]] = []
    if not text and not photos:
        errors.append(("text", "required", _("Escreva algo ou escolha uma foto.")))
    if text and len(text) > MAX_INFO:
        errors.append(
            ("text", "long", _("Texto longo demais: o limite é %(n)d caracteres.", n=MAX_INFO))
        )
    target = report.merged_into if report.merged_into is not None else report
    room = MAX_PHOTOS - sum(1 for p in target.photos if p.stage == "report")
    if len(photos) > max(room, 0):
        errors.append(
            (
                "photos",
                "too_many",
                _("Esta denúncia já tem fotos demais: envie no máximo %(n)d.", n=max(room, 0)),
            )
        )
    if not report.is_open and report.merged_into is None:
        errors.append(("text", "closed", _("Esta denúncia já foi encerrada.")))
    if errors:
        raise ReportErrors(errors)
    _store_photos(target, photos, "report")
    label = _("Informação do denunciante (protocolo %(p)s)", p=report.protocol)
    target.events.append(
        ReportEvent(
            kind="reporter_info",
            public=target is report,
            text=f"{label}: {text}" if text else label,
        )
    )
    if target is not report:
        report.events.append(ReportEvent(kind="reporter_info", public=True, text=text))
    db.session.flush()


def reports_of(user: User) -> list[MaltreatmentReport]:
    """ "Minhas denúncias": the confidential reports a signed-in citizen made. Anonymous ones are
    not linked to any account, by design."""
    return list(
        db.session.scalars(
            select(MaltreatmentReport)
            .join(ReporterContact)
            .where(ReporterContact.user_id == user.id)
            .order_by(MaltreatmentReport.created_at.desc())
        )
    )


# ---------------------------------------------------------------------------------------------
# Who may see what
# ---------------------------------------------------------------------------------------------


def may_see_reporter(user: User, report: MaltreatmentReport) -> bool:
    """Coordinator, or the agent assigned to this report (see the module docstring)."""
    if not user.is_authenticated:
        return False
    if user.has_role("coordinator"):
        return True
    return bool(user.has_role("agent") and report.assigned_agent_id == user.id)


def reporter_for(user: User, report: MaltreatmentReport) -> ReporterContact | None:
    """The reporter's contact for an allowed viewer; the read is audited. None otherwise."""
    if report.contact is None or not may_see_reporter(user, report):
        return None
    audit.record("report.reporter_viewed", report, detail={"protocol": report.protocol})
    return report.contact


# ---------------------------------------------------------------------------------------------
# The state machine
# ---------------------------------------------------------------------------------------------

# (from, to) -> roles that may make the move. The assigned agent's moves are checked below too.
TRANSITIONS: dict[tuple[str, str], frozenset[str]] = {
    (ReportState.TRIAGE, ReportState.ASSIGNED): frozenset({"coordinator", "admin"}),
    (ReportState.TRIAGE, ReportState.MERGED): frozenset({"coordinator", "admin"}),
    (ReportState.TRIAGE, ReportState.CLOSED): frozenset({"coordinator", "admin"}),  # out of scope
    (ReportState.TRIAGE, ReportState.FORWARDED): frozenset({"coordinator", "admin"}),
    (ReportState.ASSIGNED, ReportState.ASSIGNED): frozenset({"coordinator", "admin"}),  # re-plan
    (ReportState.ASSIGNED, ReportState.MERGED): frozenset({"coordinator", "admin"}),
    (ReportState.ASSIGNED, ReportState.INSPECTED): frozenset({"agent", "coordinator"}),
    (ReportState.ASSIGNED, ReportState.CLOSED): frozenset({"agent", "coordinator"}),
    (ReportState.ASSIGNED, ReportState.FORWARDED): frozenset({"agent", "coordinator"}),
    (ReportState.INSPECTED, ReportState.CLOSED): frozenset({"coordinator", "admin"}),
    (ReportState.INSPECTED, ReportState.FORWARDED): frozenset({"coordinator", "admin"}),
}
# Moves an agent makes only on a report assigned to them (the inspection record).
_AGENT_OWN = {ReportState.INSPECTED, ReportState.CLOSED, ReportState.FORWARDED}


def _not_allowed() -> str:
    return _("Esta mudança não é permitida para esta denúncia ou para o seu perfil.")


def allowed(report: MaltreatmentReport, to_state: str, actor: User) -> bool:
    roles = TRANSITIONS.get((report.state, to_state))
    if not roles or not actor.has_role(*roles):
        return False
    if (
        report.state == ReportState.ASSIGNED
        and to_state in _AGENT_OWN
        and not actor.has_role("coordinator")
        and report.assigned_agent_id != actor.id
    ):
        return False
    return True


def move(
    report: MaltreatmentReport,
    to_state: str,
    actor: User,
    *,
    public_text: str | None = None,
    note: str | None = None,
) -> None:
    """Change the state, write the history, audit it and tell the reporter. Raises IllegalMove."""
    if not allowed(report, to_state, actor):
        raise IllegalMove(_not_allowed())
    from_state = report.state
    report.state = to_state
    report.updated_at = datetime.now(UTC)
    if from_state == ReportState.TRIAGE:
        report.triaged_at = datetime.now(UTC)
    public = from_state != to_state
    report.events.append(
        ReportEvent(
            kind="state",
            from_state=from_state,
            to_state=to_state,
            public=public,
            text=_clean(public_text),
            actor_id=actor.id,
        )
    )
    if note:
        report.events.append(ReportEvent(kind="note", public=False, text=note, actor_id=actor.id))
    audit.record(
        "report.state",
        report,
        detail={"protocol": report.protocol, "from": from_state, "to": to_state},
    )
    db.session.flush()
    if public:
        notify_reporter(report, public_text)


def notify_reporter(report: MaltreatmentReport, public_text: str | None = None) -> None:
    """E-mail the reporters (confidential, with e-mail) of this report and of those joined to it
    about a public change: the new state and the CCZ's public reply only; never an agent's name
    or an internal note."""
    joined = db.session.scalars(
        select(MaltreatmentReport).where(MaltreatmentReport.merged_into_id == report.id)
    ).all()
    state = STATE_LABELS[report.state]
    for item in [report, *joined]:
        contact = item.contact
        if contact is None or not contact.email:
            continue
        body = _(
            "A situação da sua denúncia %(protocol)s mudou: %(state)s.",
            protocol=item.protocol,
            state=state,
        )
        if public_text:
            body += "\n\n" + _("Resposta do CCZ: %(text)s", text=public_text)
        body += "\n\n" + _(
            "Acompanhe com o seu código em %(url)s", url=absolute_url("reports.track")
        )
        send_email(
            contact.email, _("Denúncia %(p)s: %(state)s", p=item.protocol, state=state), body
        )


def triage_valid(
    report: MaltreatmentReport, actor: User, agent: User, inspection_on: date, today: date
) -> None:
    """Valid report: assign an agent and schedule the inspection (also re-plans an assigned one).

    Raises ReportErrors or IllegalMove."""
    if not allowed(report, ReportState.ASSIGNED, actor):
        raise IllegalMove(_not_allowed())
    _check_assignment(agent, inspection_on, today)
    report.assigned_agent_id = agent.id
    report.inspection_on = inspection_on
    move(
        report,
        ReportState.ASSIGNED,
        actor,
        public_text=_("Vistoria programada.") if report.state == ReportState.TRIAGE else None,
        note=_(
            "Atribuída a %(name)s para %(day)s.",
            name=agent.full_name,
            day=inspection_on.strftime("%d/%m/%Y"),
        ),
    )
    if agent.email:  # no reporter in it: e-mails can be forwarded
        send_email(
            agent.email,
            _("Vistoria de maus-tratos %(p)s", p=report.protocol),
            _(
                "A denúncia %(p)s foi atribuída a você, com vistoria em %(day)s.\n%(url)s",
                p=report.protocol,
                day=inspection_on.strftime("%d/%m/%Y"),
                url=absolute_url("reports.staff_detail", protocol=report.protocol),
            ),
        )


def _check_assignment(agent: User, inspection_on: date | None, today: date) -> None:
    errors = []
    if not agent.has_role("agent") or not agent.active:
        errors.append(("agent_id", "agent", _("Escolha um agente da lista.")))
    if inspection_on is None:
        errors.append(("inspection_on", "required", _("Informe a data da vistoria.")))
    elif inspection_on < today:
        errors.append(("inspection_on", "past", _("A data da vistoria não pode estar no passado.")))
    if errors:
        raise ReportErrors(errors)


def triage_out_of_scope(report: MaltreatmentReport, actor: User, reason: str) -> None:
    reason = (reason or "").strip()
    if len(reason) < 10:
        raise ReportErrors(
            [
                (
                    "reason",
                    "required",
                    _("Explique ao denunciante, em uma frase, por que não é caso do CCZ."),
                )
            ]
        )
    report.public_reason = reason
    move(report, ReportState.CLOSED, actor, public_text=reason)


def merge(report: MaltreatmentReport, target: MaltreatmentReport | None, actor: User) -> None:
    """Staff merge a duplicate into another open protocol. Raises ReportErrors/IllegalMove."""
    if target is None or target.id == report.id:
        raise ReportErrors([("target", "target", _("Informe o protocolo de outra denúncia."))])
    if target.merged_into_id is not None or not target.is_open:
        raise ReportErrors(
            [("target", "closed", _("A denúncia %(p)s não está aberta.", p=target.protocol))]
        )
    report.merged_into = target
    move(
        report,
        ReportState.MERGED,
        actor,
        public_text=_("Denúncia do mesmo local já em andamento; as duas seguem juntas."),
    )
    for photo in list(report.photos):
        photo.report = target
    for other in db.session.scalars(
        select(MaltreatmentReport).where(MaltreatmentReport.merged_into_id == report.id)
    ):
        other.merged_into = target
    target.events.append(
        ReportEvent(
            kind="note",
            public=False,
            actor_id=actor.id,
            text=_("Denúncia %(p)s juntada a esta: %(d)s", p=report.protocol, d=report.description),
        )
    )
    db.session.flush()


def forward_to_police(report: MaltreatmentReport, actor: User, note: str | None = None) -> None:
    move(
        report,
        ReportState.FORWARDED,
        actor,
        public_text=_(
            "Encaminhada à polícia, por se tratar de possível crime (%(law)s).", law=FEDERAL_CRIME
        ),
        note=note,
    )


def close_after_handover(report: MaltreatmentReport, actor: User, public_text: str) -> None:
    """Close a report waiting for a notice or capture once that was handled elsewhere."""
    move(report, ReportState.CLOSED, actor, public_text=_clean(public_text))


def add_reply(report: MaltreatmentReport, actor: User, text: str, public: bool) -> None:
    text = (text or "").strip()
    if not text:
        raise ReportErrors([("text", "required", _("Escreva a mensagem."))])
    report.events.append(
        ReportEvent(kind="reply" if public else "note", public=public, text=text, actor_id=actor.id)
    )
    audit.record(
        "report.reply" if public else "report.note", report, detail={"protocol": report.protocol}
    )
    db.session.flush()
    if public:
        notify_reporter(report, text)


# ---------------------------------------------------------------------------------------------
# Inspection
# ---------------------------------------------------------------------------------------------

_OUTCOME_STATE = {
    InspectionOutcome.NOTHING_FOUND: ReportState.CLOSED,
    InspectionOutcome.ORIENTATION: ReportState.CLOSED,
    # The notice (enforcement) and the capture (impound) are later issues: until they exist the
    # protocol stays open in the queue "aguardando notificação/captura".
    InspectionOutcome.NOTICE_NEEDED: ReportState.INSPECTED,
    InspectionOutcome.CAPTURE_NEEDED: ReportState.INSPECTED,
    InspectionOutcome.FORWARDED_POLICE: ReportState.FORWARDED,
}

_OUTCOME_PUBLIC = {
    InspectionOutcome.NOTHING_FOUND: _l("Vistoria feita: não foram constatados maus-tratos."),
    InspectionOutcome.ORIENTATION: _l("Vistoria feita: o responsável recebeu orientação."),
    InspectionOutcome.NOTICE_NEEDED: _l(
        "Vistoria feita: o CCZ tomará as providências previstas em lei."
    ),
    InspectionOutcome.CAPTURE_NEEDED: _l(
        "Vistoria feita: o CCZ tomará as providências previstas em lei."
    ),
    InspectionOutcome.FORWARDED_POLICE: _l(
        "Vistoria feita: encaminhada à polícia, por se tratar de possível crime."
    ),
}


def outcome_public_text(outcome: str) -> str:
    return str(_OUTCOME_PUBLIC[InspectionOutcome(outcome)])


def record_inspection(
    profile: Profile,
    report: MaltreatmentReport,
    agent: User,
    *,
    visited_on: date,
    findings: dict[str, str],
    notes: str | None,
    people_present: str | None,
    outcome: str,
    photos: list[PhotoUpload],
    today: date,
) -> Inspection:
    """The agent's visit record; moves the report by its outcome.

    Raises ReportErrors or IllegalMove."""
    errors: list[tuple[str, str, str]] = []
    if outcome not in {o.value for o in InspectionOutcome}:
        errors.append(("outcome", "required", _("Escolha o resultado da vistoria.")))
    if visited_on > today:
        errors.append(("visited_on", "future", _("A data não pode estar no futuro.")))
    codes = [item.code for item in profile.reports.checklist]
    clean = {code: findings.get(code) or "not_checked" for code in codes}
    if any(value not in FINDINGS for value in clean.values()):
        errors.append(("findings", "value", _("Resposta inválida na lista de verificação.")))
    if len(photos) > MAX_PHOTOS:
        errors.append(("photos", "too_many", _("Envie no máximo %(n)d fotos.", n=MAX_PHOTOS)))
    if errors:
        raise ReportErrors(errors)
    to_state = _OUTCOME_STATE[InspectionOutcome(outcome)]
    if not allowed(report, to_state, agent):
        raise IllegalMove(_not_allowed())
    inspection = Inspection(
        report=report,
        agent_id=agent.id,
        visited_on=visited_on,
        findings=clean,
        notes=_clean(notes),
        people_present=_clean(people_present),
        outcome=outcome,
    )
    db.session.add(inspection)
    _store_photos(report, photos, "inspection")
    report.outcome = outcome
    move(report, to_state, agent, public_text=outcome_public_text(outcome))
    return inspection


# ---------------------------------------------------------------------------------------------
# Staff queues, filters and the district map
# ---------------------------------------------------------------------------------------------

QUEUES = ("triage", "mine", "today", "overdue", "waiting", "all")


@dataclass
class Filters:
    category: str | None = None
    district: str | None = None
    state: str | None = None
    since: date | None = None
    until: date | None = None


def _filtered(query: Any, filters: Filters, profile: Profile) -> Any:
    if filters.category:
        query = query.where(MaltreatmentReport.category == filters.category)
    if filters.district:
        query = query.where(func.lower(MaltreatmentReport.district) == filters.district.lower())
    if filters.state:
        query = query.where(MaltreatmentReport.state == filters.state)
    if filters.since:
        query = query.where(
            MaltreatmentReport.created_at >= local_day_start(filters.since, profile)
        )
    if filters.until:
        query = query.where(
            MaltreatmentReport.created_at
            < local_day_start(filters.until + timedelta(days=1), profile)
        )
    return query


def queue(
    name: str, user: User, filters: Filters, profile: Profile, today: date, limit: int = 200
) -> list[MaltreatmentReport]:
    """One staff queue; deadlines from the profile (the CCZ's service targets)."""
    q = select(MaltreatmentReport)
    if name == "triage":
        q = q.where(MaltreatmentReport.state == ReportState.TRIAGE)
    elif name == "mine":
        q = q.where(
            MaltreatmentReport.state == ReportState.ASSIGNED,
            MaltreatmentReport.assigned_agent_id == user.id,
        )
    elif name == "today":
        q = q.where(
            MaltreatmentReport.state == ReportState.ASSIGNED,
            MaltreatmentReport.inspection_on == today,
        )
    elif name == "waiting":
        q = q.where(MaltreatmentReport.state == ReportState.INSPECTED)
    elif name == "overdue":
        triage_limit = local_day_start(today - timedelta(days=profile.reports.triage_days), profile)
        q = q.where(MaltreatmentReport.state.in_([ReportState.TRIAGE, ReportState.ASSIGNED]))
        rows = db.session.scalars(
            _filtered(q, filters, profile).order_by(MaltreatmentReport.created_at)
        ).all()
        return [r for r in rows if is_overdue(r, profile, today, triage_limit)][:limit]
    q = _filtered(q, filters, profile).order_by(
        MaltreatmentReport.created_at.desc() if name == "all" else MaltreatmentReport.created_at
    )
    return list(db.session.scalars(q.limit(limit)))


def is_overdue(
    report: MaltreatmentReport, profile: Profile, today: date, triage_limit: datetime | None = None
) -> bool:
    if report.state == ReportState.TRIAGE:
        limit = triage_limit or local_day_start(
            today - timedelta(days=profile.reports.triage_days), profile
        )
        created = (
            report.created_at if report.created_at.tzinfo else report.created_at.replace(tzinfo=UTC)
        )
        return created < limit
    if report.state == ReportState.ASSIGNED:
        if report.inspection_on is not None and report.inspection_on < today:
            return True
        triaged = report.triaged_at or report.created_at
        triaged_day = triaged.astimezone(ZoneInfo(profile.timezone)).date()
        return triaged_day + timedelta(days=profile.reports.inspection_days) < today
    return False


def district_counts(filters: Filters, profile: Profile) -> list[dict[str, Any]]:
    """Reports per district (for the planning heat map): count and the mean map point if any."""
    q = _filtered(
        select(
            MaltreatmentReport.district,
            func.count(MaltreatmentReport.id),
            func.avg(MaltreatmentReport.lat),
            func.avg(MaltreatmentReport.lng),
        ).group_by(MaltreatmentReport.district),
        filters,
        profile,
    )
    rows = db.session.execute(q).all()
    out = [
        {
            "district": d or _("Sem bairro informado"),
            "count": int(n),
            "lat": float(lat) if lat is not None else None,
            "lng": float(lng) if lng is not None else None,
        }
        for d, n, lat, lng in rows
    ]
    return sorted(out, key=lambda r: -r["count"])


def known_districts() -> list[str]:
    rows = db.session.scalars(
        select(MaltreatmentReport.district)
        .distinct()
        .where(MaltreatmentReport.district.is_not(None))
    )
    return sorted({r for r in rows if r})


def agents() -> list[User]:
    from portal.models import UserRole

    return list(
        db.session.scalars(
            select(User)
            .join(UserRole)
            .where(UserRole.role == "agent", User.active.is_(True))
            .order_by(User.full_name)
        )
    )


def by_protocol(protocol: str) -> MaltreatmentReport | None:
    return db.session.scalar(
        select(MaltreatmentReport).where(
            MaltreatmentReport.protocol == normalise_protocol(protocol)
        )
    )


def category_choices(profile: Profile) -> list[tuple[str, str]]:
    return [(c.code, category_label(profile, c.code)) for c in profile.reports.categories]
