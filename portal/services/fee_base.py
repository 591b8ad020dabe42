"""The building blocks of the fee service (:mod:`portal.services.fees`): the error, the itemised
:class:`Fee`, the city's price list in force on a day, and the parsing of the ``inputs`` dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any, get_args

from flask_babel import gettext as _
from sqlalchemy import select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import PriceOverride
from portal.profiles.schema import BRL, Amount, Exemption, PriceKey, Profile
from portal.services.money import format_brl, units_to_cents

FEE_KINDS = ("registration", "card_copy", "tag_copy", "licence", "adoption", "reclaim", "fine")
PRICE_KINDS = ("registration", "card_copy", "tag_copy", "licence")
PRICE_KEYS: tuple[str, ...] = get_args(PriceKey)


class FeeError(DomainError, ValueError):
    """The inputs cannot be priced; ``field`` names the input at fault (None: the whole request).

    Still a ValueError for callers that caught it as one before it became a DomainError.
    """


@dataclass(frozen=True)
class FeeLine:
    """One line of a fee: what, how much, and the article that charges it."""

    label: str
    amount_cents: int
    article: str
    # "fee" (taxa / preço), "fine" (multa), "expense" (despesa ressarcida) or "exemption" (negative)
    kind: str = "fee"
    quantity: int = 1
    unit_cents: int | None = None  # the price of one day / animal when quantity > 1
    # Who pays a fine: "offender", or the role the law names (BJP 19 §1: "owner", "trainer").
    payer: str | None = None
    note: str | None = None  # the agent's reason for a graded amount (GRU 69 II, 76)

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "label": self.label,
            "amount_cents": self.amount_cents,
            "article": self.article,
            "kind": self.kind,
        }
        if self.quantity != 1 or self.unit_cents is not None:
            data["quantity"] = self.quantity
            data["unit_cents"] = self.unit_cents
        if self.payer is not None:
            data["payer"] = self.payer
        if self.note is not None:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class Fee:
    """An itemised amount. ``total_cents`` is 0 when the law charges nothing or it was waived."""

    kind: str
    on: date
    lines: tuple[FeeLine, ...] = ()
    # Exemptions the payer may still ask for on this kind (proof reviewed by staff).
    exemptions: tuple[Exemption, ...] = field(default=())

    @property
    def total_cents(self) -> int:
        return sum(line.amount_cents for line in self.lines)

    @property
    def charged(self) -> bool:
        """True when the law charges something for this kind (even if an exemption waived it)."""
        return any(line.kind != "exemption" and line.amount_cents > 0 for line in self.lines)

    def breakdown(self) -> list[dict[str, Any]]:
        return [line.as_dict() for line in self.lines]


# ---------------------------------------------------------------------------------------------
# Price list
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PriceEntry:
    """One line of the city's price list as it stands on a day."""

    key: str
    amount_cents: int
    article: str
    example: bool  # True while the profile's shipped placeholder applies
    effective_from: date | None  # of the override in force; None for the shipped value
    note: str | None = None


def price_list(profile: Profile, on: date) -> list[PriceEntry]:
    """The price list in force on ``on``: the profile's lines with the city's latest override."""
    overrides = db.session.scalars(
        select(PriceOverride)
        .where(PriceOverride.profile_key == profile.key, PriceOverride.effective_from <= on)
        .order_by(PriceOverride.effective_from)
    ).all()
    latest = {o.key: o for o in overrides}  # ordered by date: the last one wins
    entries = []
    for key in PRICE_KEYS:
        price = profile.prices.get(key)  # type: ignore[call-overload]
        if price is None:
            continue  # the law does not charge it: the city cannot add it here
        override = latest.get(key)
        if override is None:
            entries.append(PriceEntry(key, price.amount_cents, price.article, price.example, None))
        else:
            entries.append(
                PriceEntry(
                    key,
                    override.amount_cents,
                    price.article,
                    False,
                    override.effective_from,
                    override.note,
                )
            )
    return entries


def price_cents(profile: Profile, key: str, on: date) -> PriceEntry:
    """One price-list line in force on ``on``. Raises FeeError when the list has no such line."""
    for entry in price_list(profile, on):
        if entry.key == key:
            return entry
    raise FeeError(None, "not_charged", _("A tabela de preços do município não tem este item."))


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _amount_cents(profile: Profile, amount: Amount, on: date) -> int:
    """Centavos of an Amount: price list (with the city's overrides), units in force on ``on``."""
    if amount.price is not None:
        return price_cents(profile, amount.price, on).amount_cents
    if amount.units is not None and amount.unit is not None:
        return units_to_cents(amount.units, amount.unit, on)
    return profile.amount_cents(amount, {})


