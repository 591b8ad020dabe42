"""Shared helpers of the RGA rule tests (test_rga_*.py): a fixed day, the animal and vaccination
records a registration takes, a registration with defaults, and an app on another profile."""

from __future__ import annotations

from contextlib import contextmanager
from datetime import date, timedelta

from portal.blueprints.animals import services
from portal.models import Animal

TODAY = date(2026, 3, 16)


@contextmanager
def profile(make_app, key: str):
    app = make_app(PORTAL_PROFILE=key)
    with app.app_context(), app.test_request_context():
        yield app.extensions["portal_profile"]


def data(**fields) -> services.AnimalData:
    defaults = dict(
        name="Rex",
        species="dog",
        sex="male",
        birth_date=TODAY - timedelta(days=120),
        breed="SRD",
        color="Caramelo",
        size="medium",
    )
    defaults.update(fields)
    return services.AnimalData(**defaults)


def vaccine(**fields) -> services.VaccinationData:
    defaults = dict(
        applied_on=TODAY - timedelta(days=10),
        vaccine_name="Rabisin",
        batch="L1",
        vet_name="Dra. Ana",
        vet_crmv="crmv sp 1234",
    )
    defaults.update(fields)
    return services.VaccinationData(**defaults)


def register(
    owner, prof, *, today=TODAY, vaccination="default", at_ccz=False, client=None, **fields
) -> Animal:
    return services.register_animal(
        owner=owner,
        data=data(**fields),
        vaccination=vaccine() if vaccination == "default" else vaccination,
        vaccinate_at_ccz=at_ccz,
        registered_by=None if client else owner,
        api_client=client,
        profile=prof,
        today=today,
    )
