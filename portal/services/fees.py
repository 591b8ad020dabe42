"""The one fee service: what a person owes under the profile's law, line by line, in centavos.

    fee = compute_fee(profile, "reclaim", {"size": "small", "apprehended_on": d1,
                                           "capture_number": 2}, on=today)
    fee.total_cents            # integer centavos
    fee.lines                  # FeeLine(label, amount_cents, article, …): each cites its article
    fee.breakdown()            # the list stored in PaymentItem.breakdown

Kinds and their inputs (``inputs`` is a plain dict so the web forms, the API and other domains call
it the same way; dates may be ``date`` objects or ISO strings):

``registration``, ``card_copy``, ``tag_copy``, ``licence``
    The city's price list (GRU 22; BJP 11). ``animals`` (default 1).
``adoption``
    The profile's adoption fee: a price (BJP 28) or, per day held, a unit multiple (CAB 17).
    ``days_held`` (CAB), ``animals`` (default 1).
``reclaim``
    Every ``profile.reclaim.charges`` line (CABO 44, CAB 17/19, VV 22 §5-6, BJP 28, GRU 82).
    ``size`` (small/medium/large), ``apprehended_on``, ``reclaimed_on`` (default ``on``),
    ``capture_number`` (1 = first capture), ``tagged`` (default True), ``animals`` (default 1),
    ``municipal_holidays`` (default: the ones staff entered).
``fine``
    ``severity`` (a key of ``profile.fines.severities``) or ``specific`` (a code of
    ``profile.fines.specific``) or neither when the law has a default fine (VV 50 I); ``units``
    when the amount is graded by the agent (GRU 69 II range, CABO 39 minimums); ``animals`` for
    per-animal fines; ``previous_offence_on`` (the last infraction of the same type: repeat within
    the profile's window, GRU 79) or ``repeat`` (laws without a window); ``previous_amount_cents``
    where the law doubles the previous penalty (CAB 40 §2).

Every kind accepts ``exemption``: the code of an exemption staff accepted (GRU 23, 82 §3;
VV 12 §3-4). The lines stay, and one negative line cancels them, so the document shows what was
waived and why.

Unit values (UFM, UFG, minimum wage) are those in force on ``on``, the issue day
(:func:`portal.services.money.units_to_cents`); price-list amounts are the city's overrides in force
on ``on``, else the profile's shipped (example) amounts.

Raises :class:`FeeError` (with the input ``field`` at fault) for inputs the law cannot price, and
for a unit value missing on that day.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, get_args

from flask_babel import force_locale
from flask_babel import gettext as _
from sqlalchemy import select

from portal.extensions import db
from portal.models import MunicipalHoliday, PriceOverride
from portal.profiles.schema import (
    BRL,
    SIZE_CLASSES,
    Amount,
    Exemption,
    PriceKey,
    Profile,
    ReclaimCharge,
    SizeClass,
)
from portal.services.dates import add_months, deadline, impound_release_date
from portal.services.money import UnitValueMissing, format_brl, units_to_cents

FEE_KINDS = ("registration", "card_copy", "tag_copy", "licence", "adoption", "reclaim", "fine")
PRICE_KINDS = ("registration", "card_copy", "tag_copy", "licence")
PRICE_KEYS: tuple[str, ...] = get_args(PriceKey)


class FeeError(ValueError):
    """The inputs cannot be priced; ``field`` names the input at fault (None: the whole request)."""

    def __init__(self, field: str | None, code: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.message = message


@dataclass(frozen=True)
class FeeLine:
    """One line of a fee: what, how much, and the article that charges it."""

    label: str
    amount_cents: int
    article: str
    kind: str = "fee"  # "fee" (taxa / preço), "fine" (multa) or "exemption" (negative)
    quantity: int = 1
    unit_cents: int | None = None  # the price of one day / animal when quantity > 1

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"label": self.label, "amount_cents": self.amount_cents,
                                "article": self.article, "kind": self.kind}
        if self.quantity != 1 or self.unit_cents is not None:
            data["quantity"] = self.quantity
            data["unit_cents"] = self.unit_cents
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
            entries.append(PriceEntry(key, override.amount_cents, price.article, False,
                                      override.effective_from, override.note))
    return entries


def price_cents(profile: Profile, key: str, on: date) -> PriceEntry:
    """One price-list line in force on ``on``. Raises FeeError when the list has no such line."""
    for entry in price_list(profile, on):
        if entry.key == key:
            return entry
    raise FeeError(None, "not_charged", _("A tabela de preços do município não tem este item."))


# ---------------------------------------------------------------------------------------------
# The service
# ---------------------------------------------------------------------------------------------


def compute_fee(profile: Profile, kind: str, inputs: Mapping[str, Any] | None, on: date) -> Fee:
    """What is owed for ``kind`` under ``profile`` on ``on`` (the issue day). See the module doc.

    Raises FeeError for unknown kinds, bad inputs or a missing unit value.
    """
    inputs = dict(inputs or {})
    # Labels end up on guias and receipts, which are official documents in Portuguese.
    with force_locale("pt_BR"):
        if kind not in FEE_KINDS:
            raise FeeError("kind", "unknown_kind",
                           _("Tipo de cobrança desconhecido: %(kind)s.", kind=kind))
        try:
            if kind in PRICE_KINDS:
                lines = _price_fee(profile, kind, inputs, on)
            elif kind == "adoption":
                lines = _adoption_fee(profile, inputs, on)
            elif kind == "reclaim":
                lines = _reclaim_fee(profile, inputs, on)
            else:
                lines = _fine(profile, inputs, on)
        except UnitValueMissing as err:
            raise FeeError(None, "unit_value_missing", str(err)) from err
        available = tuple(profile.exemptions_for(kind)) if kind != "fine" else ()  # type: ignore[arg-type]
        lines = _apply_exemption(profile, kind, inputs.get("exemption"), lines)
    return Fee(kind=kind, on=on, lines=tuple(lines), exemptions=available)


def _apply_exemption(profile: Profile, kind: str, code: Any, lines: list[FeeLine]) -> list[FeeLine]:
    if not code:
        return lines
    exemption = next((e for e in profile.exemptions
                      if e.code == code and kind in e.fee_kinds), None)
    if exemption is None:
        raise FeeError("exemption", "unknown_exemption",
                       _("Esta isenção não se aplica a esta cobrança."))
    subtotal = sum(line.amount_cents for line in lines)
    if subtotal <= 0:
        return lines
    # GRU 23, GRU 82 §3, VV 12 §3-4: the exemption waives the whole charge.
    return [*lines, FeeLine(_("Isenção: %(label)s", label=exemption.label), -subtotal,
                            exemption.article, kind="exemption")]


def _price_fee(profile: Profile, kind: str, inputs: dict[str, Any], on: date) -> list[FeeLine]:
    if kind == "registration" and not profile.registration.fee:
        return []  # the law charges nothing for the RGA (CABO 19; CAB —)
    if kind not in profile.prices:
        return []
    entry = price_cents(profile, kind, on)  # GRU 22; BJP 11
    animals = _positive_int(inputs, "animals", 1)
    return [_times(_price_label(kind), entry.amount_cents, animals, entry.article)]


def _adoption_fee(profile: Profile, inputs: dict[str, Any], on: date) -> list[FeeLine]:
    rule = profile.adoption
    if rule.fee is None:
        return []
    animals = _positive_int(inputs, "animals", 1)
    per_unit = _amount_cents(profile, rule.fee, on)
    if rule.fee_per == "day_held":
        # CAB 17: "por cabeça e por dia de apreensão"
        days = _non_negative_int(inputs, "days_held", None)
        line = _times(_("Taxa de adoção por dia de apreensão"), per_unit, days, rule.cite("fee"))
        return [_times_line(line, animals)] if animals > 1 else [line]
    return [_times(_("Taxa de adoção"), per_unit, animals, rule.cite("fee"))]  # BJP 28


def _reclaim_fee(profile: Profile, inputs: dict[str, Any], on: date) -> list[FeeLine]:
    size = inputs.get("size")
    if size not in SIZE_CLASSES:
        raise FeeError("size", "invalid", _("Informe o porte: pequeno, médio ou grande."))
    apprehended = _date(inputs, "apprehended_on", None)
    reclaimed = _date(inputs, "reclaimed_on", on)
    if reclaimed < apprehended:
        raise FeeError("reclaimed_on", "before_apprehension",
                       _("A data do resgate não pode ser anterior à da apreensão."))
    capture = _positive_int(inputs, "capture_number", 1)
    animals = _positive_int(inputs, "animals", 1)
    tagged = bool(inputs.get("tagged", True))
    holidays = _holidays(inputs)

    lines: list[FeeLine] = []
    for charge in profile.reclaim.charges:
        if (charge.applies_on == "first" and capture > 1) or (
                charge.applies_on == "repeat" and capture == 1):
            continue  # CABO 44: the "Reincidência" column replaces the daily rate
        amount = charge.amount.for_size(size)
        if amount is None:
            continue  # CAB 19 §1: the per-head fine is for medium and large animals only
        base = _amount_cents(profile, amount, on)
        article = charge.article
        if charge.repeat_growth == "double_each" and capture > 1:
            # CAB 17 §ú, 19 §2: doubled at each recapture, relative to the last one
            base *= 2 ** (capture - 1)
            article = f"{charge.article}; {charge.cite('repeat_growth')}"
        if charge.per == "day":
            days = _charged_days(profile, charge, size, apprehended, reclaimed, tagged, holidays)
            if days == 0:
                continue  # VV 22 §5: free within the first 5 business days
            line = _times(charge.label, base, days, article, kind=charge.kind, unit="day")
        else:
            line = FeeLine(charge.label, base, article, kind=charge.kind)
        lines.append(_times_line(line, animals) if animals > 1 else line)
    return lines


def _charged_days(profile: Profile, charge: ReclaimCharge, size: SizeClass, apprehended: date,
                  reclaimed: date, tagged: bool, holidays: list[date]) -> int:
    """Days a per-day reclaim charge applies to.

    Days held are counted as nights in the CCZ (apprehension day excluded, reclaim day included),
    at least one: an animal reclaimed the day it was caught still used one day of the kennel.
    """
    held = max((reclaimed - apprehended).days, 1)
    if charge.only_beyond_hold:
        # GRU 82 §5: charged for the days beyond the reclaim term
        last_day = impound_release_date(profile, size, apprehended, tagged, holidays)
        return max((reclaimed - last_day).days, 0)
    if charge.free_days:
        # VV 22 §5: free when reclaimed within 5 business days of the apprehension; after that
        # term, each further day is charged (read as: only the days beyond the free term).
        free_until = deadline(apprehended, charge.free_days, charge.free_days_counting,
                              state=profile.state, municipal_holidays=holidays,
                              moves_to_business_day=False)
        return max((reclaimed - free_until).days, 0)
    return held


def _fine(profile: Profile, inputs: dict[str, Any], on: date) -> list[FeeLine]:
    rule = profile.fines
    severity_key, specific_code = inputs.get("severity"), inputs.get("specific")
    if severity_key and specific_code:
        raise FeeError("specific", "ambiguous",
                       _("Informe a gravidade ou a infração específica, não ambas."))
    repeat = _is_repeat(profile, inputs, on)
    previous = inputs.get("previous_amount_cents")
    if previous is not None:
        previous = _non_negative_int(inputs, "previous_amount_cents", None)

    if specific_code:
        fine = next((f for f in rule.specific if f.code == specific_code), None)
        if fine is None:
            raise FeeError("specific", "unknown", _("Infração desconhecida nesta lei."))
        per_unit = _amount_cents(profile, fine.amount, on)
        animals = _positive_int(inputs, "animals", 1) if fine.per_animal else 1
        base = _times(_("Multa: %(what)s", what=fine.label), per_unit, animals, fine.article,
                      kind="fine", unit="animal")
        lines = [base]
        if repeat:
            extra = _repeat_extra(base.amount_cents, fine.repeat, previous, rule.repeat_multiplier)
            if extra:
                lines.append(FeeLine(_repeat_label(fine.repeat), extra, fine.cite("repeat"),
                                     kind="fine"))
        return lines

    if severity_key:
        severity = rule.severities.get(severity_key)
        if severity is None:
            raise FeeError("severity", "unknown", _("Gravidade desconhecida nesta lei."))
        label = _("Multa por infração %(level)s", level=severity.label.lower())
        if severity.amount is not None:
            cents = _amount_cents(profile, severity.amount, on)  # CAB 40 I-III
            base = FeeLine(label, cents, rule.article, kind="fine")
        else:
            units = _graded_units(profile, severity, inputs)
            cents = units_to_cents(units, rule.unit, on)
            base = FeeLine(f"{label} ({_units_text(units, rule.unit)})", cents, rule.article,
                           kind="fine")
    elif rule.default is not None:
        cents = _amount_cents(profile, rule.default, on)  # VV 50 I
        base = FeeLine(_("Multa (infração sem valor próprio na lei)"), cents,
                       rule.cite("default"), kind="fine")
    else:
        raise FeeError("severity", "required", _("Informe a gravidade ou a infração."))

    lines = [base]
    if repeat:
        # GRU 80; CAB 40 §2; CABO 39 §2; VV 50 II; BJP 30 §ú: doubled on repeat
        growth = "double_previous" if rule.repeat_compounds else "double"
        extra = _repeat_extra(base.amount_cents, growth, previous, rule.repeat_multiplier)
        if extra:
            lines.append(FeeLine(_("Reincidência: multa em dobro"), extra,
                                 rule.cite("repeat_multiplier"), kind="fine"))
    return lines


def _is_repeat(profile: Profile, inputs: dict[str, Any], on: date) -> bool:
    """A repeat offence: a previous infraction of the same type inside the law's window."""
    window = profile.fines.repeat_window_years
    if inputs.get("previous_offence_on") not in (None, ""):
        previous = _date(inputs, "previous_offence_on", None)
        if previous > on:
            raise FeeError("previous_offence_on", "future",
                           _("A infração anterior não pode ser posterior a esta."))
        # GRU 79: same type within three years
        return window is None or previous >= add_months(on, -12 * window)
    if inputs.get("repeat"):
        if window is not None:
            raise FeeError("previous_offence_on", "required",
                           _("Informe a data da infração anterior: a reincidência vale por "
                             "%(years)d anos.", years=window))
        return True
    return False


