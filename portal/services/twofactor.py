"""Two-factor authentication for staff (TOTP, RFC 6238, with any authenticator app) and
one-time recovery codes. pyotp does the arithmetic; this module keeps the records.

A code is accepted once: the time step it belongs to is remembered, so a code seen over a
shoulder cannot be replayed within its 30 seconds."""

from __future__ import annotations

import hashlib
import hmac
import io
import secrets
import time

import pyotp
import qrcode
import qrcode.image.svg
from sqlalchemy import delete, select

from portal.extensions import db
from portal.models import RecoveryCode, TotpSecret, User
from portal.models.base import utcnow

ISSUER = "CCZ"
RECOVERY_CODES = 10
STAFF_2FA_ROLES = ("agent", "vet", "coordinator", "admin")


def required_for(user: User) -> bool:
    """Every staff and admin role must use a second factor."""
    from flask import current_app

    return bool(current_app.config.get("STAFF_2FA_REQUIRED", True)) and user.has_role(
        *STAFF_2FA_ROLES
    )


def secret_of(user: User) -> TotpSecret | None:
    return db.session.scalar(select(TotpSecret).where(TotpSecret.user_id == user.id))


def is_enrolled(user: User) -> bool:
    record = secret_of(user)
    return record is not None and record.confirmed_at is not None


def start_enrolment(user: User) -> TotpSecret:
    """A fresh secret for a person not yet enrolled (a half-done enrolment starts over)."""
    record = secret_of(user)
    if record is not None and record.confirmed_at is not None:
        raise ValueError("already enrolled")
    if record is None:
        record = TotpSecret(user_id=user.id, secret=pyotp.random_base32())
        db.session.add(record)
    else:
        record.secret = pyotp.random_base32()
    db.session.flush()
    return record


def provisioning_uri(user: User, record: TotpSecret, municipality: str) -> str:
    return pyotp.TOTP(record.secret).provisioning_uri(
        name=user.email or str(user.id), issuer_name=f"{ISSUER} {municipality}"
    )


def qr_svg(uri: str) -> str:
    """The otpauth:// URI as an inline SVG QR code (no image request, works under the CSP)."""
    image = qrcode.make(uri, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    buffer = io.BytesIO()
    image.save(buffer)
    return buffer.getvalue().decode()


def _clean(code: str) -> str:
    return "".join(ch for ch in (code or "") if ch.isalnum()).upper()


def verify_code(record: TotpSecret, code: str, *, at: float | None = None) -> bool:
    """A current code (one step of clock drift allowed), never the same step twice."""
    code = _clean(code)
    if len(code) != 6 or not code.isdigit():
        return False
    now = time.time() if at is None else at
    totp = pyotp.TOTP(record.secret)
    for drift in (0, -1, 1):
        step = int(now // totp.interval) + drift
        if hmac.compare_digest(totp.generate_otp(step), code):
            if record.last_used_step is not None and step <= record.last_used_step:
                return False
            record.last_used_step = step
            db.session.flush()
            return True
    return False


def _hash(code: str) -> str:
    return hashlib.sha256(_clean(code).encode()).hexdigest()


def confirm_enrolment(user: User, code: str) -> list[str] | None:
    """Finish enrolment with a code from the app; returns the recovery codes (shown once)."""
    record = secret_of(user)
    if record is None or not verify_code(record, code):
        return None
    record.confirmed_at = utcnow()
    return new_recovery_codes(user)


def new_recovery_codes(user: User) -> list[str]:
    db.session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))
    codes = [
        f"{secrets.token_hex(2)}-{secrets.token_hex(2)}".upper() for _ in range(RECOVERY_CODES)
    ]
    db.session.add_all(RecoveryCode(user_id=user.id, code_hash=_hash(c)) for c in codes)
    db.session.flush()
    return codes


def use_recovery_code(user: User, code: str) -> bool:
    record = db.session.scalar(
        select(RecoveryCode).where(
            RecoveryCode.user_id == user.id,
            RecoveryCode.code_hash == _hash(code),
            RecoveryCode.used_at.is_(None),
        )
    )
    if record is None:
        return False
    record.used_at = utcnow()
    db.session.flush()
    return True


def check_second_factor(user: User, code: str) -> bool:
    """A TOTP code or an unused recovery code."""
    record = secret_of(user)
    if record is None or record.confirmed_at is None:
        return False
    return verify_code(record, code) or use_recovery_code(user, code)


def reset(user: User) -> None:
    """An admin resets a person's second factor (lost phone): they enrol again at next login."""
    db.session.execute(delete(TotpSecret).where(TotpSecret.user_id == user.id))
    db.session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))
    db.session.flush()
