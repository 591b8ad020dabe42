"""Pydantic models of a jurisdiction profile: the numbers each municipal law sets.

A profile file (``portal/profiles/<key>.toml``) is validated against :class:`Profile`. Every model
is frozen and forbids unknown keys, so a typo in a file is an error at start-up, not a silent
default.

Conventions in the data:

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

The models live in :mod:`portal.profiles.base` (vocabulary, money),
:mod:`portal.profiles.animal_rules` and :mod:`portal.profiles.enforcement_rules`; this module
assembles them into :class:`Profile` and re-exports every name, so
``from portal.profiles.schema import X`` keeps working.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator, model_validator

from portal.profiles.animal_rules import (
    AdopterBars,
    AdopterRequirement,
    AdoptionDelivery,
    AdoptionRule,
    CaptureCountRule,
    EuthanasiaRule,
    Exemption,
    HoldDays,
    HouseholdRule,
    ImpoundDestination,
    ImpoundRule,
    LeafletSectionKey,
    LicenceRule,
    OnSiteConfirmation,
    OnSiteEuthanasiaRule,
    OnSiteGround,
    ProvisionalIdRule,
    ReclaimCharge,
    ReclaimRule,
    RegistrationRule,
    SterilisationRule,
    _every_leaflet_section,
)
from portal.profiles.base import (
    BRL,
    SILENT,
    SIZE_CLASSES,
    Amount,
    Citation,
    FeeKind,
    HousingKind,
    LicenceRequirement,
    Price,
    PriceKey,
    SizeAmounts,
    SizeClass,
    UnitCode,
    UnitValueDefault,
    _Frozen,
    is_silent,
)
from portal.profiles.enforcement_rules import (
    KNOWN_CHECKLIST_ITEMS,
    KNOWN_REPORT_CATEGORIES,
    ChecklistItem,
    DefinitiveConsequence,
    EstablishmentKind,
    EstablishmentRule,
    ExpenseKind,
    ExpenseRule,
    FineRule,
    InterdictionExpenseKind,
    InterdictionRule,
    NoticeRule,
    PayerRole,
    RemedyDuties,
    RepeatApprehension,
    RepeatGrowth,
    ReportCategory,
    ReportRule,
    Severity,
    SpecificFine,
)

__all__ = [
    "DefinitiveConsequence",
    "AdopterBars",
    "ProgrammePolicy",
    "CczContact",
    "LeafletSectionKey",
    "BRL",
    "KNOWN_CHECKLIST_ITEMS",
    "KNOWN_REPORT_CATEGORIES",
    "SILENT",
    "SIZE_CLASSES",
    "AdopterRequirement",
    "AdoptionDelivery",
    "AdoptionRule",
    "Amount",
    "CaptureCountRule",
    "ChecklistItem",
    "Citation",
    "EstablishmentKind",
    "EstablishmentRule",
    "EuthanasiaRule",
    "Exemption",
    "ExpenseKind",
    "ExpenseRule",
    "FeeKind",
    "FineRule",
    "InterdictionExpenseKind",
    "InterdictionRule",
    "RemedyDuties",
    "RepeatApprehension",
    "HoldDays",
    "HouseholdRule",
    "HousingKind",
    "ImpoundDestination",
    "ImpoundRule",
    "LicenceRequirement",
    "LicenceRule",
    "NoticeRule",
    "OnSiteConfirmation",
    "OnSiteEuthanasiaRule",
    "OnSiteGround",
    "PayerRole",
    "Price",
    "PriceKey",
    "Profile",
    "ProvisionalIdRule",
    "ReclaimCharge",
    "ReclaimRule",
    "RegistrationRule",
    "SterilisationRule",
    "RepeatGrowth",
    "ReportCategory",
    "ReportRule",
    "Severity",
    "SizeAmounts",
    "SizeClass",
    "SpecificFine",
    "UnitCode",
    "UnitValueDefault",
    "is_silent",
]

# ---------------------------------------------------------------------------------------------
# The profile
# ---------------------------------------------------------------------------------------------


class ProgrammePolicy(_Frozen):
    """The CCZ programme's own choices where the law gives no number; never cited as law.

    The defaults serve every profile; a city changes them in its file's ``[programme]`` table.
    """

    # Rabies shot interval when neither the law nor the vet gives the next date (the usual label
    # of the vaccines in use is yearly).
    revaccination_months: int = Field(default=12, ge=1)
    # "Comprovante de endereço atualizado" (VV 28 §2) read as issued in the last 90 days.
    proof_of_address_max_age_days: int = Field(default=90, ge=1)
    # The adopter's minimum age where the local law sets none: civil majority (Código Civil 5).
    min_adopter_age: int = Field(default=18, ge=0)
    # The adopter's leaflet handed out everywhere: its sections, in order (adoption/leaflet.py).
    leaflet_sections: list[LeafletSectionKey] = Field(default_factory=_every_leaflet_section)
    # Lei 14.228/2021 art. 2º §2º lets NGOs claim an animal a laudo destines to euthanasia, with no
    # term: business days from the laudo — enough for an NGO's vet to read it and arrange
    # transport (volunteers act on working days), short enough not to prolong the suffering.
    ngo_claim_business_days: int = Field(default=3, ge=1)
    # GRU 61 leaves the rabies observation period to the sanitary authority: the CCZ's days,
    # used where the profile says so (``impound.observation_by_authority``).
    observation_days: int = Field(default=10, ge=1)
    # The laws set no deadline for the CCZ to decide a licence request (GRU 37 §1, BJP 17, CAB 31)
    # nor for an adoption's decision or hand-over (VV 28-29, BJP 24, CAB 16-17, GRU 88): the
    # programme's targets, shown to the person as the CCZ's (licences/progress.py,
    # adoption/progress.py) and counted by the staff queues.
    licence_decision_target_days: int = Field(default=30, ge=1)
    adoption_review_target_days: int = Field(default=10, ge=1)
    adoption_handover_target_days: int = Field(default=7, ge=1)
    # GRU 89 §ú makes the offender pay the interdição's expenses but sets no term: the CCZ's days
    # from the charge, counted like a fine's (GRU 114; the 30 days of GRU 100 for fines).
    interdiction_expenses_days: int = Field(default=30, ge=1)


class CczContact(_Frozen):
    """Where the citizen goes in person (reclaim, the certidão's exam, the counter guia): the
    CCZ's address and opening hours. Not law: the city's own confirmed data, in its file's
    ``[ccz]`` table or in the deployment's ``CCZ_*`` settings (``portal.services.ccz``); never a
    guess: without it the pages send the citizen to the Prefeitura."""

    name: str
    address: str
    district: str
    hours: str
    phone: str | None = None


class Profile(_Frozen):
    """Everything the portal needs to know about one municipality's law."""

    key: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]  # the file name, e.g. "guarulhos"
    municipality: str
    state: Annotated[str, Field(pattern=r"^[A-Z]{2}$")]  # UF, also the holidays subdivision
    law_key: Annotated[str, Field(pattern=r"^[A-Z]{2,8}$")]
    law_title: str
    timezone: str
    fine_unit: UnitCode

    household: HouseholdRule
    licence: LicenceRule | None = None
    registration: RegistrationRule
    provisional_id: ProvisionalIdRule | None = None
    exemptions: list[Exemption] = Field(default_factory=list)
    impound: ImpoundRule
    reclaim: ReclaimRule
    adoption: AdoptionRule
    euthanasia: EuthanasiaRule
    fines: FineRule
    notices: NoticeRule
    reports: ReportRule
    establishments: EstablishmentRule | None = None  # None: the law keeps no register
    sterilisation: SterilisationRule | None = None  # None: the law has no programme
    prices: dict[PriceKey, Price] = Field(default_factory=dict)
    unit_values: list[UnitValueDefault] = Field(default_factory=list)
    expenses: list[ExpenseRule] = Field(default_factory=list)
    programme: ProgrammePolicy = Field(default_factory=lambda: ProgrammePolicy())
    ccz: CczContact | None = None  # None: the pages say "procure o CCZ" without an address

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r}") from None
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Profile:
        problems: list[str] = []
        if self.fines.unit != self.fine_unit:
            problems.append(
                f"fines.unit {self.fines.unit!r} differs from fine_unit {self.fine_unit!r}"
            )
        needs_licence = self.household.above_limit in ("licence", "kennel")
        if needs_licence != (self.licence is not None):
            problems.append(
                "licence: must be present exactly when household.above_limit is "
                "'licence' or 'kennel'"
            )
        seen: set[tuple[str, str]] = set()
        for exemption in self.exemptions:
            for kind in exemption.fee_kinds:
                if (exemption.code, kind) in seen:
                    problems.append(f"exemptions: {exemption.code!r} listed twice for {kind!r}")
                seen.add((exemption.code, kind))
        seeded_units = {uv.unit for uv in self.unit_values} | {BRL}
        for path, amount in self._amounts():
            if amount.price is not None and amount.price not in self.prices:
                problems.append(f"{path}.price: {amount.price!r} is not in prices")
            if amount.unit is not None and amount.unit not in seeded_units:
                problems.append(f"{path}.unit: {amount.unit!r} has no entry in unit_values")
        if problems:
            raise ValueError("; ".join(problems))
        return self

    def _amounts(self) -> Iterator[tuple[str, Amount]]:
        """Every Amount in the profile with its key path, for the cross-checks above."""
        for i, charge in enumerate(self.reclaim.charges):
            for size in SIZE_CLASSES:
                if (amount := charge.amount.for_size(size)) is not None:
                    yield f"reclaim.charges[{i}].amount.{size}", amount
        if self.adoption.fee is not None:
            yield "adoption.fee", self.adoption.fee
        for name, severity in self.fines.severities.items():
            for attr in ("amount", "minimum"):
                if (amount := getattr(severity, attr)) is not None:
                    yield f"fines.severities.{name}.{attr}", amount
        if self.fines.default is not None:
            yield "fines.default", self.fines.default
        for i, fine in enumerate(self.fines.specific):
            yield f"fines.specific[{i}].amount", fine.amount

    def expense_rule(self, fee_kind: str) -> ExpenseRule | None:
        """The rule that lets the CCZ recover its expenses with ``fee_kind`` ("reclaim", "fine")."""
        return next((e for e in self.expenses if fee_kind in e.fee_kinds), None)

    # -- helpers other code uses ---------------------------------------------------------------

    def revaccination_months(self) -> tuple[int, str | None]:
        """Months to the next rabies shot and the article setting them (None: programme policy)."""
        months = self.registration.revaccination_months
        if months is not None:
            return months, self.registration.cite("revaccination_months")
        return self.programme.revaccination_months, None

    def observation_days(self) -> tuple[int | None, str | None]:
        """Days of rabies observation and the article setting them: None days where neither the
        law nor the authority has one; None article where the CCZ programme sets them (GRU 61
        leaves the period to the authority)."""
        rule = self.impound
        if rule.observation_days is not None:
            return rule.observation_days, rule.cite("observation_days")  # CAB 14, 30
        if rule.observation_by_authority:
            return self.programme.observation_days, None  # GRU 61
        return None, None

    def proof_of_address_max_age(self) -> tuple[int, str | None]:
        """Days a proof of address stays recent, and the article (None: programme policy)."""
        days = self.adoption.proof_of_address_max_age_days
        if days is not None:
            return days, self.adoption.cite("proof_of_address_max_age_days")
        return self.programme.proof_of_address_max_age_days, None

    def transfer_article(self) -> str | None:
        """The article keeping the previous owner responsible until the new owner updates the
        record (BJP 7 §ú; GRU 18 §2); None where the law says nothing."""
        if self.registration.previous_owner_liable:
            return self.registration.cite("previous_owner_liable")
        return None

    def exemptions_for(self, fee_kind: FeeKind) -> list[Exemption]:
        """The exemptions that waive a kind of fee, e.g. ``"reclaim"``."""
        return [e for e in self.exemptions if fee_kind in e.fee_kinds]

    def amount_cents(self, amount: Amount, unit_values: Mapping[str, int]) -> int:
        """Centavos of ``amount``; ``unit_values`` maps unit codes to their value in force (cents).

        Raises KeyError when the unit's value or the price is missing.
        """
        if amount.cents is not None:
            return amount.cents
        if amount.price is not None:
            return self.prices[amount.price].amount_cents
        assert amount.units is not None and amount.unit is not None  # guaranteed by Amount
        per_unit = 100 if amount.unit == BRL else unit_values[amount.unit]
        return int((amount.units * per_unit).quantize(Decimal("1"), rounding=ROUND_HALF_UP))
