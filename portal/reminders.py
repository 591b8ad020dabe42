"""The daily reminder job: each domain declares its reminders; one job sends them, once each.

``flask --app portal run-reminders`` is meant for cron or a systemd timer (``docs/DEPLOY.md``).
It is safe to run twice a day: every (reminder, occurrence) is delivered at most once, recorded
in ``reminder_delivery`` with the e-mail it sent. A courtesy reminder (a vaccine coming due) can be
turned off by the person at ``/conta/lembretes``; a legal notice (a deadline that runs against
them) cannot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import click
from flask import Flask, current_app
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from portal.extensions import db
from portal.models import User
from portal.models.reminder import ReminderDelivery, ReminderOptOut
from portal.services import audit
from portal.services.mail import send_email


@dataclass(frozen=True)
class ReminderMessage:
    """One e-mail a reminder wants sent today, about one occurrence."""

    occurrence_key: str
    to: str
    subject: str
    body: str
    user_id: int | None = None


@dataclass(frozen=True)
class Reminder:
    key: str
    label: Any  # shown on the preferences page
    courtesy: bool  # True: the person may turn it off; False: a legal notice
    due: Callable[[date], Iterable[ReminderMessage]]


@dataclass
class ReminderRegistry:
    reminders: dict[str, Reminder] = field(default_factory=dict)

    def declare(self, reminder: Reminder) -> None:
        if reminder.key in self.reminders:
            raise ValueError(f"reminder {reminder.key!r} declared twice")
        self.reminders[reminder.key] = reminder

    def courtesy(self) -> list[Reminder]:
        return [r for r in self.reminders.values() if r.courtesy]


@dataclass
class RunResult:
    sent: dict[str, int] = field(default_factory=dict)
    skipped_opt_out: int = 0
    already_sent: int = 0

    @property
    def total(self) -> int:
        return sum(self.sent.values())


def registry() -> ReminderRegistry:
    return current_app.extensions["reminders"]


def save_preferences(user: User, wanted: set[str]) -> None:
    """The courtesy reminders ``user`` wants; every other courtesy reminder is turned off (legal
    notices are never listed, so never turned off)."""
    courtesy = registry().courtesy()
    db.session.execute(delete(ReminderOptOut).where(ReminderOptOut.user_id == user.id))
    for reminder in courtesy:
        if reminder.key not in wanted:
            db.session.add(ReminderOptOut(user_id=user.id, reminder_key=reminder.key))
    audit.record(
        "reminders.preferences_changed",
        user,
        detail={"off": sorted(r.key for r in courtesy if r.key not in wanted)},
    )


def _opted_out(reminder_key: str) -> set[int]:
    return set(
        db.session.scalars(
            select(ReminderOptOut.user_id).where(ReminderOptOut.reminder_key == reminder_key)
        )
    )


def _already_sent(reminder_key: str, occurrence_key: str) -> bool:
    """One indexed lookup per message (the unique constraint's index), so a run costs what today's
    messages cost, not what years of past deliveries would."""
    found = db.session.scalar(
        select(ReminderDelivery.id)
        .where(
            ReminderDelivery.reminder_key == reminder_key,
            ReminderDelivery.occurrence_key == occurrence_key,
        )
        .limit(1)
    )
    return found is not None


def run_reminders(today: date, *, only: Sequence[str] = ()) -> RunResult:
    """Send what every declared reminder has due ``today``, each occurrence once; commits."""
    result = RunResult()
    for reminder in registry().reminders.values():
        if only and reminder.key not in only:
            continue
        opted_out = _opted_out(reminder.key) if reminder.courtesy else set()
        result.sent.setdefault(reminder.key, 0)
        for message in reminder.due(today):
            if _already_sent(reminder.key, message.occurrence_key):
                result.already_sent += 1
                continue
            if message.user_id is not None and message.user_id in opted_out:
                result.skipped_opt_out += 1
                continue
            try:
                with db.session.begin_nested():  # a concurrent run may have just sent it
                    delivery = ReminderDelivery(
                        reminder_key=reminder.key,
                        occurrence_key=message.occurrence_key,
                        user_id=message.user_id,
                    )
                    db.session.add(delivery)
                    db.session.flush()
            except IntegrityError:
                result.already_sent += 1
                continue
            outbox = send_email(message.to, message.subject, message.body)
            delivery.outbox_message_id = outbox.id
            result.sent[reminder.key] += 1
        db.session.commit()
    return result


@click.command("run-reminders")
@click.option("--date", "on", default=None, help="Run as if today were this date (AAAA-MM-DD).")
def run_reminders_command(on: str | None) -> None:
    """Send today's reminders (safe to run more than once a day)."""
    from portal.services.clock import local_today

    today = date.fromisoformat(on) if on else local_today()
    result = run_reminders(today)
    from portal.services.mail import deliver_committed

    deliver_committed()  # development sends at once; production's send-mail picks them up
    for key, count in result.sent.items():
        click.echo(f"{key}: {count}")
    click.echo(
        f"enviados {result.total}, já enviados antes {result.already_sent}, "
        f"desligados pela pessoa {result.skipped_opt_out}"
    )


def init_reminders(app: Flask, declarers: Sequence[Callable[[ReminderRegistry], None]]) -> None:
    reminders = ReminderRegistry()
    for declare in declarers:
        declare(reminders)
    app.extensions["reminders"] = reminders
    app.cli.add_command(run_reminders_command)
