"""Citizen and public views of the RGA: the registration wizard (its steps are in ``wizard.py``),
"Meus animais", documents, transfer, second copy, death report, and the public page reached from
the QR code. Views stay thin: parse the form, call one service, commit once.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import public, signed_in
from portal.blueprints.animals import bp, documents, provisional, wizard
from portal.blueprints.animals.common import (
    find_by_rga,
    sex_label,
    size_label,
    species_label,
    status_label,
)
from portal.blueprints.animals.copies import report_death, request_copy
from portal.blueprints.animals.downloads import card_response, pdf_response, tag_response
from portal.blueprints.animals.forms import (
    CopyForm,
    DeathForm,
    FinderForm,
    TransferForm,
)
from portal.blueprints.animals.household import household_notes
from portal.blueprints.animals.public import relay_finder_message
from portal.blueprints.animals.registration import fees_of, renewal_due
from portal.blueprints.animals.reports import animals_of, rga_error_message
from portal.blueprints.animals.rga import InvalidRgaNumber, normalise_rga
from portal.blueprints.animals.transfers import (
    accept_transfer,
    decline_transfer,
    request_transfer,
    transfer_article,
)
from portal.blueprints.animals.validation import current_vaccination
from portal.domain import DomainError
from portal.extensions import db, limiter
from portal.forms import EmptyForm
from portal.models import Animal, DocumentCopyRequest, OwnershipTransfer
from portal.profiles.schema import Profile
from portal.services.clock import current_profile, local_today
from portal.services.fees import price_list
from portal.services.identity import looks_like_cpf, mask_cpf
from portal.services.todo import citizen_todo
from portal.urls import absolute_url
from portal.views import Outcome, cpf_query_page, run_service
from portal.wiring import wiring

# ---------------------------------------------------------------------------------------------
# Registration wizard (the steps live in wizard.py)
# ---------------------------------------------------------------------------------------------


@bp.route("/animais/cadastrar", methods=["GET", "POST"], defaults={"step": "animal"})
@bp.route("/animais/cadastrar/<step>", methods=["GET", "POST"])
@signed_in
def register(step: str):
    """ "Cadastrar animal": five short steps that work on a phone."""
    return wizard.handle_step(step)


@bp.route("/animais/cadastrar/recomecar", methods=["GET", "POST"])
@signed_in
def register_restart():
    """Discarding the draft takes a second step (issue 25): this page says what would be lost, and
    only its own button (``confirmar=1``) throws the draft away."""
    form = EmptyForm()
    if form.validate_on_submit() and request.form.get("confirmar") == "1":
        wizard.restart()
        return redirect(url_for("animals.register"))
    name, steps = wizard.draft_summary()
    return render_template("animals/register_discard.html", form=form, name=name, steps=steps)


# ---------------------------------------------------------------------------------------------
# Meus animais
# ---------------------------------------------------------------------------------------------


def _own_animal(rga: str) -> Animal:
    """The signed-in person's animal, else 404 (never say whether someone else's exists)."""
    try:
        animal = find_by_rga(rga)
    except InvalidRgaNumber:
        abort(404)
    if animal is None or animal.owner_id != current_user.id:
        abort(404)
    return animal


@bp.get("/animais/")
@signed_in
def my_animals():
    user = current_user._get_current_object()
    return render_template(
        "animals/my_animals.html",
        animals=animals_of(user),
        todo=citizen_todo(user),
        today=local_today(),
        household_notes=household_notes(current_profile(), user),
    )


@bp.get("/animais/<rga>/")
@signed_in
def detail(rga: str):
    animal = _own_animal(rga)
    today = local_today()
    profile = current_profile()
    return render_template(
        "animals/detail.html",
        animal=animal,
        animal_captures=wiring().captures_linked_to_animal(animal),
        today=today,
        renewal_due=renewal_due(animal, profile),
        renewal_article=profile.registration.cite("yearly_renewal"),
        current=current_vaccination(animal, today),
        fees=fees_of(animal),
        cancel_form=EmptyForm(),
        missing=provisional.missing(animal),
    )


@bp.get("/animais/<rga>/carteira.pdf")
@signed_in
def card(rga: str):
    """The card (BJP 3 b; GRU 15 III), at ID-card size: downloadable by the owner at any time."""
    return card_response(_own_animal(rga))


@bp.get("/animais/<rga>/plaqueta.pdf")
@signed_in
def tag(rga: str):
    """The tag with the number (BJP 3 c)."""
    return tag_response(_own_animal(rga))


@bp.route("/animais/<rga>/transferir", methods=["GET", "POST"])
@signed_in
# The CPF lookup must not serve to probe who has an account.
@limiter.limit("20/hour", methods=["POST"])
def transfer(rga: str):
    """Offer the animal to another citizen by CPF (sent in the form body, never in the URL)."""
    animal = _own_animal(rga)
    if animal.is_closed:
        abort(404)
    form = TransferForm()
    if form.validate_on_submit() and _offer(animal, form).ok:
        return redirect(url_for("animals.detail", rga=animal.rga))
    return render_template(
        "animals/transfer.html",
        animal=animal,
        form=form,
        article=transfer_article(current_profile()),
    )


def _offer(animal: Animal, form: TransferForm) -> Outcome[OwnershipTransfer]:
    """The transfer offered to the CPF typed, or its problems on the form."""
    profile = current_profile()
    return run_service(
        lambda: request_transfer(
            animal,
            current_user._get_current_object(),
            form.cpf.data,
            profile=profile,
            today=local_today(profile),
        ),
        form=form,
        fallback="confirm",  # a problem not about the CPF goes next to the confirmation
        # Only the masked CPF: typing a CPF must not reveal whose name it is.
        success=lambda offer: _(
            "Transferência enviada para o CPF %(cpf)s. Até o aceite, você continua "
            "responsável pelo animal.",
            cpf=mask_cpf(offer.to_owner.cpf),
        ),
    )


def _transfer_for_me(transfer_id: int) -> OwnershipTransfer:
    offer = db.session.get(OwnershipTransfer, transfer_id)
    if offer is None or offer.to_owner_id != current_user.id or offer.status != "pending":
        abort(404)
    return offer


@bp.get("/animais/transferencias/<int:transfer_id>")
@signed_in
def transfer_review(transfer_id: int):
    """The new owner sees the animal offered and accepts or declines."""
    offer = _transfer_for_me(transfer_id)
    return render_template(
        "animals/transfer_review.html",
        offer=offer,
        animal=offer.animal,
        form=EmptyForm(),
        problem=None,
    )


@bp.post("/animais/transferencias/<int:transfer_id>/aceitar")
@signed_in
def transfer_accept(transfer_id: int):
    offer = _transfer_for_me(transfer_id)
    form = EmptyForm()
    if not form.validate_on_submit():
        return redirect(url_for("animals.transfer_review", transfer_id=transfer_id))
    profile = current_profile()
    done = run_service(
        lambda: accept_transfer(
            offer,
            current_user._get_current_object(),
            profile=profile,
            today=local_today(profile),
        ),
        show=False,  # the page shows the problem, with the licence link when there is one
        success=lambda _v: _(
            "Transferência aceita: %(name)s agora está registrado(a) em seu nome.",
            name=offer.animal.name,
        ),
    )
    if done.error is not None:
        return _acceptance_refused(offer, form, done.error)
    return redirect(url_for("animals.detail", rga=offer.animal.rga))


def _acceptance_refused(offer: OwnershipTransfer, form: EmptyForm, error: DomainError):
    """The offer again, with why it could not be accepted (and the licence link if any)."""
    problem = {"message": error.message, "licence_url": getattr(error, "licence_url", None)}
    return render_template(
        "animals/transfer_review.html",
        offer=offer,
        animal=offer.animal,
        form=form,
        problem=problem,
    ), 422


@bp.post("/animais/transferencias/<int:transfer_id>/recusar")
@signed_in
def transfer_decline(transfer_id: int):
    """The new owner declines, or the current owner withdraws the offer."""
    offer = db.session.get(OwnershipTransfer, transfer_id)
    if offer is None or current_user.id not in (offer.to_owner_id, offer.from_owner_id):
        abort(404)
    if EmptyForm().validate_on_submit():
        run_service(
            lambda: decline_transfer(offer, current_user._get_current_object()),
            error_category="warning",
            success=_("Transferência cancelada."),
            success_category="info",
        )
    if current_user.id == offer.from_owner_id and offer.animal.owner_id == current_user.id:
        return redirect(url_for("animals.detail", rga=offer.animal.rga))
    return redirect(url_for("animals.my_animals"))


@bp.route("/animais/<rga>/segunda-via", methods=["GET", "POST"])
@signed_in
def copy_request(rga: str):
    """Second copy of the card or tag; the request is a provisional ID (BJP 8; GRU 19)."""
    animal = _own_animal(rga)
    if animal.is_closed:
        abort(404)
    profile = current_profile()
    form = CopyForm()
    if form.validate_on_submit():
        done = run_service(
            lambda: request_copy(
                animal,
                form.kind.data,
                requested_by=current_user._get_current_object(),
                profile=profile,
                today=local_today(profile),
                reason=form.reason.data,
            ),
            form=form,
            fallback="kind",  # a closed RGA is said next to the choice of document
            success=lambda copy: _copy_requested(copy.valid_until),
        )
        if done.ok:
            return redirect(url_for("animals.detail", rga=animal.rga) + "#documentos")
    return render_template(
        "animals/copy.html",
        animal=animal,
        form=form,
        rule=profile.provisional_id,
        prices=_copy_prices(profile),
    )


def _copy_prices(profile: Profile) -> dict[str, Any]:
    """Today's prices of a second card and a second tag, by price-list key."""
    today = local_today(profile)
    return {e.key: e for e in price_list(profile, today) if e.key in ("card_copy", "tag_copy")}


