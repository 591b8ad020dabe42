"""Issue 8: a sign-up nobody confirms is deleted a week later (``flask purge-unconfirmed``),
unless something is attached to it; audited by id only."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from portal.blueprints.account.purge import purge_unconfirmed
from portal.extensions import db
from portal.models import AuditEvent, User
from portal.models.base import utcnow
from tests import factories


def _pending(days_ago: float) -> User:
    since = utcnow() - timedelta(days=days_ago)
    return factories.user(
        activation_pending=True,
        email_confirmed_at=None,
        privacy_accepted_at=since,
        created_at=since,
    )


def _exists(user_id: int) -> bool:
    db.session.expire_all()
    return db.session.get(User, user_id) is not None


def test_unconfirmed_six_days_kept_eight_days_purged(app) -> None:
    young, old = _pending(6), _pending(8)
    young_id, old_id = young.id, old.id
    result = purge_unconfirmed(utcnow())
    assert result.purged == 1 and result.kept == {}
    assert _exists(young_id) and not _exists(old_id)
    events = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "account.unconfirmed_purged")
    ).all()
    assert [(e.subject_type, e.subject_id) for e in events] == [("User", str(old_id))]
    assert events[0].detail == {"days_pending": 8}  # no name, CPF or e-mail


def test_unconfirmed_with_an_animal_is_kept_and_says_why(app) -> None:
    owner = _pending(30)
    factories.animal(owner)  # e.g. an establishment registered it under the CPF (API)
    owner_id = owner.id
    result = purge_unconfirmed(utcnow())
    assert result.purged == 0 and result.kept == {owner_id: "animal"}
    assert _exists(owner_id)


def test_unconfirmed_with_a_payment_is_kept(app) -> None:
    payer = _pending(30)
    factories.make_item(payer)
    assert purge_unconfirmed(utcnow()).kept == {payer.id: "payment"}


def test_a_new_sign_up_restarts_the_week(app) -> None:
    # created 20 days ago, signed up again (same CPF or e-mail) 2 days ago: the new link counts
    person = factories.user(
        activation_pending=True,
        email_confirmed_at=None,
        created_at=utcnow() - timedelta(days=20),
        privacy_accepted_at=utcnow() - timedelta(days=2),
    )
    assert purge_unconfirmed(utcnow()).purged == 0 and _exists(person.id)


def test_confirmed_and_clinic_records_are_never_purged(app) -> None:
    old = utcnow() - timedelta(days=90)
    confirmed = factories.user(created_at=old, privacy_accepted_at=old)
    clinic_record = factories.user(password_hash=None, created_at=old, privacy_accepted_at=None)
    assert purge_unconfirmed(utcnow()).purged == 0
    assert _exists(confirmed.id) and _exists(clinic_record.id)


def test_purge_unconfirmed_command(app) -> None:
    stale = _pending(10)
    stale_id = stale.id
    kept = _pending(10)
    factories.animal(kept)
    result = app.test_cli_runner().invoke(args=["purge-unconfirmed"])
    assert result.exit_code == 0, result.output
    assert "Cadastros não confirmados excluídos: 1." in result.output
    assert f"Mantido: conta {kept.id} (tem animal registrado)." in result.output
    assert not _exists(stale_id)


def test_a_real_sign_up_left_unconfirmed_is_purged_after_a_week(app) -> None:
    from datetime import date

    from portal.blueprints.auth.services import register_citizen

    person = register_citizen(
        full_name="Quem Esqueceu",
        cpf=factories.make_cpf(9901),
        birth_date=date(1990, 1, 1),
        email="esqueceu@example.com",
        phone=None,
        password=factories.PASSWORD,
    )
    assert person is not None and person.activation_pending
    person_id = person.id
    assert purge_unconfirmed(utcnow() + timedelta(days=6)).purged == 0
    assert purge_unconfirmed(utcnow() + timedelta(days=8)).purged == 1
    assert not _exists(person_id)
