"""Profile rules about animals and their owners: household limit, licence, RGA registration,
second copies, fee exemptions, impound, reclaim, adoption and euthanasia.

Re-exported by :mod:`portal.profiles.schema`; the conventions are in :mod:`portal.profiles.base`.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field, field_validator, model_validator

from portal.profiles.base import (
    SIZE_CLASSES,
    Amount,
    Citation,
    FeeKind,
    HousingKind,
    LicenceRequirement,
    SizeAmounts,
    SizeClass,
    _Frozen,
    _Rule,
)
from portal.profiles.enforcement_rules import ChecklistItem
from portal.services.dates import Counting

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
    # CAB 25: keeping animals in condominium buildings is regulated by each building's convention.
    # The flat still counts against the limit (CAB 31 makes no exception); the portal tells the
    # household that the convention applies too and cannot check it (it is a private document).
    condo_convention: bool = False

    @model_validator(mode="after")
    def _limit_matches_consequence(self) -> HouseholdRule:
        if (self.limit is None) != (self.above_limit == "none"):
            raise ValueError("above_limit is 'none' exactly when there is no limit")
        return self


class LicenceRule(_Rule):
    """The excess-animal licence (or private-kennel permit) for houses above the plain limit."""

    max_animals: int | None = Field(default=None, ge=1)  # None: no cap in the law (CAB kennel)
    # "Válida pelo prazo de um ano" is a calendar year: the same date 12 months later, 29 February
    # ending on 28 February (docs/law-notes.md), never 365 days.
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
    # Months between rabies shots the law sets (BJP 13, VV 52: yearly). None: the law leaves it to
    # the vaccine or says nothing, and the programme's interval applies (ProgrammePolicy).
    revaccination_months: int | None = Field(default=None, ge=1)
    # After a change of owner, the previous owner stays responsible until the record is updated
    # (BJP 7 §ú; GRU 18 §2). False: the law says nothing; the portal's transfer works the same way
    # (the animal changes owner when the new owner accepts), as programme policy.
    previous_owner_liable: bool = False

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


# "slaughterhouse": the licensed slaughterhouse (GRU 88 III), never for dogs and cats (Lei federal
# 14.228/2021, art. 1º forbids ending their lives but by the euthanasia of its art. 2º).
ImpoundDestination = Literal[
    "adoption", "ngo_donation", "community_return", "auction", "slaughterhouse"
]
# Why a vet may decide the euthanasia of an animal of a species outside Lei 14.228/2021 (horses,
# cattle, pigs...): "incurable_laudo", a laudo stating an incurable disease (GRU 88 II);
# "vet_recommendation", a laudo recommending it (CAB 20); "failed_auction", the public auction
# failed (CAB 20).
EuthanasiaGround = Literal["incurable_laudo", "vet_recommendation", "failed_auction"]
# What an animal must have before it goes back to its community (BJP 25 §3 II; VV 19 §1).
# "earlier_priorities_failed": BJP 25 §3 ranks community return second, after adoption or
# donation to an NGO (I): the staff confirm priority I was not possible.
CommunityCondition = Literal[
    "registered",
    "sterilised",
    "vaccinated",
    "dewormed",
    "ectoparasites",
    "carer_term",
    "earlier_priorities_failed",
]


# The species a capture records by name (the capture form's "Outro animal" has no species of
# its own: its class is the agent's).
LegalSizeSpecies = Literal["dog", "cat"]


class CaptureCountRule(_Rule):
    """Captures counted per animal within a prescription period from the first one (GRU 84 §1 II,
    113); reaching ``definitive_at`` opens a definitive apprehension (GRU 87 III)."""

    definitive_at: int = Field(ge=2)
    period_years: int = Field(ge=1)
    # The count stays with the animal when it changes hands (GRU 84 §2-3): the release term says so.
    follows_animal: bool = False


# Why the animal could not be brought to the CCZ, in each law's words: GRU 90 "transporte ...
# inviável" (large animals); CAB 9 "atropelamento ou ... estado que impossibilite sua remoção";
# CABO 11 "apreensão for impraticável".
OnSiteGround = Literal["transport_impossible", "removal_impossible", "apprehension_impracticable"]
# What the record must confirm before an on-site euthanasia (CAB 9 §ú): the owner had not come
# when the team arrived; the wounds or the excessive suffering; no harm to the staff nor to the
# public body.
OnSiteConfirmation = Literal["owner_absent", "suffering", "staff_safe"]
OnSiteJudge = Literal["agent", "vet"]
# CAB 9 caput: what came of an assessment that did not end in euthanasia "in loco".
OnSiteOutcome = Literal["taken_to_ccz", "left_with_owner"]


class OnSiteEuthanasiaRule(_Rule):
    """The euthanasia of an animal where it is, when it cannot be brought to the CCZ.

    GRU 90: a large animal whose transport is impossible, "a juízo da autoridade sanitária", on
    the vet's laudo (the portal's reading since the act was added). CAB 9: the animal run over or
    in a state that makes its removal impossible is assessed there by the agent or the vet; §ú:
    euthanised "in loco" when the owner has not come and it suffers from its wounds, without harm
    to staff or the city. CABO 11: an animal whose apprehension is impracticable, "a juízo do
    Agente Sanitário", after an auto de constatação witnessed by at least two people.

    Lei 14.228/2021 art. 2º reaches every dog and cat these texts reach (the legal class of a dog
    is in ``sizes``): only on a vet's laudo of a serious incurable disease or an incurable
    infectious one that puts human or animal health at risk; ``vet_laudo`` says whether other
    species need the laudo too.
    """

    sizes: list[SizeClass] = Field(min_length=1)  # legal size classes (GRU 10 XV-XVII)
    ground: OnSiteGround
    judged_by: list[OnSiteJudge] = Field(min_length=1)  # whose judgement it is (who records it)
    vet_laudo: Literal["always", "dogs_and_cats"] = "always"
    confirmations: list[OnSiteConfirmation] = Field(default_factory=list)
    witnesses_min: int = Field(default=0, ge=0)  # CABO 11: "no mínimo 2 (duas) pessoas"
    # CAB 9 caput: the assessment itself is a duty ("será avaliado"), whatever follows it; the
    # outcomes other than euthanasia a record may have. Empty: the law has only the act.
    assessment_outcomes: list[OnSiteOutcome] = Field(default_factory=list)


def _adoption_only() -> list[ImpoundDestination]:
    return ["adoption"]


def _every_size() -> list[SizeClass]:
    return list(SIZE_CLASSES)


class ImpoundRule(_Rule):
    """How long an impounded animal waits for its owner before adoption or another destination."""

    hold_days: HoldDays  # RGA-tagged animals, or every animal when untagged_hold_days is None
    untagged_hold_days: HoldDays | None = None  # BJP 25 §2
    untagged_may_be_extended: bool = False  # GRU 82 §4: the CCZ may extend it for untagged animals
    counting: Counting
    moves_to_business_day: bool  # start / end on a non-business day move on (GRU 114 §ú)
    # The fields below are optional, so a profile without them keeps working.
    # Destinations after the hold without reclaim, in the law's order of priority (CABO 13;
    # CAB 11 II, 15-16, 20; VV 19-21; BJP 25 §3; GRU 86, 88). Euthanasia is never listed: federal
    # Lei 14.228/2021 allows it for dogs and cats only on a vet's laudo (see the impound domain).
    destinations: list[ImpoundDestination] = Field(default_factory=_adoption_only)
    # What the staff confirm before a community return (BJP 25 §3 II: registered, sterilised,
    # vaccinated, first deworming dose; VV 19 §1: also ectoparasite control and the carer's
    # signed term). Cited as ``community_return_conditions``.
    community_return_conditions: list[CommunityCondition] = Field(default_factory=list)
    # An agent confirms the cause of the capture has ended before release (CABO 10 §ú f;
    # CAB 8 §ú; GRU 82 §1).
    release_requires_cause_ended: bool = False
    # Rabies observation custody (CAB 14, 30; GRU 61): days observed, then hours to reclaim.
    observation_days: int | None = Field(default=None, ge=1)
    # GRU 61: the authority "determina o período de observação": the law has no number, so the
    # days are the programme's (``programme.observation_days``), shown as the CCZ's choice.
    observation_by_authority: bool = False
    observation_reclaim_hours: int | None = Field(default=None, ge=1)
    # A vet may decide the destination of a seriously ill/injured animal before the deadline
    # (BJP 25 §4; GRU 86 II and CAB 11 V: destinations "a critério" of the health authority).
    vet_early_destination: bool = False
    # BJP 25 §4 "mesmo sem esperar o prazo estipulado no §2º": only the untagged hold; a tagged
    # animal's owner keeps the §1 days to take it back.
    vet_early_untagged_only: bool = False
    capture_count: CaptureCountRule | None = None  # GRU 83 §ú, 84 §1 II, 113
    capture_certificate: bool = False  # Certidão negativa de captura (GRU 84 §3, §5)
    # VV 21 §4: a laudo proposing euthanasia takes effect only once the coordinating vet of the
    # zoonosis centre has signed it off (supervision).
    laudo_supervision: bool = False
    # Public auction only for these size classes (CAB 11 II, 20: medium and large).
    auction_sizes: list[SizeClass] = Field(default_factory=_every_size)
    # Destinations the law allows only some days after the hold ended, once the earlier ones
    # failed (CAB 15-16: ten days available for adoption, then donation to an NGO). Cited as
    # ``destination_after_days``.
    destination_after_days: dict[ImpoundDestination, int] = Field(default_factory=dict)
    # The legal size class of a species where the law defines the classes by species (GRU 10 XV:
    # dogs and cats are "pequeno porte" whatever they weigh; CAB 12, 19: dogs and cats apart from
    # the "grande e médio porte" of bovines, equines, swine...). A species not listed, or a law
    # that defines nothing, keeps the class the agent gives ("outros animais da mesma proporção").
    # Cited as ``legal_size_by_species``.
    legal_size_by_species: dict[LegalSizeSpecies, SizeClass] = Field(default_factory=dict)
    # CAB 20: the unreclaimed animals of ``auction_sizes`` go to public auction before any other
    # destination (euthanasia on a vet's laudo excepted); ``after_failed_auction``: what the staff
    # may choose once the auction failed (empty: the profile's list, less the auction).
    auction_first: bool = False
    after_failed_auction: list[ImpoundDestination] = Field(default_factory=list)
    # When a vet may decide the euthanasia of a species outside Lei 14.228/2021 (GRU 88 II;
    # CAB 20). None: the law says nothing more, and the portal asks the federal standard for every
    # species (a laudo stating an incurable disease). Cited as ``other_species_euthanasia``.
    other_species_euthanasia: list[EuthanasiaGround] | None = None
    # The euthanasia where the animal is, without a capture (GRU 90; CAB 9 §ú; CABO 11). None:
    # the law has no such act, and the staff page does not exist.
    on_site_euthanasia: OnSiteEuthanasiaRule | None = None
    # How the portal reads a garbled or silent list of destinations (pt-BR, shown as written on
    # the rules page, cited as ``destinations``): CABO 13 skips its item III.
    destinations_reading: str | None = None

    def legal_size(self, species: str, weight_class: str) -> SizeClass:
        """The size class the law counts for ``species`` (GRU 10 XV-XVII); ``weight_class`` is
        the agent's description (Pequeno / Médio / Grande), used where the law has no class."""
        if species in self.legal_size_by_species:
            return self.legal_size_by_species[species]
        return weight_class  # type: ignore[return-value]

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
    * ``repeat_growth == "double_each"``: x 2^(n-1) (CAB 17 §ú, 19 §2); with
      ``repeat_counts_owner`` n is the higher of the animal's and the owner's count (CAB 19 §2);
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
    # CAB 19 §2: "reincidência, com relação ao animal ou com relação ao proprietário": the repeat
    # is the higher of the animal's count and the owner's (input ``owner_captures``: the legal
    # size classes of the owner's earlier captures; only those this charge applies to count).
    repeat_counts_owner: bool = False


