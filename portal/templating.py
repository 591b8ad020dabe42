"""Jinja filters and globals: money, masked CPF, dates in the profile's time zone."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from flask import Flask, current_app, request, url_for
from flask_babel import format_date, format_datetime, format_decimal, get_locale
from stdnum.br import cnpj as cnpj_lib

from portal.models.animal import sex_label, size_label, species_label
from portal.services.clock import current_profile, local_date
from portal.services.identity import mask_cpf
from portal.services.legal import legal_ref
from portal.services.money import format_brl
from portal.services.relative_days import days_ago, days_until
from portal.tables import stack_table
from portal.wiring import wiring


def _date(value: date | datetime | None, fmt: str = "dd/MM/yyyy") -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return format_datetime(value, "dd/MM/yyyy HH:mm")
    return format_date(value, fmt)


def _local_date(value: datetime | None) -> str:
    """The calendar day of an instant in the municipality (instants are stored in UTC)."""
    if value is None:
        return ""
    return format_date(local_date(value), "dd/MM/yyyy")


def _cnpj(cnpj: str | None) -> str:
    return cnpj_lib.format(cnpj) if cnpj else ""


def _number(value: float | int | Decimal | None, places: int | None = None) -> str:
    """A number in the visitor's locale ("12,5" in pt-BR, "12.5" in English), with at most
    ``places`` decimals (none shown when they are zero: "12 kg", not "12,0 kg")."""
    if value is None:
        return ""
    fmt = None if places is None else "#,##0." + "#" * places if places else "#,##0"
    return format_decimal(value, format=fmt)


def _role_label(role: str) -> str:
    from portal.models.user import role_label

    return role_label(role)


def _stripe_status(status: str | None) -> str:
    from portal.models.billing import stripe_status_label

    return stripe_status_label(status)


def _audit_action(action: str) -> str:
    from portal.services.audit import action_label

    return action_label(action)


def _audit_subject(event: Any, names: Any) -> str:
    from portal.services.audit import subject_name

    return subject_name(event, names)


def has_endpoint(endpoint: str) -> bool:
    """Whether a capability is installed: pages link to it only then (nothing promised that does
    not exist)."""
    return endpoint in current_app.view_functions


def nav_items() -> list[dict[str, Any]]:
    items = []
    for item in sorted(wiring().nav_items, key=lambda i: i.order):
        if item.endpoint in current_app.view_functions and (item.visible is None or item.visible()):
            items.append({"label": item.label, "url": url_for(item.endpoint)})
    return items


def admin_links() -> list[dict[str, Any]]:
    from flask_login import current_user

    return [
        {"label": link.label, "url": url_for(link.endpoint)}
        for link in wiring().admin_links
        if link.endpoint in current_app.view_functions and current_user.has_role(*link.roles)
    ]


def staff_header() -> bool:
    """Whether the page wears the staff header (staff navigation and the staff search, issue 25):
    a staff member on a page only staff may open. The same person on a citizen page (their own
    animals, the rules) gets the citizen menu, with a way back to the Área do CCZ."""
    from flask_login import current_user

    from portal.access import staff_only

    if not (current_user.is_authenticated and current_user.is_staff) or not request.endpoint:
        return False
    return staff_only(current_app.view_functions.get(request.endpoint))


def init_templating(app: Flask) -> None:
    app.jinja_env.globals["admin_links"] = admin_links
    app.jinja_env.globals["get_locale"] = get_locale
    app.jinja_env.globals["nav_items"] = nav_items
    app.jinja_env.filters["brl"] = lambda cents: format_brl(int(cents or 0))
    app.jinja_env.filters["stack_table"] = stack_table  # issue 25: tables as cards at 360 px
    app.jinja_env.filters["days_ago"] = days_ago  # "hoje", "ontem", "há 3 dias"
    app.jinja_env.filters["days_until"] = days_until  # "hoje", "amanhã", "em 3 dias"
    app.jinja_env.filters["legal_ref"] = legal_ref  # "plain words (GRU 10 V a)"
    app.jinja_env.filters["cpf_mask"] = mask_cpf
    app.jinja_env.filters["date"] = _date
    app.jinja_env.filters["number"] = _number
    app.jinja_env.filters["local_date"] = _local_date
    app.jinja_env.filters["cnpj_format"] = _cnpj
    app.jinja_env.filters["role_label"] = _role_label
    app.jinja_env.filters["species_label"] = species_label
    app.jinja_env.filters["sex_label"] = sex_label
    app.jinja_env.filters["size_label"] = size_label
    app.jinja_env.filters["audit_action"] = _audit_action
    app.jinja_env.filters["stripe_status"] = _stripe_status
    app.jinja_env.globals["audit_subject"] = _audit_subject
    app.jinja_env.globals["has_endpoint"] = has_endpoint
    app.jinja_env.add_extension("jinja2.ext.do")

    @app.context_processor
    def portal_globals():
        profile = current_profile()
        return {
            "profile": profile,
            "municipality": profile.municipality,
            "high_contrast": request.cookies.get("contraste") == "1",
            "staff_header": staff_header(),
            "dev_mailbox": current_app.config.get("DEV_MAILBOX", False),
            # Card, boleto and PIX exist only with Stripe keys; otherwise the guia at the counter.
            "online_payments": bool(current_app.config.get("STRIPE_SECRET_KEY")),
        }
