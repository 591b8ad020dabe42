"""The building blocks of the fee service (:mod:`portal.services.fees`): the error, the itemised
:class:`Fee`, the city's price list in force on a day, and the typed inputs of each kind of fee
(:class:`PriceInputs`, :class:`AdoptionInputs`, :class:`ReclaimInputs`, :class:`FineInputs`) with
:func:`parse_inputs`, which reads them once from the dict a form, the API or another domain sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, cast, get_args

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import PriceOverride
from portal.profiles.schema import (
    BRL,
    SIZE_CLASSES,
    Amount,
    Exemption,
    PriceKey,
    Profile,
    SizeClass,
)
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


def _holidays(given: tuple[date, ...] | None, *around: date | None) -> list[date]:
    """The municipal holidays a term skips: those the caller gave, else the ones staff entered,
    for the years around the dates of the term (``around``; None: not given)."""
    if given is not None:
        return list(given)
    from portal.services.municipal_holidays import municipal_holidays

    # yearly holidays expanded for the years of the term
    return municipal_holidays([d for d in around if d is not None])


# ---------------------------------------------------------------------------------------------
# Typed inputs: one record per kind, parsed once from the dict the forms, the API and the other
# domains send (dates as ``date`` or ISO text, counts as int or text, yes/no as bool or text)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expense:
    """One expense of the CCZ to be paid back (CABO 10 §ú f, 41; GRU 72 §1)."""

    kind: str | None  # None: not a text, so never a kind the law lists
    amount_cents: int
    description: str | None = None


@dataclass(frozen=True)
class PriceInputs:
    """The price list (GRU 22; BJP 11): registration, card_copy, tag_copy, licence."""

    animals: int = 1
    exemption: str | None = None  # GRU 23; VV 12 §3-4


@dataclass(frozen=True)
class AdoptionInputs:
    """``adoption``: a price (BJP 28) or a unit multiple per day held (CAB 17)."""

    animals: int = 1
    days_held: int | None = None  # required where the fee is per day held (CAB 17)
    exemption: str | None = None


@dataclass(frozen=True)
class ReclaimInputs:
    """``reclaim``: the facts of one capture (CABO 44, CAB 17/19, VV 22 §5-6, BJP 28, GRU 82)."""

    size: SizeClass
    apprehended_on: date
    reclaimed_on: date | None = None  # None: the day priced
    capture_number: int = 1  # 1 = first capture
    owner_captures: tuple[SizeClass, ...] = ()  # CAB 19 §2: sizes of the owner's earlier captures
    tagged: bool = True
    animals: int = 1
    away_from_home: bool | None = None  # VV 22 §6: required for a repeat capture there
    municipal_holidays: tuple[date, ...] | None = None  # None: the ones staff entered
    expenses: tuple[Expense, ...] = ()
    exemption: str | None = None  # GRU 82 §3


@dataclass(frozen=True)
class Repeats:
    """One person's earlier penalties for the same legal provision, as given (GRU 79, 113)."""

    previous_offences: tuple[date, ...] = ()
    previous_offence_on: date | None = None
    repeat: int = 0  # laws without a window: the number of earlier penalties (0: none)
    previous_amount_cents: int | None = None  # CAB 40 §2: the previous penalty


@dataclass(frozen=True)
class JointFine:
    """A fine the same facts impose on another person (BJP 19 §1 II), with their own record."""

    code: str | None
    repeats: Repeats = Repeats()


@dataclass(frozen=True)
class FineInputs:
    """``fine``: a severity or a specific infraction, and the facts that price it."""

    severity: str | None = None
    specific: str | None = None
    infraction_on: date | None = None  # None: the day priced
    prescription_interrupted_on: date | None = None  # GRU 113 §1
    units: Decimal | None = None  # a finite number typed (GRU 69 II, CABO 39; BJP 30 II in R$)
    units_given: bool = False  # something typed in ``units``, a number or not
    amount_cents: int | None = None  # BJP 30 II: the amount per animal set in the range
    amount_cents_given: bool = False
    units_reason: str = ""  # GRU 76: why the agent graded it so
    animals: int = 1
    animal_died: bool = False  # VV 32 §1 II, 43 §2
    notified_on: date | None = None  # BJP 2 §3, 16 §4, 17 §2; VV 34 §2
    repeats: Repeats = Repeats()
    joint: tuple[JointFine, ...] = ()  # BJP 19 §1 II
    municipal_holidays: tuple[date, ...] | None = None
    expenses: tuple[Expense, ...] = ()
    exemption: str | None = None


