"""Profile rules for enforcement: fines, recoverable expenses, notices and deadlines,
maus-tratos reports and the register of establishments.

Re-exported by :mod:`portal.profiles.schema`; the conventions are in :mod:`portal.profiles.base`.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import Field, model_validator

from portal.profiles.base import Amount, Citation, UnitCode, _Frozen, _Rule
from portal.services.dates import Counting


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
    # A fine the law prices by a federal decree's range (BJP 30 II: Decreto 3.179/1999 art. 17,
    # replaced by Decreto 6.514/2008 art. 29, R$ 500 to R$ 3.000 per animal): ``amount`` is the
    # minimum and ``range_max`` the maximum; the authority sets the amount (input
    # ``amount_cents``, per animal) within them and says why. ``decree`` names the federal source.
    range_max: Amount | None = None
    decree: str | None = None
    # Where the published text cannot be read as it stands (VV 42 §ú: a warning-sign article whose
    # fines describe acts against an animal), what cannot be read and the reading the portal chose
    # (pt-BR), shown on the rules page next to the fine.
    reading: str | None = None

    @model_validator(mode="after")
    def _range_in_cents(self) -> SpecificFine:
        if self.range_max is not None and (
            self.amount.cents is None
            or self.range_max.cents is None
            or self.range_max.cents < self.amount.cents
            or not self.decree
        ):
            raise ValueError(
                "range_max: the range is in cents, not below amount, with the decree named"
            )
        return self


class DefinitiveConsequence(_Frozen):
    """What a repeat offence lets the CCZ record on the person, with the article: the definitive
    apprehension (GRU 88 §4: that animal never returns to them; CABO 39 §4) or the loss of
    possession for maus-tratos (VV 23 III b; BJP 30 §ú II)."""

    # The codes of ``portal.models.enforcement.ConsequenceKind``.
    kind: Literal["caused_definitive_apprehension", "lost_possession_maltreatment"]
    article: Citation


class RepeatApprehension(_Frozen):
    """A definitive apprehension the law attaches to repeated autuações for one motive (GRU 87 V:
    "já autuados duas vezes por manterem a criação fora de padrões aceitáveis de higiene,
    bem-estar e alojamento, recebam nova autuação por reincidir"; VI: the same for not reducing
    the animals to the number allowed). Computed from the person's record, never typed: the
    autuações for the same motive, not cancelled, inside the repeat window of ``fines``
    (``repeat_window_years``, GRU 79: "reincidir" is defined there)."""

    code: Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]
    label: str  # pt-BR: the motive, as the agent picks it on the auto
    article: Citation
    prior: int = Field(default=2, ge=1)  # "já autuados duas vezes": the earlier autuações


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
    # None: the law gives no consequence on the person beyond the fine (CAB).
    definitive_consequence: DefinitiveConsequence | None = None
    # GRU 87 V-VI: motives whose repeated autuações make the apprehension definitive.
    apprehension_after: list[RepeatApprehension] = Field(default_factory=list)

    @model_validator(mode="after")
    def _joint_fines_exist(self) -> FineRule:
        codes = [f.code for f in self.specific]
        problems = [f"fines.specific: {c!r} listed twice" for c in set(codes) if codes.count(c) > 1]
        for fine in self.specific:
            for code in fine.joint:
                if code not in codes or code == fine.code:
                    problems.append(f"fines.specific[{fine.code}].joint: unknown fine {code!r}")
        motives = [m.code for m in self.apprehension_after]
        if len(motives) != len(set(motives)):
            problems.append("fines.apprehension_after: a code is listed twice")
        if motives and self.repeat_window_years is None:
            problems.append("fines.apprehension_after: needs repeat_window_years (GRU 79)")
        if problems:
            raise ValueError("; ".join(sorted(problems)))
        return self

    def motive(self, code: str | None) -> RepeatApprehension | None:
        return next((m for m in self.apprehension_after if m.code == code), None)


ExpenseKind = Literal["capture", "transport", "food", "veterinary", "storage", "other"]


class ExpenseRule(_Rule):
    """Expenses the CCZ had that the law lets it recover, itemised, with a fee or a fine.

    CABO 41 (transport, food, veterinary care and others, with the penalties); CABO 10 §ú f
    (removal, transport and keeping, before a reclaim); GRU 72 §1 (apprehension, capture,
    transport and storage, before what was apprehended is returned).
    """

    kinds: list[ExpenseKind] = Field(min_length=1)
    fee_kinds: list[Literal["reclaim", "fine"]] = Field(min_length=1)


# GRU 89 §ú: "despesas decorrentes do transporte dos animais e do acompanhamento da autoridade
# sanitária e de outros servidores ao abatedouro licenciado".
InterdictionExpenseKind = Literal["transport", "authority_escort", "staff_escort"]


def _every_interdiction_expense() -> list[InterdictionExpenseKind]:
    return ["transport", "authority_escort", "staff_escort"]


class InterdictionRule(_Rule):
    """GRU 89: for animals raised for human consumption the authority may choose interdição
    instead of the apprehension of the chapter, intimating the offender to take the animals,
    within the term of a preliminary notice, to a licensed slaughterhouse with the authority;
    every expense of transport and accompaniment is the offender's (§ú, ``cites.expenses``):
    staff record them after the trip and the offender pays them as a charge of their own."""

    CITE_ONLY = frozenset({"expenses"})

    expense_kinds: list[InterdictionExpenseKind] = Field(
        default_factory=_every_interdiction_expense, min_length=1
    )


class RemedyDuties(_Rule):
    """VV 23 II: during the term to remedy maus-tratos the owner reports any change of the
    animal's address and periodically presents a veterinary laudo of its physical integrity.
    The law gives no period: the agent sets it on the notice (``min``/``max`` days bound it).
    The duties apply to a preliminary notice for a maus-tratos conduct (the report categories'
    articles) or for one of ``provisions`` (VV 23 I)."""

    provisions: list[Citation] = Field(default_factory=list)
    laudo_min_days: int = Field(default=1, ge=1)
    laudo_max_days: int = Field(default=90, ge=1)


class NoticeRule(_Rule):
    """Deadlines of the notificação preliminar and of defence and appeal."""

    # A petition refused without judging its merit: filed late (GRU 107 §2 I), or a second one on
    # the same decision (GRU 101 §2, 107 §2 IV). Without them the rule's article is cited.
    CITE_ONLY = frozenset({"late_petition", "repeated_petition"})

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
    # GRU 104: the issuing agent may order a granted petition re-examined within 5 days;
    # None where the law has no such step (the grant takes effect at once).
    grant_review_days: int | None = Field(default=None, ge=1)
    counting: Counting = "calendar"
    moves_to_business_day: bool = False
    # GRU 95 I, 96 I: "Quando se tratar de pessoa jurídica, especificar o seu ramo de atividade e
    # endereço" — a document to a CNPJ states both.
    entity_activity_address: bool = False
    # Who decides, named to the addressee and to staff (pt-BR, "o Diretor de Departamento"):
    # GRU 102 the first instance; GRU 103 §1 I the second for a warning or a fine, II for any other
    # penalty. None where the law names nobody (the pages then say "a coordenação do CCZ").
    first_instance_authority: str | None = None
    second_instance_authority: str | None = None
    second_instance_other_authority: str | None = None
    interdiction: InterdictionRule | None = None  # GRU 89; None where the law has none
    remedy_duties: RemedyDuties | None = None  # VV 23 II; None where the law has none


# ---------------------------------------------------------------------------------------------
# Maus-tratos reports (GRU 10 V; BJP 29; VV 3 IX)
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


# What Open311's public GET (``/open311/v2/requests``) tells anyone who is not CCZ staff about a
# report of a category (issue 26 #5): "none" answers 404, exactly as for a protocol that does not
# exist, and leaves it out of the list (a maus-tratos report usually names a private home: even
# its category, dates and status tell the neighbourhood that somebody reported it); "status"
# gives its category, dates and open/closed only (never a place, a text or a reporter), for
# conducts seen in public places. Not law: the city's choice, per category.
Open311Visibility = Literal["none", "status"]


class ReportCategory(_Frozen):
    """One maus-tratos conduct the law lists (e.g. ``GRU 10 V a``: sem abrigo)."""

    code: _Code
    article: Citation
    label: str | None = None  # pt-BR; required for a code outside KNOWN_REPORT_CATEGORIES
    open311: Open311Visibility | None = None  # None: the rule's ``open311_public``

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
    # GRU 13 §1: the responsible vet's term of technical responsibility is renewed yearly, so it
    # is checked again at every renewal of the cadastro, not only at the first request.
    vet_term_yearly: bool = False
    # What the law calls the yearly document: the cadastro zoossanitário (GRU 11) or the sanitary
    # authority's laudo issued after the agent's inspection (CABO 34; CAB 33), or the register
    # without which nobody may sell dogs and cats (VV 45: "sales_register"). The portal keeps any
    # of them as the establishment's cadastro.
    document: Literal["cadastro", "laudo", "sales_register"] = "cadastro"


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
    # Open311's public answer for categories that do not say (see ``Open311Visibility``).
    open311_public: Open311Visibility = "none"

    @model_validator(mode="after")
    def _unique_codes(self) -> ReportRule:
        for name, items in (("categories", self.categories), ("checklist", self.checklist)):
            codes = [item.code for item in items]
            if len(codes) != len(set(codes)):
                raise ValueError(f"reports.{name}: a code is listed twice")
        return self

    def category(self, code: str) -> ReportCategory | None:
        return next((c for c in self.categories if c.code == code), None)

    def open311_visibility(self, code: str) -> Open311Visibility:
        """What Open311 shows the public about a report of category ``code``."""
        category = self.category(code)
        if category is not None and category.open311 is not None:
            return category.open311
        return self.open311_public
