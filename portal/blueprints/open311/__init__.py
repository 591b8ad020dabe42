"""Open311 GeoReport v2 for maus-tratos reports, JSON only.

* ``GET /open311/v2/services.json``: the profile's categories (the law's list of conducts).
* ``POST /open311/v2/requests.json``: form-encoded, as the spec says. ``media_url`` is ignored
  (photos only through the portal's own upload, which strips EXIF/GPS). An optional ``api_key`` is
  a token from ``flask --app portal create-api-client --kind open311``; without one the public rate
  limits of the web form apply. A contact (``email``, names, ``phone``) makes the report
  confidential; none makes it anonymous.
* ``GET /open311/v2/requests/<protocol>.json``: status and dates only, unless a signed-in CCZ staff
  member asks — a maus-tratos report names somebody's home. 404 for an unknown protocol.
* ``GET /open311/v2/requests.json``: lists nothing without staff rights.

Errors are the spec's ``[{"code": ..., "description": ...}]``: HTTP 400 for bad input, 403 for an
invalid ``api_key``, 404 and 429 likewise. The blueprint is CSRF-exempt: it changes nothing for a
signed-in browser (POST files a report exactly as the public form does, behind the same rate
limit).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.exceptions import HTTPException

from portal.access import public
from portal.blueprints.reports import STAFF_ROLES
from portal.blueprints.reports import services as svc
from portal.blueprints.reports.labels import category_label
from portal.blueprints.reports.routes import report_rate_limit
from portal.extensions import csrf, limiter
from portal.models import MaltreatmentReport
from portal.models.report import OPEN_STATES
from portal.services.api_auth import client_for_token
from portal.views import problems, run_service

bp = Blueprint("open311", __name__, url_prefix="/open311/v2")
csrf.exempt(bp)


def _errors(status: int, items: list[tuple[Any, str]]):  # type: ignore[no-untyped-def]
    response = jsonify([{"code": code, "description": description} for code, description in items])
    response.status_code = status
    return response


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException):  # type: ignore[no-untyped-def]
    status = error.code or 500
    messages = {
        404: _("Pedido não encontrado."),
        405: _("Método não permitido."),
        413: _("Conteúdo grande demais."),
        429: _("Muitas tentativas. Aguarde um pouco e tente de novo."),
    }
    return _errors(status, [(status, messages.get(status, _("Pedido inválido.")))])


def _is_staff() -> bool:
    return bool(current_user.is_authenticated and current_user.has_role(*STAFF_ROLES))


def _iso(value: datetime | None) -> str | None:
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _request_json(report: MaltreatmentReport, staff: bool) -> dict[str, Any]:
    profile = svc.current_profile()
    state = svc.public_state(report)
    updated = max(
        [report.updated_at]
        + ([report.merged_into.updated_at] if report.merged_into is not None else [])
    )
    item: dict[str, Any] = {
        "service_request_id": report.protocol,
        "status": "open" if state in OPEN_STATES else "closed",
        "service_code": report.category,
        "service_name": category_label(profile, report.category),
        "requested_datetime": _iso(report.created_at),
        "updated_datetime": _iso(updated),
    }
    if staff:  # staff only: the place and the facts (never the reporter, even here)
        item.update(
            {
                "description": report.description,
                "address": report.address_line or report.reference or None,
                "lat": report.lat,
                "long": report.lng,
                "agency_responsible": _(
                    "Centro de Controle de Zoonoses de %(city)s", city=profile.municipality
                ),
            }
        )
    return item


@bp.get("/services.json")
@public
def services():  # type: ignore[no-untyped-def]
    profile = svc.current_profile()
    return jsonify(
        [
            {
                "service_code": category.code,
                "service_name": category_label(profile, category.code),
                "description": _(
                    "Maus-tratos contra animais: %(label)s (%(article)s, %(law)s).",
                    label=category_label(profile, category.code),
                    article=category.article,
                    law=profile.law_title,
                ),
                "metadata": False,
                "type": "realtime",
                "keywords": "maus-tratos",
                "group": "maus-tratos",
            }
            for category in profile.reports.categories
        ]
    )


def _has_valid_key() -> bool:
    return client_for_token(request.form.get("api_key"), "open311") is not None


def _float(name: str, problems: list[tuple[Any, str]]) -> float | None:
    value = (request.form.get(name) or "").strip()
    if not value:
        return None
    try:
        return float(value)
    except ValueError:
        problems.append((400, _("%(field)s deve ser um número.", field=name)))
        return None


# Open311's names for the fields a report error concerns.
_OPEN311_FIELDS = {
    "category": "service_code",
    "street": "address_string",
    "lat": "lat",
    "email": "email",
    "name": "first_name",
}


@bp.post("/requests.json")
@public  # anyone, like the web form; an api_key only lifts the public rate limit
@limiter.limit(report_rate_limit, exempt_when=_has_valid_key)
def create_request():  # type: ignore[no-untyped-def]
    client = None
    if request.form.get("api_key"):
        client = client_for_token(request.form.get("api_key"), "open311")
        if client is None:
            return _errors(403, [(403, _("api_key inválida."))])
        client.last_used_at = datetime.now(UTC)
    data = _report_data()
    if not isinstance(data, svc.ReportData):
        return data  # the spec's 400
    profile = svc.current_profile()
    done = run_service(
        lambda: svc.create_report(
            profile, data, today=svc.local_today(profile), api_client=client, source="open311"
        ),
        show=False,
    )
    if done.value is None:
        assert done.error is not None
        return _errors(
            400,
            [
                (400, f"{_OPEN311_FIELDS.get(p.field or '', p.field)}: {p.message}")
                for p in problems(done.error)
            ],
        )
    report, code = done.value
    return jsonify([{"service_request_id": report.protocol, "token": code}])


def _report_data():  # type: ignore[no-untyped-def]
    """The form-encoded request as a report, or the spec's 400 answer."""
    form = request.form
    bad: list[tuple[Any, str]] = []
    lat, lng = _float("lat", bad), _float("long", bad)
    if bad:
        return _errors(400, bad)
    address = (form.get("address_string") or "").strip() or None
    if (lat is None) != (lng is None):
        return _errors(400, [(400, _("Envie lat e long juntos."))])
    if lat is None and address is None:
        return _errors(400, [(400, _("Informe lat e long ou address_string."))])
    name = " ".join(
        p
        for p in ((form.get("first_name") or "").strip(), (form.get("last_name") or "").strip())
        if p
    )
    email = (form.get("email") or "").strip() or None
    phone = (form.get("phone") or "").strip() or None
    confidential = bool(name or email or phone)
    return svc.ReportData(
        category=(form.get("service_code") or "").strip(),
        description=form.get("description") or "",
        street=address,
        lat=lat,
        lng=lng,
        identity="confidential" if confidential else "anonymous",
        name=(name or email or phone) if confidential else None,
        email=email,
        phone=phone,
    )


@bp.get("/requests.json")
@public  # the list is empty without staff rights (a report names somebody's home)
def list_requests():  # type: ignore[no-untyped-def]
    if not _is_staff():
        return jsonify([])
    profile = svc.current_profile()
    filters = svc.Filters(category=request.args.get("service_code") or None)
    reports = svc.queue("all", current_user, filters, profile, svc.local_today(profile), limit=100)
    status = request.args.get("status")
    items = [_request_json(r, staff=True) for r in reports]
    if status in ("open", "closed"):
        items = [i for i in items if i["status"] == status]
    return jsonify(items)


@bp.get("/requests/<protocol>.json")
@public  # status and dates for anyone; the facts only for CCZ staff
def show_request(protocol: str):  # type: ignore[no-untyped-def]
    report = svc.by_protocol(protocol)
    if report is None:
        return _errors(404, [(404, _("Pedido não encontrado."))])
    return jsonify([_request_json(report, staff=_is_staff())])
