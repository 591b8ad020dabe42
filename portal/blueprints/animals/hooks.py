"""How the RGA domain plugs into the portal: menu entry, staff tiles, LGPD export, demo data, the
billing settlement listener (a provisional RGA becomes definitive when its fee is settled) and the
citizen's to-do list."""

from __future__ import annotations

from datetime import timedelta

from flask import current_app
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from sqlalchemy import select

from portal.blueprints.animals import provisional, services
from portal.blueprints.animals.todo import animal_todo
from portal.blueprints.billing.services import register_settlement_listener
from portal.cli import register_demo_seeder
from portal.extensions import db
from portal.models import Animal, User
from portal.services.lgpd import register_exporter
from portal.services.todo import register_todo_provider
from portal.templating import register_admin_link, register_nav

STAFF = ("agent", "vet", "coordinator", "admin")

register_nav(
    _l("Meus animais"),
    "animals.my_animals",
    order=20,
    visible=lambda: bool(current_user.is_authenticated),
)
register_admin_link(
    _l("RGA: comprovantes a conferir e vacinações pendentes"), "animals.staff_pending", STAFF
)
register_admin_link(_l("RGA: buscar animal"), "animals.staff_search", STAFF)
register_admin_link(_l("RGA: segundas vias a emitir"), "animals.staff_copies", STAFF)
register_exporter("animais", services.export_animals)
register_settlement_listener(provisional.on_fee_settled)
register_todo_provider("animals", animal_todo)


@register_demo_seeder
def seed_demo_animals() -> None:
    """Two animals for the demo citizen: an active dog with its vaccination, a cat awaiting the
    shot at the CCZ. Safe to run again (skipped when she already has animals)."""
    owner = db.session.scalar(select(User).where(User.email == "cidada@demo.ccz"))
    if owner is None or db.session.scalar(select(Animal.id).where(Animal.owner_id == owner.id)):
        return
    profile = current_app.extensions["portal_profile"]
    today = services.local_today(profile)
    if not owner.street:
        services.update_owner_address(
            owner,
            cep="07010-000",
            street="Rua Dom Pedro II",
            number="120",
            complement=None,
            district="Centro",
            city=profile.municipality,
            state=profile.state,
            housing_type="house",
        )
    services.register_animal(
        owner=owner,
        data=services.AnimalData(
            name="Thor",
            species="dog",
            sex="male",
            birth_date=today - timedelta(days=400),
            breed="SRD",
            color="Caramelo",
            size="medium",
            weight_grams=14500,
            sterilized=True,
            microchip="985112000000001",
        ),
        vaccination=services.VaccinationData(
            applied_on=today - timedelta(days=30),
            vaccine_name="Rabisin",
            batch="L2026-001",
            manufacturer="Boehringer Ingelheim",
            vet_name="Dra. Paula Demo",
            vet_crmv="CRMV-SP 12345",
            establishment="Clínica Vet Demo",
        ),
        vaccinate_at_ccz=False,
        registered_by=owner,
        api_client=None,
        profile=profile,
        today=today,
        charge_fee=False,
    )
    services.register_animal(
        owner=owner,
        data=services.AnimalData(
            name="Mimi",
            species="cat",
            sex="female",
            birth_date=today - timedelta(days=110),
            birth_date_estimated=True,
            breed="SRD",
            color="Tricolor",
            size="small",
        ),
        vaccination=None,
        vaccinate_at_ccz=True,
        registered_by=owner,
        api_client=None,
        profile=profile,
        today=today,
        charge_fee=False,
    )
