"""Public check of an excess-animal licence (GRU 37 §1; BJP 17 §3):
``GET /api/v1/licences/<code>``, no token.

Answers the municipality, the status (``valid``, ``expired``, ``cancelled``), the term and the cap;
nothing about the holder or the residence. 404 for an unknown code (or a request never approved).
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from flask import jsonify
from flask_babel import gettext as _
from sqlalchemy import select

from portal.access import public
from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error
from portal.blueprints.api.openapi import declare_endpoint
from portal.blueprints.api.schema import ResponseModel, dump
from portal.extensions import db
from portal.models import ExcessLicence
from portal.services.clock import current_profile, local_today


class LicenceCheck(ResponseModel):
    municipality: str
    status: Literal["valid", "expired", "cancelled"]
    valid_from: date | None
    valid_until: date | None
    max_animals: int | None


@bp.get("/licences/<code>")
@public
def licence_check(code: str):
    from portal.blueprints.licences import services

    profile = current_profile()
    licence = None
    if profile.licence is not None:
        licence = db.session.scalar(
            select(ExcessLicence).where(ExcessLicence.code == services.normalise_code(code))
        )
    status = services.public_status(licence, local_today()) if licence is not None else None
    if licence is None or status is None:
        raise ApiError([error("code", "not_found", _("Licença não encontrada."))], 404)
    return jsonify(
        dump(
            LicenceCheck,
            dict(
                municipality=profile.municipality,
                status=status,
                valid_from=licence.valid_from,
                valid_until=licence.valid_until,
                max_animals=licence.max_animals,
            ),
        )
    )


declare_endpoint(
    "/licences/{code}",
    "get",
    auth="public",
    summary="Public check of an excess-animal licence (GRU 37 §1; BJP 17 §3; CAB 31 §2)",
    responses={200: (LicenceCheck, "The licence"), 404: "Unknown code"},
)
