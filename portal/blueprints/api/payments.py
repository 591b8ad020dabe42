"""Payments in the API: ``GET /api/v1/payments/<id>``.

Readable with the bearer token of the API client that created the item
(``PaymentItem.api_client_id``) or by CCZ staff signed in through the browser. Any other token gets
404 (the item's existence is not confirmed); no token at all gets 401.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Literal, TypeVar

from flask import g, jsonify, request
from flask_babel import gettext as _
from flask_login import current_user
from pydantic import Field

from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error
from portal.blueprints.api.openapi import declare_endpoint
from portal.blueprints.api.schema import ResponseModel, Url, dump
from portal.blueprints.billing.services import get_item
from portal.extensions import db
from portal.models import PaymentItem
from portal.models.base import utcnow
from portal.services.api_auth import client_for_request, unauthorized_json

F = TypeVar("F", bound=Callable[..., Any])


def api_client_or_staff(view: F) -> F:
    """Route policy: a valid bearer token (``g.api_client``), or a signed-in staff session."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        g.api_client = None
        if request.headers.get("Authorization"):
            client = client_for_request()
            if client is None:
                return unauthorized_json()  # a token was sent and it is not valid
            client.last_used_at = utcnow()
            g.api_client = client
        elif not (current_user.is_authenticated and current_user.is_staff):
            return unauthorized_json()
        return view(*args, **kwargs)

    wrapped.access_policy = "api:any|staff"  # type: ignore[attr-defined]
    return wrapped  # type: ignore[return-value]


class Payment(ResponseModel):
    id: int
    kind: str = Field(examples=["registration"])
    amount_cents: int = Field(ge=0)
    currency: Literal["brl"]
    status: Literal["pending", "processing", "paid", "failed", "exempt", "refunded", "cancelled"]


class Fee(ResponseModel):
    """Cobrança criada junto com outro recurso (por exemplo, um registro)."""

    id: int
    kind: str
    amount_cents: int = Field(ge=0)
    status: str
    pay_url: Url


def payment_json(item: PaymentItem) -> dict[str, Any]:
    return {
        "id": item.id,
        "kind": item.kind,
        "amount_cents": item.amount_cents,
        "currency": item.currency,
        "status": item.status,
    }


@bp.get("/payments/<int:payment_id>")
@api_client_or_staff
def get_payment(payment_id: int):
    item = get_item(payment_id)
    client = g.api_client
    if item is None or (client is not None and item.api_client_id != client.id):
        raise ApiError([error(None, "not_found", _("Pagamento não encontrado."))], 404)
    if client is not None:
        db.session.commit()  # last_used_at
    return jsonify(dump(Payment, payment_json(item)))


declare_endpoint(
    "/payments/{id}",
    "get",
    auth="bearer_or_staff",
    summary="Situação de um pagamento",
    description="Com o token do cliente de API que criou a cobrança, ou por um servidor do CCZ "
    "com sessão aberta no portal.",
    path_params={"id": {"type": "integer"}},
    responses={
        200: (Payment, "O pagamento"),
        401: "Sem token ou token inválido",
        404: "Não encontrado (ou de outro cliente)",
    },
)
