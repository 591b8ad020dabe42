"""Bearer tokens for API clients: issue, verify, and the ``api_client`` route policy."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import current_app, g, jsonify, request
from flask_babel import gettext as _
from sqlalchemy import select

from portal.extensions import db
from portal.models.api_client import ApiClient
from portal.models.base import utcnow

F = TypeVar("F", bound=Callable[..., Any])


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_client(kind: str, name: str, user_id: int | None = None) -> tuple[ApiClient, str]:
    """Create a client and return it with its clear-text token (shown once, never stored)."""
    token = "ccz_" + secrets.token_urlsafe(32)
    client = ApiClient(
        kind=kind, name=name, token_hash=_digest(token), token_prefix=token[4:12], user_id=user_id
    )
    db.session.add(client)
    db.session.flush()
    return client, token


def client_for_request() -> ApiClient | None:
    header = request.headers.get("Authorization", "")
    scheme, _sep, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    client = db.session.scalar(
        select(ApiClient).where(ApiClient.token_hash == _digest(token.strip()))
    )
    if client is None or not client.active:
        return None
    return client


def client_for_token(token: str | None, kind: str) -> ApiClient | None:
    """The active client of ``kind`` holding ``token`` (Open311 sends it as ``api_key``)."""
    if not token or not token.strip():
        return None
    client = db.session.scalar(
        select(ApiClient).where(ApiClient.token_hash == _digest(token.strip()))
    )
    if client is None or not client.active or client.kind != kind:
        return None
    return client


def unauthorized_json():
    response = jsonify(
        errors=[
            {
                "field": None,
                "code": "unauthorized",
                "message": _("Token de API ausente ou inválido."),
            }
        ]
    )
    response.status_code = 401
    response.headers["WWW-Authenticate"] = 'Bearer realm="ccz"'
    return response


ApiClientGate = Callable[[ApiClient], "tuple[str, str] | None"]


def add_api_client_gate(app: Any, gate: ApiClientGate) -> None:
    """A domain's condition for a client to use the API at all (wired in ``create_app``):
    ``gate(client)`` returns None to let it through, or ``(code, message)`` for a 403."""
    app.extensions.setdefault("api_client_gates", []).append(gate)


def api_client(*kinds: str) -> Callable[[F], F]:
    """Route policy: a valid bearer token of one of ``kinds`` (any kind when none is given).

    The client is available as ``g.api_client``. Staff signed in through the browser are not API
    clients; endpoints that also serve staff declare that themselves.
    """

    def decorator(view: F) -> F:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            client = client_for_request()
            if client is None or (kinds and client.kind not in kinds):
                return unauthorized_json()
            for gate in current_app.extensions.get("api_client_gates", ()):
                refusal = gate(client)  # e.g. an establishment whose cadastro expired
                if refusal is not None:
                    code, message = refusal
                    return jsonify(errors=[{"field": None, "code": code, "message": message}]), 403
            client.last_used_at = utcnow()
            g.api_client = client
            return view(*args, **kwargs)

        wrapped.access_policy = "api:" + (",".join(kinds) or "any")  # type: ignore[attr-defined]
        return wrapped  # type: ignore[return-value]

    return decorator
