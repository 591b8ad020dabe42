"""Admin views. Unit values and holidays are administrator business; the dashboard is all staff."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import func, or_, select

from portal.access import roles_required, staff_required
from portal.blueprints.admin import bp
from portal.blueprints.admin.forms import HolidayForm, UnitValueForm, UserSearchForm
from portal.extensions import db
from portal.models import AuditEvent, MunicipalHoliday, Role, UnitValue, User
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


@bp.route("/usuarios", methods=["GET", "POST"])
@roles_required("admin")
def users():
    """Find a person and manage their roles. Searching by CPF is a POST: no CPF in URLs or logs."""
    form = UserSearchForm()
    results: list[User] = []
    if form.validate_on_submit():
        term = form.q.data.strip()
        digits = "".join(ch for ch in term if ch.isdigit())
        conditions = [func.lower(User.full_name).contains(term.lower()),
                      func.lower(User.email).contains(term.lower())]
        if len(digits) == 11:
            conditions.append(User.cpf == digits)
        results = list(db.session.scalars(select(User).where(or_(*conditions))
                                          .order_by(User.full_name).limit(50)))
        audit.record("admin.user_search", detail={"results": len(results)})
        db.session.commit()
    staff = db.session.scalars(select(User).join(User.role_links).where(
        User.role_links.any()).distinct().order_by(User.full_name).limit(200)).all()
    staff = [u for u in staff if u.is_staff or u.has_role("establishment", "ngo")]
    return render_template("admin/users.html", form=form, results=results, staff=staff)


@bp.route("/usuarios/<int:user_id>", methods=["GET", "POST"])
@roles_required("admin")
def user_detail(user_id: int):
    person = db.session.get(User, user_id) or abort(404)
    if request.method == "POST":
        from portal.forms import EmptyForm

        if EmptyForm().validate_on_submit():
            wanted = {r.value for r in Role if request.form.get(f"role_{r.value}") == "y"}
            if person.id == current_user.id and "admin" not in wanted:
                flash(_("Você não pode retirar seu próprio papel de administrador."), "danger")
            else:
                before = sorted(person.roles)
                person.role_links = [link for link in person.role_links if link.role in wanted]
                for role in wanted:
                    person.add_role(role)
                person.active = request.form.get("active") == "y"
                audit.record("admin.roles_changed", person,
                             detail={"before": before, "after": sorted(wanted),
                                     "active": person.active})
                db.session.commit()
                flash(_("Papéis atualizados."), "success")
                return redirect(url_for("admin.user_detail", user_id=person.id))
    audit.record("admin.user_viewed", person)
    db.session.commit()
    from portal.forms import EmptyForm

    return render_template("admin/user_detail.html", person=person, roles=list(Role),
                           form=EmptyForm())