def _repeat_extra(base: int, growth: str, previous: int | None, multiplier: int) -> int:
    """What a repeat adds on top of the base fine."""
    if growth == "none":
        return 0
    if growth == "plus_50_percent":
        return int((Decimal(base) / 2).quantize(Decimal("1"), ROUND_HALF_UP))
    if growth == "double_previous" and previous:
        return max(previous * multiplier - base, 0)  # CAB 40 §2: twice the previous penalty
    return base * (multiplier - 1)


def _repeat_label(growth: str) -> str:
    if growth == "plus_50_percent":
        return _("Reincidência: multa acrescida de 50%")
    if growth == "double_previous":
        return _("Reincidência: o dobro da multa anterior")
    return _("Reincidência: multa em dobro")


def _graded_units(profile: Profile, severity: Any, inputs: dict[str, Any]) -> Decimal:
    """Units the agent set for a fine graded by regulation or above a legal minimum."""
    rule = profile.fines
    raw = inputs.get("units")
    try:
        units = Decimal(str(raw)) if raw not in (None, "") else None
    except InvalidOperation:
        units = None
    if units is None or not units.is_finite() or units <= 0:
        raise FeeError("units", "required",
                       _("Informe o valor da multa em %(unit)s.", unit=rule.unit))
    if severity.by_regulation:
        low, high = rule.range_min_units, rule.range_max_units
        if (low is not None and units < low) or (high is not None and units > high):
            # GRU 69 II: from 42 to 42 000 UFG
            raise FeeError("units", "out_of_range",
                           _("A multa deve ficar entre %(low)s e %(high)s %(unit)s (%(article)s).",
                             low=_num(low), high=_num(high), unit=rule.unit, article=rule.article))
    else:
        minimum = _amount_units(severity.minimum)
        too_low = units <= minimum if severity.minimum_exclusive else units < minimum
        if too_low:
            # CABO 39 table: leve from 0,1; grave above 1; gravíssima above 5
            word = _("acima de") if severity.minimum_exclusive else _("a partir de")
            raise FeeError("units", "below_minimum", _(
                "Para esta gravidade a multa é %(word)s %(min)s %(unit)s (%(article)s).",
                word=word, min=_num(minimum), unit=rule.unit, article=rule.article))
    return units


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


