"""The CCZ's side under ``/ccz/castracao``: the sites and their surgery days, the day's list with
the outcome of each animal, and the year's count. A day's list shows people's names and animals:
opening it is audited."""

from __future__ import annotations

from flask import abort, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import func, select

from portal.access import STAFF, roles_required
from portal.blueprints.sterilisation import bp, services, target
from portal.blueprints.sterilisation.forms import (
    CancelForm,
    CapacityForm,
    EstimateForm,
    OutcomeForm,
    SiteForm,
    SlotForm,
)
from portal.extensions import db
from portal.forms import EmptyForm, choices
from portal.models import (
    BookingStatus,
    SterilisationBooking,
    SterilisationSite,
    SterilisationSlot,
)
from portal.services import audit
from portal.services.clock import current_profile, local_today
from portal.views import run_service

# Who opens sites and surgery days: the programme's coordination and its veterinarians.
MANAGERS = ("vet", "coordinator", "admin")


def _get(model: type, object_id: int):
    found = db.session.get(model, object_id)
    if found is None:
        abort(404)
    return found


def _site_form(site: SterilisationSite | None = None) -> SiteForm:
    form = SiteForm(obj=site)
    rule = services.rule_of(current_profile())
    form.partner_kind.choices = choices((k, services.partner_label(k)) for k in rule.partner_kinds)
    return form


def _slot_form() -> SlotForm:
    form = SlotForm()
    form.site.choices = choices(
        [("", _("Escolha"))] + [(str(s.id), s.name) for s in services.active_sites()]
    )
    return form


def _site_data(form: SiteForm) -> services.SiteData:
    return services.SiteData(
        name=form.name.data or "",
        partner_kind=form.partner_kind.data or "",
        address=form.address.data or "",
        district=form.district.data or "",
        phone=form.phone.data,
        instructions=form.instructions.data,
    )


def _overview(
    site_form: SiteForm | None = None,
    slot_form: SlotForm | None = None,
    estimate_form: EstimateForm | None = None,
) -> str:
    profile = current_profile()
    rule = services.rule_of(profile)
    today = local_today()
    slots = db.session.scalars(
        select(SterilisationSlot)
        .where(SterilisationSlot.day >= today)
        .order_by(SterilisationSlot.day, SterilisationSlot.id)
    ).all()
    pending = db.session.scalars(
        select(SterilisationSlot)
        .join(SterilisationBooking)
        .where(SterilisationSlot.day < today, SterilisationBooking.status == BookingStatus.BOOKED)
        .distinct()
        .order_by(SterilisationSlot.day)
    ).all()
    waiting = db.session.scalar(
        select(func.count(SterilisationBooking.id)).where(
            SterilisationBooking.status == BookingStatus.WAITLISTED
        )
    )
    waitlist = db.session.scalars(
        select(SterilisationBooking)
        .where(SterilisationBooking.status == BookingStatus.WAITLISTED)
        .order_by(SterilisationBooking.created_at, SterilisationBooking.id)
        .limit(50)
    ).all()
    sites = db.session.scalars(
        select(SterilisationSite).order_by(SterilisationSite.active.desc(), SterilisationSite.name)
    ).all()
    return render_template(
        "sterilisation/staff_overview.html",
        rule=rule,
        sites=sites,
        slots=slots,
        pending=pending,
        waiting=waiting,
        waitlist=waitlist,
        year=today.year,
        year_count=services.year_count(today.year),
        targets=target.history(profile, today),  # VV 10 §1; empty where the law sets none
        estimate_form=estimate_form or EstimateForm(formdata=None, year=today.year),
        site_form=site_form or _site_form(),
        slot_form=slot_form or _slot_form(),
        cancel_form=CancelForm(),
        toggle_form=EmptyForm(),
        partner_label=services.partner_label,
        managers=MANAGERS,
    )


@bp.get("/ccz/castracao")
@roles_required(*STAFF)
def staff_overview():
    return _overview()


@bp.post("/ccz/castracao/locais")
@roles_required(*MANAGERS)
def staff_add_site():
    form = _site_form()
    if form.validate_on_submit():
        outcome = run_service(
            lambda: services.save_site(
                None,
                _site_data(form),
                current_user._get_current_object(),
                profile=current_profile(),
            ),
            form=form,
            success=_("Local cadastrado."),
        )
        if outcome.ok:
            return redirect(url_for("sterilisation.staff_overview"))
    return _overview(site_form=form)


@bp.route("/ccz/castracao/locais/<int:site_id>", methods=["GET", "POST"])
@roles_required(*MANAGERS)
def staff_site(site_id: int):
    site = _get(SterilisationSite, site_id)
    form = _site_form(site)
    if form.validate_on_submit():
        outcome = run_service(
            lambda: services.save_site(
                site,
                _site_data(form),
                current_user._get_current_object(),
                profile=current_profile(),
            ),
            form=form,
            success=_("Local atualizado."),
        )
        if outcome.ok:
            return redirect(url_for("sterilisation.staff_overview"))
    return render_template("sterilisation/staff_site.html", site=site, form=form)


