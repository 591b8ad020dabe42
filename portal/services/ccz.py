"""Where the citizen finds the CCZ in person: its address and opening hours, as the city confirmed
them. The deployment's ``CCZ_*`` settings come first (the city sets them without touching the law
profile), then the profile's ``[ccz]`` table; with neither, None, and the pages and e-mails send the
citizen to the Prefeitura instead of showing an address nobody confirmed (issue 25)."""

from __future__ import annotations

from flask import current_app
from flask_babel import gettext as _

from portal.profiles.schema import CczContact
from portal.services.clock import current_profile


def contact() -> CczContact | None:
    """The CCZ's confirmed name, address, district, hours and phone, or None."""
    config = current_app.config
    profile = current_profile()
    address, hours = config.get("CCZ_ADDRESS"), config.get("CCZ_HOURS")
    if address and hours:
        return CczContact(
            name=config.get("CCZ_NAME")
            or _("Centro de Controle de Zoonoses de %(city)s", city=profile.municipality),
            address=address,
            district=config.get("CCZ_DISTRICT") or f"{profile.municipality}/{profile.state}",
            hours=hours,
            phone=config.get("CCZ_PHONE") or None,
        )
    return profile.ccz