def _times(label: str, unit_cents: int, quantity: int, article: str, *, kind: str = "fee",
           unit: str = "animal") -> FeeLine:
    if quantity == 1:
        return FeeLine(label, unit_cents, article, kind=kind)
    what = _("dias") if unit == "day" else _("animais")
    return FeeLine(f"{label} ({quantity} {what} × {format_brl(unit_cents)})", unit_cents * quantity,
                   article, kind=kind, quantity=quantity, unit_cents=unit_cents)


def _times_line(line: FeeLine, animals: int) -> FeeLine:
    """A per-animal line multiplied by the number of animals of the same size."""
    return FeeLine(f"{line.label} × {animals} {_('animais')}", line.amount_cents * animals,
                   line.article, kind=line.kind, quantity=line.quantity * animals,
                   unit_cents=line.unit_cents or line.amount_cents)


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
    return list(db.session.scalars(select(MunicipalHoliday.day)))


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


def _positive_int(inputs: dict[str, Any], name: str, default: int) -> int:
    value = inputs.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise FeeError(name, "invalid", _("Informe um número inteiro maior que zero."))
    try:
        number = int(value)
    except ValueError:
        raise FeeError(name, "invalid", _("Informe um número inteiro maior que zero.")) from None
    if number < 1:
        raise FeeError(name, "invalid", _("Informe um número inteiro maior que zero."))
    return number


def _non_negative_int(inputs: dict[str, Any], name: str, default: int | None) -> int:
    value = inputs.get(name, default)
    if value is None:
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

