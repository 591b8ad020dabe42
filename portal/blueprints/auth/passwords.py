"""The password rule, in one place: every form that sets a password (sign-up, claim, reset,
change) and the ``create-user`` command call :func:`password_problem`.

What the pages promise ("Ao menos 8 caracteres, com letras e números") is what is checked, and a
password that carries the person's own name, e-mail or CPF (the first things an attacker who
knows the person tries) is refused too (issue 26, Low 9)."""

from __future__ import annotations

import re
import unicodedata

from flask_babel import lazy_gettext as _l

MIN_LENGTH = 8
NAME_PART_MIN = 4  # "Ana", "da", "de" are too short to be a meaningful guess; "Silva" is not

RULE = _l("Use ao menos 8 caracteres, com letras e números.")


def _plain(text: str) -> str:
    """Lower case, without accents: "JOÃO" in a name matches "joao" in a password."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def _name_parts(full_name: str | None) -> list[str]:
    return [
        part for part in re.split(r"[^a-z]+", _plain(full_name or "")) if len(part) >= NAME_PART_MIN
    ]


def _email_parts(email: str | None) -> list[str]:
    local = _plain((email or "").partition("@")[0])
    parts = [part for part in re.split(r"[^a-z]+", local) if len(part) >= NAME_PART_MIN]
    whole = re.sub(r"[^a-z0-9]+", "", local)
    if len(whole) >= NAME_PART_MIN:
        parts.append(whole)
    return parts


def password_problem(
    password: str,
    *,
    full_name: str | None = None,
    email: str | None = None,
    cpf: str | None = None,
) -> str | None:
    """Why ``password`` is refused (a Portuguese sentence to show next to the field), or None."""
    from portal.blueprints.auth.services import is_common_password

    value = password or ""
    has_letter = any(ch.isalpha() for ch in value)
    has_digit = any(ch in "0123456789" for ch in value)
    if len(value) < MIN_LENGTH or not has_letter or not has_digit:
        return str(RULE)
    plain = _plain(value)
    compact = re.sub(r"[^a-z0-9]+", "", plain)  # "ma.ria" and "ma-ria" hide "maria"
    if any(part in plain or part in compact for part in _name_parts(full_name)):
        return str(_l("A senha não pode conter o seu nome ou sobrenome. Escolha outra."))
    if any(part in plain or part in compact for part in _email_parts(email)):
        return str(_l("A senha não pode conter o seu e-mail. Escolha outra."))
    cpf_digits = re.sub(r"\D", "", cpf or "")
    if len(cpf_digits) == 11 and cpf_digits in re.sub(r"\D", "", value):
        return str(_l("A senha não pode conter o seu CPF. Escolha outra."))
    if is_common_password(value):
        return str(
            _l("Esta senha está entre as mais usadas e é fácil de adivinhar. Escolha outra.")
        )
    return None
