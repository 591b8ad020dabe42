"""Adoption rules for NGOs, listings, photos, proofs and bars (VV 28-29; BJP 24), by capability:

* :mod:`.errors` – :class:`AdoptionError` (a ``DomainError``) and :class:`InvalidData`;
* :mod:`.organizations` – NGO registration, approval, members, the API token's NGO;
* :mod:`.listings` – listing fields, create/update, manual state changes, who manages what;
* :mod:`.photos` – a listing's photos;
* :mod:`.documents` – the adopter's proofs, attached to applications, and who may see them;
* :mod:`.bars` – bars on a person by CPF.

Applications, eligibility and the hand-over live in :mod:`.applications`, :mod:`.eligibility` and
:mod:`.handover`. This module re-exports the names views, the API, the CLI and tests import from it.
"""

from __future__ import annotations

from portal.blueprints.adoption.bars import (
    BAR_LABELS,
    animal_id_for_rga,
    bars_for_cpf,
    recent_bars,
    record_bar,
    revoke_bar,
)
from portal.blueprints.adoption.documents import (
    DOCUMENT_LABELS,
    DOCUMENT_PURPOSE,
    DOCUMENT_STATUS_LABELS,
    application_documents,
    attach_current_proofs,
    attach_document,
    attachable_documents,
    attached_documents,
    current_proofs,
    document_file_rule,
    documents_of,
    may_see_document,
    review_document,
    upload_document,
)
from portal.blueprints.adoption.errors import AdoptionError, InvalidData
from portal.blueprints.adoption.listings import (
    MANUAL_TRANSITIONS,
    MAX_AGE_MONTHS,
    SEXES,
    SIZES,
    SPECIES,
    STATE_LABELS,
    TEMPERAMENT,
    ListingData,
    change_state,
    close_open_applications,
    create_listing,
    district_key,
    listing_data,
    managed_listings,
    may_manage,
    update_listing,
)
from portal.blueprints.adoption.organizations import (
    OrganizationData,
    add_member,
    approve_organization,
    link_api_client,
    organization_for_client,
    organizations_for_review,
    organizations_of,
    organizations_requested_by,
    refuse_organization,
    request_organization,
)
from portal.blueprints.adoption.photos import (
    MAX_PHOTOS,
    PHOTO_PURPOSE,
    add_photo,
    delete_stored_files,
    move_photo,
    remove_photo,
)
from portal.models import ApplicantDocument
from portal.services.clock import local_today

__all__ = [
    "BAR_LABELS",
    "DOCUMENT_LABELS",
    "DOCUMENT_PURPOSE",
    "DOCUMENT_STATUS_LABELS",
    "MANUAL_TRANSITIONS",
    "MAX_AGE_MONTHS",
    "MAX_PHOTOS",
    "PHOTO_PURPOSE",
    "SEXES",
    "SIZES",
    "SPECIES",
    "STATE_LABELS",
    "TEMPERAMENT",
    "AdoptionError",
    "ApplicantDocument",
    "InvalidData",
    "ListingData",
    "OrganizationData",
    "add_member",
    "add_photo",
    "animal_id_for_rga",
    "application_documents",
    "approve_organization",
    "bars_for_cpf",
    "change_state",
    "close_open_applications",
    "create_listing",
    "delete_stored_files",
    "district_key",
    "document_file_rule",
    "documents_of",
    "link_api_client",
    "listing_data",
    "local_today",
    "managed_listings",
    "may_manage",
    "attach_current_proofs",
    "attach_document",
    "attachable_documents",
    "attached_documents",
    "current_proofs",
    "may_see_document",
    "move_photo",
    "organization_for_client",
    "organizations_for_review",
    "organizations_of",
    "organizations_requested_by",
    "recent_bars",
    "record_bar",
    "refuse_organization",
    "remove_photo",
    "request_organization",
    "review_document",
    "revoke_bar",
    "update_listing",
    "upload_document",
]
