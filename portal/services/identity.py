"""CPF/CNPJ validation and masking, and the household (residence) key of an address."""

from __future__ import annotations

import re
import unicodedata

from stdnum.br import cnpj as _cnpj
from stdnum.br import cpf as _cpf
from stdnum.exceptions import ValidationError


def clean_cpf(value: str) -> str | None:
    """The 11 digits of a valid CPF, or None when the check digits fail (python-stdnum).

    Repeated-digit numbers (111.111.111-11) pass the check-digit arithmetic but are never issued
    by the Receita Federal, so they are refused too.
    """
    try:
        digits = _cpf.validate(value or "")
    except ValidationError:
        return None
    return None if len(set(digits)) == 1 else digits


_CPF_SHAPE = re.compile(r"\d{3}[.\s]?\d{3}[.\s]?\d{3}[-.\s]?\d{2}")


def looks_like_cpf(value: str | None) -> bool:
    """Whether a search box received something shaped like a CPF (11 digits, with or without the
    usual dots and dash), valid or not. An RGA always starts with its species letter, so such a
    query is never an RGA number; it must not be passed on in a URL (or an access log)."""
    if not value:
        return False
    return _CPF_SHAPE.fullmatch(value.strip()) is not None


def clean_cnpj(value: str) -> str | None:
    try:
        return _cnpj.validate(value or "")
    except ValidationError:
        return None


def mask_cpf(cpf: str | None) -> str:
    """***.456.789-** : enough for a person to recognise their own, not enough to reuse."""
    if not cpf or len(cpf) != 11:
        return ""
    return f"***.{cpf[3:6]}.{cpf[6:9]}-**"


def clean_cep(value: str) -> str | None:
    digits = re.sub(r"\D", "", value or "")
    return digits if len(digits) == 8 else None


_STREET_WORDS = {
    "r": "rua",
    "av": "avenida",
    "avda": "avenida",
    "al": "alameda",
    "tv": "travessa",
    "trav": "travessa",
    "est": "estrada",
    "rod": "rodovia",
    "pca": "praca",
    "pc": "praca",
    "lgo": "largo",
    "vl": "vila",
    "jd": "jardim",
    "dr": "doutor",
    "prof": "professor",
}


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode()
    words = re.findall(r"[a-z0-9]+", text.lower())
    return " ".join(_STREET_WORDS.get(w, w) for w in words)


def residence_key(
    cep: str | None, street: str | None, number: str | None, complement: str | None
) -> str:
    """One key per dwelling, the same however the address was typed.

    CEP digits + folded street + number + folded complement ("Apto 12" and "ap. 12" match).
    """
    comp = _fold(complement or "")
    comp = re.sub(r"\b(apartamento|apto|ap|apt)\b", "ap", comp)
    comp = re.sub(r"\b(casa|cs)\b", "casa", comp)
    return "|".join([clean_cep(cep or "") or "", _fold(street or ""), _fold_number(number), comp])


def _fold_number(number: str | None) -> str:
    """House number as typed by different people: "nº 77", "n. 77", "077" and "77" are one house."""
    words = _fold(number or "").split()
    while len(words) > 1 and words[0] in ("n", "no", "num", "numero"):
        words = words[1:]
    return " ".join(w.lstrip("0") or "0" if w.isdigit() else w for w in words)
