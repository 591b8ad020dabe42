"""Demo data of the sterilisation programme: the CCZ's surgical centre and a partner, surgery
days in the coming weeks, and the demo citizen's booking (idempotent: only when no site exists)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from portal.blueprints.sterilisation import services
from portal.extensions import db
from portal.models import SterilisationSite, User
from portal.services.clock import current_profile, local_today


def seed_sterilisation_demo() -> None:
    if db.session.scalar(select(SterilisationSite.id).limit(1)) is not None:
        return
    profile = current_profile()
    rule = services.rule_of(profile)
    today = local_today(profile)
    staff = db.session.scalar(select(User).where(User.email == "coord@demo.ccz"))
    citizen = db.session.scalar(select(User).where(User.email == "cidada@demo.ccz"))
    if staff is None or citizen is None:
        return
    ccz = services.save_site(
        None,
        services.SiteData(
            name="CCZ — Centro cirúrgico",
            partner_kind="ccz",
            address="Rua do CCZ, 100",
            district="Centro",
            instructions="Jejum de 8 horas de comida e 4 de água. Traga o animal na caixa de "
            "transporte ou na guia, às 7h30.",
        ),
        staff,
        profile=profile,
    )
    partner_kind = next((k for k in rule.partner_kinds if k != "ccz"), "ccz")
    partner = services.save_site(
        None,
        services.SiteData(
            name="Unidade móvel de castração",
            partner_kind=partner_kind,
            address="Praça da Matriz, s/n",
            district="Vila Galvão",
        ),
        staff,
        profile=profile,
    )
    for weeks, site, capacity in ((1, ccz, 20), (2, partner, 15), (3, ccz, 20)):
        services.add_slot(site, today + timedelta(weeks=weeks), capacity, staff, today=today)
    animals = services.bookable_animals(citizen)
    slots = services.open_slots(today)
    if animals and slots:
        services.request_booking(
            citizen,
            services.BookingRequest(animal=animals[0], slot=slots[0]),
            profile=profile,
            today=today,
        )
    db.session.flush()
