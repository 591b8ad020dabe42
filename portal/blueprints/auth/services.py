"""Account rules: one account per CPF, argon2 hashes, signed e-mail tokens, session versions.

Sign-up never tells whether a CPF or an e-mail is already known: every request gets the same page
("we sent you an e-mail"), costs the same password hash, and what happens next is said by e-mail
only. A new account waits unconfirmed (``activation_pending``) and nobody signs in to it until the
confirmation link is followed. A record a clinic created (no password yet) is claimed only through
a one-time link sent to the e-mail ON FILE.
"""

from __future__ import annotations

from datetime import date
from functools import cache
from pathlib import Path

from argon2.exceptions import InvalidHashError, VerificationError
from flask import current_app, has_app_context
from flask_babel import gettext as _
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import Role, User
from portal.models.base import utcnow
from portal.services import audit
from portal.services.identity import clean_cpf
from portal.services.mail import send_email
from portal.services.password_hash import hash_password
from portal.services.password_hash import hasher as _hasher  # a name tests replace to count
from portal.services.people import find_by_email
from portal.urls import absolute_url

CONFIRM_MAX_AGE = 3 * 86400
RESET_MAX_AGE = 3600
CLAIM_MAX_AGE = 2 * 86400


class AccountError(DomainError):
    """A sign-up or login problem to show next to ``field``."""


@cache
def _common_passwords() -> frozenset[str]:
    path = Path(__file__).with_name("common_passwords.txt")
    lines = path.read_text(encoding="utf-8").splitlines()
    return frozenset(
        line.strip().lower() for line in lines if line.strip() and not line.startswith("#")
    )


def is_common_password(password: str) -> bool:
    """True for a password from the list of the most used ones (``senha123``, ``12345678``)."""
    return password.strip().lower() in _common_passwords()


