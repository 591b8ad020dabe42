"""Admin views. Unit values and holidays are administrator business; the dashboard is all staff."""

from __future__ import annotations

from dataclasses import replace

from flask import abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import roles_required, staff_required
from portal.blueprints.admin import bp
from portal.blueprints.admin.forms import (
    AuditFilterForm,
    HolidayForm,
    UnitValueForm,
    UserSearchForm,
)
from portal.blueprints.auth.freshness import recent_password
from portal.extensions import db
from portal.forms import EmptyForm
from portal.models import AuditEvent, MunicipalHoliday, Role, UnitValue, User
from portal.services import audit
from portal.services.money import parse_brl
from portal.services.people import find_people


@bp.get("/")
@staff_required
def dashboard():
    """The staff home ("Painel do CCZ"): one card per queue the person's roles may work."""
    from portal.workspace import registry, stats

    cards = [stats(queue) for queue in registry().for_user(current_user)]
    return render_template(
        "admin/dashboard.html",
        busy=[c for c in cards if c.count],
        empty=[c for c in cards if not c.count],
    )


@bp.route("/unidades", methods=["GET", "POST"])
@roles_required("admin")
def unit_values():
    form = UnitValueForm()
    if form.validate_on_submit():
        exists = db.session.scalar(
            select(UnitValue).where(
                UnitValue.unit == form.unit.data,
                UnitValue.effective_from == form.effective_from.data,
            )
        )
        if exists:
            form.effective_from.errors.append(_("Já há um valor desta unidade para esta data."))
        else:
            value = UnitValue(
                unit=form.unit.data,
                value_cents=parse_brl(form.value.data),
                effective_from=form.effective_from.data,
                note=form.note.data,
                created_by_id=current_user.id,
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
            db.session.commit()
            flash(_("Valor registrado."), "success")
            return redirect(url_for("admin.unit_values"))
    values = db.session.scalars(
        select(UnitValue).order_by(UnitValue.unit, UnitValue.effective_from.desc())
    ).all()
    return render_template("admin/unit_values.html", form=form, values=values)


@bp.route("/feriados", methods=["GET", "POST"])
@roles_required("admin")
def holidays():
    form = HolidayForm()
    if form.validate_on_submit():
        if db.session.scalar(select(MunicipalHoliday).where(MunicipalHoliday.day == form.day.data)):
            form.day.errors.append(_("Já há um feriado nesta data."))
        else:
            holiday = MunicipalHoliday(
                day=form.day.data,
                name=form.name.data,
                repeats_yearly=bool(form.repeats_yearly.data),
            )
            db.session.add(holiday)
            db.session.flush()
            audit.record(
                "holiday.created",
                holiday,
                detail={"day": holiday.day.isoformat(), "repeats_yearly": holiday.repeats_yearly},
            )
            db.session.commit()
            flash(_("Feriado municipal registrado."), "success")
            return redirect(url_for("admin.holidays"))
    days = db.session.scalars(select(MunicipalHoliday).order_by(MunicipalHoliday.day)).all()
    return render_template("admin/holidays.html", form=form, days=days)


@bp.route("/feriados/<int:holiday_id>/editar", methods=["GET", "POST"])
@roles_required("admin")
def holiday_edit(holiday_id: int):
    """Correct a municipal holiday's date or name, or mark it as repeating every year."""
    holiday = db.session.get(MunicipalHoliday, holiday_id) or abort(404)
    form = HolidayForm(obj=holiday)
    if form.validate_on_submit():
        clash = db.session.scalar(
            select(MunicipalHoliday).where(
                MunicipalHoliday.day == form.day.data, MunicipalHoliday.id != holiday.id
            )
        )
        if clash:
            form.day.errors.append(_("Já há um feriado nesta data."))
        else:
            holiday.day, holiday.name = form.day.data, form.name.data
            holiday.repeats_yearly = bool(form.repeats_yearly.data)
            audit.record(
                "holiday.updated",
                holiday,
                detail={"day": holiday.day.isoformat(), "repeats_yearly": holiday.repeats_yearly},
            )
            db.session.commit()
            flash(_("Feriado municipal alterado."), "success")
            return redirect(url_for("admin.holidays"))
    return render_template(
        "admin/holiday_edit.html", form=form, holiday=holiday, delete_form=EmptyForm()
    )


@bp.post("/feriados/<int:holiday_id>/excluir")
@roles_required("admin")
def holiday_delete(holiday_id: int):
    holiday = db.session.get(MunicipalHoliday, holiday_id) or abort(404)
    if EmptyForm().validate_on_submit():
        audit.record(
            "holiday.deleted",
            holiday,
            detail={"day": holiday.day.isoformat(), "name": holiday.name},
        )
        db.session.delete(holiday)
        db.session.commit()
        flash(_("Feriado municipal excluído."), "success")
    return redirect(url_for("admin.holidays"))


def current_profile_timezone() -> str:
    return current_app.extensions["portal_profile"].timezone


@bp.get("/auditoria")
@roles_required("admin", "coordinator")
def audit_log():
    """The trail, filtered by who, action, object and period, in words a person uses."""
    page = max(request.args.get("page", 1, type=int), 1)
    form = AuditFilterForm(request.args)
    events: list[AuditEvent] = []
    if not request.args or form.validate():
        query = audit.AuditQuery(
            who=(form.quem.data or "").strip() or None,
            action=form.acao.data or None,
            subject_type=form.tipo.data or None,
            since=form.de.data,
            until=form.ate.data,
        )
        if form.objeto.data:
            found = audit.find_subject(form.objeto.data)
            if found is None:
                form.objeto.errors = [_("Nenhum RGA, protocolo ou guia com esse número.")]
            query = replace(query, subject=found)
        if not form.objeto.errors:
            events = audit.find_events(query, current_profile_timezone(), page=page)
    older = {k: v for k, v in request.args.items() if k != "page"}
    return render_template(
        "admin/audit.html",
        events=events,
        page=page,
        form=form,
        names=audit.subject_names(events),
        older_url=url_for("admin.audit_log", page=page + 1, **older),
    )


@bp.route("/usuarios", methods=["GET", "POST"])
@roles_required("admin")
def users():
    """Find a person and manage their roles. Searching by CPF is a POST: no CPF in URLs or logs."""
    form = UserSearchForm()
    results: list[User] = []
    if form.validate_on_submit():
        results = find_people(form.q.data)
        audit.record("admin.user_search", detail={"results": len(results)})
        db.session.commit()
    staff = db.session.scalars(
        select(User)
        .join(User.role_links)
        .where(User.role_links.any())
        .distinct()
        .order_by(User.full_name)
        .limit(200)
    ).all()
    staff = [u for u in staff if u.is_staff or u.has_role("establishment", "ngo")]
    return render_template("admin/users.html", form=form, results=results, staff=staff)


@bp.route("/usuarios/<int:user_id>", methods=["GET", "POST"])
@roles_required("admin")
@recent_password
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
                audit.record(
                    "admin.roles_changed",
                    person,
                    detail={"before": before, "after": sorted(wanted), "active": person.active},
                )
                db.session.commit()
                flash(_("Papéis atualizados."), "success")
                return redirect(url_for("admin.user_detail", user_id=person.id))
    audit.record("admin.user_viewed", person)
    db.session.commit()
    from portal.forms import EmptyForm

    return render_template(
        "admin/user_detail.html", person=person, roles=list(Role), form=EmptyForm()
    )


@bp.post("/usuarios/<int:user_id>/verificacao/redefinir")
@roles_required("admin")
@recent_password
def reset_second_factor(user_id: int):
    """A staff member lost their phone and recovery codes: they enrol again at the next login."""
    from portal.forms import EmptyForm
    from portal.services import twofactor

    person = db.session.get(User, user_id) or abort(404)
    if EmptyForm().validate_on_submit():
        twofactor.reset(person)
        audit.record("admin.second_factor_reset", person)
        db.session.commit()
        flash(
            _(
                "Verificação em duas etapas redefinida: a pessoa vai cadastrar o aplicativo de "
                "novo no próximo acesso."
            ),
            "success",
        )
    return redirect(url_for("admin.user_detail", user_id=person.id))


@bp.get("/emails")
@roles_required("admin")
def outbox():
    """Sent, pending and failed e-mails (newest first): admins see what left and what did not."""
    from portal.models import OutboxMessage

    state = request.args.get("situacao", "")
    query = select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(200)
    if state == "enviados":
        query = query.where(OutboxMessage.sent_at.is_not(None))
    elif state == "falhas":
        query = query.where(OutboxMessage.sent_at.is_(None), OutboxMessage.attempts > 0)
    elif state == "pendentes":
        query = query.where(OutboxMessage.sent_at.is_(None))
    messages = db.session.scalars(query).all()
    audit.record("admin.outbox_viewed", detail={"rows": len(messages)})
    db.session.commit()
    return render_template("admin/outbox.html", messages=messages, state=state)
