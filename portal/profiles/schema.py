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
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from portal.services.dates import Counting

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

    @model_validator(mode="after")
    def _cites_name_fields(self) -> _Rule:
        unknown = sorted(set(self.cites) - set(type(self).model_fields) - {"article"})
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


# ---------------------------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------------------------


class HouseholdRule(_Rule):
    """How many dogs and cats one residence may keep (GRU 37, BJP 17, CAB 31, CABO 33 §ú)."""

    limit: int | None = Field(default=None, ge=1)  # None: the law sets no limit (VV)
    min_age_days: int = Field(ge=0)  # only animals older than this count
    excluded_housing: list[HousingKind] = Field(default_factory=list)
    above_limit: Literal["forbidden", "licence", "kennel", "none"]
    # Some laws let the agent lower the limit for one house after a technical report (BJP 17 §1).
    agent_may_reduce: bool = False

    @model_validator(mode="after")
    def _limit_matches_consequence(self) -> HouseholdRule:
        if (self.limit is None) != (self.above_limit == "none"):
            raise ValueError("above_limit is 'none' exactly when there is no limit")
        return self


class LicenceRule(_Rule):
    """The excess-animal licence (or private-kennel permit) for houses above the plain limit."""

    max_animals: int | None = Field(default=None, ge=1)  # None: no cap in the law (CAB kennel)
    # "Válida pelo prazo de um ano" is a calendar year: the same date 12 months later, 29 February
    # ending on 28 February (DOMAIN §10), never 365 days.
    validity_months: int = Field(default=12, ge=1)
    validity_stated_in_law: bool  # False: the portal assumes yearly and says so (BJP)
    renewal_window_days: int | None = Field(default=None, ge=1)  # renew within N days before expiry
    requires: list[LicenceRequirement]
    never_replaced_above: int | None = Field(default=None, ge=1)  # animals above N never replaced
    new_acquisition_cancels: bool = False
    # BJP 17 §6: first requests were accepted for 12 months from the law's publication; after this
    # day only renewals are. None: no deadline. A city that reopens requests by decree moves it.
    requests_accepted_until: date | None = None
    # "licence" (GRU 37 §1; BJP 17 §3) or the private kennel's yearly laudo (CAB 31 §2).
    document: Literal["licence", "kennel_laudo"] = "licence"
    # What the agent checks at the inspection (codes of KNOWN_CHECKLIST_ITEMS or labelled).
    checklist: list[ChecklistItem] = Field(default_factory=list)


class RegistrationRule(_Rule):
    """RGA registration of dogs and cats."""

    mandatory: bool
    # Age window "between the 3rd and the 6th month" as the laws word it; None where no window.
    window_start_months: int | None = Field(default=None, ge=0)
    window_end_months: int | None = Field(default=None, ge=0)
    yearly_renewal: bool
    at_purchase: bool = False  # registered in the shop when bought (GRU 14 §1, VV 12 §7)
    rabies_proof_required: bool = False  # proof of current rabies vaccination at registration
    vaccinate_at_registration: bool  # without proof the animal is vaccinated there (BJP 6 §ú)
    fee: bool  # the law charges a public price for it

    @model_validator(mode="after")
    def _window_is_a_range(self) -> RegistrationRule:
        start, end = self.window_start_months, self.window_end_months
        if (start is None) != (end is None):
            raise ValueError("window_start_months and window_end_months go together")
        if start is not None and end is not None and start > end:
            raise ValueError("window_start_months must not be after window_end_months")
        return self


class ProvisionalIdRule(_Rule):
    """The second-copy request that serves as the animal's ID until the copy is issued."""

    validity_days: int = Field(ge=1)
    staff_must_issue_within: bool = False  # GRU 19 §2


class Exemption(_Frozen):
    """A fee exemption the citizen proves with documents staff accept or refuse."""

    code: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    label: str  # pt-BR, shown to citizens
    fee_kinds: list[FeeKind] = Field(min_length=1)
    article: Citation