class ReclaimRule(_Rule):
    """What reclaiming an impounded animal costs and requires."""

    charges: list[ReclaimCharge]
    vaccinated_before_release: bool  # rabies shot when no current proof (BJP 27 §ú, GRU 85)
    registered_on_reclaim: bool  # an unregistered animal gets its RGA at the counter (BJP 26 §ú)
    repeat_requires_sterilisation: bool = False  # VV 22 §6


# ``sterilized`` as in the columns Animal.sterilized and Listing.sterilized.
AdoptionDelivery = Literal["vaccinated", "dewormed", "sterilized", "registered"]
AdopterRequirement = Literal[
    "adult", "cpf_and_id", "income_proof", "address_proof", "commitment_term"
]


class AdopterBars(_Frozen):
    """The article of each bar on adopting that the law writes; None: the law has no such bar."""

    commitment: Citation | None = None  # signed a term never to keep animals again (VV 23 V)
    maltreatment: Citation | None = None  # lost possession for maus-tratos (VV 23 III b)
    apprehension: Citation | None = None  # caused this animal's definitive apprehension (GRU 88 §4)

    def article(self, bar: str) -> str | None:
        """The citation of ``bar`` ("commitment", "maltreatment", "apprehension") or None."""
        value = getattr(self, bar, None)
        return value if isinstance(value, str) else None


