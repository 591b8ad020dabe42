"""The administrative procedure (GRU 70, 95-114; VV 23; BJP 30; CAB 40; CABO 39-41), re-exported
from its modules so callers keep ``from portal.blueprints.enforcement import services``:

* ``common`` — the error, the terms (date engine with the profile's rule);
* ``issuing`` — documents, addressee, number, fine priced by the fee service;
* ``consequences`` — the *auto de apreensão* and what is recorded on a person at the final decision;
* ``serving`` — service (ciência), return visits, extension;
* ``fines`` — the fine as a charge, its suspension, the *dívida ativa*;
* ``petitions`` / ``decisions`` — defences and appeals, their decisions, lapsed terms;
* ``reading`` — "Minhas notificações", verification, deadlines.
"""

from __future__ import annotations

from portal.blueprints.enforcement.common import (
    FINE_KINDS,
    OPEN_STATUSES,
    PETITION_FOR,
    EnforcementError,
    comply_choices,
    knowledge_date,
    term_end,
)
from portal.blueprints.enforcement.consequences import (
    consequence_choices,
    consequences_for_cpf,
    definitive_consequence,
    issue_apprehension_notice,
    on_final,
    record_consequence,
    registration_refusal,
    set_proposed_consequence,
)
from portal.blueprints.enforcement.decisions import (
    close_lapsed,
    decide_petition,
    decision_preview,
    may_decide,
)
from portal.blueprints.enforcement.fines import (
    collection_rows,
    fine_status,
    mark_for_collection,
    overdue_fines_query,
)
from portal.blueprints.enforcement.issuing import Addressee, issue_document
from portal.blueprints.enforcement.petitions import (
    PetitionOption,
    file_petition,
    is_addressee,
    issue_penalty,
    last_decided,
    may_issue_penalty,
    open_petition,
    penalty_of,
    petition_option,
)
from portal.blueprints.enforcement.reading import (
    by_number,
    code_matches,
    current_deadline,
    documents_for,
    printed_code,
)
from portal.blueprints.enforcement.repeats import previous_offences
from portal.blueprints.enforcement.review import (
    answer_grant,
    awaiting_review,
    review_term,
)
from portal.blueprints.enforcement.serving import (
    check_not_complied,
    extend_comply_term,
    record_return_visit,
    record_service,
)

__all__ = [
    "answer_grant",
    "awaiting_review",
    "review_term",
    "Addressee",
    "definitive_consequence",
    "consequence_choices",
    "on_final",
    "registration_refusal",
    "set_proposed_consequence",
    "EnforcementError",
    "FINE_KINDS",
    "OPEN_STATUSES",
    "PETITION_FOR",
    "PetitionOption",
    "by_number",
    "close_lapsed",
    "code_matches",
    "collection_rows",
    "check_not_complied",
    "comply_choices",
    "consequences_for_cpf",
    "current_deadline",
    "decide_petition",
    "decision_preview",
    "documents_for",
    "extend_comply_term",
    "file_petition",
    "fine_status",
    "is_addressee",
    "issue_apprehension_notice",
    "issue_document",
    "issue_penalty",
    "knowledge_date",
    "last_decided",
    "mark_for_collection",
    "may_decide",
    "may_issue_penalty",
    "printed_code",
    "open_petition",
    "overdue_fines_query",
    "penalty_of",
    "petition_option",
    "previous_offences",
    "record_consequence",
    "record_return_visit",
    "record_service",
    "term_end",
]
