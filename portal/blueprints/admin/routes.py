"""Admin views. Unit values and holidays are administrator business; the dashboard is all staff."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import roles_required, staff_required
from portal.blueprints.admin import bp, services
from portal.blueprints.admin.forms import (
    AuditFilterForm,
    HolidayForm,
    RolesForm,
    UnitValueForm,
    UserSearchForm,
)
from portal.blueprints.auth.freshness import recent_password
from portal.extensions import db
from portal.forms import EmptyForm
from portal.models import AuditEvent, MunicipalHoliday, Role, UnitValue, User
from portal.services import audit
from portal.services.clock import current_profile
from portal.services.money import parse_brl
from portal.services.people import find_people
from portal.views import requested_page, run_service


@bp.get("/")
@staff_required
def dashboard():
    """The staff home ("Painel do CCZ"): one card per queue the person's roles may work."""
    from portal.workspace import registry, stats

    queues = registry().for_user(current_user)
    cards = [stats(queue) for queue in queues if queue.acts(current_user)]
    mine = [c for c in cards if c.queue.key.startswith("minhas-")]  # shown even when empty
    cards = [c for c in cards if c not in mine]
    return render_template(
        "admin/dashboard.html",
        mine=mine,
        busy=[c for c in cards if c.count],
        empty=[c for c in cards if not c.count],
        watch_only=[q for q in queues if not q.acts(current_user)],
    )


@bp.route("/unidades", methods=["GET", "POST"])
@roles_required("admin")
def unit_values():
    form = UnitValueForm()
    if form.validate_on_submit():
        done = run_service(
            lambda: services.add_unit_value(
                form.unit.data,
                parse_brl(form.value.data),
                form.effective_from.data,
                form.note.data,
                current_user,
            ),
            form=form,
            success=_("Valor registrado."),
        )
        if done.ok:
            return redirect(url_for("admin.unit_values"))
    values = db.session.scalars(
        select(UnitValue).order_by(UnitValue.unit, UnitValue.effective_from.desc())
    ).all()
    return render_template("admin/unit_values.html", form=form, values=values)


@bp.route("/feriados", methods=["GET", "POST"])
@roles_required("admin")
def holidays():
    form = HolidayForm()
    if form.validate_on_submit() and _save_holiday(None, form, _("Feriado municipal registrado.")):
        return redirect(url_for("admin.holidays"))
    days = db.session.scalars(select(MunicipalHoliday).order_by(MunicipalHoliday.day)).all()
    return render_template("admin/holidays.html", form=form, days=days)


@bp.route("/feriados/<int:holiday_id>/editar", methods=["GET", "POST"])
@roles_required("admin")
def holiday_edit(holiday_id: int):
    """Correct a municipal holiday's date or name, or mark it as repeating every year."""
    holiday = db.session.get(MunicipalHoliday, holiday_id) or abort(404)
    form = HolidayForm(obj=holiday)
    if form.validate_on_submit() and _save_holiday(holiday, form, _("Feriado municipal alterado.")):
        return redirect(url_for("admin.holidays"))
    return render_template(
        "admin/holiday_edit.html", form=form, holiday=holiday, delete_form=EmptyForm()
    )


def _save_holiday(holiday: MunicipalHoliday | None, form: HolidayForm, success: str) -> bool:
    return run_service(
        lambda: services.save_holiday(
            holiday,
            form.day.data,
            form.name.data,
            repeats_yearly=bool(form.repeats_yearly.data),
        ),
        form=form,
        success=success,
    ).ok


@bp.post("/feriados/<int:holiday_id>/excluir")
@roles_required("admin")
def holiday_delete(holiday_id: int):
    holiday = db.session.get(MunicipalHoliday, holiday_id) or abort(404)
    if EmptyForm().validate_on_submit():
        run_service(
            lambda: services.delete_holiday(holiday), success=_("Feriado municipal excluído.")
        )
    return redirect(url_for("admin.holidays"))


def current_profile_timezone() -> str:
    return current_profile().timezone


@bp.get("/auditoria")
@roles_required("admin", "coordinator")
def audit_log():
    """The trail, filtered by who, action, object and period, in words a person uses."""
    page = requested_page()
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
    older: dict[str, Any] = {k: v for k, v in request.args.items() if k != "page"}
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
    form = RolesForm()
    if form.validate_on_submit():
        done = run_service(
            lambda: services.change_roles(
                person, current_user, form.wanted_roles(), active=form.active.data
            ),
            success=_("Papéis atualizados."),
        )
        if done.ok:
            return redirect(url_for("admin.user_detail", user_id=person.id))
    services.view_user(person)
    db.session.commit()
    return render_template("admin/user_detail.html", person=person, roles=list(Role), form=form)


@bp.post("/usuarios/<int:user_id>/verificacao/redefinir")
@roles_required("admin")
@recent_password
def reset_second_factor(user_id: int):
    """A staff member lost their phone and recovery codes: they enrol again at the next login."""
    person = db.session.get(User, user_id) or abort(404)
    if EmptyForm().validate_on_submit():
        services.reset_second_factor(person)
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
