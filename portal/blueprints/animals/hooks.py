"""The RGA domain's demo data and the RGA found in the audit filter (wired, with the rest of what
the domain adds, by ``portal.blueprints.animals.init_app``)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from portal.blueprints.animals.common import AnimalData, VaccinationData
from portal.blueprints.animals.owners import update_owner_address
from portal.blueprints.animals.registration import RegistrationRequest, register_animal
from portal.blueprints.animals.rga import InvalidRgaNumber, normalise_rga
from portal.extensions import db
from portal.models import Animal, User
from portal.services.clock import current_profile, local_today


def seed_demo_animals() -> None:
    """Two animals for the demo citizen: an active dog with its vaccination, a cat awaiting the
    shot at the CCZ. Safe to run again (skipped when she already has animals)."""
    owner = db.session.scalar(select(User).where(User.email == "cidada@demo.ccz"))
    if owner is None or db.session.scalar(select(Animal.id).where(Animal.owner_id == owner.id)):
        return
    profile = current_profile()
    today = local_today(profile)
    if not owner.street:
        update_owner_address(
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
    thor = RegistrationRequest(
        owner=owner,
        registered_by=owner,
        profile=profile,
        today=today,
        charge_fee=False,
        data=AnimalData(
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
        vaccination=VaccinationData(
            applied_on=today - timedelta(days=30),
            vaccine_name="Rabisin",
            batch="L2026-001",
            manufacturer="Boehringer Ingelheim",
            vet_name="Dra. Paula Demo",
            vet_crmv="CRMV-SP 12345",
            establishment="Clínica Vet Demo",
        ),
    )
    mimi = RegistrationRequest(
        owner=owner,
        registered_by=owner,
        profile=profile,
        today=today,
        charge_fee=False,
        data=AnimalData(
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
    )
    register_animal(thor)
    register_animal(mimi)


def audit_subject(text: str) -> tuple[str, str] | None:
    """The animal whose RGA number a staff member typed in the audit filter (answers
    ``wiring.audit_subject_named``); None for text that is no RGA or no animal's."""
    try:
        rga = normalise_rga(text)
    except InvalidRgaNumber:
        return None
    if not rga:
        return None
    animal_id = db.session.scalar(select(Animal.id).where(Animal.rga == rga))
    return ("Animal", str(animal_id)) if animal_id else None
