"""The registration wizard ("Cadastrar animal"): five short steps that work on a phone.

Everything typed is kept in the session (``rga_draft``) between steps, so going back, an upload
error or a rule refused at the end never loses a field. The photo is held in the person's form
draft (``portal.services.drafts``, kind :data:`PHOTO_DRAFT`): private until the animal is
registered, shown back as "Arquivo já enviado" with a box to remove it, replaced by a new one,
and deleted with the draft ("Recomeçar", or the purge of drafts nobody came back to).

Each step checks its fields with the same functions
:func:`~portal.blueprints.animals.registration.register_animal` calls at the end
(``validation.py``), so a problem is shown at the step where it was typed, with the same message.
The views in ``routes.py`` only pick the step; :func:`handle_step` does the rest.
"""

from __future__ import annotations

from typing import Any

from flask import abort, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_login import current_user
from werkzeug.datastructures import MultiDict

from portal.blueprints.animals.common import (
    AnimalData,
    AnimalError,
    AnimalErrors,
    VaccinationData,
    normalise_microchip,
)
from portal.blueprints.animals.forms import (
    AddressStepForm,
    AnimalStepForm,
    PhotoStepForm,
    VaccinationStepForm,
    parse_weight_grams,
)
from portal.blueprints.animals.household import check_household_limit, counts_for_household
from portal.blueprints.animals.owners import update_owner_address
from portal.blueprints.animals.registration import (
    AlreadyRegistered,
    RegistrationRequest,
    register_animal,
)
from portal.blueprints.animals.validation import (
    check_age,
    check_microchip_free,
    check_rabies_proof,
    check_vaccination_current,
    duplicate_microchip_error,
    rabies_required,
    validate_animal_data,
    validate_vaccination,
)
from portal.blueprints.animals.wizard_steps import ERROR_PLACES, STEPS, step_labels
from portal.domain import DomainError
from portal.extensions import db
from portal.forms import EmptyForm
from portal.kept_uploads import Slot, keep
from portal.models import Animal, StoredFile
from portal.services import drafts
from portal.services.clock import current_profile, local_today
from portal.services.dates import add_months
from portal.services.fees import price_list
from portal.views import run_service

DRAFT_KEY = "rga_draft"
PHOTO_DRAFT = "rga_registration"  # the form draft that holds the photo (issue 25)
PHOTO_SLOT = "photo"
PROOF_SLOT = "rabies_proof"  # the vaccination card's photo or PDF, in the same draft
PROOF_PURPOSE = "vaccination_proof"


def _load_draft() -> dict[str, Any]:
    draft = session.get(DRAFT_KEY)
    if not draft or draft.get("user_id") != current_user.id:
        draft = {"user_id": current_user.id, "done": [], "data": {}, "errors": [], "photo_id": None}
    return draft


def _save_draft(draft: dict[str, Any]) -> None:
    session[DRAFT_KEY] = draft
    session.modified = True


def _typed() -> dict[str, str]:
    """What was typed in this POST, without the CSRF token (kept in the draft, never validated)."""
    return {k: v for k, v in request.form.items() if k != "csrf_token"}


def _rebuilt(
    form_class: type, raw: dict[str, str] | None, *, to_render: bool = False, **kwargs: Any
) -> Any:
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


def _animal_birth(form: AnimalStepForm, today):
    if form.birth_known.data == "estimated":
        months = (form.age_years.data or 0) * 12 + (form.age_months.data or 0)
        return add_months(today, -months), True
    return form.birth_date.data, False


def _animal_data(draft: dict[str, Any], today) -> AnimalData:
    form = _rebuilt(AnimalStepForm, draft["data"].get("animal"))
    form.validate()
    birth, estimated = _animal_birth(form, today)
    photo = _held_photo()
    try:
        weight = parse_weight_grams(form.weight_kg.data)
    except ValueError:
        weight = None
    return AnimalData(
        name=form.name.data or "",
        species=form.species.data or "",
        sex=form.sex.data or "",
        birth_date=birth,
        birth_date_estimated=estimated,
        breed=form.breed.data,
        color=form.color.data,
        size=form.size.data,
        weight_grams=weight,
        sterilized=form.sterilized.data == "yes",
        microchip=form.microchip.data,
        photo=photo,
    )


def _held_photo() -> StoredFile | None:
    """The photo the person's draft holds (only their own draft is ever looked up)."""
    held = drafts.held(drafts.find(current_user._get_current_object(), PHOTO_DRAFT))
    files = held.get(PHOTO_SLOT, [])
    return files[-1].stored if files else None


