"""The person's side: the programme's public page, booking a castration (or the waitlist) and
"Minhas castrações" with cancellation."""

from __future__ import annotations

from flask import abort, redirect, render_template, request, url_for
from flask_babel import format_date
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import public, signed_in
from portal.blueprints.sterilisation import bp, services
from portal.blueprints.sterilisation.forms import OTHER_ANIMAL, WAITLIST, BookingForm, CancelForm
from portal.extensions import db
from portal.forms import choices
from portal.models import Animal, SterilisationBooking, SterilisationSite, SterilisationSlot
from portal.services.clock import current_profile, local_today
from portal.services.ids import parse_id
from portal.views import run_service


def slot_label(slot: SterilisationSlot) -> str:
    return _(
        "%(day)s — %(site)s, %(district)s (%(free)d vaga(s))",
        day=format_date(slot.day, "EEEE, dd/MM/yyyy"),
        site=slot.site.name,
        district=slot.site.district,
        free=slot.free,
    )


def _booking_form() -> BookingForm:
    form = BookingForm()
    if request.method == "GET" and request.args.get("animal"):
        form.animal.data = request.args["animal"]
    animals = services.bookable_animals(current_user)
    form.animal.choices = choices(
        [
            *((str(a.id), _("%(name)s — RGA %(rga)s", name=a.name, rga=a.rga)) for a in animals),
            (OTHER_ANIMAL, _("Outro animal: ainda sem RGA, ou comunitário")),
        ]
    )
    slots = services.open_slots(local_today())
    form.slot.choices = choices(
        [
            *((str(s.id), slot_label(s)) for s in slots),
            (WAITLIST, _("Fila de espera: a primeira vaga que abrir, em qualquer local")),
            *(
                (f"{WAITLIST}-{site.id}", _("Fila de espera: só em %(site)s", site=site.name))
                for site in services.active_sites()
            ),
        ]
    )
    return form


def _request_from(form: BookingForm) -> services.BookingRequest:
    wanted = services.BookingRequest(
        animal_name=form.animal_name.data or "",
        species=form.species.data or "",
        sex=form.sex.data or "",
        community=bool(form.community.data),
        community_place=(form.community_place.data or "").strip() or None,
    )
    animal_choice, choice = form.animal.data or "", form.slot.data or ""
    if animal_choice != OTHER_ANIMAL:
        animal_id = parse_id(animal_choice)
        wanted.animal = db.session.get(Animal, animal_id) if animal_id else None
        if wanted.animal is None:
            raise services.SterilisationError(
                "animal", "not_yours", _("Escolha um dos seus animais com RGA ativo.")
            )
    if choice.isascii() and choice.isdigit():
        slot_id = parse_id(choice)  # "99999999999999999999" is no slot, not a 500
        wanted.slot = db.session.get(SterilisationSlot, slot_id) if slot_id else None
        if wanted.slot is None:
            raise services.SterilisationError(
                "slot", "slot_closed", _("Este dia não está mais aberto. Escolha outro.")
            )
    elif choice.startswith(f"{WAITLIST}-") and (site_id := parse_id(choice[len(WAITLIST) + 1 :])):
        wanted.preferred_site = db.session.get(SterilisationSite, site_id)
    elif choice != WAITLIST:
        raise services.SterilisationError("slot", "slot", _("Escolha um dia ou a fila de espera."))
    return wanted


@bp.get("/castracao")
@public
def programme():
    rule = services.rule_of(current_profile())
    return render_template(
        "sterilisation/programme.html",
        rule=rule,
        sites=services.active_sites(),
        slots=services.open_slots(local_today()),
        partner_label=services.partner_label,
    )


@bp.route("/castracao/agendar", methods=["GET", "POST"])
@signed_in
def book():
    rule = services.rule_of(current_profile())
    form = _booking_form()
    if form.validate_on_submit():
        outcome = run_service(
            lambda: services.request_booking(
                current_user._get_current_object(),
                _request_from(form),
                profile=current_profile(),
                today=local_today(),
            ),
            form=form,
            success=lambda b: (
                _("Castração agendada. Enviamos os detalhes por e-mail.")
                if b.slot
                else _("Você entrou na fila de espera. Avisaremos por e-mail quando abrir a vaga.")
            ),
        )
        if outcome.ok:
            return redirect(url_for("sterilisation.mine"))
        form = _keep_choices(form)
    return render_template("sterilisation/book.html", form=form, rule=rule)


def _keep_choices(form: BookingForm) -> BookingForm:
    """After a refusal the lists are read again (a day may have filled); what was typed stays."""
    fresh = _booking_form()
    for name in ("animal_name", "species", "sex", "community", "community_place", "animal"):
        fresh[name].data = form[name].data
        fresh[name].errors = form[name].errors
    fresh.slot.errors = form.slot.errors
    if any(form.slot.data == value for value, *_rest in fresh.slot.iter_choices()):
        fresh.slot.data = form.slot.data
    return fresh


@bp.get("/castracao/minhas")
@signed_in
def mine():
    rule = services.rule_of(current_profile())
    bookings = db.session.scalars(
        select(SterilisationBooking)
        .where(SterilisationBooking.requester_id == current_user.id)
        .order_by(SterilisationBooking.id.desc())
    ).all()
    return render_template(
        "sterilisation/mine.html",
        rule=rule,
        bookings=bookings,
        today=local_today(),
        form=CancelForm(),
        status_label=services.status_label,
    )


@bp.post("/castracao/<int:booking_id>/cancelar")
@signed_in
def cancel(booking_id: int):
    booking = db.session.get(SterilisationBooking, booking_id)
    if booking is None or booking.requester_id != current_user.id:
        abort(404)
    form = CancelForm()
    if form.validate_on_submit():
        run_service(
            lambda: services.cancel_booking(
                booking,
                current_user._get_current_object(),
                today=local_today(),
                reason=(form.reason.data or "").strip() or None,
            ),
            success=_("Pedido cancelado."),
        )
    return redirect(url_for("sterilisation.mine"))
