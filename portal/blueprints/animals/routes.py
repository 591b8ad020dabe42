"""Citizen and public views of the RGA: the registration wizard, "Meus animais", documents,
transfer, second copy, death report, and the public page reached from the QR code.

The wizard keeps everything typed in the session (``rga_draft``) between steps, so going back,
an upload error or a rule refused at the end never loses a field. Views stay thin: parse the form,
call one service, commit once.
"""

from __future__ import annotations

import io
from typing import Any

from flask import (
    abort,
    flash,
    redirect,
    render_template,
    request,
    send_file,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from werkzeug.datastructures import MultiDict

from portal.access import public, signed_in
from portal.blueprints.animals import bp, documents, provisional, services
from portal.blueprints.animals.forms import (
    AddressStepForm,
    AnimalStepForm,
    CopyForm,
    DeathForm,
    FinderForm,
    PhotoStepForm,
    TransferForm,
    VaccinationStepForm,
    parse_weight_grams,
)
from portal.blueprints.animals.rga import InvalidRgaNumber, normalise_rga
from portal.extensions import db, limiter
from portal.forms import EmptyForm
from portal.models import Animal, DocumentCopyRequest, OwnershipTransfer, StoredFile
from portal.services.dates import add_months
from portal.services.fees import price_list
from portal.services.identity import looks_like_cpf, mask_cpf
from portal.services.todo import citizen_todo
from portal.services.uploads import UploadError, file_path, store_image

# ---------------------------------------------------------------------------------------------
# Registration wizard
# ---------------------------------------------------------------------------------------------

DRAFT_KEY = "rga_draft"
STEPS = ("animal", "endereco", "vacina", "foto", "revisao")


def _step_labels() -> dict[str, str]:
    return {"animal": _("Animal"), "endereco": _("Endereço"), "vacina": _("Vacina"),
            "foto": _("Foto"), "revisao": _("Revisão")}


# Where each service error field is shown: (step, form field or None for the step's banner).
ERROR_PLACES: dict[str, tuple[str, str | None]] = {
    "animal.name": ("animal", "name"), "animal.species": ("animal", "species"),
    "animal.sex": ("animal", "sex"), "animal.breed": ("animal", "breed"),
    "animal.color": ("animal", "color"), "animal.birth_date": ("animal", "birth_date"),
    "animal.size": ("animal", "size"), "animal.weight_kg": ("animal", "weight_kg"),
    "animal.microchip": ("animal", "microchip"),
    "owner.address": ("endereco", None),
    "rabies_vaccination": ("vacina", "choice"),
    "rabies_vaccination.date": ("vacina", "applied_on"),
    "rabies_vaccination.vaccine": ("vacina", "vaccine_name"),
    "rabies_vaccination.batch": ("vacina", "batch"),
    "rabies_vaccination.vet_name": ("vacina", "vet_name"),
    "rabies_vaccination.vet_crmv": ("vacina", "vet_crmv"),
    "rabies_vaccination.expires_on": ("vacina", "expires_on"),
    "rabies_vaccination.next_due": ("vacina", "next_due_on"),
}


def _load_draft() -> dict[str, Any]:
    draft = session.get(DRAFT_KEY)
    if not draft or draft.get("user_id") != current_user.id:
        draft = {"user_id": current_user.id, "done": [], "data": {}, "errors": [],
                 "photo_id": None}
    return draft


def _save_draft(draft: dict[str, Any]) -> None:
    session[DRAFT_KEY] = draft
    session.modified = True


def _typed() -> dict[str, str]:
    """What was typed in this POST, without the CSRF token (kept in the draft, never validated)."""
    return {k: v for k, v in request.form.items() if k != "csrf_token"}


def _rebuilt(form_class: type, raw: dict[str, str] | None, *, to_render: bool = False,
             **kwargs: Any) -> Any:
    """A form filled from a draft's raw values, as if just posted.

    Read back for the service (``to_render=False``) it has no CSRF field: it is not a submission.
    Shown again to the person (``to_render=True``) it keeps the CSRF field, so the page carries a
    fresh token and its next submission is accepted (going back to a step must not end in
    "sessão expirada")."""
    meta = {} if to_render else {"csrf": False}
    return form_class(formdata=MultiDict(raw or {}), meta=meta, **kwargs)


def _attach_errors(step: str, form: Any, draft: dict[str, Any]) -> list[dict[str, Any]]:
    """Put errors from the final submission next to their fields; return the banner ones."""
    banner = []
    remaining = []
    for err in draft.get("errors", []):
        place = ERROR_PLACES.get(err.get("field") or "", (None, None))
        if place[0] != step:
            remaining.append(err)
            continue
        name = place[1]
        if step == "animal" and name == "birth_date" and form.birth_known.data == "estimated":
            name = "age_years"
        if name and name in form:
            form[name].errors = [*form[name].errors, err["message"]]
        else:
            banner.append(err)
    if len(remaining) != len(draft.get("errors", [])):
        draft["errors"] = []
        _save_draft(draft)
    return banner


def _animal_birth(form: AnimalStepForm, today):  # type: ignore[no-untyped-def]
    if form.birth_known.data == "estimated":
        months = (form.age_years.data or 0) * 12 + (form.age_months.data or 0)
        return add_months(today, -months), True
    return form.birth_date.data, False


def _animal_data(draft: dict[str, Any], today) -> services.AnimalData:  # type: ignore[no-untyped-def]
    form = _rebuilt(AnimalStepForm, draft["data"].get("animal"))
    form.validate()
    birth, estimated = _animal_birth(form, today)
    photo = None
    if draft.get("photo_id"):
        photo = db.session.get(StoredFile, draft["photo_id"])
        if photo is None or photo.owner_id != current_user.id:
            photo = None
    try:
        weight = parse_weight_grams(form.weight_kg.data)
    except ValueError:
        weight = None
    return services.AnimalData(
        name=form.name.data or "", species=form.species.data or "", sex=form.sex.data or "",
        birth_date=birth, birth_date_estimated=estimated, breed=form.breed.data,
        color=form.color.data, size=form.size.data, weight_grams=weight,
        sterilized=form.sterilized.data == "yes", microchip=form.microchip.data, photo=photo)


def _vaccination_data(raw: dict[str, str] | None) -> tuple[services.VaccinationData | None, str]:
    form = _rebuilt(VaccinationStepForm, raw, allow_none=True)
    form.validate()
    if form.choice.data != "record":
        return None, form.choice.data or "record"
    return services.VaccinationData(
        applied_on=form.applied_on.data, vaccine_name=form.vaccine_name.data or "",
        batch=form.batch.data or "", vet_name=form.vet_name.data or "",
        vet_crmv=form.vet_crmv.data or "", manufacturer=form.manufacturer.data,
        manufactured_on=form.manufactured_on.data, expires_on=form.expires_on.data,
        next_due_on=form.next_due_on.data, establishment=form.establishment.data), "record"


def _next_step(draft: dict[str, Any], step: str) -> str:
    if all(s in draft["done"] for s in STEPS[:-1]):
        return "revisao"
    return STEPS[STEPS.index(step) + 1]


def _render_step(step: str, draft: dict[str, Any], **context: Any):  # type: ignore[no-untyped-def]
    return render_template(f"animals/register_{step}.html", step=step, steps=STEPS,
                           step_labels=_step_labels(), draft=draft, **context)


@bp.route("/animais/cadastrar", methods=["GET", "POST"], defaults={"step": "animal"})
@bp.route("/animais/cadastrar/<step>", methods=["GET", "POST"])
@signed_in
def register(step: str):
    """"Cadastrar animal": five short steps that work on a phone."""
    if step not in STEPS:
        abort(404)
    draft = _load_draft()
    missing = next((s for s in STEPS[:-1] if s not in draft["done"]), None)
    if missing and STEPS.index(step) > STEPS.index(missing):
        return redirect(url_for("animals.register", step=missing))
    return {"animal": _step_animal, "endereco": _step_address, "vacina": _step_vaccination,
            "foto": _step_photo, "revisao": _step_review}[step](draft)


def _advance(draft: dict[str, Any], step: str):  # type: ignore[no-untyped-def]
    if step not in draft["done"]:
        draft["done"].append(step)
    _save_draft(draft)
    return redirect(url_for("animals.register", step=_next_step(draft, step)))


def _step_animal(draft: dict[str, Any]):  # type: ignore[no-untyped-def]
    profile = services.current_profile()
    today = services.local_today(profile)
    if request.method == "POST":
        form = AnimalStepForm()
        draft["data"]["animal"] = _typed()
        _save_draft(draft)
        if form.validate_on_submit():
            birth, _estimated = _animal_birth(form, today)
            try:
                # every rule of the animal's fields here, not only at the last step (a 3-digit
                # microchip used to pass this step and come back from the review)
                problems = services.validate_animal_data(_animal_data(draft, today))
                if problems:
                    raise problems[0] if len(problems) == 1 else services.AnimalErrors(problems)
                services.check_age(profile, birth, today)
                if services.microchip_taken(services.normalise_microchip(form.microchip.data)):
                    raise services.AnimalError("animal.microchip", "duplicate_microchip", _(
                        "Este microchip já está registrado em outro animal."))
            except services.AnimalError as failure:
                for err in failure.errors:
                    target = "age_years" if (err.field == "animal.birth_date"
                                             and form.birth_known.data == "estimated") else (
                        ERROR_PLACES.get(err.field or "", ("animal", "name"))[1] or "name")
                    form[target].errors = [*form[target].errors, err.message]
            else:
                return _advance(draft, "animal")
        banner: list[dict[str, Any]] = []
    else:
        raw = draft["data"].get("animal")
        form = _rebuilt(AnimalStepForm, raw, to_render=True) if raw else AnimalStepForm(
            formdata=None)
        banner = _attach_errors("animal", form, draft)
    return _render_step("animal", draft, form=form, banner=banner)


def _step_address(draft: dict[str, Any]):  # type: ignore[no-untyped-def]
    profile = services.current_profile()
    today = services.local_today(profile)
    user = current_user._get_current_object()
    banner: list[dict[str, Any]] = []
    if request.method == "POST":
        form = AddressStepForm()
        draft["data"]["endereco"] = _typed()
        _save_draft(draft)
        if form.validate_on_submit():
            services.update_owner_address(
                user, cep=form.cep.data, street=form.street.data, number=form.number.data,
                complement=form.complement.data, district=form.district.data,
                city=form.city.data, state=form.state.data, housing_type=form.housing_type.data)
            db.session.commit()  # the confirmed address is saved on the profile now
            animal = _animal_data(draft, today)
            extra = 1 if animal.birth_date and services.counts_for_household(
                animal.birth_date, today, profile) else 0
            try:
                services.check_household_limit(profile, user, extra=extra, on=today)
            except services.AnimalError as err:
                banner.append({"field": err.field, "code": err.code, "message": err.message,
                               "licence_url": getattr(err, "licence_url", None)})
            else:
                return _advance(draft, "endereco")
    else:
        raw = draft["data"].get("endereco")
        # A new account has no address yet: start from the municipality and a house.
        # (wtforms prefers ``obj`` attributes over keyword defaults, even None: build the data.)
        known = {name: getattr(user, name) for name in (
            "cep", "street", "number", "complement", "district", "city", "state", "housing_type")}
        known["housing_type"] = known["housing_type"] or "house"
        known["state"] = known["state"] or profile.state
        known["city"] = known["city"] or profile.municipality
        form = _rebuilt(AddressStepForm, raw, to_render=True) if raw else AddressStepForm(formdata=None,
                                                                            data=known)
        banner = _attach_errors("endereco", form, draft)
    return _render_step("endereco", draft, form=form, banner=banner, profile_rule=profile.household)


def _step_vaccination(draft: dict[str, Any]):  # type: ignore[no-untyped-def]
    profile = services.current_profile()
    today = services.local_today(profile)
    allow_none = not services.rabies_required(profile)
    banner: list[dict[str, Any]] = []
    if request.method == "POST":
        form = VaccinationStepForm(allow_none=allow_none)
        draft["data"]["vacina"] = _typed()
        _save_draft(draft)
        if form.validate_on_submit():
            data, _choice = _vaccination_data(draft["data"]["vacina"])
            problems: list[services.AnimalError] = []
            if data is not None:
                birth = _animal_data(draft, today).birth_date
                problems = services.validate_vaccination(data, birth_date=birth, today=today)
                if (not problems and data.applied_on is not None
                        and services.rabies_required(profile)
                        and not services.vaccination_is_current(data.applied_on,
                                                                data.next_due_on, today)):
                    problems.append(services.AnimalError("rabies_vaccination.date",
                                                         "missing_vaccination", _(
                        "Esta vacina está vencida. Vacine o animal ou escolha vacinar no CCZ.")))
            for err in problems:
                name = ERROR_PLACES.get(err.field or "", ("vacina", "choice"))[1] or "choice"
                form[name].errors = [*form[name].errors, err.message]
            if not problems:
                return _advance(draft, "vacina")
    else:
        raw = draft["data"].get("vacina")
        form = _rebuilt(VaccinationStepForm, raw, to_render=True,
                        allow_none=allow_none) if raw else (
            VaccinationStepForm(formdata=None, allow_none=allow_none))
        banner = _attach_errors("vacina", form, draft)
    return _render_step("vacina", draft, form=form, banner=banner,
                        rule=profile.registration, required=services.rabies_required(profile))


def _step_photo(draft: dict[str, Any]):  # type: ignore[no-untyped-def]
    form = PhotoStepForm()
    photo = db.session.get(StoredFile, draft["photo_id"]) if draft.get("photo_id") else None
    if form.validate_on_submit():
        upload: Any = form.photo.data  # a werkzeug FileStorage, or None when nothing was sent
        if form.remove_photo.data:
            draft["photo_id"] = None
            photo = None
        if upload is not None and upload.filename:
            try:
                stored = store_image(upload.stream, purpose="animal_photo",
                                     owner_id=current_user.id, public=True,
                                     filename=upload.filename)
            except UploadError as err:
                db.session.rollback()
                form.photo.errors = [*form.photo.errors, err.message]
                return _render_step("foto", draft, form=form, photo=photo, banner=[])
            db.session.commit()
            draft["photo_id"] = stored.id
        return _advance(draft, "foto")
    return _render_step("foto", draft, form=form, photo=photo, banner=[])


def _step_review(draft: dict[str, Any]):  # type: ignore[no-untyped-def]
    profile = services.current_profile()
    today = services.local_today(profile)
    user = current_user._get_current_object()
    form = EmptyForm()
    animal = _animal_data(draft, today)
    vaccination, choice = _vaccination_data(draft["data"].get("vacina"))
    if form.validate_on_submit():
        try:
            registered = services.register_animal(
                owner=user, data=animal, vaccination=vaccination,
                vaccinate_at_ccz=choice == "ccz", registered_by=user, api_client=None,
                profile=profile, today=today, guard_resubmission=True)
            db.session.commit()
        except services.AlreadyRegistered as done:
            # a double tap on "Confirmar" (or the browser resending): show the first one's result
            db.session.rollback()
            session.pop(DRAFT_KEY, None)
            flash(done.message, "info")
            return redirect(url_for("animals.detail", rga=done.animal.rga))
        except services.AnimalError as err:
            db.session.rollback()
            draft["errors"] = [{**e.as_dict(), "licence_url": getattr(e, "licence_url", None)}
                               for e in err.errors]
            _save_draft(draft)
            first = ERROR_PLACES.get(err.errors[0].field or "", ("revisao", None))[0]
            return redirect(url_for("animals.register", step=first))
        except IntegrityError:
            db.session.rollback()
            draft["errors"] = [{"field": "animal.microchip", "code": "duplicate_microchip",
                                "message": _("Este microchip já está registrado em outro animal.")}]
            _save_draft(draft)
            return redirect(url_for("animals.register", step="animal"))
        session.pop(DRAFT_KEY, None)
        if registered.status == "pending":
            flash(_("Registro feito: RGA %(rga)s. Ele fica pendente até a vacinação antirrábica no "
                    "CCZ; leve o animal e este número.", rga=registered.rga), "success")
        elif registered.provisional:
            # issue 8: the number and the tag are valid now; the card says PROVISÓRIO until paid
            # and checked
            flash(_("Animal registrado: RGA %(rga)s. A plaqueta já pode ser feita; o registro fica "
                    "provisório até o que falta, abaixo, ser resolvido.", rga=registered.rga),
                  "success")
        else:
            flash(_("Animal registrado: RGA %(rga)s. Baixe a carteira e a plaqueta abaixo.",
                    rga=registered.rga), "success")
        return redirect(url_for("animals.detail", rga=registered.rga))
    late = None
    try:
        late = services.check_age(profile, animal.birth_date, today).late
    except services.AnimalError:
        late = None
    fee = None
    if profile.registration.fee:
        fee = next((e for e in price_list(profile, today) if e.key == "registration"), None)
    photo = animal.photo
    return _render_step("revisao", draft, form=form, animal=animal, vaccination=vaccination,
                        choice=choice, late=late, fee=fee, user=user, photo=photo,
                        restart_form=EmptyForm(), banner=draft.get("errors", []))


@bp.post("/animais/cadastrar/recomecar")
@signed_in
def register_restart():
    if EmptyForm().validate_on_submit():
        session.pop(DRAFT_KEY, None)
        flash(_("Cadastro recomeçado: os dados digitados foram descartados."), "info")
    return redirect(url_for("animals.register"))


# ---------------------------------------------------------------------------------------------
# Meus animais
# ---------------------------------------------------------------------------------------------


def _own_animal(rga: str) -> Animal:
    """The signed-in person's animal, else 404 (never say whether someone else's exists)."""
    try:
        animal = services.find_by_rga(rga)
    except InvalidRgaNumber:
        abort(404)
    if animal is None or animal.owner_id != current_user.id:
        abort(404)
    return animal


@bp.get("/animais/")
@signed_in
def my_animals():
    user = current_user._get_current_object()
    return render_template("animals/my_animals.html", animals=services.animals_of(user),
                           todo=citizen_todo(user), today=services.local_today())


@bp.get("/animais/<rga>/")
@signed_in
def detail(rga: str):
    animal = _own_animal(rga)
    today = services.local_today()
    profile = services.current_profile()
    return render_template("animals/detail.html", animal=animal, today=today,
                           renewal_due=services.renewal_due(animal, profile),
                           renewal_article=profile.registration.cite("yearly_renewal"),
                           current=services.current_vaccination(animal, today),
                           fees=services.fees_of(animal), cancel_form=EmptyForm(),
                           missing=provisional.missing(animal))


def _pdf(data: bytes, name: str):  # type: ignore[no-untyped-def]
    response = send_file(io.BytesIO(data), mimetype="application/pdf", as_attachment=True,
                         download_name=name)
    response.headers["Cache-Control"] = "private, no-store"
    return response


def card_response(animal: Animal):  # type: ignore[no-untyped-def]
    profile = services.current_profile()
    photo = file_path(animal.photo, "thumbnail") if animal.photo else None
    pdf = documents.card_pdf(animal, profile, services.absolute_url(
        "animals.public_rga", number=animal.rga), services.local_today(profile),
        photo_path=str(photo) if photo and photo.exists() else None)
    return _pdf(pdf, f"rga-{animal.rga}-carteira.pdf")


def tag_response(animal: Animal):  # type: ignore[no-untyped-def]
    profile = services.current_profile()
    pdf = documents.tag_pdf(animal, profile, services.absolute_url("animals.public_rga",
                                                                   number=animal.rga))
    return _pdf(pdf, f"rga-{animal.rga}-plaqueta.pdf")


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
    if form.validate_on_submit():
        profile = services.current_profile()
        try:
            offer = services.request_transfer(animal, current_user._get_current_object(),
                                              form.cpf.data, profile=profile,
                                              today=services.local_today(profile))
        except services.AnimalError as err:
            db.session.rollback()
            target = form.cpf if err.field == "cpf" else form.confirm
            target.errors = [*target.errors, err.message]
        else:
            db.session.commit()
            # Only the masked CPF: typing a CPF must not reveal whose name it is.
            flash(_("Transferência enviada para o CPF %(cpf)s. Até o aceite, você continua "
                    "responsável pelo animal.", cpf=mask_cpf(offer.to_owner.cpf)), "success")
            return redirect(url_for("animals.detail", rga=animal.rga))
    return render_template("animals/transfer.html", animal=animal, form=form,
                           article=services.transfer_article(services.current_profile()))


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
    return render_template("animals/transfer_review.html", offer=offer, animal=offer.animal,
                           form=EmptyForm(), problem=None)


@bp.post("/animais/transferencias/<int:transfer_id>/aceitar")
@signed_in
def transfer_accept(transfer_id: int):
    offer = _transfer_for_me(transfer_id)
    form = EmptyForm()
    if not form.validate_on_submit():
        return redirect(url_for("animals.transfer_review", transfer_id=transfer_id))
    profile = services.current_profile()
    try:
        services.accept_transfer(offer, current_user._get_current_object(), profile=profile,
                                 today=services.local_today(profile))
    except services.AnimalError as err:
        db.session.rollback()
        problem = {"message": err.message, "licence_url": getattr(err, "licence_url", None)}
        return render_template("animals/transfer_review.html", offer=offer, animal=offer.animal,
                               form=form, problem=problem), 422
    db.session.commit()
    flash(_("Transferência aceita: %(name)s agora está registrado(a) em seu nome.",
            name=offer.animal.name), "success")
    return redirect(url_for("animals.detail", rga=offer.animal.rga))


@bp.post("/animais/transferencias/<int:transfer_id>/recusar")
@signed_in
def transfer_decline(transfer_id: int):
    """The new owner declines, or the current owner withdraws the offer."""
    offer = db.session.get(OwnershipTransfer, transfer_id)
    if offer is None or current_user.id not in (offer.to_owner_id, offer.from_owner_id):
        abort(404)
    if EmptyForm().validate_on_submit():
        try:
            services.decline_transfer(offer, current_user._get_current_object())
        except services.AnimalError as err:
            db.session.rollback()
            flash(err.message, "warning")
        else:
            db.session.commit()
            flash(_("Transferência cancelada."), "info")
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
    profile = services.current_profile()
    form = CopyForm()
    if form.validate_on_submit():
        try:
            copy = services.request_copy(animal, form.kind.data,
                                         requested_by=current_user._get_current_object(),
                                         profile=profile, today=services.local_today(profile),
                                         reason=form.reason.data)
        except services.AnimalError as err:
            db.session.rollback()
            form.kind.errors = [*form.kind.errors, err.message]
        else:
            db.session.commit()
            if copy.valid_until:
                flash(_("Pedido de segunda via registrado. Baixe o documento provisório: ele "
                        "identifica o animal até %(day)s.",
                        day=copy.valid_until.strftime("%d/%m/%Y")), "success")
            else:
                flash(_("Pedido de segunda via registrado."), "success")
            return redirect(url_for("animals.detail", rga=animal.rga) + "#documentos")
    prices = {e.key: e for e in price_list(profile, services.local_today(profile))
              if e.key in ("card_copy", "tag_copy")}
    return render_template("animals/copy.html", animal=animal, form=form,
                           rule=profile.provisional_id, prices=prices)


@bp.get("/animais/segunda-via/<int:copy_id>/documento-provisorio.pdf")
@signed_in
def copy_pdf(copy_id: int):
    copy = db.session.get(DocumentCopyRequest, copy_id)
    if copy is None or copy.animal.owner_id != current_user.id:
        abort(404)
    profile = services.current_profile()
    pdf = documents.provisional_pdf(copy, profile, services.absolute_url(
        "animals.public_rga", number=copy.animal.rga))
    return _pdf(pdf, f"rga-{copy.animal.rga}-documento-provisorio-{copy.id}.pdf")


@bp.route("/animais/<rga>/obito", methods=["GET", "POST"])
@signed_in
def death(rga: str):
    """Death report: the RGA is closed (baixa) and stays in history (GRU 21; BJP 10)."""
    animal = _own_animal(rga)
    if animal.is_closed:
        abort(404)
    form = DeathForm()
    if form.validate_on_submit():
        try:
            services.report_death(animal, reported_by=current_user._get_current_object(),
                                  died_on=form.died_on.data, today=services.local_today(),
                                  note=form.note.data)
        except services.AnimalError as err:
            db.session.rollback()
            form.died_on.errors = [*form.died_on.errors, err.message]
        else:
            db.session.commit()
            flash(_("Óbito comunicado. O RGA %(rga)s foi encerrado; sentimos muito pela perda.",
                    rga=animal.rga), "info")
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
        from portal.blueprints.main.routes import cpf_query_page  # main imports animals.rga

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
        from portal.blueprints.main.routes import cpf_query_page

        return cpf_query_page(400)  # not an RGA; and the page must not echo the CPF
    try:
        canonical = normalise_rga(number)
    except InvalidRgaNumber as err:
        return render_template("animals/public_invalid.html", number=number,
                               message=services.rga_error_message(err)), 400
    if canonical != number and request.method == "GET":
        return redirect(url_for("animals.public_rga", number=canonical))
    animal = db.session.scalar(select(Animal).where(Animal.rga == canonical))
    if animal is None:
        return render_template("animals/public_unknown.html", number=canonical), 404
    form = FinderForm()
    if not animal.is_closed and form.validate_on_submit():
        try:
            record = services.relay_finder_message(animal, finder_name=form.finder_name.data,
                                                   finder_contact=form.contact.data,
                                                   message=form.message.data)
        except services.AnimalError as err:
            db.session.rollback()
            for item in err.errors:
                target = form[item.field] if item.field in ("contact", "message") else form.message
                target.errors = [*target.errors, item.message]
        else:
            db.session.commit()
            if record.delivered:
                flash(_("Mensagem enviada ao proprietário. Obrigado por ajudar!"), "success")
            else:
                flash(_("Recebemos sua mensagem, mas o proprietário não tem e-mail cadastrado. "
                        "Procure o CCZ com o número do RGA."), "warning")
            return redirect(url_for("animals.public_rga", number=animal.rga))
    photo_url = None
    if animal.photo is not None and animal.photo.public:
        from portal.blueprints.files import file_url

        photo_url = file_url(animal.photo, "medium")
    return render_template("animals/public.html", animal=animal, form=form, photo_url=photo_url,
                           status_label=provisional.state_label(animal))


@bp.app_context_processor
def animal_labels() -> dict[str, Any]:
    return {"species_label": services.species_label, "sex_label": services.sex_label,
            "size_label": services.size_label, "animal_status_label": services.status_label,
            "rga_state_label": provisional.state_label, "rga_state_tag": provisional.state_tag}
