"""Excess-animal licences (GRU 37 §1; BJP 17 §3-6; CAB 31 §1-2): the rules.

* **The household.** :func:`household_allowance` is what the one household check
  (``animals.services.check_household_limit``, used by registration on the web and through the
  clinic API, transfers, adoption eligibility and hand-over) asks about a residence. Without a valid
  licence the allowance is the profile's plain limit. A valid licence names its animals: the
  household keeps the plain limit plus the *named* animals above it still alive at the residence,
  never more than the licence's cap — so when a licensed animal above the limit dies, is lost or
  given away the allowance drops with it (GRU 37 §1 II; BJP 17 §5: "nunca poderão ser
  substituídos"). Where the profile says so, any new dog or cat while the licence is valid is
  refused, because it would cancel the licence (GRU 37 §1 III). An expired or cancelled licence
  puts the household back under the plain limit.
* **The request** lists every animal at the residence (the RGAs of every owner at that address,
  each confirmed) and may register the animals above the limit that could not be registered yet:
  their RGAs are issued by the animals domain's own ``register_animal`` and stay provisional until
  the licence is approved (:func:`rga_hold`). Rabies proofs, sterilisation proofs where the profile
  asks for them (GRU 37 §1 I), housing description and photos, and the number asked for (never
  above the profile's cap: GRU 37 §1, 10; BJP 17 §3, 15). BJP 17 §6 closed first requests 12
  months after the law's publication (``requests_accepted_until``).
* **The CCZ** assigns an agent, schedules and records the inspection, asks for more, and decides:
  approve with the cap and the animals covered (a lower number than asked after a technical report,
  BJP 17 §1), or refuse with a reason; it may cancel a licence with a reason. Cabeceira Grande's
  private kennel gets its yearly laudo through the same flow after the inspection (CAB 31 §2).
* **Validity.** A calendar year: the same date next year (a licence from 29 February ends on 28
  February, docs/law-notes.md). The renewal is asked for inside the profile's window before
  expiry (GRU 37 §1 V: 30 days); decided before expiry it starts the day after the old one
  ends, decided after it starts on the decision day.

The rules live by capability in :mod:`~portal.blueprints.licences.common` (the error, codes,
timeline, e-mail), :mod:`~portal.blueprints.licences.terms` (validity, renewal, labels),
:mod:`~portal.blueprints.licences.household` (the allowance, held RGAs, households above the
limit), :mod:`~portal.blueprints.licences.requests` (the citizen's request) and
:mod:`~portal.blueprints.licences.decisions` (the CCZ's steps); this module re-exports their public
names. Functions take model objects and values, flush (never commit), audit, e-mail, and raise
:class:`LicenceError` (a :class:`portal.domain.DomainError`).
"""

from __future__ import annotations

from portal.blueprints.licences.common import (
    CODE_ALPHABET,
    COUNTED,
    SPECIES,
    LicenceError,
    LicenceErrors,
    Upload,
    document_name,
    new_code,
    normalise_code,
    notify_holder,
    record_event,
    rule_of,
)
from portal.blueprints.licences.decisions import (
    approve,
    ask_info,
    assign,
    cancel,
    file_viewed,
    record_inspection,
    refuse,
    schedule_inspection,
)
from portal.blueprints.licences.household import (
    Allowance,
    counted,
    covered_still_counted,
    household_allowance,
    household_viewed,
    households_above_limit,
    registering_inside_request,
    residence_animals,
    rga_hold,
    valid_licence,
)
from portal.blueprints.licences.labels import event_label, find, status_label
from portal.blueprints.licences.requests import (
    ListedAnimal,
    NewAnimal,
    RequestData,
    answer_info,
    open_request,
    request_licence,
)
from portal.blueprints.licences.terms import (
    RenewalWindow,
    is_valid,
    public_status,
    renewal_of,
    renewal_window,
    term_end,
)

__all__ = [
    "Allowance",
    "CODE_ALPHABET",
    "COUNTED",
    "LicenceError",
    "LicenceErrors",
    "ListedAnimal",
    "NewAnimal",
    "RenewalWindow",
    "RequestData",
    "SPECIES",
    "Upload",
    "answer_info",
    "approve",
    "ask_info",
    "assign",
    "cancel",
    "counted",
    "covered_still_counted",
    "document_name",
    "event_label",
    "file_viewed",
    "find",
    "household_allowance",
    "household_viewed",
    "households_above_limit",
    "is_valid",
    "new_code",
    "normalise_code",
    "notify_holder",
    "open_request",
    "public_status",
    "record_event",
    "record_inspection",
    "refuse",
    "registering_inside_request",
    "renewal_of",
    "renewal_window",
    "request_licence",
    "residence_animals",
    "rga_hold",
    "rule_of",
    "schedule_inspection",
    "status_label",
    "term_end",
    "valid_licence",
]
