"""What every part of the maus-tratos report rules shares: limits, the errors, the input shapes,
protocols and tracking codes, and the reading of a photo's GPS point."""

from __future__ import annotations

import hashlib
import io
import math
import secrets
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import IO, Any
from zoneinfo import ZoneInfo

from PIL import Image, UnidentifiedImageError
from sqlalchemy import update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    IdentityMode,
    ReportCounter,
)
from portal.profiles.schema import Profile
from portal.services.clock import current_profile

MAX_PHOTOS = 6
MAX_DESCRIPTION = 4000
MAX_INFO = 2000
MAX_ANIMALS = 500
# The longest text each field of a report takes: the web form, Open311 and the clinic API all go
# through ``intake.validate``, which refuses longer input (the columns are this wide; PostgreSQL
# would otherwise answer StringDataRightTruncation, issue 26 #7).
TEXT_LIMITS = {
    "street": 200,
    "number": 20,
    "complement": 100,
    "district": 100,
    "reference": 300,
    "name": 200,
    "email": 254,
    "phone": 30,
}
DUPLICATE_DAYS = 30
DUPLICATE_METRES = 50
PHOTO_PURPOSE = "report_photo"
SPECIES = ("dog", "cat", "other")
FINDINGS = ("ok", "problem", "not_checked")
# Federal law above the municipal ones (Lei 9.605/1998, art. 32): maus-tratos is a crime.
FEDERAL_CRIME = "Lei 9.605/98, art. 32"
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud on the phone


class ReportErrors(DomainError):
    """Input problems: ``errors`` is a list of (field, code, message); the error itself carries
    the first one, so that a caller handling any DomainError shows at least that."""

    def __init__(self, errors: list[tuple[str, str, str]]) -> None:
        field, code, message = errors[0]
        super().__init__(field, code, message)
        self.errors = errors

    def all(self) -> list[DomainError]:
        return [DomainError(field, code, message) for field, code, message in self.errors]


class IllegalMove(DomainError):
    """The state machine or the actor's role does not allow this change."""

    def __init__(self, message: str) -> None:
        super().__init__(None, "illegal_move", message)


@dataclass
class PhotoUpload:
    """A photo as sent (``stream``), or already held by the reporter's draft of the form
    (``held``: validated and re-encoded when it arrived, issue 25; ``gps`` is the point read from
    it then, only when the reporter had agreed)."""

    stream: IO[bytes] | None = None
    use_gps: bool = False  # the reporter agreed to place the pin from the photo's GPS
    held: Any = None  # a StoredFile of the draft
    gps: tuple[float, float] | None = None


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


def clean_text(text: str | None) -> str | None:
    text = (text or "").strip()
    return text or None


def distance_metres(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance (haversine); plenty for "within 50 m"."""
    r = 6_371_000.0
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * r * math.asin(math.sqrt(a))


def hash_code(code: str) -> str:
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