# The sections of the adopter's leaflet the portal can print (adoption/leaflet.py), in its order.
LeafletSectionKey = Literal[
    "responsibility", "care", "abandonment", "calendar", "sterilization", "report"
]


def _every_leaflet_section() -> list[LeafletSectionKey]:
    return ["responsibility", "care", "abandonment", "calendar", "sterilization", "report"]


class AdoptionRule(_Rule):
    """Adoption of animals held by the CCZ."""

    fee: Amount | None = None  # None: the law charges nothing
    fee_per: Literal["animal", "day_held"] = "animal"  # CAB 17 charges per day held
    delivered: list[AdoptionDelivery] = Field(default_factory=list)  # state the law requires
    # What the law itself asks of the adopter. The portal's baseline checks apply everywhere.
    adopter_requirements: list[AdopterRequirement] = Field(default_factory=list)
    min_adopter_age: int | None = Field(default=None, ge=0)
    listing_days: int | None = Field(default=None, ge=1)  # CAB 15: listed 10 days, then euthanasia
    # How recent the proof of address must be, when the law gives a number. VV 28 §2 only says
    # "atualizado": None, and the programme's limit applies (ProgrammePolicy).
    proof_of_address_max_age_days: int | None = Field(default=None, ge=1)
    # Who the law bars from adopting, with the article (None: the law has no such bar).
    bars: AdopterBars = Field(default_factory=lambda: AdopterBars())
    # The law makes the CCZ hand every adopter an educational leaflet (VV 28 §3). False: the
    # leaflet is the programme's own guidance and cites no article.
    leaflet_required: bool = False
    # The law's item for each leaflet section it requires (VV 28 §3 I-V); a section not listed
    # is the programme's guidance and cites nothing.
    leaflet: dict[LeafletSectionKey, Citation] = Field(default_factory=dict)

    @field_validator("delivered", mode="before")
    @classmethod
    def _old_spelling(cls, value: Any) -> Any:
        # Profiles written before the rename say "sterilised"; accepted for one release.
        if isinstance(value, list):
            return ["sterilized" if item == "sterilised" else item for item in value]
        return value


