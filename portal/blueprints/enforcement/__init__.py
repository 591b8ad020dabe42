"""Enforcement (issue 13): notices, infractions, penalties, defence and appeals online.

Modules: ``services`` (the procedure's rules), ``routes`` (the addressee's "Minhas notificações"
and the public verification page), ``staff`` (agents issue, superiors decide, the dívida ativa
export), ``documents`` (PDFs with a QR code), ``queues``, ``reminders`` and ``hooks`` (to-do).
"""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("enforcement", __name__)


def init_enforcement(app: Flask) -> None:
    from flask_babel import lazy_gettext as _l

    from portal.access import STAFF
    from portal.templating import register_admin_link, register_nav

    register_nav(_l("Minhas notificações"), "enforcement.mine", order=60,
                 visible=_signed_in)
    register_admin_link(_l("Fiscalização: notificações e autos"), "enforcement.staff_list",
                        STAFF)
    app.jinja_env.globals["enforcement_label"] = _label


def _label(table: str, key: str | None) -> str:
    from portal.blueprints.enforcement import labels

    tables = {"kind": labels.KIND_LABELS, "status": labels.STATUS_LABELS,
              "service": labels.SERVICE_LABELS, "petition": labels.PETITION_LABELS,
              "petition_status": labels.PETITION_STATUS_LABELS,
              "fine": labels.FINE_STATUS_LABELS, "consequence": labels.CONSEQUENCE_LABELS}
    return labels.label(tables[table], key)


def _signed_in() -> bool:
    from flask_login import current_user

    return bool(current_user.is_authenticated)


from portal.blueprints.enforcement import hooks, routes, staff  # noqa: E402,F401
