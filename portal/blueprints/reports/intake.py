"""A new maus-tratos report (web, Open311, clinic API): validation, duplicates of the same place,
photos, the protocol and tracking code; and what the reporter does with that code afterwards.

An anonymous report stores nothing about the reporter: no contact row, photos without an owner or
a file name, no audit event with the signed-in account, no IP."""

from __future__ import annotations

import hashlib
import hmac
import io
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.reports.common import (
    DUPLICATE_DAYS,
    DUPLICATE_METRES,
    MAX_ANIMALS,
    MAX_DESCRIPTION,
    MAX_INFO,
    MAX_PHOTOS,
    PHOTO_PURPOSE,
    SPECIES,
    TEXT_LIMITS,
    PhotoUpload,
    ReportData,
    ReportErrors,
    clean_text,
    distance_metres,
    hash_code,
    issue_protocol,
    new_tracking_code,
    normalise_protocol,
    photo_gps,
)
from portal.blueprints.reports.progress import merged_at
from portal.extensions import db
from portal.models import (
    ApiClient,
    IdentityMode,
    MaltreatmentReport,
    ReporterContact,
    ReportEvent,
    ReportPhoto,
    ReportState,
    User,
)
from portal.models.report import OPEN_STATES
from portal.profiles.schema import Profile
from portal.services.identity import clean_cep, residence_key
from portal.services.mail import send_email
from portal.services.uploads import UploadError, store_image
from portal.urls import absolute_url

RESIDENCE_KEY_WIDTH = 200  # MaltreatmentReport.residence_key's column

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
    if (
        not has_point
        and not wants_gps
        and not (clean_text(data.street) or clean_text(data.reference))
    ):
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
    for name, limit in TEXT_LIMITS.items():
        if len(getattr(data, name) or "") > limit:
            errors.append(
                (name, "long", _("Texto longo demais: o limite é %(n)d caracteres.", n=limit))
            )
    if len(data.photos) > MAX_PHOTOS:
        errors.append(("photos", "too_many", _("Envie no máximo %(n)d fotos.", n=MAX_PHOTOS)))
    if data.identity not in (IdentityMode.ANONYMOUS, IdentityMode.CONFIDENTIAL):
        errors.append(("identity", "identity", _("Escolha como quer se identificar.")))
    elif data.identity == IdentityMode.CONFIDENTIAL:
        if not clean_text(data.name):
            errors.append(
                ("name", "required", _("Informe seu nome ou escolha a denúncia anônima."))
            )
        if not (clean_text(data.email) or clean_text(data.phone)):
            errors.append(
                ("email", "required", _("Informe um e-mail ou telefone para o CCZ falar com você."))
            )
        if clean_text(data.email) and "@" not in (data.email or ""):
            errors.append(("email", "email", _("E-mail inválido.")))
    return errors


def _address_key(
    cep: str | None, street: str | None, number: str | None, complement: str | None
) -> str | None:
    if not clean_text(street):
        return None
    key = residence_key(cep, street, number, complement)
    if len(key) > RESIDENCE_KEY_WIDTH:
        # Street, number and complement at their limits make a longer key than the column: a
        # digest compares the same way (same address, same key) and fits.
        key = "sha256:" + hashlib.sha256(key.encode()).hexdigest()
    return key