def _copy_requested(valid_until: date | None) -> str:
    if valid_until is None:
        return _("Pedido de segunda via registrado.")
    return _(
        "Pedido de segunda via registrado. Baixe o documento provisório: ele "
        "identifica o animal até %(day)s.",
        day=valid_until.strftime("%d/%m/%Y"),
    )


@bp.get("/animais/segunda-via/<int:copy_id>/documento-provisorio.pdf")
@signed_in
def copy_pdf(copy_id: int):
    copy = db.session.get(DocumentCopyRequest, copy_id)
    if copy is None or copy.animal.owner_id != current_user.id:
        abort(404)
    profile = current_profile()
    pdf = documents.provisional_pdf(
        copy, profile, absolute_url("animals.public_rga", number=copy.animal.rga)
    )
    return pdf_response(pdf, f"rga-{copy.animal.rga}-documento-provisorio-{copy.id}.pdf")


@bp.route("/animais/<rga>/obito", methods=["GET", "POST"])
@signed_in
def death(rga: str):
    """Death report: the RGA is closed (baixa) and stays in history (GRU 21; BJP 10)."""
    animal = _own_animal(rga)
    if animal.is_closed:
        abort(404)
    form = DeathForm()
    if form.validate_on_submit():
        done = run_service(
            lambda: report_death(
                animal,
                reported_by=current_user._get_current_object(),
                died_on=form.died_on.data,
                today=local_today(),
                note=form.note.data,
            ),
            form=form,
            fallback="died_on",  # an RGA already closed is said next to the date
            success=lambda _v: _(
                "Óbito comunicado. O RGA %(rga)s foi encerrado; sentimos muito pela perda.",
                rga=animal.rga,
            ),
            success_category="info",
        )
        if done.ok:
            return redirect(url_for("animals.detail", rga=animal.rga))
    return render_template("animals/death.html", animal=animal, form=form)


