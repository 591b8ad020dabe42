"""The city's price list (GRU 22; BJP 11, 28): amounts entered by staff from a date on."""

from __future__ import annotations

from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.billing.items import BillingError
from portal.extensions import db
from portal.models import (
    PriceOverride,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.fees import PRICE_KEYS

# ---------------------------------------------------------------------------------------------
# Price list (GRU 22; BJP 11, 28)
# ---------------------------------------------------------------------------------------------


def set_price(
    profile: Profile,
    key: str,
    *,
    amount_cents: int,
    effective_from: date,
    note: str | None,
    actor: User,
) -> PriceOverride:
    """Enter the city's amount for a line of its price list from a date on. Raises BillingError."""
    if key not in PRICE_KEYS or key not in profile.prices:
        raise BillingError(
            "key", "invalid", _("Este item não faz parte da tabela de preços prevista na lei.")
        )
    if amount_cents < 0:
        raise BillingError("amount", "invalid", _("O valor não pode ser negativo."))
    exists = db.session.scalar(
        select(PriceOverride).where(
            PriceOverride.profile_key == profile.key,
            PriceOverride.key == key,
            PriceOverride.effective_from == effective_from,
        )
    )
    if exists is not None:
        raise BillingError(
            "effective_from", "invalid", _("Já há um valor para este item com vigência nesta data.")
        )
    override = PriceOverride(
        profile_key=profile.key,
        key=key,
        amount_cents=amount_cents,
        effective_from=effective_from,
        note=(note or "").strip() or None,
        created_by_id=actor.id,
    )
    db.session.add(override)
    db.session.flush()
    audit.record(
        "price.set",
        override,
        detail={
            "key": key,
            "amount_cents": amount_cents,
            "effective_from": effective_from.isoformat(),
        },
        actor_id=actor.id,
    )
    return override