class HoldDays(_Frozen):
    """Days an impounded animal is held for its owner, per size class."""

    small: int = Field(ge=0)
    medium: int = Field(ge=0)
    large: int = Field(ge=0)


ImpoundDestination = Literal["adoption", "ngo_donation", "community_return", "auction"]


class CaptureCountRule(_Rule):
    """Captures counted per animal within a prescription period from the first one (GRU 84 §1 II,
    113); reaching ``definitive_at`` opens a definitive apprehension (GRU 87 III)."""

    definitive_at: int = Field(ge=2)
    period_years: int = Field(ge=1)


class ImpoundRule(_Rule):
    """How long an impounded animal waits for its owner before adoption or another destination."""

    hold_days: HoldDays  # RGA-tagged animals, or every animal when untagged_hold_days is None
    untagged_hold_days: HoldDays | None = None  # BJP 25 §2
    untagged_may_be_extended: bool = False  # GRU 82 §4: the CCZ may extend it for untagged animals
    counting: Counting
    moves_to_business_day: bool  # start / end on a non-business day move on (GRU 114 §ú)
    # Issue 14 (all optional, so a profile without them keeps working):
    # destinations after the hold without reclaim, in the law's order of priority (CABO 13;
    # CAB 11 II, 15-16, 20; VV 19-21; BJP 25 §3; GRU 86, 88). Euthanasia is never listed: federal
    # Lei 14.228/2021 allows it for dogs and cats only on a vet's laudo (see the impound domain).
    destinations: list[ImpoundDestination] = Field(default_factory=lambda: ["adoption"])
    # An agent confirms the cause of the capture has ended before release (CABO 10 §ú f;
    # CAB 8 §ú; GRU 82 §1).
    release_requires_cause_ended: bool = False
    # Rabies observation custody (CAB 14, 30; GRU 61): days observed, then hours to reclaim.
    observation_days: int | None = Field(default=None, ge=1)
    observation_reclaim_hours: int | None = Field(default=None, ge=1)
    # A vet may decide the destination of a seriously ill/injured animal before the deadline
    # (BJP 25 §4; CAB 9; GRU 90).
    vet_early_destination: bool = False
    capture_count: CaptureCountRule | None = None  # GRU 83 §ú, 84 §1 II, 113
    capture_certificate: bool = False  # Certidão negativa de captura (GRU 84 §3, §5)
    # Public auction only for these size classes (CAB 11 II, 20: medium and large).
    auction_sizes: list[SizeClass] = Field(default_factory=lambda: ["small", "medium", "large"])

    def days_for(self, size: SizeClass, tagged: bool) -> int:
        """Hold days for one animal: tagged means it carries its RGA tag."""
        table = (
            self.hold_days if tagged or self.untagged_hold_days is None else self.untagged_hold_days
        )
        return getattr(table, size)


class ReclaimCharge(_Rule):
    """One component of what the owner pays to reclaim (resgate) an impounded animal.

    How a fee service reads it, for one animal of size ``s`` reclaimed at capture number ``n``
    (1 = first capture) after being held ``d`` days:

    * skip it when ``applies_on`` is ``first`` and n > 1, or ``repeat`` and n == 1;
    * base = ``amount.for_size(s)`` (``None``: this size is not charged);
    * ``per == "day"``: base x charged days, where the charged days are the days held minus the
      ``free_days`` (counted with ``free_days_counting`` from the apprehension) or, when
      ``only_beyond_hold``, the days held after the hold deadline; ``per == "animal"``: base once;
    * ``repeat_growth == "double_each"``: x 2^(n-1) (CAB 17 §ú, 19 §2);
    * ``only_away_from_home``: skipped unless the capture was away from the owner's home (VV 22 §6);
    * exemptions: :meth:`Profile.exemptions_for` ``("reclaim")``.
    """

    label: str  # pt-BR
    kind: Literal["fee", "fine"]  # taxa or multa: they are booked differently
    per: Literal["day", "animal"]
    amount: SizeAmounts
    applies_on: Literal["always", "first", "repeat"] = "always"
    repeat_growth: Literal["none", "double_each"] = "none"
    free_days: int = Field(default=0, ge=0)
    free_days_counting: Counting = "calendar"
    only_beyond_hold: bool = False
    # VV 22 §6: only for a repeat capture "longe do domicílio" (the input ``away_from_home``).
    only_away_from_home: bool = False


