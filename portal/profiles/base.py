"""Shared vocabulary of the jurisdiction profile: citations, size classes, money.

Every rule model follows these conventions (:mod:`portal.profiles.schema` re-exports them all):

* **Citations.** Every rule carries ``article`` in the form ``GRU 37 §1`` (law key, article,
  paragraph / item). A rule whose single values come from different provisions lists them in
  ``cites`` (field name -> citation); ``rule.cite(field)`` returns the most specific one. When the
  law is silent on a whole topic the citation is the law key and an em dash (``CAB —``); use
  :func:`is_silent` to tell.
* **Money** is integer centavos, never float. An :class:`Amount` is either centavos, a multiple of
  a fiscal unit (``0.5`` UFM, ``0.01`` MW = 1 % of the minimum wage) or a reference to the city's
  price list. Unit multiples are :class:`~decimal.Decimal`; convert them with the unit value in
  force on the day the charge is issued (``portal.services.money.units_to_cents`` or
  :meth:`Profile.amount_cents`).
* **Dates** the law counts use the ``Counting`` modes of :mod:`portal.services.dates`.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, model_validator

# ---------------------------------------------------------------------------------------------
# Shared vocabulary
# ---------------------------------------------------------------------------------------------

SILENT = "—"  # the citation suffix for "the law says nothing about this"

_CITATION_RE = re.compile(r"^(?P<key>[A-Z]{2,8}) (?:\d+.*|—)$")


def _check_citation(value: str, info: ValidationInfo) -> str:
    """A citation looks like ``GRU 37 §1`` and names the profile's own law."""
    match = _CITATION_RE.match(value)
    if not match:
        raise ValueError(f"citation {value!r} should look like 'GRU 37 §1' (law key, article)")
    law_key = (info.context or {}).get("law_key")
    if law_key and match["key"] != law_key:
        raise ValueError(f"citation {value!r} should cite this profile's law {law_key!r}")
    return value


Citation = Annotated[str, AfterValidator(_check_citation)]


def is_silent(citation: str) -> bool:
    """True when the citation says the law does not deal with the topic (``CAB —``)."""
    return citation.endswith(SILENT)


SizeClass = Literal["small", "medium", "large"]  # GRU 10 XV-XVII: porte pequeno / médio / grande
SIZE_CLASSES: tuple[SizeClass, ...] = ("small", "medium", "large")

HousingKind = Literal["apartment_condo", "rural"]
LicenceRequirement = Literal[
    "rga_all",
    "rabies_proofs",
    "sterilisation_proofs",
    "housing_description",
    "inspection",
    "yearly_vet_report",
]
FeeKind = Literal["registration", "card_copy", "tag_copy", "licence", "adoption", "reclaim"]
PriceKey = Literal[
    "registration", "card_copy", "tag_copy", "licence", "adoption", "reclaim", "reclaim_daily"
]
UnitCode = Annotated[str, Field(pattern=r"^[A-Z]{2,10}$")]  # "UFG", "UFM", "MW", "UFIR", "BRL"

BRL = "BRL"  # the unit of plain money: no unit value needed


class _Frozen(BaseModel):
    """Immutable, strict and closed: an unknown key or a wrong type in a file is an error."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class _Rule(_Frozen):
    """A rule of the law: its main ``article`` plus finer citations for single values."""

    article: Citation
    cites: dict[str, Citation] = Field(default_factory=dict)
    # Citations of a step of the rule that has no value of its own (a refusal's article).
    CITE_ONLY: ClassVar[frozenset[str]] = frozenset()

    @model_validator(mode="after")
    def _cites_name_fields(self) -> _Rule:
        known = set(type(self).model_fields) | {"article"} | type(self).CITE_ONLY
        unknown = sorted(set(self.cites) - known)
        if unknown:
            raise ValueError(f"cites names unknown field(s): {', '.join(unknown)}")
        return self

    def cite(self, field: str) -> str:
        """The citation of one value, falling back to the rule's main article."""
        return self.cites.get(field, self.article)


# ---------------------------------------------------------------------------------------------
# Money
# ---------------------------------------------------------------------------------------------


class Amount(_Frozen):
    """A sum of money: fixed centavos, a multiple of a fiscal unit, or an item of the price list.

    Exactly one of ``cents``, ``units`` (with ``unit``) or ``price`` is set.
    """

    cents: int | None = Field(default=None, ge=0)
    units: Decimal | None = Field(default=None, ge=0, strict=False)
    unit: UnitCode | None = None
    price: PriceKey | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> Amount:
        given = [n for n in ("cents", "units", "price") if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError("an amount needs exactly one of cents, units (with unit) or price")
        if (self.units is None) != (self.unit is None):
            raise ValueError('units and unit go together, e.g. { units = 0.5, unit = "UFM" }')
        return self


class SizeAmounts(_Frozen):
    """An amount per size class; ``None``: that class is not charged. ``all`` fills every class."""

    small: Amount | None = None
    medium: Amount | None = None
    large: Amount | None = None

    @model_validator(mode="before")
    @classmethod
    def _expand_all(cls, data: Any) -> Any:
        if isinstance(data, dict) and "all" in data:
            data = dict(data)
            shared = data.pop("all")
            for size in SIZE_CLASSES:
                data.setdefault(size, shared)
        return data

    def for_size(self, size: SizeClass) -> Amount | None:
        return getattr(self, size)


class Price(_Frozen):
    """One line of the city's price list (preço público). Amounts shipped are placeholders."""

    amount_cents: int = Field(ge=0)
    article: Citation
    example: bool = True  # True until the city enters its real price


class UnitValueDefault(_Frozen):
    """A value of a fiscal unit to seed the unit-value table with (staff keep it up to date)."""

    unit: UnitCode
    value_cents: int = Field(gt=0)
    effective_from: date
    source: str
    example: bool = True