class EuthanasiaRule(_Rule):
    text: str  # pt-BR summary of when and how
    requires_vet_report: bool


# Who runs the programme's surgeries with the CCZ (VV 9 §ú; GRU 8; BJP 32).
PartnerKind = Literal["ccz", "university", "vet_establishment", "ngo", "professional_body"]


class SterilisationRule(_Rule):
    """The municipal sterilisation programme (VV 7-10; GRU 8; BJP 32): surgical castration of
    dogs and cats, booked by their owners or carers at the CCZ's and its partners' sites.

    ``free``: the law makes it free of charge (VV 9 "gratuita"); where it is silent the portal
    charges nothing for the booking and says nothing about the partner's price.
    ``clinical_exam``: the surgery follows a clinical exam of the animal's fitness (VV 9), so a
    booking can end "not fit for surgery now" and be booked again.
    ``community_animals``: community animals with a named carer are included (VV 10 §4).
    ``annual_target_percent``: the share of the estimated dogs and cats to sterilise each year of
    the intensive programme (VV 10 §1: at least 10 % a year in the first three years).
    """

    free: bool
    clinical_exam: bool = True
    community_animals: bool = True
    partner_kinds: list[PartnerKind] = Field(min_length=1)
    annual_target_percent: int | None = Field(default=None, ge=1, le=100)
    # "surgeon": who must operate (VV 10 §4), cited where the law says it; "later_years": the
    # "porcentagem suficiente" without a number after the third year (VV 10 §2).
    CITE_ONLY: ClassVar[frozenset[str]] = frozenset({"surgeon", "later_years"})