class ReclaimRule(_Rule):
    """What reclaiming an impounded animal costs and requires."""

    charges: list[ReclaimCharge]
    vaccinated_before_release: bool  # rabies shot when no current proof (BJP 27 §ú, GRU 85)
    registered_on_reclaim: bool  # an unregistered animal gets its RGA at the counter (BJP 26 §ú)
    repeat_requires_sterilisation: bool = False  # VV 22 §6


AdoptionDelivery = Literal["vaccinated", "dewormed", "sterilised", "registered"]
AdopterRequirement = Literal[
    "adult", "cpf_and_id", "income_proof", "address_proof", "commitment_term"
]


class AdoptionRule(_Rule):
    """Adoption of animals held by the CCZ."""

    fee: Amount | None = None  # None: the law charges nothing
    fee_per: Literal["animal", "day_held"] = "animal"  # CAB 17 charges per day held
    delivered: list[AdoptionDelivery] = Field(default_factory=list)  # state the law requires
    # What the law itself asks of the adopter. The portal's baseline checks apply everywhere.
    adopter_requirements: list[AdopterRequirement] = Field(default_factory=list)
    min_adopter_age: int | None = Field(default=None, ge=0)
    listing_days: int | None = Field(default=None, ge=1)  # CAB 15: listed 10 days, then euthanasia


class EuthanasiaRule(_Rule):
    text: str  # pt-BR summary of when and how
    requires_vet_report: bool


class Severity(_Frozen):
    """One severity level of fines: a fixed amount, a minimum, or graded by regulation."""

    label: str  # pt-BR
    amount: Amount | None = None
    minimum: Amount | None = None
    minimum_exclusive: bool = False  # CABO 39 table: "> 1"
    by_regulation: bool = False  # GRU 69 II, 77: the regulation grades it inside the legal range

    @model_validator(mode="after")
    def _one_kind(self) -> Severity:
        kinds = [self.amount is not None, self.minimum is not None, self.by_regulation]
        if sum(kinds) != 1:
            raise ValueError(
                "a severity has exactly one of amount, minimum or by_regulation = true"
            )
        return self


PayerRole = Literal["offender", "owner", "trainer", "organiser"]
# How a fine grows on a repeat offence (n = repeats counted, 1 = the first repeat):
#   double            twice the fine set for the infraction, whatever n ("aplicada em dobro": GRU 80
#                     "dobro do valor definido para a respectiva infração"; CABO 39 §2; VV 50 II)
#   double_previous   twice the previous fine, so base x 2^n ("dobrada na reincidência", "em dobro
#                     em relação à penalidade anterior": CAB 40 §2; BJP 17 §2 III, 19 §1, 31 §ú)
#   plus_50_percent_each  50 % more at each repeat, compounding: base x 1,5^n (BJP 16 §4 III,
#                     VV 34 §2 III "acrescida de 50 % a cada reincidência")
#   none              the law sets no repeat increase (or the fine already punishes the repeat)
RepeatGrowth = Literal["double", "double_previous", "plus_50_percent_each", "none"]


class SpecificFine(_Rule):
    """A fine whose amount the law writes next to the infraction."""

    code: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    label: str  # pt-BR
    amount: Amount
    per_animal: bool = False
    repeat: RepeatGrowth = "double"
    # Who pays it (BJP 19 §1: I the owner, II the unregistered trainer: two fines, two people).
    payer: PayerRole = "offender"
    # Codes of fines the same facts impose on other people (BJP 19 §1 I -> II).
    joint: list[str] = Field(default_factory=list)
    # The fine is multiplied when the animal dies (VV 32 §1 II, VV 43 §2: "em dobro").
    died_multiplier: int | None = Field(default=None, ge=2)
    # Fined only after the intimation's term to comply ran out (BJP 16 §4 I, 17 §2 I; VV 34 §2 I).
    comply_days: int | None = Field(default=None, ge=1)
    # After each fine a new term runs before the next one (BJP 17 §2 II: "novo prazo de 30 dias").
    renewed_comply_days: int | None = Field(default=None, ge=1)