def check_password(user: User, password: str) -> bool:
    if not user.password_hash:
        return False
    try:
        return _hasher.verify(user.password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


_DUMMY: dict[object, str] = {}  # one per hashing cost


def _dummy_hash() -> str:
    cost = current_app.config.get("PASSWORD_HASH_COST") if has_app_context() else None
    key = tuple(cost) if cost else None
    if key not in _DUMMY:
        _DUMMY[key] = _hasher.hash("not-a-real-password")
    return _DUMMY[key]


def find_by_cpf(cpf: str) -> User | None:
    digits = clean_cpf(cpf)
    return db.session.scalar(select(User).where(User.cpf == digits)) if digits else None


def register_citizen(
    *, full_name: str, cpf: str, birth_date: date, email: str, phone: str | None, password: str
) -> User | None:
    """Record a sign-up; the caller answers with the same page whatever happened here.

    A new CPF and e-mail give a new citizen account, unconfirmed: it is returned, and opens only
    through the link mailed to it. When the CPF or the e-mail is already known, return None and
    explain by e-mail instead: an account holder is told to sign in or reset the password; a
    record a clinic created gets a one-time claim link at the e-mail on file (the claimant proves
    control of it before seeing anything, see :func:`claim_record`). A sign-up not yet confirmed
    holds neither its CPF nor its e-mail (either may have been mistyped): a new sign-up with one
    of them takes its place, and whoever follows their link first owns the account.

    Raises AccountError when the CPF is invalid.
    """
    digits = clean_cpf(cpf)
    if not digits:
        raise AccountError("cpf", "cpf_invalid", _("CPF inválido: confira os 11 dígitos."))
    email = email.strip().lower()
    # Hashed in every branch: the answer's delay must not tell a new CPF from a known one.
    password_hash = hash_password(password)
    person = find_by_cpf(digits)
    holder = find_by_email(email)
    if person is not None and person.activation_pending and holder in (None, person):
        user = person
    elif person is None and holder is not None and holder.activation_pending:
        user = holder  # the same address again, with the CPF corrected
        user.cpf = digits
    elif person is not None or holder is not None:
        _explain_known_signup(person, holder, email)
        return None
    else:
        user = User(cpf=digits)
        db.session.add(user)
    user.full_name = full_name.strip()
    user.birth_date = birth_date
    user.email = email
    user.phone = phone
    user.password_hash = password_hash
    user.privacy_accepted_at = utcnow()
    user.email_confirmed_at = None
    user.activation_pending = True
    user.add_role(Role.CITIZEN)
    db.session.flush()
    send_confirmation(user)
    return user


def resend_signup_email(email: str) -> None:
    """ "Reenviar e-mail" on sign-up's answer page: the same kind of e-mail again, for ``email``.

    Only the e-mail typed at sign-up is known here (kept in the person's own session), so the
    message is chosen by what that address is: an account waiting for activation gets its link,
    a record a clinic created its claim link, an account its sign-in help; an address nobody
    holds came with a CPF that is already registered."""
    email = email.strip().lower()
    holder = find_by_email(email)
    if holder is None:
        _mail_cpf_known(email)
    elif holder.activation_pending:
        send_confirmation(holder)
    elif not holder.has_account:
        send_claim_link(holder)
    else:
        _mail_email_known(email)


def _mail_cpf_known(email: str) -> None:
    send_email(
        email,
        _("Seu pedido de cadastro no portal do CCZ"),
        _(
            "Olá.\n\nRecebemos um pedido de cadastro com este e-mail, mas o CPF informado já "
            "tem uma conta no portal do CCZ.\n\nSe a conta é sua, entre em %(login)s ou crie "
            "uma nova senha em %(forgot)s.\nSe você não reconhece a conta, procure o CCZ com um "
            "documento com foto.",
            login=absolute_url("auth.login"),
            forgot=absolute_url("auth.forgot_password"),
        ),
    )


def _mail_email_known(email: str) -> None:
    send_email(
        email,
        _("Seu pedido de cadastro no portal do CCZ"),
        _(
            "Olá.\n\nRecebemos um pedido de cadastro com este e-mail, mas ele já está ligado "
            "a um cadastro no portal do CCZ.\n\nSe você já tem conta, entre em %(login)s ou "
            "crie uma nova senha em %(forgot)s.\nSe não foi você, ignore esta mensagem.",
            login=absolute_url("auth.login"),
            forgot=absolute_url("auth.forgot_password"),
        ),
    )


def _explain_known_signup(person: User | None, holder: User | None, email: str) -> None:
    """The e-mails behind sign-up's neutral answer (nothing about anyone is shown on the page)."""
    if person is not None and person.has_account:
        _mail_cpf_known(email)
    elif person is not None:
        # A record a clinic created: only whoever reads the e-mail on file may claim it.
        if person.email:
            send_claim_link(person)
        if not person.email or person.email.lower() != email:
            send_email(
                email,
                _("Seu pedido de cadastro no portal do CCZ"),
                _(
                    "Olá.\n\nRecebemos um pedido de cadastro com este e-mail, mas o CPF informado "
                    "já tem um cadastro no CCZ (feito, por exemplo, por uma clínica "
                    "credenciada).\n\nSe houver um e-mail nesse cadastro, enviamos para ele um "
                    "link para ativar a conta. Se você não tem acesso a esse e-mail, procure o CCZ "
                    "com um documento com foto para atualizar seus dados."
                ),
            )
    else:
        _mail_email_known(email)


def send_claim_link(person: User) -> None:
    """Mail the one-time link that lets the reader of the e-mail on file activate the record."""
    token = _serializer("claim-account").dumps({"id": person.id, "e": person.email})
    link = absolute_url("auth.claim_account", token=token)
    send_email(
        person.email or "",
        _("Ative sua conta no portal do CCZ"),
        _(
            "Olá, %(name)s.\n\nUm estabelecimento credenciado registrou seus dados no CCZ e "
            "alguém pediu para criar a conta no portal com o seu CPF. Se foi você, abra o link "
            "abaixo e crie sua senha:\n%(link)s\n\nO link vale por 2 dias e só pode ser usado uma "
            "vez. Se não foi você, ignore esta mensagem: nada muda no seu cadastro.",
            name=person.full_name,
            link=link,
        ),
    )


def user_for_claim_token(token: str) -> User | None:
    """The unclaimed record the token was mailed for; None when invalid, expired or used."""
    try:
        data = _serializer("claim-account").loads(token, max_age=CLAIM_MAX_AGE)
    except (BadSignature, SignatureExpired):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("id"), int):
        return None
    user = db.session.get(User, data["id"])
    if user is None or user.has_account or not user.email or user.email != data.get("e"):
        return None
    return user


