"""Excess-animal licences (issue 11; DOMAIN §4; GRU 37 §1; BJP 17 §3-6; CAB 31 §1-2).

Modules: ``services`` (the rules, including the household allowance the animals domain asks
about), ``routes`` (the citizen's request, "Minhas licenças", the PDF and the public check page),
``staff`` (the CCZ's queue, inspection and decisions under ``/ccz/licencas``), ``documents`` (the
PDF with its QR code), ``queues`` and ``reminders`` (what it adds to the shared parts).

Where the law has no licence (CABO forbids more animals, VV sets no limit) the blueprint is not
registered at all: no page, no link, no menu entry.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask.sansio.app import App


def in_profile(app: App) -> bool:
    """True when the municipality's law has the licence (or the kennel laudo)."""
    return app.extensions["portal_profile"].licence is not None


class _LicenceBlueprint(Blueprint):
    def register(self, app: App, options: dict[str, Any]) -> None:
        if not in_profile(app):
            return  # CABO 33 §ú: forbidden above the limit; VV 2: no limit
        super().register(app, options)
        _init(app)


def _init(app: App) -> None:
    from flask_babel import lazy_gettext as _l

    from portal.access import STAFF
    from portal.services.lgpd import register_exporter
    from portal.templating import register_admin_link, register_nav

    register_nav(_l("Minhas licenças"), "licences.mine", order=22, visible=_signed_in)
    register_admin_link(_l("Licenças para mais animais"), "licences.staff_list", STAFF)
    register_exporter("licencas", _export)


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


def _signed_in() -> bool:
    from flask_login import current_user

    return bool(current_user.is_authenticated)


bp = _LicenceBlueprint("licences", __name__)

from portal.blueprints.licences import routes, staff  # noqa: E402,F401
