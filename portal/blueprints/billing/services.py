"""Payment items: the one place other domains create something to pay."""

from __future__ import annotations

import secrets

from flask import url_for
from sqlalchemy import select

from portal.extensions import db
from portal.models import PaymentEvent, PaymentItem, PaymentStatus, User


def _luhn_digit(digits: str) -> str:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2 == 0:
            n *= 2
            n = n - 9 if n > 9 else n
        total += n
    return str((10 - total % 10) % 10)


def new_reference() -> str:
    """A guia reference: 11 random digits plus a Luhn check digit, typed at the counter."""
    while True:
        body = f"{secrets.randbelow(10**11):011d}"
        reference = body + _luhn_digit(body)
        if db.session.scalar(select(PaymentItem.id).where(PaymentItem.reference == reference)) is None:
            return reference


def create_payment_item(*, kind: str, amount_cents: int, description: str, payer: User | None,
                        subject_type: str | None = None, subject_id: int | None = None,
                        breakdown: list[dict] | None = None,
                        api_client_id: int | None = None) -> PaymentItem:
    """Create a pending item (or an already-settled zero item when nothing is due)."""
    if amount_cents < 0:
        raise ValueError("amount_cents must not be negative")
    status = PaymentStatus.PENDING if amount_cents > 0 else PaymentStatus.EXEMPT
    item = PaymentItem(kind=kind, amount_cents=amount_cents, description=description,
                       payer_id=payer.id if payer else None, subject_type=subject_type,
                       subject_id=subject_id, breakdown=breakdown, api_client_id=api_client_id,
                       reference=new_reference(), status=status)
    item.events.append(PaymentEvent(from_status=None, to_status=status, note="created"))
    db.session.add(item)
    db.session.flush()
    return item


def pay_url(item: PaymentItem) -> str:
    return url_for("billing.my_payments", _external=True) + f"#pagamento-{item.id}"


def fee_json(item: PaymentItem) -> dict:
    """The shape API responses use for fees (issue #4)."""
    return {"id": item.id, "kind": item.kind, "amount_cents": item.amount_cents,
            "status": item.status, "pay_url": pay_url(item)}