# ---------------------------------------------------------------------------------------------
# Public page (QR code target)
# ---------------------------------------------------------------------------------------------


@bp.get("/rga")
@public
def public_lookup():
    """A box to type an RGA number; the header search also lands on the public page."""
    number = (request.args.get("numero") or "").strip()
    if looks_like_cpf(number):
        # A CPF is never an RGA: say so here instead of redirecting it into another URL.
        return cpf_query_page()
    if number:
        return redirect(url_for("animals.public_rga", number=number))
    return render_template("animals/public_lookup.html")


@bp.route("/rga/<number>", methods=["GET", "POST"])
@public
@limiter.limit("5/hour;20/day", methods=["POST"])
def public_rga(number: str):
    """Confirms a registration and lets a finder write to the owner, who stays anonymous."""
    if looks_like_cpf(number):
        return cpf_query_page(400)  # not an RGA; and the page must not echo the CPF
    try:
        canonical = normalise_rga(number)
    except InvalidRgaNumber as err:
        return render_template(
            "animals/public_invalid.html", number=number, message=rga_error_message(err)
        ), 400
    if canonical != number and request.method == "GET":
        return redirect(url_for("animals.public_rga", number=canonical))
    animal = db.session.scalar(select(Animal).where(Animal.rga == canonical))
    if animal is None:
        return render_template("animals/public_unknown.html", number=canonical), 404
    form = FinderForm()
    if not animal.is_closed and form.validate_on_submit() and _relay_finder_message(animal, form):
        return redirect(url_for("animals.public_rga", number=animal.rga))
    photo_url = None
    if animal.photo is not None and animal.photo.public:
        from portal.blueprints.files import file_url

        photo_url = file_url(animal.photo, "medium")
    return render_template(
        "animals/public.html",
        animal=animal,
        form=form,
        photo_url=photo_url,
        status_label=provisional.state_label(animal),
    )


def _relay_finder_message(animal: Animal, form: FinderForm) -> bool:
    """Send the finder's message; True when sent, else the problems are on the form."""
    done = run_service(
        lambda: relay_finder_message(
            animal,
            finder_name=form.finder_name.data,
            finder_contact=form.contact.data,
            message=form.message.data,
        ),
        form=form,
        fallback="message",  # a closed RGA is said next to the message
    )
    record = done.value
    if record is None:
        return False
    if record.delivered:
        flash(_("Mensagem enviada ao proprietário. Obrigado por ajudar!"), "success")
    else:
        flash(
            _(
                "Recebemos sua mensagem, mas o proprietário não tem e-mail cadastrado. "
                "Procure o CCZ com o número do RGA."
            ),
            "warning",
        )
    return True


def animal_labels() -> dict[str, Any]:
    return {
        "species_label": species_label,
        "sex_label": sex_label,
        "size_label": size_label,
        "animal_status_label": status_label,
        "rga_state_label": provisional.state_label,
        "rga_state_tag": provisional.state_tag,
    }