@bp.post("/ccz/castracao/locais/<int:site_id>/situacao")
@roles_required(*MANAGERS)
def staff_site_active(site_id: int):
    site = _get(SterilisationSite, site_id)
    if EmptyForm().validate_on_submit():
        run_service(
            lambda: services.set_site_active(site, not site.active, today=local_today()),
            success=_("Local reativado.") if not site.active else _("Local desativado."),
        )
    return redirect(url_for("sterilisation.staff_overview"))


@bp.post("/ccz/castracao/dias")
@roles_required(*MANAGERS)
def staff_add_slot():
    form = _slot_form()
    if form.validate_on_submit():
        site = _get(SterilisationSite, int(form.site.data))
        outcome = run_service(
            lambda: services.add_slot(
                site,
                form.day.data,
                form.capacity.data,
                current_user._get_current_object(),
                today=local_today(),
            ),
            form=form,
            success=lambda slot: _(
                "Dia aberto com %(capacity)d vaga(s); %(taken)d já preenchida(s) pela fila.",
                capacity=slot.capacity,
                taken=slot.taken,
            ),
        )
        if outcome.ok:
            return redirect(url_for("sterilisation.staff_overview"))
    return _overview(slot_form=form)


@bp.get("/ccz/castracao/dias/<int:slot_id>")
@roles_required(*STAFF)
def staff_slot(slot_id: int):
    slot = _get(SterilisationSlot, slot_id)
    audit.record("sterilisation.day_viewed", slot)
    db.session.commit()
    return _day(slot)


def _day(
    slot: SterilisationSlot,
    outcome_form: OutcomeForm | None = None,
    failed: int | None = None,
    capacity_form: CapacityForm | None = None,
) -> str:
    return render_template(
        "sterilisation/staff_slot.html",
        slot=slot,
        today=local_today(),
        outcome_form=outcome_form,
        failed=failed,
        blank=OutcomeForm(formdata=None),
        capacity_form=capacity_form or CapacityForm(capacity=slot.capacity),
        cancel_form=CancelForm(),
        status_label=services.status_label,
        managers=MANAGERS,
    )


@bp.post("/ccz/castracao/dias/<int:slot_id>/vagas")
@roles_required(*MANAGERS)
def staff_capacity(slot_id: int):
    slot = _get(SterilisationSlot, slot_id)
    form = CapacityForm()
    if form.validate_on_submit():
        outcome = run_service(
            lambda: services.change_capacity(slot, form.capacity.data, today=local_today()),
            form=form,
            success=_("Vagas alteradas."),
        )
        if outcome.ok:
            return redirect(url_for("sterilisation.staff_slot", slot_id=slot.id))
    return _day(slot, capacity_form=form)


@bp.post("/ccz/castracao/agendamentos/<int:booking_id>/resultado")
@roles_required(*STAFF)
def staff_outcome(booking_id: int):
    booking = _get(SterilisationBooking, booking_id)
    if booking.slot is None:
        abort(404)
    form = OutcomeForm()
    if form.validate_on_submit():
        outcome = run_service(
            lambda: services.record_outcome(
                booking,
                form.outcome.data,
                current_user._get_current_object(),
                profile=current_profile(),
                today=local_today(),
                vet_name=form.vet_name.data,
                vet_crmv=form.vet_crmv.data,
                note=form.note.data,
            ),
            form=form,
            success=_("Resultado registrado."),
        )
        if outcome.ok:
            return redirect(url_for("sterilisation.staff_slot", slot_id=booking.slot.id))
    return _day(booking.slot, outcome_form=form, failed=booking.id)


@bp.post("/ccz/castracao/agendamentos/<int:booking_id>/cancelar")
@roles_required(*STAFF)
def staff_cancel(booking_id: int):
    booking = _get(SterilisationBooking, booking_id)
    form = CancelForm()
    back = (
        url_for("sterilisation.staff_slot", slot_id=booking.slot_id)
        if booking.slot_id
        else url_for("workspace.queue_list", key="castracao-fila")
    )
    if form.validate_on_submit():
        run_service(
            lambda: services.cancel_booking(
                booking,
                current_user._get_current_object(),
                today=local_today(),
                reason=(form.reason.data or "").strip() or _("Cancelado pelo CCZ."),
            ),
            success=_("Agendamento cancelado."),
        )
    return redirect(back)


@bp.post("/ccz/castracao/estimativa")
@roles_required(*MANAGERS)
def staff_estimate():
    """VV 10 §1: the year's estimated dogs and cats, the base of the target."""
    profile = current_profile()
    if not target.applies(profile):
        abort(404)
    form = EstimateForm()
    if form.validate_on_submit():
        outcome = run_service(
            lambda: target.save_estimate(
                profile,
                year=form.year.data,
                dogs_and_cats=form.dogs_and_cats.data,
                source=form.source.data or "",
                staff=current_user._get_current_object(),
                today=local_today(),
            ),
            form=form,
            success=_("Estimativa registrada."),
        )
        if outcome.ok:
            return redirect(url_for("sterilisation.staff_overview", _anchor="meta"))
    return _overview(estimate_form=form)
