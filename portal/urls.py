"""Absolute links for e-mails, PDFs, QR codes and API answers.

Every link that leaves the request (an e-mail, a printed card, a JSON answer stored by a clinic) is
built from ``PUBLIC_BASE_URL``, the address people outside reach, and never from the request's
``Host`` header: a forged ``Host`` would otherwise put an attacker's site in front of a valid
password-reset token. Production refuses to start without ``PUBLIC_BASE_URL``
(:class:`portal.config.ProductionConfig`); development falls back to the current request's host.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import current_app, has_request_context, request


def public_base_url() -> str:
    """``PUBLIC_BASE_URL`` without a trailing slash (the request's host only when unset: dev)."""
    base = current_app.config.get("PUBLIC_BASE_URL")
    if base:
        return str(base).rstrip("/")
    if has_request_context():
        return request.host_url.rstrip("/")
    return "http://localhost"


def absolute_url(endpoint: str, **values: Any) -> str:
    """The absolute URL of ``endpoint`` under :func:`public_base_url`, whatever the request."""
    parts = urlsplit(public_base_url())
    adapter = current_app.url_map.bind(
        parts.netloc, script_name=parts.path or "/", url_scheme=parts.scheme or "https"
    )
    current_app.inject_url_defaults(endpoint, values)
    anchor = values.pop("_anchor", None)
    url = adapter.build(endpoint, values, force_external=True)
    return f"{url}#{anchor}" if anchor else url