def _vaccination_data(raw: dict[str, str] | None) -> tuple[VaccinationData | None, str]:
    form = _rebuilt(VaccinationStepForm, raw, allow_none=True)
    form.validate()
    if form.choice.data != "record":
        return None, form.choice.data or "record"
    return VaccinationData(
        applied_on=form.applied_on.data,
        vaccine_name=form.vaccine_name.data or "",
        batch=form.batch.data or "",
        vet_name=form.vet_name.data or "",
        vet_crmv=form.vet_crmv.data or "",
        manufacturer=form.manufacturer.data,
        manufactured_on=form.manufactured_on.data,
        expires_on=form.expires_on.data,
        next_due_on=form.next_due_on.data,
        establishment=form.establishment.data,
    ), "record"


def _next_step(draft: dict[str, Any], step: str) -> str:
    if all(s in draft["done"] for s in STEPS[:-1]):
        return "revisao"
    return STEPS[STEPS.index(step) + 1]


def _render_step(step: str, draft: dict[str, Any], **context: Any):
    return render_template(
        f"animals/register_{step}.html",
        step=step,
        steps=STEPS,
        step_labels=step_labels(),
        draft=draft,
        **context,
    )


def handle_step(step: str):
    """Show or submit one step; a step after the first unfinished one sends back to that one."""
    if step not in STEPS:
        abort(404)
    draft = _load_draft()
    missing = next((s for s in STEPS[:-1] if s not in draft["done"]), None)
    if missing and STEPS.index(step) > STEPS.index(missing):
        return redirect(url_for("animals.register", step=missing))
    return {
        "animal": _step_animal,
        "endereco": _step_address,
        "vacina": _step_vaccination,
        "foto": _step_photo,
        "revisao": _step_review,
    }[step](draft)


def draft_summary() -> tuple[str, list[str]]:
    """What discarding would lose: the animal's name (may be "") and the steps already filled."""
    draft = _load_draft()
    labels = step_labels()
    name = str((draft["data"].get("animal") or {}).get("name") or "")
    steps = [labels[step] for step in draft["done"] if step in labels and step != "revisao"]
    if _held_photo() is not None and labels["foto"] not in steps:
        steps.append(labels["foto"])
    return name, steps


def restart() -> None:
    """Throw the draft away ("Recomeçar"), the photo held with it too."""
    session.pop(DRAFT_KEY, None)
    _drop_photo_draft()
    db.session.commit()
    flash(_("Cadastro recomeçado: os dados digitados foram descartados."), "info")


def _advance(draft: dict[str, Any], step: str):
    if step not in draft["done"]:
        draft["done"].append(step)
    _save_draft(draft)
    return redirect(url_for("animals.register", step=_next_step(draft, step)))


def _step_animal(draft: dict[str, Any]):
    profile = current_profile()
    today = local_today(profile)
    if request.method == "POST":
        form = AnimalStepForm()
        draft["data"]["animal"] = _typed()
        _save_draft(draft)
        if form.validate_on_submit():
            birth, _estimated = _animal_birth(form, today)
            try:
                # every rule of the animal's fields here, not only at the last step (a 3-digit
                # microchip used to pass this step and come back from the review)
                problems = validate_animal_data(_animal_data(draft, today))
                if problems:
                    raise problems[0] if len(problems) == 1 else AnimalErrors(problems)
                check_age(profile, birth, today)
                check_microchip_free(normalise_microchip(form.microchip.data))
            except AnimalError as failure:
                for err in failure.errors:
                    target = (
                        "age_years"
                        if (
                            err.field == "animal.birth_date"
                            and form.birth_known.data == "estimated"
                        )
                        else (ERROR_PLACES.get(err.field or "", ("animal", "name"))[1] or "name")
                    )
                    form[target].errors = [*form[target].errors, err.message]
            else:
                return _advance(draft, "animal")
        banner: list[dict[str, Any]] = []
    else:
        raw = draft["data"].get("animal")
        form = (
            _rebuilt(AnimalStepForm, raw, to_render=True) if raw else AnimalStepForm(formdata=None)
        )
        banner = _attach_errors("animal", form, draft)
    return _render_step("animal", draft, form=form, banner=banner)


