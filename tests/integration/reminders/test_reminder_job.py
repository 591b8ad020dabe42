"""The daily reminder job: what it sends, once; what a person turned off; its windows' edges."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import func, select

from portal.extensions import db
from portal.models import OutboxMessage, Vaccination
from portal.models.reminder import ReminderDelivery, ReminderOptOut
from portal.reminders import run_reminders
from tests import factories

TODAY = date(2026, 12, 1)


def _vaccinated(owner, *, applied: date, next_due: date):
    animal = factories.animal(owner)
    db.session.add(
        Vaccination(
            animal=animal,
            vaccine_name="Raiva",
            batch="L1",
            applied_on=applied,
            next_due_on=next_due,
            vet_name="Dra. Ana",
            vet_crmv="SP-1",
        )
    )
    db.session.flush()
    return animal


def _outbox_to(email: str | None) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == email)))


def test_run_twice_sends_one_message(app) -> None:
    owner = factories.user()
    _vaccinated(owner, applied=TODAY - timedelta(days=340), next_due=TODAY + timedelta(days=25))
    db.session.commit()
    first = run_reminders(TODAY)
    second = run_reminders(TODAY)
    assert first.sent["vacina-antirrabica-a-vencer"] == 1
    assert second.total == 0 and second.already_sent == 1
    assert len(_outbox_to(owner.email)) == 1
    assert db.session.scalar(select(func.count()).select_from(ReminderDelivery)) == 1


def test_vaccine_window_is_30_days_inclusive(app) -> None:
    inside, outside = factories.user(), factories.user()
    _vaccinated(inside, applied=TODAY - timedelta(days=335), next_due=TODAY + timedelta(days=30))
    _vaccinated(outside, applied=TODAY - timedelta(days=334), next_due=TODAY + timedelta(days=31))
    db.session.commit()
    run_reminders(TODAY, only=["vacina-antirrabica-a-vencer"])
    assert len(_outbox_to(inside.email)) == 1
    assert _outbox_to(outside.email) == []


def test_a_newer_vaccination_supersedes_the_old_due_date(app) -> None:
    owner = factories.user()
    animal = _vaccinated(
        owner, applied=TODAY - timedelta(days=400), next_due=TODAY - timedelta(days=35)
    )
    db.session.add(
        Vaccination(
            animal=animal,
            vaccine_name="Raiva",
            batch="L2",
            applied_on=TODAY - timedelta(days=30),
            next_due_on=TODAY + timedelta(days=335),
            vet_name="Dra. Ana",
            vet_crmv="SP-1",
        )
    )
    db.session.commit()
    result = run_reminders(TODAY)
    assert result.sent["vacina-antirrabica-vencida"] == 0
    assert _outbox_to(owner.email) == []


def test_overdue_vaccine_is_reminded_once(app) -> None:
    owner = factories.user()
    _vaccinated(owner, applied=TODAY - timedelta(days=380), next_due=TODAY - timedelta(days=1))
    db.session.commit()
    assert run_reminders(TODAY).sent["vacina-antirrabica-vencida"] == 1
    assert run_reminders(TODAY + timedelta(days=1)).sent["vacina-antirrabica-vencida"] == 0


def test_a_person_can_turn_a_courtesy_reminder_off(app, client, auth) -> None:
    owner = factories.user()
    _vaccinated(owner, applied=TODAY - timedelta(days=340), next_due=TODAY + timedelta(days=10))
    db.session.commit()
    auth.login(owner)
    page = client.get("/conta/lembretes").get_data(as_text=True)
    assert "Vacina antirrábica a vencer" in page
    response = client.post("/conta/lembretes", data={"receber": ["vacina-antirrabica-vencida"]})
    assert response.status_code == 302
    assert (
        db.session.scalar(
            select(ReminderOptOut.reminder_key).where(ReminderOptOut.user_id == owner.id)
        )
        is not None
    )
    result = run_reminders(TODAY)
    assert result.skipped_opt_out == 1
    assert _outbox_to(owner.email) == []


def test_run_reminders_command_is_idempotent(app) -> None:
    owner = factories.user()
    _vaccinated(owner, applied=TODAY - timedelta(days=340), next_due=TODAY + timedelta(days=5))
    db.session.commit()
    runner = app.test_cli_runner()
    first = runner.invoke(args=["run-reminders", "--date", TODAY.isoformat()])
    second = runner.invoke(args=["run-reminders", "--date", TODAY.isoformat()])
    assert first.exit_code == 0, first.output
    assert "enviados 1" in first.output
    assert "enviados 0, já enviados antes 1" in second.output


def _declare_test_reminder(app, occurrences: list[str]) -> None:
    from portal.reminders import Reminder, ReminderMessage, registry

    def due(today: date) -> list[ReminderMessage]:
        return [
            ReminderMessage(key, "lembrete@example.com", f"Lembrete {key}", "Texto.")
            for key in occurrences
        ]

    registry().declare(Reminder("teste-lembrete", "Lembrete de teste", True, due))


def test_a_reminder_is_sent_once_across_runs_and_again_for_a_new_occurrence(app) -> None:
    occurrences = ["caso:1"]
    _declare_test_reminder(app, occurrences)
    first = run_reminders(TODAY, only=["teste-lembrete"])
    second = run_reminders(TODAY, only=["teste-lembrete"])
    occurrences.append("caso:2")
    third = run_reminders(TODAY + timedelta(days=1), only=["teste-lembrete"])
    assert first.sent["teste-lembrete"] == 1
    assert second.sent["teste-lembrete"] == 0 and second.already_sent == 1
    assert third.sent["teste-lembrete"] == 1 and third.already_sent == 1
    assert [m.subject for m in _outbox_to("lembrete@example.com")] == [
        "Lembrete caso:1",
        "Lembrete caso:2",
    ]


def test_the_job_looks_up_each_message_instead_of_loading_every_past_delivery(app) -> None:
    from sqlalchemy import event

    for n in range(30):  # years of past deliveries of this reminder
        db.session.add(ReminderDelivery(reminder_key="teste-lembrete", occurrence_key=f"velho:{n}"))
    db.session.flush()
    _declare_test_reminder(app, ["caso:novo"])
    statements: list[str] = []

    def seen(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", seen)
    try:
        result = run_reminders(TODAY, only=["teste-lembrete"])
    finally:
        event.remove(db.engine, "before_cursor_execute", seen)
    assert result.sent["teste-lembrete"] == 1
    reads = [
        s
        for s in statements
        if s.lstrip().upper().startswith("SELECT") and "reminder_delivery" in s
    ]
    assert reads and all("occurrence_key =" in s for s in reads), reads
