"""Two registrations at the same instant never get the same RGA number (GRU 14 §4; BJP 4), never
both pass the household limit (GRU 37) and a double submission registers the animal once.

Only PostgreSQL runs transactions truly in parallel; SQLite serialises every writer, so the race
cannot happen there and the test would only measure lock timeouts.
"""

from __future__ import annotations

import os
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from portal.blueprints.animals import services
from portal.blueprints.animals.household import household_count
from portal.blueprints.animals.rga import parse_rga
from portal.extensions import db
from portal.models import Animal, RgaCounter, User
from portal.services.api_auth import issue_client
from tests import factories

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"),
        reason="needs PostgreSQL: SQLite serialises all writers, so there is no race to test",
    ),
    pytest.mark.real_commits,  # threads on their own connections must see each other's commits
]


def _run_together(count: int, work) -> list:
    barrier = threading.Barrier(count)
    results: list = [None] * count
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    return results


def test_concurrent_issue_rga_never_repeats_a_number(app) -> None:
    today = services.local_today()

    def issue(_i: int) -> list[str]:
        numbers = []
        with app.app_context():
            for _ in range(5):
                numbers.append(services.issue_rga("dog", today))
                db.session.commit()
        return numbers

    numbers = [n for batch in _run_together(12, issue) for n in batch]
    assert len(numbers) == len(set(numbers)) == 60
    assert sorted(parse_rga(n).sequence for n in numbers) == list(range(1, 61))
    counter = db.session.get(RgaCounter, ("dog", today.year))
    db.session.refresh(counter)
    assert counter.last_value == 60


def test_concurrent_api_registrations_get_distinct_numbers(app) -> None:
    _client, token = issue_client("establishment", "Clínica Paralela")
    db.session.commit()
    today = services.local_today()
    birth = (today - timedelta(days=150)).isoformat()

    def register(i: int) -> tuple[int, dict]:
        body = {
            "animal": {
                "name": f"Gêmeo {i}",
                "species": "dog",
                "sex": "male",
                "breed": "SRD",
                "color": "Preto",
                "birth_date": birth,
                "size": "small",
            },
            "owner": {
                "name": f"Dono {i}",
                "cpf": factories.make_cpf(50_000 + i),
                "email": f"dono{i}@paralelo.example",
                "address": {
                    "cep": "07000000",
                    "street": "Rua Paralela",
                    "number": str(i),
                    "district": "Centro",
                    "city": "Guarulhos",
                    "state": "SP",
                },
            },
            "vaccinate_at_ccz": True,
        }
        with app.app_context():
            response = app.test_client().post(
                "/api/v1/registrations", json=body, headers={"Authorization": f"Bearer {token}"}
            )
            return response.status_code, response.get_json()

    results = _run_together(10, register)
    assert [status for status, _body in results] == [201] * 10, results
    numbers = [body["rga"] for _status, body in results]
    assert len(set(numbers)) == 10
    assert db.session.scalar(select(func.count(Animal.id))) == 10


def _register_in_thread(app, owner_id: int, **fields):  # type: ignore[no-untyped-def]
    """One registration in its own app context (its own connection), committed; the refusal is
    returned instead of raised."""
    with app.app_context():
        owner = db.session.get(User, owner_id)
        try:
            animal = factories.registered_animal(
                owner,
                app.extensions["portal_profile"],
                data=factories.rga_data(**fields),
                guard_resubmission=True,
            )
        except services.AnimalError as err:
            db.session.rollback()
            return err
        db.session.commit()
        return animal.rga


def test_gru_37_two_registrations_at_one_residence_at_once_never_pass_the_limit(app) -> None:
    # GRU 37: at most 5 dogs and cats older than 120 days per residence. Four live there; two
    # people of the household register a fifth and a sixth adult dog at the same instant. Counted
    # one after the other, the first is the fifth (accepted) and the second would be the sixth.
    first = factories.user()
    second = factories.user(
        cep=first.cep, street=first.street, number=first.number, complement=first.complement
    )
    factories.fill_household(first, 4, on=factories.RGA_TODAY)
    db.session.commit()
    adult = factories.RGA_TODAY - timedelta(days=400)
    owners = [first.id, second.id]
    results = _run_together(
        2, lambda i: _register_in_thread(app, owners[i], name=f"Novo {i}", birth_date=adult)
    )
    refused = [r for r in results if isinstance(r, services.HouseholdLimitExceeded)]
    assert len(refused) == 1 and refused[0].code == "household_limit", results
    key = services.owner_residence_key(first)
    db.session.expire_all()
    assert household_count(key, factories.RGA_TODAY, app.extensions["portal_profile"]) == 5


def test_a_double_tap_on_confirm_registers_the_animal_once(app) -> None:
    # The same wizard form sent twice at the same instant: one RGA, and the second submission
    # is answered with the animal the first one created (GRU 14 §4: one number per animal).
    owner = factories.user()
    db.session.commit()
    owner_id = owner.id
    results = _run_together(2, lambda _i: _register_in_thread(app, owner_id, name="Duplo"))
    numbers = [r for r in results if isinstance(r, str)]
    again = [r for r in results if isinstance(r, services.AlreadyRegistered)]
    assert len(numbers) == 1 and len(again) == 1, results
    assert numbers[0] in again[0].message
    assert db.session.scalar(select(func.count(Animal.id)).where(Animal.owner_id == owner_id)) == 1