FeeInputs = PriceInputs | AdoptionInputs | ReclaimInputs | FineInputs
INPUTS_OF: dict[str, type[FeeInputs]] = {
    **dict.fromkeys(PRICE_KINDS, PriceInputs),
    "adoption": AdoptionInputs,
    "reclaim": ReclaimInputs,
    "fine": FineInputs,
}


def unknown_kind(kind: str) -> FeeError:
    """The error for a kind of fee the service does not price."""
    return FeeError(
        "kind", "unknown_kind", _("Tipo de cobrança desconhecido: %(kind)s.", kind=kind)
    )


def parse_inputs(kind: str, inputs: Mapping[str, Any] | None) -> FeeInputs:
    """The record of ``kind`` from the dict a form, the API or another domain sends.

    Raises FeeError with the input ``field`` at fault (the rules of the law stay with the fee).
    """
    data = dict(inputs or {})
    # The messages end up next to the fee's labels, on official documents in Portuguese.
    with force_locale("pt_BR"):
        if kind in PRICE_KINDS:
            return PriceInputs(_positive_int(data, "animals", 1), _code(data.get("exemption")))
        if kind == "adoption":
            return AdoptionInputs(
                _positive_int(data, "animals", 1),
                _count(data, "days_held"),
                _code(data.get("exemption")),
            )
        if kind == "reclaim":
            return _reclaim_inputs(data)
        if kind == "fine":
            return _fine_inputs(data)
        raise unknown_kind(kind)


def _reclaim_inputs(data: dict[str, Any]) -> ReclaimInputs:
    size = data.get("size")
    if size not in SIZE_CLASSES:
        raise FeeError("size", "invalid", _("Informe o porte: pequeno, médio ou grande."))
    return ReclaimInputs(
        size=cast(SizeClass, size),
        apprehended_on=_date(data, "apprehended_on", None),
        reclaimed_on=_optional_date(data, "reclaimed_on"),
        capture_number=_positive_int(data, "capture_number", 1),
        animals=_positive_int(data, "animals", 1),
        tagged=_flag(data, "tagged", True),
        away_from_home=_answer(data, "away_from_home"),
        owner_captures=_sizes(data.get("owner_captures")),
        municipal_holidays=_holiday_dates(data.get("municipal_holidays")),
        expenses=_expenses(data.get("expenses")),
        exemption=_code(data.get("exemption")),
    )


def _fine_inputs(data: dict[str, Any]) -> FineInputs:
    severity, specific = _code(data.get("severity")), _code(data.get("specific"))
    if severity and specific:
        raise FeeError(
            "specific", "ambiguous", _("Informe a gravidade ou a infração específica, não ambas.")
        )
    units, cents = data.get("units"), data.get("amount_cents")
    reason = data.get("units_reason")
    return FineInputs(
        severity=severity,
        specific=specific,
        infraction_on=_optional_date(data, "infraction_on"),
        prescription_interrupted_on=_optional_date(data, "prescription_interrupted_on"),
        units=_decimal(units),
        units_given=units not in (None, ""),
        amount_cents=cents if isinstance(cents, int) and not isinstance(cents, bool) else None,
        amount_cents_given=cents not in (None, ""),
        units_reason=reason.strip() if isinstance(reason, str) else "",
        animals=_positive_int(data, "animals", 1),
        animal_died=_flag(data, "animal_died", False),
        notified_on=_optional_date(data, "notified_on"),
        repeats=_repeats(data),
        joint=_joint(data.get("joint")),
        municipal_holidays=_holiday_dates(data.get("municipal_holidays")),
        expenses=_expenses(data.get("expenses")),
        exemption=_code(data.get("exemption")),
    )


_REPEAT_INPUTS = ("previous_offences", "previous_offence_on", "repeat", "previous_amount_cents")