def find_same_place(
    category: str,
    key: str | None,
    lat: float | None,
    lng: float | None,
    now: datetime,
    *,
    exclude_id: int | None = None,
) -> list[MaltreatmentReport]:
    """Open reports of the same category at the same place within 30 days, oldest first.

    Same place = the same normalised address, or map points at most 50 m apart. For the staff
    only: a reporter is never told that another report exists (issue 26: the offer to "join" an
    existing protocol told anyone, the reported neighbour included, that a report existed at an
    address, and gave its protocol and history).
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
    found = []
    for report in candidates:
        if report.id == exclude_id:
            continue
        same_key = bool(key) and report.residence_key == key
        near = (
            lat is not None
            and lng is not None
            and report.lat is not None
            and report.lng is not None
            and distance_metres(lat, lng, report.lat, report.lng) <= DUPLICATE_METRES
        )
        if same_key or near:
            found.append(report)
    return found


def possible_duplicates(report: MaltreatmentReport) -> list[MaltreatmentReport]:
    """What the staff page offers to merge this report into: the other open reports of the same
    category and place, received from 30 days before it onwards. Merging is the staff's decision
    (``casework.merge``)."""
    if not report.is_open:
        return []
    return find_same_place(
        report.category,
        report.residence_key,
        report.lat,
        report.lng,
        report.created_at,
        exclude_id=report.id,
    )


def store_photos(
    report: MaltreatmentReport, photos: list[PhotoUpload], stage: str, field_name: str = "photos"
) -> tuple[float, float] | None:
    """Store photos (re-encoded, metadata dropped); return the first consented GPS point.

    Report photos never get an owner or the file's name: both could identify the reporter.
    """
    point = None
    for index, photo in enumerate(photos, start=1):
        if photo.held is not None:  # held by the draft: stored already, now the report's
            stored = photo.held
            stored.purpose, stored.owner_id, stored.public = PHOTO_PURPOSE, None, False
            stored.original_name = None
            if photo.use_gps and point is None:
                point = photo.gps
            report.photos.append(ReportPhoto(file=stored, stage=stage))
            continue
        assert photo.stream is not None
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


def create_report(
    profile: Profile,
    data: ReportData,
    *,
    today: date,
    user: User | None = None,
    api_client: ApiClient | None = None,
    source: str = "web",
) -> tuple[MaltreatmentReport, str]:
    """Record a report; return it with its tracking code (shown once, only its hash is kept).

    Every report is born on its own, in triage, even at a place that already has an open one: the
    reporter is never told about another report, and merging duplicates is the staff's decision
    (``possible_duplicates`` on the staff page, then ``casework.merge``). ``user`` is kept only
    for a confidential report ("Minhas denúncias"). Raises ReportErrors.
    """
    errors = validate(profile, data, today)
    if errors:
        raise ReportErrors(errors)
    code = new_tracking_code()
    report = MaltreatmentReport(
        protocol=issue_protocol(today),
        tracking_hash=hash_code(code),
        identity=data.identity,
        source=source,
        api_client_id=api_client.id if api_client else None,
        category=data.category,
        description=data.description.strip(),
        seen_on=data.seen_on,
        species=data.species,
        animal_count=data.animal_count,
        cep=clean_cep(data.cep or ""),
        street=clean_text(data.street),
        number=clean_text(data.number),
        complement=clean_text(data.complement),
        district=clean_text(data.district),
        reference=clean_text(data.reference),
        residence_key=_address_key(data.cep, data.street, data.number, data.complement),
        lat=data.lat,
        lng=data.lng,
        state=ReportState.TRIAGE,
    )
    db.session.add(report)
    point = store_photos(report, data.photos, "report")
    if point is not None and report.lat is None:
        report.lat, report.lng = point
    if data.identity == IdentityMode.CONFIDENTIAL:
        report.contact = ReporterContact(
            user_id=user.id if user is not None else None,
            name=(data.name or "").strip(),
            email=clean_text(data.email),
            phone=clean_text(data.phone),
        )
    report.events.append(
        ReportEvent(
            kind="state", to_state=ReportState.TRIAGE, public=True, text=None, actor_id=None
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
    digest = hash_code(code or "")
    report = db.session.scalar(
        select(MaltreatmentReport).where(
            MaltreatmentReport.protocol == normalise_protocol(protocol)
        )
    )
    stored = report.tracking_hash if report is not None else "0" * 64
    if hmac.compare_digest(stored, digest) and report is not None:
        return report
    return None


@dataclass(frozen=True)
class PublicEvent:
    """One line of the history a reporter reads: a date, a kind, a state and a text, no more."""

    at: datetime
    kind: str
    to_state: str | None
    text: str | None


def public_history(report: MaltreatmentReport) -> list[PublicEvent]:
    """What the reporter may read: the public events of this report only.

    Once the staff merged it into another protocol, the case's later state changes are added as
    bare state labels (no text, no date before the merge): the other report's replies, reasons and
    messages were written to its own reporter and never reach this one (issue 26). No internal
    notes, no agent.
    """
    events = [PublicEvent(e.at, e.kind, e.to_state, e.text) for e in report.events if e.public]
    main = report.merged_into
    since = merged_at(report)
    if main is not None and since is not None:
        events += [
            PublicEvent(e.at, "state", e.to_state, None)
            for e in main.events
            if e.public and e.kind == "state" and e.from_state != e.to_state and e.at > since
        ]
    return sorted(events, key=lambda e: e.at)  # stable: same instant, the order above


def public_state(report: MaltreatmentReport) -> str:
    """The state the reporter sees: a report the staff merged into another shows the state of that
    case (the same place, handled once), never its protocol or content."""
    target = report.merged_into if report.merged_into is not None else report
    return target.state


def add_reporter_info(
    report: MaltreatmentReport, text: str | None, photos: list[PhotoUpload]
) -> None:
    """The reporter adds information or photos through the tracking page. Raises ReportErrors."""
    text = clean_text(text)
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
    store_photos(target, photos, "report")
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