def _amount_units(amount: Amount | None) -> Decimal:
    if amount is None:
        return Decimal(0)
    if amount.units is not None:
        return amount.units
    return Decimal(amount.cents or 0) / 100


def _times(
    label: str,
    unit_cents: int,
    quantity: int,
    article: str,
    *,
    kind: str = "fee",
    unit: str = "animal",
    payer: str | None = None,
) -> FeeLine:
    if quantity == 1:
        return FeeLine(label, unit_cents, article, kind=kind, payer=payer)
    what = _("dias") if unit == "day" else _("animais")
    return FeeLine(
        f"{label} ({quantity} {what} × {format_brl(unit_cents)})",
        unit_cents * quantity,
        article,
        kind=kind,
        quantity=quantity,
        unit_cents=unit_cents,
        payer=payer,
    )


def _times_line(line: FeeLine, animals: int) -> FeeLine:
    """A per-animal line multiplied by the number of animals of the same size."""
    return FeeLine(
        f"{line.label} × {animals} {_('animais')}",
        line.amount_cents * animals,
        line.article,
        kind=line.kind,
        quantity=line.quantity * animals,
        unit_cents=line.unit_cents or line.amount_cents,
    )


def _price_label(kind: str) -> str:
    return {
        "registration": _("Registro do animal (RGA)"),
        "card_copy": _("Segunda via da carteira do RGA"),
        "tag_copy": _("Segunda via da plaqueta"),
        "licence": _("Licença especial para animais acima do limite"),
    }[kind]


def _units_text(units: Decimal, unit: str) -> str:
    if unit == BRL:
        return format_brl(int(units * 100))
    return f"{_num(units)} {unit}"


def _num(value: Decimal | None) -> str:
    if value is None:
        return "—"
    text = f"{value.normalize():f}"
    return text.replace(".", ",")


def _holidays(inputs: dict[str, Any]) -> list[date]:
    given = inputs.get("municipal_holidays")
    if given is not None:
        return [d if isinstance(d, date) else date.fromisoformat(str(d)) for d in given]
    from portal.services.municipal_holidays import municipal_holidays

    around = [
        d
        for d in (_optional_date(inputs, "apprehended_on"), _optional_date(inputs, "reclaimed_on"))
        if d is not None
    ]
    return municipal_holidays(around)  # yearly holidays expanded for the years of the term


def _optional_date(inputs: dict[str, Any], name: str) -> date | None:
    try:
        found = _date(inputs, name, date.min)
    except FeeError:
        return None  # reported with its field by the caller that needs the date
    return None if found == date.min else found


def _date(inputs: dict[str, Any], name: str, default: date | None) -> date:
    value = inputs.get(name)
    if value in (None, ""):
        if default is None:
            raise FeeError(name, "required", _("Informe a data."))
        return default
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise FeeError(name, "invalid", _("Data inválida: use AAAA-MM-DD.")) from None


def _flag(inputs: dict[str, Any], name: str, default: bool | None = False) -> bool:
    """A yes/no input (JSON true/false or the form's "true"/"false"); ``default=None``: required."""
    value = inputs.get(name)
    if value is None or value == "":
        if default is None:
            raise FeeError(name, "required", _("Responda sim ou não."))
        return default
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise FeeError(name, "invalid", _("Responda sim ou não."))


def _positive_int(inputs: dict[str, Any], name: str, default: int) -> int:
    """A count of one or more; omitted or left empty: ``default``."""
    value = inputs.get(name)
    if value is None or value == "":
        value = default
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise FeeError(name, "invalid", _("Informe um número inteiro maior que zero."))
    try:
        number = int(value)
    except ValueError:
        raise FeeError(name, "invalid", _("Informe um número inteiro maior que zero.")) from None
    if number < 1:
        raise FeeError(name, "invalid", _("Informe um número inteiro maior que zero."))
    return number


def _non_negative_int(inputs: dict[str, Any], name: str) -> int:
    """A required count of zero or more (days held, a previous fine in centavos)."""
    value = inputs.get(name)
    if value is None or value == "":
        raise FeeError(name, "required", _("Informe o número de dias."))
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise FeeError(name, "invalid", _("Informe um número inteiro (zero ou mais)."))
    try:
        number = int(value)
    except ValueError:
        raise FeeError(name, "invalid", _("Informe um número inteiro (zero ou mais).")) from None
    if number < 0:
        raise FeeError(name, "invalid", _("Informe um número inteiro (zero ou mais)."))
    return number
