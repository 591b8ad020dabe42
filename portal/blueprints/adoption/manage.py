"""Pages for NGOs (their own listings and applications) and CCZ staff (CCZ listings, NGO
registrations, bars by CPF). Who may act on a listing is decided by ``services.may_manage``; a
listing or application of someone else answers 404, not 403, so ids do not leak."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import STAFF, roles_required, staff_required
from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption import bp
from portal.blueprints.adoption import services as svc
from portal.blueprints.adoption.eligibility import check_eligibility
from portal.blueprints.adoption.forms import (
    BarForm,
    BarLookupForm,
    DocumentReviewForm,
    HandoverForm,
    InfoRequestForm,
    ListingForm,
    MemberForm,
    MovePhotoForm,
    PhotoForm,
    ReasonForm,
    StateForm,
)
from portal.blueprints.adoption.routes import add_errors, profile, today
from portal.blueprints.auth.freshness import recent_password
from portal.blueprints.auth.services import find_by_email
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApplicantDocument,
    Listing,
    ListingState,
    Organization,
    PersonBar,
    StoredFile,
)
from portal.services import audit

MANAGERS = ("ngo", *STAFF)


def _owner_choices() -> list[tuple[str, str]]:
    choices = [(str(o.id), o.display_name) for o in svc.organizations_of(current_user)]
    if current_user.is_staff:
        choices.insert(0, ("ccz", _("CCZ (Centro de Controle de Zoonoses)")))
    return choices


def _managed_listing(listing_id: int) -> Listing:
    listing = db.session.get(Listing, listing_id)
    if listing is None or not svc.may_manage(current_user, listing):
        abort(404)
    return listing


def _managed_application(application_id: int) -> AdoptionApplication:
    application = db.session.get(AdoptionApplication, application_id)
    if application is None or not apps.may_review(current_user, application):
        abort(404)
    return application


@bp.get("/gestao")
@roles_required(*MANAGERS)
def manage():
    """The NGO's (or the CCZ's) listings and the applications waiting for a decision."""
    state = request.args.get("estado")
    listings, pending = svc.managed_listings(current_user, state)
    return render_template(
        "adoption/manage.html",
        listings=listings,
        pending=pending,
        state=state,
        has_org=bool(svc.organizations_of(current_user)),
    )


def _save_photos(listing: Listing, files: list, saved: list[StoredFile]) -> None:  # type: ignore[type-arg]
    """Add every chosen file to ``saved``; a bad one raises AdoptionError naming it.

    The caller deletes the files in ``saved`` when it rolls back, so no orphan stays on disk.
    """
    for upload in files:
        if not upload or not upload.filename:
            continue
        try:
            photo = svc.add_photo(listing, upload.stream, upload.filename, current_user.id)
        except svc.AdoptionError as err:
            raise svc.AdoptionError(
                _(
                    'A foto "%(file)s" não foi aceita: %(reason)s',
                    file=upload.filename[:80],
                    reason=err.message,
                ),
                "photos",
                err.code,
            ) from err
        saved.append(photo.stored_file)


def _rollback(saved: list[StoredFile]) -> None:
    svc.delete_stored_files(saved)  # before the rollback, while the rows still name their files
    db.session.rollback()


@bp.route("/gestao/novo", methods=["GET", "POST"])
@roles_required(*MANAGERS)
def listing_new():
    """A new listing with its photos. A bad photo is named next to the photo field and every other
    field keeps what was typed (the browser cannot keep chosen files, so those are chosen again)."""
    form = ListingForm()
    form.owner.choices = _owner_choices()
    if not form.owner.choices:
        flash(_("Sua ONG ainda não foi aprovada pelo CCZ."), "warning")
        return redirect(url_for("adoption.manage"))
    problems: list[str] = []
    saved: list[StoredFile] = []
    if form.validate_on_submit():
        try:
            data = svc.listing_data(form.listing_input(), today())
            org = (
                None
                if form.owner.data == "ccz"
                else db.session.get(Organization, int(form.owner.data))
            )
            listing = svc.create_listing(org, current_user, data)
            _save_photos(listing, form.photos.data or [], saved)
            if request.form.get("publish"):
                svc.change_state(listing, ListingState.PUBLISHED, current_user)
        except svc.InvalidData as err:
            _rollback(saved)
            problems = add_errors(form, err.errors)
        except svc.AdoptionError as err:
            _rollback(saved)
            problems = add_errors(form, [(err.field or "", err.code, err.message)])
        else:
            db.session.commit()
            flash(
                _(
                    "Anúncio de %(name)s salvo (%(state)s).",
                    name=listing.name,
                    state=svc.STATE_LABELS[listing.state],
                ),
                "success",
            )
            return redirect(url_for("adoption.listing_edit", listing_id=listing.id))
    return render_template(
        "adoption/listing_form.html", form=form, listing=None, problems=problems
    ), (400 if form.errors else 200)


def _render_edit(
    listing: Listing,
    form: ListingForm | None = None,
    photo_form: PhotoForm | None = None,
    problems: list[str] | None = None,
    status: int = 200,
):  # type: ignore[no-untyped-def]
    if form is None:
        form = ListingForm(obj=listing)
    form.owner.choices = [("x", listing.owner_name)]
    applications = apps.applications_for(listing)
    return render_template(
        "adoption/listing_form.html",
        form=form,
        listing=listing,
        photo_form=photo_form or PhotoForm(),
        state_form=StateForm(),
        move_form=MovePhotoForm(),
        targets=sorted(svc.MANUAL_TRANSITIONS[listing.state]),
        applications=applications,
        problems=problems or [],
    ), status


@bp.route("/gestao/<int:listing_id>", methods=["GET", "POST"])
@roles_required(*MANAGERS)
def listing_edit(listing_id: int):
    listing = _managed_listing(listing_id)
    if request.method == "GET":
        return _render_edit(listing)
    form = ListingForm()
    form.owner.choices = [("x", listing.owner_name)]
    form.owner.data = "x"
    problems: list[str] = []
    saved: list[StoredFile] = []
    if form.validate_on_submit():
        try:
            svc.update_listing(listing, svc.listing_data(form.listing_input(), today()))
            _save_photos(listing, form.photos.data or [], saved)
        except svc.InvalidData as err:
            _rollback(saved)
            problems = add_errors(form, err.errors)
        except svc.AdoptionError as err:
            _rollback(saved)
            problems = add_errors(form, [(err.field or "", err.code, err.message)])
        else:
            db.session.commit()
            flash(_("Anúncio atualizado."), "success")
            return redirect(url_for("adoption.listing_edit", listing_id=listing.id))
    db.session.rollback()
    return _render_edit(_managed_listing(listing_id), form, problems=problems, status=400)


@bp.post("/gestao/<int:listing_id>/fotos")
@roles_required(*MANAGERS)
def photo_add(listing_id: int):
    listing = _managed_listing(listing_id)
    photo_form = PhotoForm()
    saved: list[StoredFile] = []
    if photo_form.validate_on_submit():
        try:
            _save_photos(listing, photo_form.photos.data or [], saved)
        except svc.AdoptionError as err:
            _rollback(saved)
            photo_form.photos.errors = [err.message]
        else:
            db.session.commit()
            flash(_("Fotos adicionadas."), "success")
            return redirect(url_for("adoption.listing_edit", listing_id=listing.id) + "#fotos")
    listing = _managed_listing(listing_id)
    return _render_edit(listing, photo_form=photo_form, status=400)


@bp.post("/gestao/<int:listing_id>/fotos/<int:photo_id>/remover")
@roles_required(*MANAGERS)
def photo_remove(listing_id: int, photo_id: int):
    listing = _managed_listing(listing_id)
    if StateForm().validate_on_submit():
        try:
            svc.remove_photo(listing, photo_id)
        except svc.AdoptionError as err:
            db.session.rollback()
            flash(err.message, "danger")
        else:
            db.session.commit()
            flash(_("Foto removida."), "info")
    return redirect(url_for("adoption.listing_edit", listing_id=listing.id) + "#fotos")


@bp.post("/gestao/<int:listing_id>/fotos/<int:photo_id>/mover")
@roles_required(*MANAGERS)
def photo_move(listing_id: int, photo_id: int):
    listing = _managed_listing(listing_id)
    form = MovePhotoForm()
    if form.validate_on_submit():
        try:
            svc.move_photo(listing, photo_id, -1 if form.direction.data == "up" else 1)
        except svc.AdoptionError as err:
            db.session.rollback()
            flash(err.message, "danger")
        else:
            db.session.commit()
    return redirect(url_for("adoption.listing_edit", listing_id=listing.id) + "#fotos")


@bp.post("/gestao/<int:listing_id>/estado")
@roles_required(*MANAGERS)
def listing_state(listing_id: int):
    listing = _managed_listing(listing_id)
    form = StateForm()
    if form.validate_on_submit():
        try:
            svc.change_state(listing, form.state.data or "", current_user)
        except svc.AdoptionError as err:
            db.session.rollback()
            flash(err.message, "danger")
        else:
            db.session.commit()
            flash(
                _("Anúncio agora está: %(state)s.", state=svc.STATE_LABELS[listing.state]),
                "success",
            )
    return redirect(url_for("adoption.listing_edit", listing_id=listing.id))


# -- review --------------------------------------------------------------------------------------


def _render_review(
    application: AdoptionApplication,
    problems: list[str] | None = None,
    info_form: InfoRequestForm | None = None,
    refuse_form: ReasonForm | None = None,
    status: int = 200,
):  # type: ignore[no-untyped-def]
    results = (
        check_eligibility(
            profile(), application.applicant, application.listing, today(), reviewer=True
        )
        if application.is_open
        else []
    )
    return render_template(
        "adoption/review.html",
        application=application,
        results=results,
        documents=svc.application_documents(application, current_user),
        problems=problems or [],
        info_form=info_form or InfoRequestForm(),
        refuse_form=refuse_form or ReasonForm(),
        approve_form=StateForm(),
        doc_form=DocumentReviewForm(),
    ), status


@bp.get("/gestao/pedidos/<int:application_id>")
@roles_required(*MANAGERS)
def review(application_id: int):
    """Answers, live eligibility and proofs of one applicant. The view is audited (LGPD)."""
    application = _managed_application(application_id)
    audit.record("adoption.application_viewed", application)
    db.session.commit()
    return _render_review(application)


def _act(application: AdoptionApplication, action, success: str):  # type: ignore[no-untyped-def]
    try:
        action()
    except apps.NotEligible as err:
        db.session.rollback()
        return _render_review(
            _managed_application(application.id),
            [f"{r.message} ({r.article})" for r in err.results],
            status=400,
        )
    except svc.AdoptionError as err:
        db.session.rollback()
        flash(err.message, "danger")
    else:
        db.session.commit()
        flash(success, "success")
    return redirect(url_for("adoption.review", application_id=application.id))


@bp.post("/gestao/pedidos/<int:application_id>/aprovar")
@roles_required(*MANAGERS)
def approve(application_id: int):
    application = _managed_application(application_id)
    if not StateForm().validate_on_submit():
        abort(400)
    return _act(
        application,
        lambda: apps.approve_application(profile(), application, current_user, today()),
        _("Pedido aprovado; o animal está reservado. Combine a entrega com a pessoa."),
    )


@bp.post("/gestao/pedidos/<int:application_id>/informacoes")
@roles_required(*MANAGERS)
def request_info(application_id: int):
    application = _managed_application(application_id)
    form = InfoRequestForm()
    if not form.validate_on_submit():
        return _render_review(application, info_form=form, status=400)
    return _act(
        application,
        lambda: apps.request_info(application, current_user, form.message.data),
        _("Pedido de informações enviado à pessoa."),
    )


@bp.post("/gestao/pedidos/<int:application_id>/recusar")
@roles_required(*MANAGERS)
def refuse(application_id: int):
    application = _managed_application(application_id)
    form = ReasonForm()
    if not form.validate_on_submit():
        return _render_review(application, refuse_form=form, status=400)
    return _act(
        application,
        lambda: apps.refuse_application(application, current_user, form.reason.data),
        _("Pedido recusado; a pessoa foi avisada com o motivo."),
    )


@bp.post("/gestao/pedidos/<int:application_id>/documentos/<int:document_id>")
@roles_required(*MANAGERS)
def review_document(application_id: int, document_id: int):
    application = _managed_application(application_id)
    doc = db.session.get(ApplicantDocument, document_id)
    if doc is None or doc not in svc.application_documents(application, current_user):
        abort(404)
    form = DocumentReviewForm()
    if not form.validate_on_submit():
        abort(400)
    return _act(
        application,
        lambda: svc.review_document(
            doc, current_user, form.decision.data == "accept", form.reason.data or ""
        ),
        _("Documento conferido."),
    )


@bp.route("/gestao/pedidos/<int:application_id>/entrega", methods=["GET", "POST"])
@roles_required(*MANAGERS)
def handover(application_id: int):
    """The hand-over: confirms the animal's health (VV 28 §1), issues the RGA, charges the fee."""
    application = _managed_application(application_id)
    listing = application.listing
    form = HandoverForm(obj=listing) if request.method == "GET" else HandoverForm()
    problems: list[str] = []
    if form.validate_on_submit():
        health = apps.HealthRecord(
            vaccinated=bool(form.vaccinated.data),
            vaccinated_on=form.vaccinated_on.data,
            dewormed=bool(form.dewormed.data),
            dewormed_on=form.dewormed_on.data,
            sterilized=bool(form.sterilized.data),
            sterilized_on=form.sterilized_on.data,
            rabies_vaccine=form.rabies_vaccine.data or "",
            rabies_batch=form.rabies_batch.data or "",
            rabies_vet_name=form.rabies_vet_name.data or "",
            rabies_vet_crmv=form.rabies_vet_crmv.data or "",
        )
        try:
            apps.complete_adoption(profile(), application, current_user, health, today())
        except apps.DeliveryRefused as err:
            db.session.rollback()
            for name, message, article in err.problems:
                getattr(form, name).errors = [f"{message} ({article})"]
            problems = [f"{message} ({article})" for _n, message, article in err.problems]
        except apps.NotEligible as err:
            db.session.rollback()
            problems = [f"{r.message} ({r.article})" for r in err.results]
        except svc.AdoptionError as err:
            db.session.rollback()
            problems = add_errors(form, [(err.field or "", err.code, err.message)])
        else:
            db.session.commit()
            flash(
                _(
                    "Adoção concluída. RGA %(rga)s emitido para %(name)s; o folheto foi enviado "
                    "por e-mail.",
                    rga=application.rga_number,
                    name=application.applicant.full_name,
                ),
                "success",
            )
            return redirect(url_for("adoption.review", application_id=application.id))
        application = _managed_application(application_id)
    fee = None
    try:
        fee = apps.adoption_fee(profile(), application.listing, today())
    except svc.AdoptionError as err:
        problems.append(err.message)
    delivery = apps.delivery_citations(profile())
    return render_template(
        "adoption/handover.html",
        application=application,
        form=form,
        problems=problems,
        fee=fee,
        delivery=delivery,
    ), (400 if problems or form.errors else 200)