class FineRule(_Rule):
    """Fines: unit, severity levels, repeat offences and prescription."""

    unit: UnitCode
    range_min_units: Decimal | None = Field(default=None, ge=0, strict=False)  # GRU 69 II: 42
    range_max_units: Decimal | None = Field(default=None, ge=0, strict=False)  # GRU 69 II: 42 000
    severities: dict[str, Severity] = Field(default_factory=dict)
    default: Amount | None = None  # VV 50 I: when the article sets no amount
    specific: list[SpecificFine] = Field(default_factory=list)
    repeat_multiplier: int = Field(default=2, ge=1)
    repeat_compounds: bool = False  # CAB 40 §2: doubled "em relação à penalidade anterior"
    repeat_window_years: int | None = Field(default=None, ge=1)  # GRU 79: 3
    prescription_years: int | None = Field(default=None, ge=1)  # GRU 113: 5

    @model_validator(mode="after")
    def _joint_fines_exist(self) -> FineRule:
        codes = [f.code for f in self.specific]
        problems = [f"fines.specific: {c!r} listed twice" for c in set(codes) if codes.count(c) > 1]
        for fine in self.specific:
            for code in fine.joint:
                if code not in codes or code == fine.code:
                    problems.append(f"fines.specific[{fine.code}].joint: unknown fine {code!r}")
        if problems:
            raise ValueError("; ".join(sorted(problems)))
        return self


ExpenseKind = Literal["capture", "transport", "food", "veterinary", "storage", "other"]


class ExpenseRule(_Rule):
    """Expenses the CCZ had that the law lets it recover, itemised, with a fee or a fine.

    CABO 41 (transport, food, veterinary care and others, with the penalties); CABO 10 §ú f
    (removal, transport and keeping, before a reclaim); GRU 72 §1 (apprehension, capture,
    transport and storage, before what was apprehended is returned).
    """

    kinds: list[ExpenseKind] = Field(min_length=1)
    fee_kinds: list[Literal["reclaim", "fine"]] = Field(min_length=1)


class NoticeRule(_Rule):
    """Deadlines of the notificação preliminar and of defence and appeal."""

    preliminary_days: list[int] = Field(default_factory=list)  # fixed choices; 0 = "imediatamente"
    preliminary_min_hours: int | None = Field(default=None, ge=1)  # GRU 70 §3: 1 hour
    preliminary_max_days: int | None = Field(default=None, ge=1)  # GRU 70 §3: 60 days
    extension_days: int | None = Field(default=None, ge=1)  # GRU 70 §3: +30 on request
    defence_days: int | None = Field(default=None, ge=1)  # GRU 96 V
    appeal_days: int | None = Field(default=None, ge=1)  # GRU 98 VI, 101
    second_appeal_days: int | None = Field(default=None, ge=1)  # GRU 103
    decision_days: int | None = Field(default=None, ge=1)  # GRU 102: first instance decides in 15
    payment_days: int | None = Field(default=None, ge=1)  # GRU 100: unpaid after 30 days
    edital_days: int | None = Field(default=None, ge=1)  # GRU 95 §ú, 96 §1, 109 III: 5
    counting: Counting = "calendar"
    moves_to_business_day: bool = False


# ---------------------------------------------------------------------------------------------
# Maus-tratos reports (DOMAIN §7)
# ---------------------------------------------------------------------------------------------

