"""Impound and reclaim (issue 14; DOMAIN §6, §8, §12).

Modules: ``services`` (the rules), ``routes`` (public pages: "Animais recolhidos", "Perdi meu
animal", the owner's reclaim, the certidão and its public check), ``staff`` (the field capture
form, the kennel custody list, reclaim at the counter, release, destinations, certidão exams under
``/ccz/recolhimentos``), ``queues`` (what it adds to the staff workspace).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint
from flask.sansio.app import App


class _ImpoundBlueprint(Blueprint):
    def register(self, app: App, options: dict[str, Any]) -> None:
        super().register(app, options)
        _init()


def _init() -> None:
    from flask_babel import lazy_gettext as _l
    from flask_login import current_user

    from portal.access import STAFF
    from portal.blueprints.billing.services import register_settlement_listener
    from portal.blueprints.impound import services
    from portal.services.lgpd import register_exporter
    from portal.templating import register_admin_link, register_nav

    register_nav(_l("Animais recolhidos"), "impound.public_list", order=40)
    register_nav(
        _l("Perdi meu animal"),
        "impound.lost",
        order=41,
        visible=lambda: bool(current_user.is_authenticated),
    )
    register_admin_link(_l("Recolhimento: registrar captura"), "impound.staff_new", STAFF)
    register_admin_link(_l("Recolhimento: animais sob guarda"), "impound.staff_custody", STAFF)
    register_admin_link(_l("Certidões de captura: exames"), "impound.staff_certificates", STAFF)
    register_settlement_listener(services.on_item_settled)
    register_exporter("recolhimentos", services.export_personal_data)


bp = _ImpoundBlueprint("impound", __name__)

from portal.blueprints.impound import routes, staff  # noqa: E402,F401