def _step_address(draft: dict[str, Any]):
    profile = current_profile()
    today = local_today(profile)
    user = current_user._get_current_object()
    banner: list[dict[str, Any]] = []
    if request.method == "POST":
        form = AddressStepForm()
        draft["data"]["endereco"] = _typed()
        _save_draft(draft)
        if form.validate_on_submit():
            update_owner_address(
                user,
                cep=form.cep.data,
                street=form.street.data,
                number=form.number.data,
                complement=form.complement.data,
                district=form.district.data,
                city=form.city.data,
                state=form.state.data,
                housing_type=form.housing_type.data,
            )
            db.session.commit()  # the confirmed address is saved on the profile now
            animal = _animal_data(draft, today)
            extra = (
                1
                if animal.birth_date and counts_for_household(animal.birth_date, today, profile)
                else 0
            )
            try:
                check_household_limit(profile, user, extra=extra, on=today)
            except AnimalError as err:
                banner.append(
                    {
                        "field": err.field,
                        "code": err.code,
                        "message": err.message,
                        "licence_url": getattr(err, "licence_url", None),
                    }
                )
            else:
                return _advance(draft, "endereco")
    else:
        raw = draft["data"].get("endereco")
        # A new account has no address yet: start from the municipality and a house.
        # (wtforms prefers ``obj`` attributes over keyword defaults, even None: build the data.)
        known = {
            name: getattr(user, name)
            for name in (
                "cep",
                "street",
                "number",
                "complement",
                "district",
                "city",
                "state",
                "housing_type",
            )
        }
        known["housing_type"] = known["housing_type"] or "house"
        known["state"] = known["state"] or profile.state
        known["city"] = known["city"] or profile.municipality
        form = (
            _rebuilt(AddressStepForm, raw, to_render=True)
            if raw
            else AddressStepForm(formdata=None, data=known)
        )
        banner = _attach_errors("endereco", form, draft)
    return _render_step("endereco", draft, form=form, banner=banner, profile_rule=profile.household)


def _step_vaccination(draft: dict[str, Any]):
    profile = current_profile()
    today = local_today(profile)
    allow_none = not rabies_required(profile)
    banner: list[dict[str, Any]] = []
    if request.method == "POST":
        form = VaccinationStepForm(allow_none=allow_none)
        draft["data"]["vacina"] = _typed()
        _save_draft(draft)
        # issue 25: the card's photo or PDF is held in the form draft as soon as it arrives
        kept = keep(PHOTO_DRAFT, "", [Slot(PROOF_SLOT)])
        valid = form.validate_on_submit()
        if not kept.show_refused(form) and valid:
            data, _choice = _vaccination_data(draft["data"]["vacina"])
            problems: list[AnimalError] = []
            try:
                check_rabies_proof(profile, data, bool(kept.files(PROOF_SLOT)))
            except AnimalError as missing:
                problems.append(missing)
            if data is not None:
                birth = _animal_data(draft, today).birth_date
                typed = validate_vaccination(data, birth_date=birth, today=today)
                if not typed:
                    try:
                        check_vaccination_current(profile, data, today)
                    except AnimalError as expired:
                        typed.append(expired)
                problems += typed
            for err in problems:
                name = ERROR_PLACES.get(err.field or "", ("vacina", "choice"))[1] or "choice"
                form[name].errors = [*form[name].errors, err.message]
            if not problems:
                return _advance(draft, "vacina")
    else:
        raw = draft["data"].get("vacina")
        form = (
            _rebuilt(VaccinationStepForm, raw, to_render=True, allow_none=allow_none)
            if raw
            else (VaccinationStepForm(formdata=None, allow_none=allow_none))
        )
        banner = _attach_errors("vacina", form, draft)
    return _render_step(
        "vacina",
        draft,
        form=form,
        banner=banner,
        rule=profile.registration,
        required=rabies_required(profile),
        proof_required=profile.registration.rabies_proof_required,
        kept=_held_proof(),
    )


def _held_proof() -> list[drafts.HeldFile]:
    """The vaccination card's photo or PDF the person's draft holds (GRU 15 V; BJP 6)."""
    found = drafts.find(current_user._get_current_object(), PHOTO_DRAFT)
    return drafts.held(found).get(PROOF_SLOT, [])


def _drop_photo_draft() -> None:
    found = drafts.find(current_user._get_current_object(), PHOTO_DRAFT)
    if found is not None:
        drafts.discard(found)  # deletes the photo it holds, unless the animal took it


def _step_photo(draft: dict[str, Any]):
    """Hold the photo in the form draft (private until registered); a new one replaces it."""
    form = PhotoStepForm()
    user = current_user._get_current_object()
    if form.validate_on_submit():
        upload: Any = form.photo.data  # a werkzeug FileStorage, or None when nothing was sent
        held = drafts.find(user, PHOTO_DRAFT)
        if form.remove_photo.data and held is not None:
            for f in drafts.held(held).get(PHOTO_SLOT, []):
                drafts.remove(held, f.id)
        refused: list[str] = []
        if upload is not None and upload.filename:
            held = held or drafts.open_draft(user, PHOTO_DRAFT)
            refused = drafts.hold(held, PHOTO_SLOT, [upload], accept="image")
        db.session.commit()
        if not refused:
            return _advance(draft, "foto")
        form.photo.errors = [*form.photo.errors, *refused]
    held_files = drafts.held(drafts.find(user, PHOTO_DRAFT)).get(PHOTO_SLOT, [])
    return _render_step("foto", draft, form=form, photo=_held_photo(), kept=held_files, banner=[])


