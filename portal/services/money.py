"""Money in integer centavos, and fiscal units (UFM, UFG, minimum wage) by effective date."""

from __future__ import annotations

from datetime import date
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import select

from portal.extensions import db
from portal.models import UnitValue


class UnitValueMissing(LookupError):
    """No value of that unit is in force on the date asked for."""


def unit_value_cents(unit: str, on: date) -> int:
    """The value of ``unit`` in force on ``on`` (the latest effective on or before that day)."""
    value = db.session.scalar(
        select(UnitValue.value_cents)
        .where(UnitValue.unit == unit, UnitValue.effective_from <= on)
        .order_by(UnitValue.effective_from.desc())
        .limit(1)
    )
    if value is None:
        raise UnitValueMissing(f"Nenhum valor de {unit} vigente em {on:%d/%m/%Y}.")
    return value


def units_to_cents(quantity: Decimal | int | str, unit: str, on: date) -> int:
    """``quantity`` units converted with the value in force on ``on``, rounded half-up to 1 centavo.

    ``unit`` "BRL" means the quantity is already in reais.
    """
    qty = Decimal(str(quantity))
    per_unit = 100 if unit == "BRL" else unit_value_cents(unit, on)
    return int((qty * per_unit).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def percent_of_cents(cents: int, percent: Decimal | int | str) -> int:
    return int((Decimal(cents) * Decimal(str(percent)) / 100).quantize(Decimal("1"), ROUND_HALF_UP))


def format_brl(cents: int) -> str:
    """R$ 1.234,56 — Brazilian grouping, never via float."""
    sign = "-" if cents < 0 else ""
    reais, centavos = divmod(abs(cents), 100)
    grouped = f"{reais:,}".replace(",", ".")
    return f"{sign}R$ {grouped},{centavos:02d}"


def parse_brl(text: str) -> int:
    """'1.234,56' or '1234.56' or 'R$ 12' → centavos. Raises ValueError on anything else."""
    cleaned = text.replace("R$", "").strip().replace(" ", "")
    if "," in cleaned:
        cleaned = cleaned.replace(".", "").replace(",", ".")
    try:
        value = Decimal(cleaned)
    except ArithmeticError as err:
        raise ValueError(text) from err
    if not value.is_finite() or value < 0 or value.as_tuple().exponent < -2:  # type: ignore[operator]
        raise ValueError(text)
    return int(value * 100)
