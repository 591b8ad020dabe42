"""Small factories: valid people and data with unique CPFs and e-mails."""

from __future__ import annotations

import itertools
from datetime import date

from stdnum.br import cpf as cpf_lib

from portal.blueprints.auth.services import hash_password
from portal.extensions import db
from portal.models import User
from portal.models.base import utcnow

PASSWORD = "senha-forte-123"
_counter = itertools.count(1)
_hash_cache: dict[str, str] = {}


def make_cpf(n: int) -> str:
    """A valid CPF built from ``n`` (check digits computed by python-stdnum)."""
    base = f"{(n * 7919 + 100000000) % 1000000000:09d}"
    if len(set(base)) == 1:
        base = "123456780"
    for _ in range(2):  # the two CPF check digits (mod 11); python-stdnum validates the result
        weights = range(len(base) + 1, 1, -1)
        digit = (11 - sum(int(d) * w for d, w in zip(base, weights, strict=True)) % 11) % 11
        base += str(digit % 10)
    assert cpf_lib.is_valid(base)
    return base


def _hash(password: str) -> str:
    if password not in _hash_cache:
        _hash_cache[password] = hash_password(password)
    return _hash_cache[password]


def user(*, roles: tuple[str, ...] = ("citizen",), password: str = PASSWORD, **fields: object) -> User:
    n = next(_counter)
    defaults: dict[str, object] = {
        "full_name": f"Pessoa Teste {n}",
        "cpf": make_cpf(n),
        "email": f"pessoa{n}@example.com",
        "birth_date": date(1990, 1, 1),
        "phone": "11 99999-0000",
        "password_hash": _hash(password),
        "email_confirmed_at": utcnow(),
        "privacy_accepted_at": utcnow(),
        "cep": "07000000",
        "street": "Rua das Flores",
        "number": str(n),
        "district": "Centro",
        "city": "Guarulhos",
        "state": "SP",
        "housing_type": "house",
    }
    defaults.update(fields)
    person = User(**defaults)  # type: ignore[arg-type]
    for role in roles:
        person.add_role(role)
    db.session.add(person)
    db.session.flush()
    return person


def animal(owner: User, *, species: str = "dog", status: str = "active",
           birth_date: date | None = None, **fields: object):  # type: ignore[no-untyped-def]
    """An RGA registration inserted directly (no rules, no fee): for tests of other domains that
    need existing animals. The number comes from the real counter, so it is valid and unique."""
    from datetime import timedelta

    from portal.blueprints.animals.services import issue_rga, owner_residence_key
    from portal.models import Animal

    today = date.today()
    defaults: dict[str, object] = {
        "name": f"Animal {next(_counter)}", "sex": "male", "breed": "SRD", "color": "Preto",
        "size": "small", "registered_on": today,
        "birth_date": birth_date or today - timedelta(days=365),
    }
    defaults.update(fields)
    pet = Animal(rga=issue_rga(species, today), species=species, status=status, owner=owner,
                 residence_key=owner_residence_key(owner) or f"sem-endereco-{owner.id}",
                 **defaults)  # type: ignore[arg-type]
    db.session.add(pet)
    db.session.flush()
    return pet