# -- staff: NGOs and bars ------------------------------------------------------------------------


@bp.get("/gestao/ongs")
@staff_required
def organizations():
    orgs = svc.organizations_for_review()
    return render_template(
        "adoption/organizations.html",
        organizations=orgs,
        approve_form=StateForm(),
        refuse_form=ReasonForm(),
        member_form=MemberForm(),
    )


@bp.post("/gestao/ongs/<int:organization_id>/membros")
@staff_required
def organization_member(organization_id: int):
    """Link another account (by its e-mail) to an NGO, e.g. for an NGO created with an API token."""
    org = db.session.get(Organization, organization_id) or abort(404)
    form = MemberForm()
    if form.validate_on_submit():
        user = find_by_email(form.email.data)
        try:
            if user is None:
                raise svc.AdoptionError(
                    _(
                        "Nenhuma conta com este e-mail. Peça à pessoa que crie "
                        "a conta no portal primeiro."
                    ),
                    "email",
                    "not_found",
                )
            svc.add_member(org, user, current_user)
        except svc.AdoptionError as err:
            db.session.rollback()
            flash(err.message, "danger")
        else:
            db.session.commit()
            flash(
                _(
                    "%(name)s agora atua pela ONG %(org)s.",
                    name=user.full_name,
                    org=org.display_name,
                ),
                "success",
            )
    else:
        flash(_("Informe um e-mail válido."), "danger")
    return redirect(url_for("adoption.organizations"))


