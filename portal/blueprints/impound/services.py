"""Impound and reclaim rules (GRU 82-88, 114; Lei 14.228/2021): the public face of the rules.

Capture → custody with its hold deadline (the date engine, ``portal.services.dates``) → reclaim
with the fee (the fee service, ``portal.services.fees``) paid through billing → release after the
checks the profile's law asks for; or, after the deadline, a destination in the profile's order.
The capture count per animal (GRU 83 §ú, 84, 113) opens a definitive apprehension, which the
enforcement domain carries on through :func:`open_definitive_apprehension` and
:func:`decide_definitive_apprehension`.

Federal Lei 14.228/2021 is above every municipal article: a dog or cat is never offered
euthanasia unless a veterinarian's technical report (laudo) states a serious incurable disease or
an infectious condition that puts human or animal health at risk.

The rules live in one module per capability (``labels``, ``deadlines``, ``capture``, ``reclaim``,
``destinations``, ``alerts``, ``certificates``, ``personal_data``, ``apprehension``); this module
re-exports their public names so views, other domains and tests import them from one place.
Services take model objects and values, flush (never commit) and raise DomainError.
"""

from __future__ import annotations

from .alerts import AlertData, create_alert, recent_captures
from .apprehension import (
    decide_definitive_apprehension,
    definitive_upheld,
    open_definitive_apprehension,
)
from .capture import (
    CaptureData,
    CustodyRow,
    active_reclaim,
    captures_of_animal,
    captures_of_user,
    custody_rows,
    find_by_protocol,
    lookup_animal,
    next_step,
    record_capture,
)
from .certificates import (
    certificate_by_code,
    certificate_json,
    certificates_offered,
    issue_certificate,
    public_certificate,
    request_certificate,
)
from .deadlines import (
    capture_count,
    capture_day_counts,
    count_in_period,
    hold_deadline,
    legal_size,
    observation_ends,
)
from .destinations import (
    DestinationData,
    auction_failed,
    decide_destination,
    destinations_offered,
    destinations_withheld,
    pending_auction,
    record_auction_outcome,
)
from .labels import (
    CONDITIONS,
    DESTINATIONS,
    FEDERAL_EUTHANASIA,
    PUBLIC_DAYS,
    RABIES,
    REASONS,
    SETTLEMENT_SUBJECT,
    SEXES,
    SIZES,
    SPECIES,
    auction_outcome_label,
    capture_size_label,
    community_condition_label,
    condition_label,
    custody_label,
    destination_label,
    rabies_label,
    reason_article,
    reason_label,
    sex_label,
    size_label,
    species_label,
    status_label,
)
from .personal_data import export_personal_data
from .reclaim import (
    check_reclaimable,
    confirm_cause_ended,
    on_item_settled,
    reclaim_fee,
    record_rabies,
    register_on_reclaim,
    release,
    release_term,
    start_reclaim,
)

__all__ = [
    "CONDITIONS",
    "DESTINATIONS",
    "FEDERAL_EUTHANASIA",
    "PUBLIC_DAYS",
    "RABIES",
    "REASONS",
    "SETTLEMENT_SUBJECT",
    "SEXES",
    "SIZES",
    "SPECIES",
    "AlertData",
    "auction_failed",
    "auction_outcome_label",
    "pending_auction",
    "record_auction_outcome",
    "CaptureData",
    "CustodyRow",
    "DestinationData",
    "active_reclaim",
    "capture_count",
    "captures_of_animal",
    "captures_of_user",
    "capture_day_counts",
    "certificate_by_code",
    "certificate_json",
    "certificates_offered",
    "public_certificate",
    "check_reclaimable",
    "community_condition_label",
    "condition_label",
    "confirm_cause_ended",
    "count_in_period",
    "create_alert",
    "custody_label",
    "custody_rows",
    "decide_definitive_apprehension",
    "decide_destination",
    "definitive_upheld",
    "destination_label",
    "destinations_offered",
    "destinations_withheld",
    "export_personal_data",
    "find_by_protocol",
    "hold_deadline",
    "issue_certificate",
    "legal_size",
    "lookup_animal",
    "next_step",
    "observation_ends",
    "on_item_settled",
    "open_definitive_apprehension",
    "rabies_label",
    "reason_article",
    "reason_label",
    "reclaim_fee",
    "record_capture",
    "record_rabies",
    "recent_captures",
    "register_on_reclaim",
    "release",
    "release_term",
    "request_certificate",
    "sex_label",
    "size_label",
    "capture_size_label",
    "species_label",
    "start_reclaim",
    "status_label",
]
