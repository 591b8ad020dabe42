"""The staff area's rules: who holds which role and whether an account may sign in; the unit
values and municipal holidays administrators keep.

Services flush, never commit, audit what they change and raise :class:`AdminError`."""

from __future__ import annotations

from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.auth import sessions
from portal.domain import DomainError
from portal.extensions import db
from portal.models import MunicipalHoliday, Role, UnitValue, User
from portal.services import audit


class AdminError(DomainError):
    pass


def change_roles(person: User, actor: User, wanted: set[str], *, active: bool) -> None:
    """Give ``person`` exactly the ``wanted`` roles and set whether the account may sign in.

    An administrator cannot take the administrator role away from themself (someone must always
    be able to manage roles)."""
    wanted = {role for role in wanted if role in {r.value for r in Role}}
    if person.id == actor.id and Role.ADMIN.value not in wanted:
        raise AdminError(
            "role_admin",
            "own_admin_role",
            _("Você não pode retirar seu próprio papel de administrador."),
        )
    before = sorted(person.roles)
    was_active = person.active
    person.role_links = [link for link in person.role_links if link.role in wanted]
    for role in wanted:
        person.add_role(role)
    person.active = active
    if sorted(person.roles) != before or person.active != was_active:
        # Issue 26 M3: sessions opened under the old roles end; the person signs in again (a
        # new staff role: with the second factor).
        sessions.end_all(person)
    audit.record(
        "admin.roles_changed",
        person,
        detail={"before": before, "after": sorted(wanted), "active": person.active},
    )
    db.session.flush()


def reset_second_factor(person: User) -> None:
    """A staff member lost their phone and recovery codes: they enrol again at the next login."""
    from portal.services import twofactor

    twofactor.reset(person)
    # A lost phone may be a stolen one: every session it had signed in ends with it, so the
    # person enrols again at the next login on every device.
    sessions.end_all(person)
    audit.record("admin.second_factor_reset", person)


def view_user(person: User) -> None:
    """An administrator opened a person's page: a view of personal data, audited."""
    audit.record("admin.user_viewed", person)


def add_unit_value(
    unit: str, value_cents: int, effective_from: date, note: str | None, actor: User
) -> UnitValue:
    """A new value of a unit (UFM, UFG, minimum wage) from ``effective_from`` on; one per date."""
    exists = db.session.scalar(
        select(UnitValue.id).where(
            UnitValue.unit == unit, UnitValue.effective_from == effective_from
        )
    )
    if exists is not None:
        raise AdminError(
            "effective_from",
            "duplicate_date",
            _("Já há um valor desta unidade para esta data."),
        )
    value = UnitValue(
        unit=unit,
        value_cents=value_cents,
        effective_from=effective_from,
        note=note,
        created_by_id=actor.id,
    )
    db.session.add(value)
    db.session.flush()
    audit.record(
        "unit_value.created",
        value,
        detail={
            "unit": value.unit,
            "value_cents": value.value_cents,
            "effective_from": value.effective_from.isoformat(),
        },
    )
    return value


def save_holiday(
    holiday: MunicipalHoliday | None, day: date, name: str, *, repeats_yearly: bool
) -> MunicipalHoliday:
    """Create (``holiday`` None) or correct a municipal holiday; one per date."""
    clash = select(MunicipalHoliday.id).where(MunicipalHoliday.day == day)
    if holiday is not None:
        clash = clash.where(MunicipalHoliday.id != holiday.id)
    if db.session.scalar(clash) is not None:
        raise AdminError("day", "duplicate_day", _("Já há um feriado nesta data."))
    created = holiday is None
    if holiday is None:
        holiday = MunicipalHoliday(day=day, name=name, repeats_yearly=repeats_yearly)
        db.session.add(holiday)
    else:
        holiday.day, holiday.name, holiday.repeats_yearly = day, name, repeats_yearly
    db.session.flush()
    audit.record(
        "holiday.created" if created else "holiday.updated",
        holiday,
        detail={"day": holiday.day.isoformat(), "repeats_yearly": holiday.repeats_yearly},
    )
    return holiday


def delete_holiday(holiday: MunicipalHoliday) -> None:
    audit.record(
        "holiday.deleted",
        holiday,
        detail={"day": holiday.day.isoformat(), "name": holiday.name},
    )
    db.session.delete(holiday)
    db.session.flush()