@bp.post("/gestao/ongs/<int:organization_id>/aprovar")
@staff_required
@recent_password
def organization_approve(organization_id: int):
    org = db.session.get(Organization, organization_id) or abort(404)
    if StateForm().validate_on_submit():
        try:
            svc.approve_organization(org, current_user)
        except svc.AdoptionError as err:
            db.session.rollback()
            flash(err.message, "danger")
        else:
            db.session.commit()
            flash(_("ONG %(name)s aprovada.", name=org.display_name), "success")
    return redirect(url_for("adoption.organizations"))


@bp.post("/gestao/ongs/<int:organization_id>/recusar")
@staff_required
def organization_refuse(organization_id: int):
    org = db.session.get(Organization, organization_id) or abort(404)
    form = ReasonForm()
    if form.validate_on_submit():
        try:
            svc.refuse_organization(org, current_user, form.reason.data)
        except svc.AdoptionError as err:
            db.session.rollback()
            flash(err.message, "danger")
        else:
            db.session.commit()
            flash(_("Cadastro recusado; o motivo foi enviado."), "info")
    else:
        flash(_("Informe o motivo da recusa."), "danger")
    return redirect(url_for("adoption.organizations"))


@bp.route("/gestao/impedimentos", methods=["GET", "POST"])
@staff_required
def bars():
    """Look up and record bars by CPF. The CPF travels only in POST bodies, never in a URL."""
    lookup = BarLookupForm(prefix="busca")
    form = BarForm(prefix="novo")
    found: list[PersonBar] | None = None
    if request.method == "POST" and "busca-cpf" in request.form and lookup.validate():
        try:
            found = svc.bars_for_cpf(lookup.cpf.data)
        except svc.AdoptionError as err:
            lookup.cpf.errors = [err.message]
        else:
            audit.record("adoption.bars_viewed", None, detail={"results": len(found)})
            db.session.commit()
    elif request.method == "POST" and "novo-cpf" in request.form and form.validate():
        listing = db.session.get(Listing, form.listing_id.data) if form.listing_id.data else None
        try:
            if form.listing_id.data and listing is None:
                raise svc.AdoptionError(_("Anúncio não encontrado."), "listing_id")
            animal_id = svc.animal_id_for_rga(form.rga.data) if form.rga.data else None
            svc.record_bar(
                form.cpf.data,
                form.kind.data,
                form.reason.data,
                current_user,
                listing=listing,
                animal_id=animal_id,
                person_name=form.person_name.data,
            )
        except svc.InvalidData as err:
            db.session.rollback()
            add_errors(form, err.errors)
        except svc.AdoptionError as err:
            db.session.rollback()
            add_errors(form, [(err.field or "cpf", err.code, err.message)])
        else:
            db.session.commit()
            flash(_("Impedimento registrado."), "success")
            return redirect(url_for("adoption.bars"))
    recent = svc.recent_bars()
    return render_template(
        "adoption/bars.html",
        lookup=lookup,
        form=form,
        found=found,
        recent=recent,
        revoke_form=ReasonForm(),
        labels=svc.BAR_LABELS,
    ), (400 if form.errors or lookup.errors else 200)


@bp.post("/gestao/impedimentos/<int:bar_id>/cancelar")
@staff_required
def bar_revoke(bar_id: int):
    bar = db.session.get(PersonBar, bar_id) or abort(404)
    form = ReasonForm()
    if form.validate_on_submit():
        try:
            svc.revoke_bar(bar, current_user, form.reason.data)
        except svc.AdoptionError as err:
            db.session.rollback()
            flash(err.message, "danger")
        else:
            db.session.commit()
            flash(_("Impedimento cancelado."), "info")
    else:
        flash(_("Informe o motivo do cancelamento."), "danger")
    return redirect(url_for("adoption.bars"))
