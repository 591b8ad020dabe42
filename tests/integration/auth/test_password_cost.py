"""Password hashing cost. The suite hashes with the cheapest argon2 (TestingConfig), every other
configuration with argon2-cffi's default cost, and a hash made at another cost is redone at the
configured one on the next sign-in (so a cheap hash could never survive in production)."""

from __future__ import annotations

from argon2 import PasswordHasher, extract_parameters

from portal.blueprints.auth import services
from portal.config import Config, DevelopmentConfig, ProductionConfig, TestingConfig
from portal.extensions import db
from tests import factories

DEFAULT = PasswordHasher()


def _cost(hashed: str) -> tuple[int, int, int]:
    params = extract_parameters(hashed)
    return params.time_cost, params.memory_cost, params.parallelism


def test_only_the_test_configuration_lowers_the_hashing_cost() -> None:
    assert Config.PASSWORD_HASH_COST is None
    assert DevelopmentConfig.PASSWORD_HASH_COST is None
    assert ProductionConfig.PASSWORD_HASH_COST is None
    assert TestingConfig.PASSWORD_HASH_COST == (1, 8, 1)


def test_without_a_configured_cost_passwords_are_hashed_at_argon2s_default_cost(make_app) -> None:
    app = make_app(PASSWORD_HASH_COST=None)
    with app.app_context():
        hashed = services.hash_password(factories.PASSWORD)
    assert _cost(hashed) == (DEFAULT.time_cost, DEFAULT.memory_cost, DEFAULT.parallelism)
    assert _cost(hashed) != TestingConfig.PASSWORD_HASH_COST


def test_the_test_configuration_hashes_at_its_own_cost(app) -> None:
    assert _cost(services.hash_password(factories.PASSWORD)) == (1, 8, 1)


def test_a_cheap_hash_is_redone_at_the_default_cost_on_the_next_sign_in(make_app) -> None:
    app = make_app(PASSWORD_HASH_COST=None)
    with app.app_context():
        cheap = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1).hash(factories.PASSWORD)
        person = factories.user(password_hash=cheap)
        db.session.commit()
        assert person.email is not None
        assert services.authenticate(person.email, factories.PASSWORD) is person
        assert person.password_hash is not None
        assert _cost(person.password_hash) == (
            DEFAULT.time_cost,
            DEFAULT.memory_cost,
            DEFAULT.parallelism,
        )
