"""JSON API v1 for establishments, NGOs and the city's systems.

Routes live in one module per domain (registrations, payments, listings, licences, certificates).
Bodies are pydantic models (:mod:`portal.blueprints.api.schema`); each module declares its
operations with :func:`portal.blueprints.api.openapi.declare_endpoint`, and the OpenAPI document is
generated from those models. Errors are always ``{"errors": [{"field", "code", "message"}]}`` with
4xx, never a 500 page.
"""

from flask import Blueprint

from portal.extensions import csrf

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)  # bearer tokens, no cookies: CSRF does not apply

from portal.blueprints.api import (
    certificates,  # noqa: E402,F401
    licences,  # noqa: E402,F401
    listings,  # noqa: E402,F401
    openapi,  # noqa: E402,F401
    payments,  # noqa: E402,F401
    registrations,  # noqa: E402,F401
)
