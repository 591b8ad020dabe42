"""Account rules: one account per CPF, argon2 hashes, signed e-mail tokens."""

from __future__ import annotations

from datetime import date

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from flask import current_app, url_for
from flask_babel import gettext as _
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import func, select

from portal.extensions import db
from portal.models import Role, User
from portal.models.base import utcnow
from portal.services.identity import clean_cpf
from portal.services.mail import send_email

_hasher = PasswordHasher()
CONFIRM_MAX_AGE = 3 * 86400
RESET_MAX_AGE = 3600


class AccountError(ValueError):
    """A sign-up or login problem to show next to ``field``."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(user: User, password: str) -> bool:
    if not user.password_hash:
        return False
    try:
        return _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


_DUMMY: list[str] = []


def _dummy_hash() -> str:
    if not _DUMMY:
        _DUMMY.append(_hasher.hash("not-a-real-password"))
    return _DUMMY[0]


def find_by_email(email: str) -> User | None:
    return db.session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))


def find_by_cpf(cpf: str) -> User | None:
    digits = clean_cpf(cpf)
    return db.session.scalar(select(User).where(User.cpf == digits)) if digits else None


def register_citizen(*, full_name: str, cpf: str, birth_date: date, email: str,
                     phone: str | None, password: str) -> User:
    """Create a citizen account, or let a person claim the record a clinic created for them.

    Raises AccountError when the CPF is invalid or already has an account, or the e-mail is taken.
    """
    digits = clean_cpf(cpf)
    if not digits:
        raise AccountError("cpf", _("CPF inválido: confira os 11 dígitos."))
    email = email.strip().lower()
    user = find_by_cpf(digits)
    if user is not None and user.has_account:
        raise AccountError("cpf", _("Já existe uma conta com este CPF. Entre ou recupere a senha."))
    other = find_by_email(email)
    if other is not None and other is not user:
        raise AccountError("email", _("Este e-mail já está em uso por outra conta."))
    if user is None:
        user = User(cpf=digits)
        db.session.add(user)
    elif user.email and user.email.lower() != email:
        # A record made by a clinic: only the e-mail it was registered with may claim it.
        raise AccountError("email", _("Este CPF já tem cadastro com outro e-mail. Procure o CCZ "
                                      "para atualizar seus dados."))
    user.full_name = full_name.strip()
    user.birth_date = birth_date
    user.email = email
    user.phone = phone
    user.password_hash = hash_password(password)
    user.privacy_accepted_at = utcnow()
    user.add_role(Role.CITIZEN)
    db.session.flush()
    send_confirmation(user)
    return user


def _serializer(salt: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=salt)


def send_confirmation(user: User) -> None:
    token = _serializer("confirm-email").dumps({"id": user.id, "email": user.email})
    link = url_for("auth.confirm_email", token=token, _external=True)
    send_email(user.email or "", _("Confirme seu e-mail"),
               _("Olá, %(name)s.\n\nPara confirmar seu e-mail no portal do CCZ, abra:\n%(link)s\n\n"
                 "O link vale por 3 dias.", name=user.full_name, link=link))


def confirm_email(token: str) -> User | None:
    """The user whose e-mail the token confirms, or None when it is invalid or expired."""
    try:
        data = _serializer("confirm-email").loads(token, max_age=CONFIRM_MAX_AGE)
    except (BadSignature, SignatureExpired):
        return None
    user = db.session.get(User, data.get("id"))
    if user is None or user.email != data.get("email"):
        return None
    if user.email_confirmed_at is None:
        user.email_confirmed_at = utcnow()
    return user


def send_password_reset(email: str) -> None:
    """Send a reset link if the account exists; say nothing either way (no account probing)."""
    user = find_by_email(email)
    if user is None or not user.has_account:
        return
    # The hash fragment makes a token single-use: once the password changes, it no longer verifies.
    token = _serializer("reset-password").dumps({"id": user.id, "h": (user.password_hash or "")[-12:]})
    link = url_for("auth.reset_password", token=token, _external=True)
    send_email(user.email or "", _("Redefinição de senha"),
               _("Olá, %(name)s.\n\nPara criar uma nova senha, abra:\n%(link)s\n\nO link vale por "
                 "1 hora. Se não foi você, ignore esta mensagem.", name=user.full_name, link=link))


def user_for_reset_token(token: str) -> User | None:
    try:
        data = _serializer("reset-password").loads(token, max_age=RESET_MAX_AGE)
    except (BadSignature, SignatureExpired):
        return None
    user = db.session.get(User, data.get("id"))
    if user is None or (user.password_hash or "")[-12:] != data.get("h"):
        return None
    return user


def authenticate(email: str, password: str) -> User | None:
    user = find_by_email(email)
    if user is None or not user.password_hash:
        # Spend the same argon2 time as for a real account: the answer's delay must not tell
        # whether an e-mail has an account.
        try:
            _hasher.verify(_dummy_hash(), password)
        except (VerificationError, InvalidHashError):
            pass
        return None
    if not user.active or not check_password(user, password):
        return None
    if _hasher.check_needs_rehash(user.password_hash or ""):
        user.password_hash = hash_password(password)
    return user