# Conducts with a translated label in ``portal.blueprints.reports.labels``; a profile may list any
# other code as long as it gives the law's own wording in ``label`` (pt-BR).
KNOWN_REPORT_CATEGORIES = frozenset(
    {
        "torture",
        "wounding",
        "poisoning",
        "no_shelter",
        "no_food",
        "chain_or_small_space",
        "small_space",
        "excessive_work",
        "overload",
        "injured_use",
        "punishment",
        "transport",
        "fights",
        "slaughter",
        "inhumane_killing",
        "abandonment",
        "no_vet_care",
        "capture_harm",
        "research",
        "experiments",
        "rituals",
        "shows",
        "other",
    }
)
KNOWN_CHECKLIST_ITEMS = frozenset(
    {
        "shelter",
        "water",
        "food",
        "hygiene",
        "chain",
        "space",
        "wounds",
        "care",
    }
)
_Code = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]


class ReportCategory(_Frozen):
    """One maus-tratos conduct the law lists (e.g. ``GRU 10 V a``: sem abrigo)."""

    code: _Code
    article: Citation
    label: str | None = None  # pt-BR; required for a code outside KNOWN_REPORT_CATEGORIES

    @model_validator(mode="after")
    def _labelled(self) -> ReportCategory:
        if self.label is None and self.code not in KNOWN_REPORT_CATEGORIES:
            raise ValueError(f"category {self.code!r} is not a known code: give it a label")
        return self


class ChecklistItem(_Frozen):
    """One finding the agent checks at the inspection (shelter, water, food...)."""

    code: _Code
    label: str | None = None  # pt-BR; required for a code outside KNOWN_CHECKLIST_ITEMS

    @model_validator(mode="after")
    def _labelled(self) -> ChecklistItem:
        if self.label is None and self.code not in KNOWN_CHECKLIST_ITEMS:
            raise ValueError(f"checklist item {self.code!r} is not a known code: give it a label")
        return self


EstablishmentKind = Literal[
    "pet_shop", "clinic", "hospital", "kennel", "breeder", "trainer", "groomer"
]


class EstablishmentRule(_Rule):
    """The CCZ's register of establishments that deal with animals (cadastro zoossanitário, GRU
    11-13) and their accreditation to register animals (GRU 14 §1-2; BJP 2, 9).

    ``validity_years`` is counted from the first issue: each renewal runs to the next anniversary
    of it (GRU 11 §2), so terms never drift; a renewal is requested in the ``renewal_window_days``
    before expiry and takes effect the day after the old term ends (GRU 11 §3).
    """

    kinds: list[EstablishmentKind] = Field(min_length=1)
    validity_years: int = Field(default=1, ge=1)
    validity_stated_in_law: bool = True
    renewal_window_days: int = Field(ge=1)
    inspection_before_approval: bool = False
    responsible_vet_required: bool = True
    sketch_required: bool = False  # a sketch of the animals' housing (GRU 11 §1 IV)
    accreditation: bool = False  # accredited establishments register animals (API token)


class ReportRule(_Rule):
    """What a citizen may report as maus-tratos and the CCZ's own deadlines to handle it.

    The categories are the law's list of conducts, each with its item. The laws set no deadline
    for triage or inspection: those are the CCZ's service targets (cited as the law's silence).
    """

    categories: list[ReportCategory] = Field(min_length=1)
    checklist: list[ChecklistItem] = Field(min_length=1)
    triage_days: int = Field(ge=1)  # calendar days from the report to the triage decision
    inspection_days: int = Field(ge=1)  # calendar days from the triage to the inspection
    # Where the staff and public maps open (latitude, longitude): municipal data, not law.
    map_center: list[float] | None = Field(default=None, min_length=2, max_length=2)

    @model_validator(mode="after")
    def _unique_codes(self) -> ReportRule:
        for name, items in (("categories", self.categories), ("checklist", self.checklist)):
            codes = [item.code for item in items]
            if len(codes) != len(set(codes)):
                raise ValueError(f"reports.{name}: a code is listed twice")
        return self

    def category(self, code: str) -> ReportCategory | None:
        return next((c for c in self.categories if c.code == code), None)


# ---------------------------------------------------------------------------------------------
# The profile
# ---------------------------------------------------------------------------------------------


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
    prices: dict[PriceKey, Price] = Field(default_factory=dict)
    unit_values: list[UnitValueDefault] = Field(default_factory=list)
    expenses: list[ExpenseRule] = Field(default_factory=list)

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
