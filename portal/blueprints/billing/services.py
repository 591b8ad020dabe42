"""Payment items: the one place other domains create something to pay, and every change of an
item's status (counter payment, exemption decisions, refunds, cancellation, review flags).

The rules live by capability in :mod:`~portal.blueprints.billing.items` (items, references,
statuses, cancellation), :mod:`~portal.blueprints.billing.settlement` (payments, receipts, review
flags, refunds), :mod:`~portal.blueprints.billing.exemptions`,
:mod:`~portal.blueprints.billing.prices`, :mod:`~portal.blueprints.billing.ledger` (staff lists,
reconciliation, audited looks) and :mod:`~portal.blueprints.billing.labels`; this module
re-exports their public names.

Stripe specifics live in :mod:`portal.blueprints.billing.stripe_gateway`; the PDFs in
:mod:`portal.blueprints.billing.documents`. Services ``flush`` and never commit; they raise
:class:`BillingError` (a :class:`portal.domain.DomainError`) with a Portuguese message the view
shows next to the field."""

from __future__ import annotations

from portal.blueprints.billing.exemptions import (
    decide_exemption,
    exemptions_for_item,
    request_exemption,
)
from portal.blueprints.billing.items import (
    GUIA_VALID_DAYS,
    SETTLED_STATUSES,
    SUSPENDED_MESSAGE,
    BillingError,
    SettlementListener,
    _luhn_digit,
    add_note,
    cancel_payment_item,
    clean_reference,
    close_exemption_requests,
    close_online_sessions,
    create_item_for_fee,
    create_payment_item,
    external_url,
    fee_json,
    get_item,
    guia_due_date,
    is_responsible,
    items_of,
    may_view,
    new_reference,
    on_hold,
    pay_url,
    transition,
)
from portal.blueprints.billing.labels import (
    exemption_status_label,
    kind_label,
    method_label,
    price_label,
    status_label,
)
from portal.blueprints.billing.ledger import (
    Reconciliation,
    Totals,
    exemption_viewed,
    guia_printed,
    item_viewed,
    list_viewed,
    pending_exemption_requests,
    receipt_viewed,
    reconciliation,
    staff_items_query,
)
from portal.blueprints.billing.prices import (
    set_price,
)
from portal.blueprints.billing.settlement import (
    find_by_reference,
    flag_for_review,
    mark_paid_at_counter,
    refund_payment,
    resolve_flag,
    send_receipt_email,
    settle,
)
from portal.services.clock import local_today, tz

__all__ = [
    "BillingError",
    "GUIA_VALID_DAYS",
    "Reconciliation",
    "SETTLED_STATUSES",
    "SettlementListener",
    "Totals",
    "_luhn_digit",
    "add_note",
    "cancel_payment_item",
    "clean_reference",
    "close_exemption_requests",
    "close_online_sessions",
    "create_item_for_fee",
    "create_payment_item",
    "decide_exemption",
    "exemption_status_label",
    "exemption_viewed",
    "exemptions_for_item",
    "external_url",
    "fee_json",
    "find_by_reference",
    "flag_for_review",
    "get_item",
    "guia_due_date",
    "guia_printed",
    "is_responsible",
    "item_viewed",
    "items_of",
    "kind_label",
    "list_viewed",
    "local_today",
    "mark_paid_at_counter",
    "may_view",
    "method_label",
    "new_reference",
    "on_hold",
    "SUSPENDED_MESSAGE",
    "pay_url",
    "pending_exemption_requests",
    "price_label",
    "receipt_viewed",
    "reconciliation",
    "refund_payment",
    "request_exemption",
    "resolve_flag",
    "send_receipt_email",
    "set_price",
    "settle",
    "staff_items_query",
    "status_label",
    "transition",
    "tz",
]