def _step_review(draft: dict[str, Any]):
    profile = current_profile()
    today = local_today(profile)
    user = current_user._get_current_object()
    form = EmptyForm()
    animal = _animal_data(draft, today)
    vaccination, choice = _vaccination_data(draft["data"].get("vacina"))
    if form.validate_on_submit():
        return _submit(draft, animal, vaccination, choice)
    late = None
    try:
        late = check_age(profile, animal.birth_date, today).late
    except AnimalError:
        late = None
    fee = None
    if profile.registration.fee:
        fee = next((e for e in price_list(profile, today) if e.key == "registration"), None)
    photo = animal.photo
    return _render_step(
        "revisao",
        draft,
        form=form,
        animal=animal,
        vaccination=vaccination,
        choice=choice,
        late=late,
        fee=fee,
        user=user,
        photo=photo,
        proof=_held_proof() if vaccination is not None else [],
        banner=draft.get("errors", []),
    )


def _submit(
    draft: dict[str, Any],
    animal: AnimalData,
    vaccination: VaccinationData | None,
    choice: str,
):
    """ "Confirmar": register, or send the person to the step where a refused field was typed."""
    profile = current_profile()
    today = local_today(profile)
    user = current_user._get_current_object()
    if animal.photo is not None:  # the held photo becomes the animal's, on its public page
        animal.photo.purpose, animal.photo.public = "animal_photo", True

    proof = _held_proof()

    def register() -> Animal:
        registered = register_animal(
            RegistrationRequest(
                owner=user,
                data=animal,
                vaccination=vaccination,
                vaccinate_at_ccz=choice == "ccz",
                registered_by=user,
                api_client=None,
                profile=profile,
                today=today,
                guard_resubmission=True,
            )
        )
        # GRU 15 V; BJP 6 (after the resubmission guard: a double tap shows the first result)
        check_rabies_proof(profile, vaccination, bool(proof))
        if vaccination is not None and proof:
            _attach_proof(registered, proof[-1])
        _drop_photo_draft()  # the photo is the animal's now: only the draft goes
        return registered

    done = run_service(register, show=False, on_conflict=_microchip_taken)
    if done.value is None:
        assert done.error is not None
        return _refused(draft, done.error)
    session.pop(DRAFT_KEY, None)
    _flash_registered(done.value)
    return redirect(url_for("animals.detail", rga=done.value.rga))


def _attach_proof(registered: Animal, held: drafts.HeldFile) -> None:
    """The card's photo or PDF, now the proof of the vaccination just recorded: private, for the
    owner and the staff who check it (provisional.py)."""
    for recorded in registered.vaccinations:  # a new animal: the one vaccination just typed
        recorded.proof_file = drafts.take_over(held, PROOF_PURPOSE)


def _microchip_taken() -> Animal:
    """A concurrent registration took the microchip first (the unique index caught it)."""
    raise duplicate_microchip_error()


def _refused(draft: dict[str, Any], err: DomainError):
    """The first registration's page for a repeated "Confirmar"; otherwise back to the step
    where the first refused field was typed."""
    if isinstance(err, AlreadyRegistered):
        # a double tap on "Confirmar" (or the browser resending): show the first one's result
        session.pop(DRAFT_KEY, None)
        flash(err.message, "info")
        return redirect(url_for("animals.detail", rga=err.animal.rga))
    if not isinstance(err, AnimalError):
        raise err  # not the RGA's rules: a bug, answered by the error handler as before
    errors = [{**e.as_dict(), "licence_url": getattr(e, "licence_url", None)} for e in err.errors]
    first = ERROR_PLACES.get(err.errors[0].field or "", ("revisao", None))[0]
    return _sent_back(draft, errors, first)


def _sent_back(draft: dict[str, Any], errors: list[dict[str, Any]], step: str):
    """The review refused: the errors wait in the draft for the step where each is fixed."""
    draft["errors"] = errors
    _save_draft(draft)
    return redirect(url_for("animals.register", step=step))


def _flash_registered(registered: Animal) -> None:
    if registered.status == "pending":
        flash(
            _(
                "Registro feito: RGA %(rga)s. Ele fica pendente até a vacinação antirrábica no "
                "CCZ; leve o animal e este número.",
                rga=registered.rga,
            ),
            "success",
        )
    elif registered.provisional:
        # The number and the tag are valid now; the card says PROVISÓRIO until paid
        # and checked
        flash(
            _(
                "Animal registrado: RGA %(rga)s. A plaqueta já pode ser feita; o registro fica "
                "provisório até o que falta, abaixo, ser resolvido.",
                rga=registered.rga,
            ),
            "success",
        )
    else:
        flash(
            _(
                "Animal registrado: RGA %(rga)s. Baixe a carteira e a plaqueta abaixo.",
                rga=registered.rga,
            ),
            "success",
        )
