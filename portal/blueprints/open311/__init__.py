"""Open311 GeoReport v2 for maus-tratos reports, JSON only (documented in docs/open311.md).

* ``GET /open311/v2/discovery.json``: the endpoints and the documentation (GeoReport v2 discovery).
* ``GET /open311/v2/services.json``: the profile's categories (the law's list of conducts).
* ``POST /open311/v2/requests.json``: form-encoded, as the spec says. ``media_url`` is ignored
  (photos only through the portal's own upload, which strips EXIF/GPS). An optional ``api_key`` is
  a token from ``flask --app portal create-api-client --kind open311``; without one the public rate
  limits of the web form apply. A contact (``email``, names, ``phone``) makes the report
  confidential; none makes it anonymous. Every field has the web form's length limit (the same
  ``reports.intake.validate``): longer input is a 400, never a database error.
* ``GET /open311/v2/requests/<protocol>.json`` and ``GET /open311/v2/requests.json``: what anyone
  but CCZ staff reads is decided per category by the profile (``reports.open311_public`` and each
  category's ``open311``): ``none`` answers 404 exactly as for an unknown protocol and leaves the
  report out of the list (a maus-tratos report usually names somebody's home); ``status`` gives the
  category, dates and open/closed only. Signed-in CCZ staff also get the place and the facts (never
  the reporter). Both GETs are rate-limited per address (``OPEN311_READ_RATE_LIMIT``); staff are
  exempt.

Errors are the spec's ``[{"code": ..., "description": ...}]``: HTTP 400 for bad input, 403 for an
invalid ``api_key``, 404 and 429 likewise. The blueprint is CSRF-exempt: it changes nothing for a
signed-in browser (POST files a report exactly as the public form does, behind the same rate
limit).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, jsonify
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from portal.errors import with_allow
from portal.extensions import csrf
from portal.wiring import wiring

bp = Blueprint("open311", __name__, url_prefix="/open311/v2")
csrf.exempt(bp)


def answer_errors(status: int, items: list[tuple[Any, str]]):
    """The spec's error answer: ``[{"code", "description"}]`` with ``status``."""
    response = jsonify([{"code": code, "description": description} for code, description in items])
    response.status_code = status
    return response


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException):
    status = error.code or 500
    messages = {
        404: _("Pedido não encontrado."),
        405: _("Método não permitido."),
        413: _("Conteúdo grande demais."),
        429: _("Muitas tentativas. Aguarde um pouco e tente de novo."),
    }
    answer = answer_errors(status, [(status, messages.get(status, _("Pedido inválido.")))])
    return with_allow(answer, error)  # a 405 names the accepted methods


def init_app(app: Flask) -> None:
    # A URL under /open311/ that matched no rule (404, 405) never reaches the handler above: the
    # portal's error handler answers it in the spec's format too (portal.errors).
    wiring(app).error_answer("/open311/", _http_error)


# the endpoints (routes.py) and the OpenAPI document that describes them (spec.py, issue 26 #12)
from portal.blueprints.open311 import routes, spec  # noqa: E402,F401
