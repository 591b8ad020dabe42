"""The RGA domain's services, one import away: this module only re-exports the functions, errors and
records of the modules that hold them, so callers keep writing ``services.register_animal(...)``.

Where each capability lives (all under ``portal/blueprints/animals/``):

* ``common.py`` — errors (:class:`AnimalError` and kin), input records (:class:`AnimalData`,
  :class:`VaccinationData`, :class:`OwnerData`), normalising, labels, :func:`find_by_rga`;
* ``validation.py`` — field checks, the age window, the rabies vaccination, duplicate microchip;
* ``household.py`` — the household limit (GRU 37; BJP 17; CAB 31; CABO 33 §ú) and
  :func:`move_animals_with_owner`;
* ``registration.py`` — :func:`register_animal`, RGA numbers, fees, staff activation;
* ``owners.py`` — owners created or found by an establishment, the wizard's address;
* ``transfers.py`` — :func:`transfer_animal` and the citizen's transfer offers;
* ``copies.py`` — second copies (BJP 8; GRU 19) and the death report (GRU 21; BJP 10);
* ``public.py`` — the public page's data and the finder's message;
* ``reports.py`` — lists, staff search, the monthly report and CSV, the LGPD export;
* ``provisional.py``, ``rga.py``, ``todo.py``, ``queues.py``, ``reminders.py`` as before.

They take model objects and values (never ``request``), ``flush`` (never commit) and raise
:class:`AnimalError` (``field``, ``code``, ``message``). An owner's animals move with them only
through :func:`move_animals_with_owner`, called where an address is written.
"""

from __future__ import annotations

from portal.blueprints.animals.common import (
    COUNTED_STATUSES,
    MAX_AGE_YEARS,
    SEXES,
    SIZES,
    SPECIES,
    UF_CODES,
    AnimalData,
    AnimalError,
    AnimalErrors,
    HouseholdLimitExceeded,
    LicenceNewAcquisition,
    OwnerData,
    VaccinationData,
    clean_text,
    find_by_rga,
    normalise_crmv,
    normalise_microchip,
    owner_residence_key,
    sex_label,
    size_label,
    species_label,
    status_label,
)
from portal.blueprints.animals.copies import (
    mark_copy_issued,
    provisional_valid_until,
    report_death,
    request_copy,
)
from portal.blueprints.animals.household import (
    check_household_limit,
    counts_for_household,
    household_count,
    licensed_limit,
    move_animals_with_owner,
)
from portal.blueprints.animals.owners import (
    find_or_create_owner,
    update_owner_address,
)
from portal.blueprints.animals.public import (
    public_data,
    relay_finder_message,
)
from portal.blueprints.animals.registration import (
    RESUBMISSION_WINDOW,
    AlreadyRegistered,
    RegistrationRequest,
    approve_registration,
    fees_of,
    issue_rga,
    next_sequence,
    price_cents,
    record_vaccination,
    register_animal,
    register_animal_for_adoption,
    renewal_due,
)
from portal.blueprints.animals.reports import (
    CSV_DELIMITER,
    REPORT_COLUMNS,
    SEARCH_KINDS,
    animals_of,
    export_animals,
    month_bounds,
    open_copy_requests,
    pending_registrations,
    registrations_of_month,
    report_csv,
    report_row,
    rga_error_message,
    search_animals,
)
from portal.blueprints.animals.transfers import (
    accept_transfer,
    decline_transfer,
    pending_transfers_to,
    request_transfer,
    transfer_animal,
    transfer_article,
)
from portal.blueprints.animals.validation import (
    AgeCheck,
    check_age,
    check_microchip_free,
    check_vaccination_current,
    current_vaccination,
    duplicate_microchip_error,
    microchip_taken,
    next_rabies_due,
    rabies_required,
    vaccination_is_current,
    validate_animal_data,
    validate_vaccination,
)
from portal.services.clock import current_profile, local_today
from portal.services.dates import add_months
from portal.urls import absolute_url

__all__ = [
    "check_microchip_free",
    "check_vaccination_current",
    "duplicate_microchip_error",
    "AgeCheck",
    "AlreadyRegistered",
    "AnimalData",
    "AnimalError",
    "AnimalErrors",
    "COUNTED_STATUSES",
    "CSV_DELIMITER",
    "HouseholdLimitExceeded",
    "LicenceNewAcquisition",
    "MAX_AGE_YEARS",
    "OwnerData",
    "REPORT_COLUMNS",
    "RESUBMISSION_WINDOW",
    "RegistrationRequest",
    "SEARCH_KINDS",
    "SEXES",
    "SIZES",
    "SPECIES",
    "UF_CODES",
    "VaccinationData",
    "absolute_url",
    "accept_transfer",
    "add_months",
    "animals_of",
    "approve_registration",
    "check_age",
    "check_household_limit",
    "clean_text",
    "counts_for_household",
    "current_profile",
    "current_vaccination",
    "decline_transfer",
    "export_animals",
    "fees_of",
    "find_by_rga",
    "find_or_create_owner",
    "household_count",
    "issue_rga",
    "licensed_limit",
    "local_today",
    "mark_copy_issued",
    "microchip_taken",
    "next_rabies_due",
    "month_bounds",
    "move_animals_with_owner",
    "next_sequence",
    "normalise_crmv",
    "normalise_microchip",
    "open_copy_requests",
    "owner_residence_key",
    "pending_registrations",
    "pending_transfers_to",
    "price_cents",
    "provisional_valid_until",
    "public_data",
    "rabies_required",
    "record_vaccination",
    "register_animal",
    "register_animal_for_adoption",
    "registrations_of_month",
    "relay_finder_message",
    "renewal_due",
    "report_csv",
    "report_death",
    "report_row",
    "request_copy",
    "request_transfer",
    "rga_error_message",
    "search_animals",
    "sex_label",
    "size_label",
    "species_label",
    "status_label",
    "transfer_animal",
    "transfer_article",
    "update_owner_address",
    "vaccination_is_current",
    "validate_animal_data",
    "validate_vaccination",
]
