"""Admin views. Unit values and holidays are administrator business; the dashboard is all staff."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import roles_required, staff_required
from portal.blueprints.admin import bp
from portal.blueprints.admin.forms import HolidayForm, UnitValueForm
from portal.extensions import db
from portal.models import AuditEvent, MunicipalHoliday, UnitValue
from portal.services import audit
from portal.services.money import parse_brl


@bp.get("/")
@staff_required
def dashboard():
    return render_template("admin/dashboard.html")


@bp.route("/unidades", methods=["GET", "POST"])
@roles_required("admin")
def unit_values():
    form = UnitValueForm()
    if form.validate_on_submit():
        exists = db.session.scalar(select(UnitValue).where(
            UnitValue.unit == form.unit.data, UnitValue.effective_from == form.effective_from.data))
        if exists:
            form.effective_from.errors.append(_("Já há um valor desta unidade para esta data."))
        else:
            value = UnitValue(unit=form.unit.data, value_cents=parse_brl(form.value.data),
                              effective_from=form.effective_from.data, note=form.note.data,
                              created_by_id=current_user.id)
            db.session.add(value)
            db.session.flush()
            audit.record("unit_value.created", value,
                         detail={"unit": value.unit, "value_cents": value.value_cents,
                                 "effective_from": value.effective_from.isoformat()})
            db.session.commit()
            flash(_("Valor registrado."), "success")
            return redirect(url_for("admin.unit_values"))
    values = db.session.scalars(
        select(UnitValue).order_by(UnitValue.unit, UnitValue.effective_from.desc())).all()
    return render_template("admin/unit_values.html", form=form, values=values)


@bp.route("/feriados", methods=["GET", "POST"])
@roles_required("admin")
def holidays():
    form = HolidayForm()
    if form.validate_on_submit():
        if db.session.scalar(select(MunicipalHoliday).where(MunicipalHoliday.day == form.day.data)):
            form.day.errors.append(_("Já há um feriado nesta data."))
        else:
            holiday = MunicipalHoliday(day=form.day.data, name=form.name.data)
            db.session.add(holiday)
            db.session.flush()
            audit.record("holiday.created", holiday, detail={"day": holiday.day.isoformat()})
            db.session.commit()
            flash(_("Feriado municipal registrado."), "success")
            return redirect(url_for("admin.holidays"))
    days = db.session.scalars(select(MunicipalHoliday).order_by(MunicipalHoliday.day)).all()
    return render_template("admin/holidays.html", form=form, days=days)


@bp.get("/auditoria")
@roles_required("admin", "coordinator")
def audit_log():
    page = max(request.args.get("page", 1, type=int), 1)
    events = db.session.scalars(select(AuditEvent).order_by(AuditEvent.id.desc())
                                .limit(100).offset((page - 1) * 100)).all()
    return render_template("admin/audit.html", events=events, page=page)