def claim_record(user: User, password: str) -> None:
    """The reader of the e-mail on file sets the password: the record becomes their account."""
    user.password_hash = hash_password(password)
    user.privacy_accepted_at = utcnow()
    user.email_confirmed_at = utcnow()  # the link reached this address
    user.add_role(Role.CITIZEN)
    user.bump_session_version()
    db.session.flush()


def set_password(user: User, password: str) -> None:
    """Change the password and sign out every other session (the caller re-signs the current
    one in with the new version)."""
    user.password_hash = hash_password(password)
    user.bump_session_version()
    send_email(
        user.email or "",
        _("Sua senha foi alterada"),
        _(
            "Olá, %(name)s.\n\nA senha da sua conta no portal do CCZ foi alterada e as sessões "
            "abertas em outros aparelhos foram encerradas.\n\nSe não foi você, crie uma nova senha "
            "em %(forgot)s e procure o CCZ.",
            name=user.full_name,
            forgot=absolute_url("auth.forgot_password"),
        ),
    )
    db.session.flush()


def change_email(user: User, new_email: str) -> None:
    """Take a new e-mail (to be confirmed) and tell the OLD address, where a hijack is noticed."""
    old = user.email
    user.email = new_email
    user.email_confirmed_at = None
    if old and old != new_email:
        send_email(
            old,
            _("Seu e-mail no portal do CCZ foi alterado"),
            _(
                "Olá, %(name)s.\n\nO e-mail da sua conta no portal do CCZ foi trocado para "
                "%(masked)s.\n\nSe não foi você, procure o CCZ com um documento com foto.",
                name=user.full_name,
                masked=mask_email(new_email),
            ),
        )
    send_confirmation(user)


def mask_email(email: str) -> str:
    """``an***@example.com``: enough to recognise, not to harvest."""
    local, _sep, domain = email.partition("@")
    return f"{local[:2]}***@{domain}"


def _serializer(salt: str) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=salt)


def send_confirmation(user: User) -> None:
    token = _serializer("confirm-email").dumps({"id": user.id, "email": user.email})
    link = absolute_url("auth.confirm_email", token=token)
    send_email(
        user.email or "",
        _("Confirme seu e-mail"),
        _(
            "Olá, %(name)s.\n\nPara confirmar seu e-mail no portal do CCZ, abra:\n%(link)s\n\n"
            "O link vale por 3 dias.",
            name=user.full_name,
            link=link,
        ),
    )


def confirm_email(token: str) -> User | None:
    """The user whose e-mail the token confirms, or None when it is invalid or expired.

    The first confirmation of a sign-up also activates the account (``activation_pending``
    cleared): from then on the password signs in."""
    try:
        data = _serializer("confirm-email").loads(token, max_age=CONFIRM_MAX_AGE)
    except (BadSignature, SignatureExpired):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("id"), int):
        return None
    user = db.session.get(User, data["id"])
    if user is None or user.email != data.get("email"):
        return None
    if user.email_confirmed_at is None:
        user.email_confirmed_at = utcnow()
    if user.activation_pending:
        user.activation_pending = False
        audit.record("account.activated", user, actor_id=user.id)
    db.session.flush()
    return user


def send_password_reset(email: str) -> None:
    """Send a reset link if the account exists; say nothing either way (no account probing).

    A record a clinic created gets the claim link instead: this is its e-mail on file."""
    user = find_by_email(email)
    if user is None:
        return
    if user.activation_pending:  # the way back to a lost activation link
        send_confirmation(user)
        return
    if not user.has_account:
        send_claim_link(user)
        return
    # The hash fragment makes a token single-use: once the password changes, it no longer verifies.
    token = _serializer("reset-password").dumps(
        {"id": user.id, "h": (user.password_hash or "")[-12:]}
    )
    link = absolute_url("auth.reset_password", token=token)
    send_email(
        user.email or "",
        _("Redefinição de senha"),
        _(
            "Olá, %(name)s.\n\nPara criar uma nova senha, abra:\n%(link)s\n\nO link vale por "
            "1 hora. Se não foi você, ignore esta mensagem.",
            name=user.full_name,
            link=link,
        ),
    )


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
    if not check_password(user, password) or not user.active or user.activation_pending:
        return None
    if _hasher.check_needs_rehash(user.password_hash or ""):
        user.password_hash = hash_password(password)
    return user
