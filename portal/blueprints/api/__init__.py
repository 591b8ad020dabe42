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


def with_routes() -> Blueprint:
    """The blueprint with every module's endpoints on it (``portal.blueprints`` registers it).

    The route modules import ``bp`` from here, so they are loaded by this call, not at the bottom
    of this module; a new API module is one more name in this import."""
    from portal.blueprints.api import (  # noqa: F401
        certificates,
        licences,
        listings,
        openapi,
        payments,
        registrations,
    )

    return bp
