"""Excess-animal licences (GRU 37 §1; BJP 17 §3-6; CAB 31 §1-2).

Modules: ``services`` (the rules, re-exported from ``common``, ``terms``, ``household`` (the
allowance the animals domain asks about), ``requests`` and ``decisions``), ``routes``
("Minhas licenças", a request, the PDF and the public check page; ``routes.wizard``, the
citizen's request in steps, kept as a server-side draft), ``progress`` (next step, who, by when),
``staff`` (the CCZ's queue, inspection and decisions under ``/ccz/licencas``;
``staff.household_reduction``, a residence's reduced limit, BJP 17 §1), ``documents`` (the PDF with
its QR code), ``queues``, ``reminders`` and ``todo`` (what it adds to the shared parts).

Where the law has no licence (CABO forbids more animals, VV sets no limit) the blueprint is not
registered at all: no page, no link, no menu entry.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask
from flask.sansio.app import App


def in_profile(app: App) -> bool:
    """True when the municipality's law has the licence (or the kennel laudo)."""
    return app.extensions["portal_profile"].licence is not None


def init_app(app: Flask) -> None:
    """Menu entry, staff tile, LGPD section, queues and reminders; nothing where the law has no
    licence (``portal.blueprints`` does not register the blueprint there either)."""
    from portal.blueprints.licences.labels import AUDIT_LABELS
    from portal.wiring import wiring

    wiring(app).audit_labels(AUDIT_LABELS)  # its audited actions in words
    if not in_profile(app):
        return  # CABO 33 §ú: forbidden above the limit; VV 2: no limit
    from flask_babel import lazy_gettext as _l

    from portal.access import STAFF, is_signed_in
    from portal.blueprints.licences import household, queues, reminders, todo
    from portal.wiring import wiring

    app.register_blueprint(bp)  # only here: no page, no link where the law has none
    wired = wiring(app)
    wired.nav(_l("Minhas licenças"), "licences.mine", order=22, visible=is_signed_in)
    wired.admin_link(_l("Licenças para mais animais"), "licences.staff_list", STAFF)
    wired.exporter("licencas", _export)
    wired.queues(queues.declare_queues)
    wired.reminders(reminders.declare_reminders)
    wired.todo("licences", todo.licence_todo)
    wired.household_allowance(household.household_allowance)  # GRU 37 §1 II; BJP 17 §5
    wired.registration_hold(household.rga_hold)
    if app.extensions["portal_profile"].household.agent_may_reduce:  # BJP 17 §1
        from portal.blueprints.licences import reduction

        wired.todo("household_reduction", reduction.reduction_todo)
        wired.household_reduction(reduction.reduced_limit)
        wired.file_rule(reduction.REPORT_PURPOSE, reduction.report_file_rule)


def _export(user: Any) -> list[dict[str, Any]]:
    """LGPD data download: the person's licence requests and licences."""
    from sqlalchemy import select

    from portal.extensions import db
    from portal.models import ExcessLicence

    found = db.session.scalars(
        select(ExcessLicence).where(ExcessLicence.holder_id == user.id).order_by(ExcessLicence.id)
    )
    return [
        {
            "pedido": lic.id,
            "codigo": lic.code,
            "situacao": lic.status,
            "endereco": lic.address_line,
            "animais_pedidos": lic.animals_requested,
            "animais_aprovados": lic.max_animals,
            "valida_de": lic.valid_from,
            "valida_ate": lic.valid_until,
            "pedido_em": lic.requested_on,
            "animais": [link.animal.rga for link in lic.animals],
        }
        for lic in found
    ]


bp = Blueprint("licences", __name__)

from portal.blueprints.licences import routes, staff  # noqa: E402,F401