def _repeats(data: dict[str, Any]) -> Repeats:
    """``previous_offences`` (dates), ``previous_offence_on`` (one date), ``repeat`` (True or a
    count), ``previous_amount_cents``."""
    many = data.get("previous_offences")
    dates: list[date] = []
    if many not in (None, ""):
        if not isinstance(many, list | tuple):
            raise FeeError(
                "previous_offences", "invalid", _("Informe as datas das infrações anteriores.")
            )
        dates = [_date({"previous_offences": v}, "previous_offences", None) for v in many]
    last = _optional_date(data, "previous_offence_on")
    repeat = data.get("repeat")
    count = 0
    if repeat not in (None, "", False, 0):
        count = 1 if repeat is True else _positive_int(data, "repeat", 1)
    amount = None
    if dates or last or count:  # CAB 40 §2: the previous penalty is read only on a repeat
        amount = _count(data, "previous_amount_cents")
    return Repeats(tuple(dates), last, count, amount)


def _joint(given: Any) -> tuple[JointFine, ...]:
    """Codes, or ``{"code": ..., "previous_offences": [...]}`` with that person's own record: a
    repeat of the owner is not a repeat of the trainer."""
    if given in (None, "", [], ()):
        return ()
    if not isinstance(given, list | tuple):
        raise FeeError("joint", "invalid", _("Informe as outras pessoas multadas pelo mesmo fato."))
    result = []
    for entry in given:
        own = dict(entry) if isinstance(entry, Mapping) else {"code": entry}
        code = own.pop("code", None)
        if set(own) - set(_REPEAT_INPUTS):
            raise FeeError(
                "joint", "invalid", _("Informe as outras pessoas multadas pelo mesmo fato.")
            )
        result.append(JointFine(code if isinstance(code, str) else None, _repeats(own)))
    return tuple(result)


def _expenses(given: Any) -> tuple[Expense, ...]:
    """``[{"kind": "transport", "amount_cents": 4500, "description": "..."}]``."""
    if given in (None, "", [], ()):
        return ()
    if not isinstance(given, list | tuple):
        raise FeeError("expenses", "invalid", _("Informe cada despesa com o tipo e o valor."))
    result = []
    for item in given:
        if not isinstance(item, Mapping):
            raise FeeError("expenses", "invalid", _("Informe cada despesa com o tipo e o valor."))
        amount = item.get("amount_cents")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise FeeError(
                "expenses",
                "invalid",
                _("Informe o valor de cada despesa em centavos, maior que zero."),
            )
        kind, description = item.get("kind"), item.get("description")
        text = description.strip() if isinstance(description, str) else ""
        result.append(Expense(kind if isinstance(kind, str) else None, amount, text or None))
    return tuple(result)


def _sizes(given: Any) -> tuple[SizeClass, ...]:
    sizes = given or []
    if not isinstance(sizes, list | tuple) or any(s not in SIZE_CLASSES for s in sizes):
        raise FeeError(
            "owner_captures", "invalid", _("Informe o porte de cada captura anterior do dono.")
        )
    return tuple(sizes)


def _holiday_dates(given: Any) -> tuple[date, ...] | None:
    if given is None:
        return None
    return tuple(d if isinstance(d, date) else date.fromisoformat(str(d)) for d in given)


def _code(value: Any) -> str | None:
    """A code picked from a list (severity, infraction, exemption); None when none was."""
    if not value:
        return None
    return value if isinstance(value, str) else str(value)


def _decimal(raw: Any) -> Decimal | None:
    """A finite number typed in a value field, or None (empty, not a number, infinite)."""
    if raw in (None, ""):
        return None
    try:
        value = Decimal(str(raw))
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def _optional_date(inputs: dict[str, Any], name: str) -> date | None:
    """A date that may be left out (None); given, it must be a date."""
    if inputs.get(name) in (None, ""):
        return None
    return _date(inputs, name, None)


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


def _answer(inputs: dict[str, Any], name: str) -> bool | None:
    """A yes/no input (JSON true/false or the form's "true"/"false"); None when left out."""
    value = inputs.get(name)
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise FeeError(name, "invalid", _("Responda sim ou não."))


def _flag(inputs: dict[str, Any], name: str, default: bool) -> bool:
    answer = _answer(inputs, name)
    return default if answer is None else answer


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


def _count(inputs: dict[str, Any], name: str) -> int | None:
    """A count of zero or more (days held, a previous fine in centavos); None when left out."""
    value = inputs.get(name)
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise FeeError(name, "invalid", _("Informe um número inteiro (zero ou mais)."))
    try:
        number = int(value)
    except ValueError:
        raise FeeError(name, "invalid", _("Informe um número inteiro (zero ou mais).")) from None
    if number < 0:
        raise FeeError(name, "invalid", _("Informe um número inteiro (zero ou mais)."))
    return number
