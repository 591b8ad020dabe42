"""The Open311 GeoReport v2 endpoints (what each answers is in the package's docstring and in
docs/open311.md): discovery, the services, and the requests filed and read."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask import current_app, jsonify, request
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import public
from portal.blueprints.open311 import answer_errors, bp
from portal.blueprints.reports import STAFF_ROLES
from portal.blueprints.reports import services as svc
from portal.blueprints.reports.labels import category_label
from portal.blueprints.reports.routes import report_rate_limit
from portal.extensions import limiter
from portal.models import MaltreatmentReport
from portal.models.report import OPEN_STATES
from portal.services.api_auth import client_for_token
from portal.urls import absolute_url
from portal.views import problems, run_service


def _is_staff() -> bool:
    return bool(current_user.is_authenticated and current_user.has_role(*STAFF_ROLES))


def read_rate_limit() -> str:
    """The GETs' limit per address: enough for an app polling its own requests, too little to
    walk the protocol numbers (issue 26 #5)."""
    return str(current_app.config.get("OPEN311_READ_RATE_LIMIT", "30/minute;300/hour"))


# One budget for both GETs (the list and one request): alternating them does not double it.
_read_limit = limiter.shared_limit(read_rate_limit, scope="open311-read", exempt_when=_is_staff)


def _public(report: MaltreatmentReport) -> bool:
    """Whether the profile lets Open311 show this report's status to anyone (see the docstring)."""
    profile = svc.current_profile()
    return profile.reports.open311_visibility(report.category) == "status"


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
def services():
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
    "phone": "phone",
    "description": "description",
}


@bp.post("/requests.json")
@public  # anyone, like the web form; an api_key only lifts the public rate limit
@limiter.limit(report_rate_limit, exempt_when=_has_valid_key)
def create_request():
    client = None
    if request.form.get("api_key"):
        client = client_for_token(request.form.get("api_key"), "open311")
        if client is None:
            return answer_errors(403, [(403, _("api_key inválida."))])
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
        return answer_errors(
            400,
            [
                (400, f"{_OPEN311_FIELDS.get(p.field or '', p.field)}: {p.message}")
                for p in problems(done.error)
            ],
        )
    report, code = done.value
    return jsonify([{"service_request_id": report.protocol, "token": code}])


def _report_data():
    """The form-encoded request as a report, or the spec's 400 answer."""
    form = request.form
    bad: list[tuple[Any, str]] = []
    lat, lng = _float("lat", bad), _float("long", bad)
    if bad:
        return answer_errors(400, bad)
    address = (form.get("address_string") or "").strip() or None
    if (lat is None) != (lng is None):
        return answer_errors(400, [(400, _("Envie lat e long juntos."))])
    if lat is None and address is None:
        return answer_errors(400, [(400, _("Informe lat e long ou address_string."))])
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
        # Without a name, the contact's e-mail or phone names it (cut to the name's width: the
        # e-mail or phone itself is still checked against its own limit).
        name=(name or (email or phone or "")[: svc.TEXT_LIMITS["name"]]) if confidential else None,
        email=email,
        phone=phone,
    )


@bp.get("/requests.json")
@public  # staff: every report; anyone else: the categories the profile makes public, status only
@_read_limit
def list_requests():
    staff = _is_staff()
    profile = svc.current_profile()
    filters = svc.Filters(category=request.args.get("service_code") or None)
    reports = svc.queue("all", current_user, filters, profile, svc.local_today(profile), limit=100)
    status = request.args.get("status")
    items = [_request_json(r, staff=staff) for r in reports if staff or _public(r)]
    if status in ("open", "closed"):
        items = [i for i in items if i["status"] == status]
    return jsonify(items)


@bp.get("/requests/<protocol>.json")
@public  # what the profile makes public of its category; the facts only for CCZ staff
@_read_limit
def show_request(protocol: str):
    report = svc.by_protocol(protocol)
    staff = _is_staff()
    # A category the profile keeps private answers exactly like a protocol that does not exist.
    if report is None or not (staff or _public(report)):
        return answer_errors(404, [(404, _("Pedido não encontrado."))])
    return jsonify([_request_json(report, staff=staff)])


@bp.get("/discovery.json")
@public
def discovery():
    """GeoReport v2 discovery: where the endpoints are and where they are documented."""
    profile = svc.current_profile()
    return jsonify(
        {
            "changeset": "2026-12-03T00:00:00Z",
            "contact": _("Centro de Controle de Zoonoses de %(city)s", city=profile.municipality),
            "key_service": _(
                "Chaves (api_key) são emitidas pelo CCZ; sem chave valem os limites do "
                "formulário público."
            ),
            "endpoints": [
                {
                    "specification": "http://wiki.open311.org/GeoReport_v2",
                    "url": absolute_url("open311.services").rsplit("/", 1)[0],
                    "changeset": "2026-12-03T00:00:00Z",
                    "type": "production",
                    "formats": ["application/json"],
                }
            ],
            "documentation": _(
                "Denúncias de maus-tratos. Um pedido de categoria reservada responde 404 a "
                "quem não é da equipe do CCZ; as categorias públicas mostram só categoria, "
                "datas e situação. Consultas limitadas por endereço."
            ),
        }
    )
