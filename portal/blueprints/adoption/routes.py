"""Public and applicant pages: search, listing, apply, documents, "Minhas adoções", leaflet, term,
and the NGO registration request. Views parse input, call one service, commit once."""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import format_date
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import public, signed_in
from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption import bp
from portal.blueprints.adoption.documents import (
    DOCUMENT_LABELS,
    DOCUMENT_PURPOSE,
    DOCUMENT_STATUS_LABELS,
    attach_document,
    attachable_documents,
    attached_documents,
    current_proofs,
    documents_of,
    upload_document,
)
from portal.blueprints.adoption.eligibility import (
    check_eligibility,
    rule_title,
    submission_blockers,
)
from portal.blueprints.adoption.errors import AdoptionError, InvalidData
from portal.blueprints.adoption.forms import (
    AnswerInfoForm,
    ApplicationForm,
    AttachDocumentForm,
    DocumentForm,
    OrganizationForm,
)
from portal.blueprints.adoption.leaflet import (
    cites_own_law,
    leaflet_footer,
    leaflet_pdf,
    leaflet_sections,
)
from portal.blueprints.adoption.listings import SEXES, SIZES, SPECIES, STATE_LABELS, may_manage
from portal.blueprints.adoption.organizations import (
    OrganizationData,
    organizations_requested_by,
    request_organization,
)
from portal.blueprints.adoption.photos import MAX_PHOTOS
from portal.blueprints.adoption.progress import applicant_step, owner_step
from portal.blueprints.adoption.search import (
    SearchError,
    SearchFilters,
    known_districts,
    owner_choices,
    parse_filters,
    search_listings,
)
from portal.blueprints.adoption.term import TERM_VERSION, term_clauses
from portal.blueprints.adoption.web import add_errors, profile, show_error, today
from portal.extensions import db, limiter
from portal.forms import EmptyForm, choices
from portal.kept_uploads import Kept, Slot, keep
from portal.models import (
    AdoptionApplication,
    ApplicantDocument,
    ApplicationStatus,
    Listing,
    ListingState,
)
from portal.services.ids import query_id
from portal.views import run_service


def template_context() -> dict[str, object]:
    return {
        "SPECIES": SPECIES,
        "SEXES": SEXES,
        "SIZES": SIZES,
        "STATE_LABELS": STATE_LABELS,
        "STATUS_LABELS": apps.STATUS_LABELS,
        "DOCUMENT_LABELS": DOCUMENT_LABELS,
        "DOCUMENT_STATUS_LABELS": DOCUMENT_STATUS_LABELS,
        "rule_title": rule_title,
        "applicant_step": applicant_step,
        "owner_step": owner_step,
        "HOME_TYPES": apps.HOME_TYPES,
        "OTHER_ANIMALS": apps.OTHER_ANIMALS,
        "QUESTION_LABELS": apps.QUESTION_LABELS,
        "MAX_PHOTOS": MAX_PHOTOS,
        "has_my_animals": "animals.my_animals" in current_app.view_functions,
        "has_reports": "reports.new" in current_app.view_functions,
    }


bp.context_processor(template_context)


def age_label(birth: date, estimated: bool, on: date) -> str:
    months = (on.year - birth.year) * 12 + on.month - birth.month - (on.day < birth.day)
    years, rest = divmod(max(months, 0), 12)
    # Singular and plural spelled out: "2 anos e 1 mês", never "2 ano(s) e 1 mes(es)".
    year_text = _("%(n)d anos", n=years) if years != 1 else _("1 ano")
    if years == 0:
        text = _("%(n)d meses", n=rest) if rest != 1 else _("1 mês")
        if rest == 0:
            text = _("menos de 1 mês")
    elif rest == 0 or years >= 3:
        text = year_text
    else:
        month_text = _("%(n)d meses", n=rest) if rest != 1 else _("1 mês")
        text = _("%(years)s e %(months)s", years=year_text, months=month_text)
    return _("cerca de %(age)s", age=text) if estimated else text


def animal_age_filter(listing: Listing) -> str:
    return age_label(listing.birth_date, listing.birth_date_estimated, today())


# -- search and listing ----------------------------------------------------------------------------


@bp.get("")
@public
def search():
    """The public grid; every filter is a URL parameter, so a search can be shared."""
    args = request.args.to_dict()
    filter_errors: dict[str, str] = {}
    filters = SearchFilters()
    for _attempt in range(len(args) + 1):
        try:
            filters = parse_filters(args)
            break
        except SearchError as err:  # show the message next to that filter and ignore its value
            filter_errors[err.field] = err.message
            args.pop(err.field, None)
    on = today()
    try:
        page = search_listings(filters, on, cursor=args.get("cursor"), with_total=True)
    except SearchError as err:  # a cursor from an old link: start again from the first page
        filter_errors[err.field] = err.message
        args.pop("cursor", None)
        page = search_listings(filters, on, with_total=True)
    return render_template(
        "adoption/search.html",
        filters=filters,
        page=page,
        owners=owner_choices(),
        districts=known_districts(),
        filter_errors=filter_errors,
        first_page=not args.get("cursor"),
    )


def _visible_listing(listing_id: int) -> Listing:
    listing = db.session.get(Listing, listing_id)
    if listing is None:
        abort(404)
    if listing.state in (ListingState.DRAFT, ListingState.WITHDRAWN):
        if not (current_user.is_authenticated and may_manage(current_user, listing)):
            abort(404)
    return listing


@bp.get("/animal/<int:listing_id>")
@public
def listing(listing_id: int):
    item = _visible_listing(listing_id)
    existing = (
        apps.open_application_of(current_user, item) if current_user.is_authenticated else None
    )
    can_manage = current_user.is_authenticated and may_manage(current_user, item)
    return render_template(
        "adoption/listing.html",
        listing=item,
        existing=existing,
        can_manage=can_manage,
        profile=profile(),
        delivery=apps.delivery_citations(profile()),
    )


# -- applying ------------------------------------------------------------------------------------


def _submit(item: Listing, form: ApplicationForm) -> AdoptionApplication | list[str]:
    """Submit and commit the application; when refused, roll back and return the problems no
    field of the form shows."""
    done = run_service(
        lambda: apps.submit_application(
            profile(), current_user, item, form.answers(), bool(form.accept_term.data), today()
        ),
        show=False,  # the rules not met, or the answers' problems, are shown below
    )
    if done.value is not None:
        return done.value
    if isinstance(done.error, apps.NotEligible):
        return [r.message for r in done.error.results]
    return show_error(form, done.error) if done.error is not None else []


@bp.route("/animal/<int:listing_id>/quero-adotar", methods=["GET", "POST"])
@signed_in
@limiter.limit("30/hour", methods=["POST"])
def apply(listing_id: int):
    """Eligibility first, then the questionnaire and the term; submitted in one step."""
    item = _visible_listing(listing_id)
    existing = apps.open_application_of(current_user, item)
    if existing is not None:
        flash(_("Você já tem um pedido para este animal."), "info")
        return redirect(url_for("adoption.my_application", application_id=existing.id))
    if item.state != ListingState.PUBLISHED:
        flash(_("Este animal não está disponível para adoção no momento."), "warning")
        return redirect(url_for("adoption.listing", listing_id=item.id))
    form = ApplicationForm()
    problems: list[str] = []
    if form.validate_on_submit():
        outcome = _submit(item, form)
        if isinstance(outcome, AdoptionApplication):
            flash(_("Pedido enviado! Você receberá um e-mail a cada etapa."), "success")
            return redirect(url_for("adoption.my_application", application_id=outcome.id))
        problems = outcome
    results = check_eligibility(profile(), current_user, item, today())
    return render_template(
        "adoption/apply.html",
        listing=item,
        form=form,
        results=results,
        blockers=submission_blockers(results),
        problems=problems,
        proofs=current_proofs(current_user),
        clauses=term_clauses(),
        term_version=TERM_VERSION,
    )


def _open_own_application(application_id: int | None) -> AdoptionApplication | None:
    """The signed-in person's open application a document is sent for (``?pedido=``), if any."""
    application = db.session.get(AdoptionApplication, application_id) if application_id else None
    if application is None or application.applicant_id != current_user.id:
        return None
    return application if application.is_open else None


def _upload(form: DocumentForm, application: AdoptionApplication | None, kept: Kept) -> bool:
    """Keep the proof (attached to ``application`` when sent for one) and commit; else roll back
    and show the error on the form (the file stays held in the draft: issue 25)."""
    # a problem with neither the date nor the kind (the file, or attaching it) goes by the file
    return run_service(
        lambda: _keep_document(form, application, kept), form=form, fallback="file"
    ).ok


def _keep_document(form: DocumentForm, application: AdoptionApplication | None, kept: Kept) -> None:
    held = kept.take("file", DOCUMENT_PURPOSE)
    doc = upload_document(
        current_user, form.kind.data, held[-1], None, form.issued_on.data, today()
    )
    kept.discard()
    if application is not None:  # sent for this application, seen with it only
        attach_document(application, doc, current_user)


@bp.route("/meus-documentos", methods=["GET", "POST"])
@signed_in
@limiter.limit("30/hour", methods=["POST"])
def documents():
    """The adopter's proofs (VV 28 §2): sent once, attached to each application they support."""
    form = DocumentForm()
    if request.method == "GET" and request.args.get("tipo") in DOCUMENT_LABELS:
        form.kind.data = request.args["tipo"]
    back = request.args.get("voltar", type=query_id)
    application = _open_own_application(request.args.get("pedido", type=query_id))
    kept = keep("adoption_document", "", [Slot("file")])  # issue 25: held across a refusal
    kept.relax(form)
    valid = form.validate_on_submit()
    if not kept.show_refused(form) and valid and _upload(form, application, kept):
        flash(_("Documento enviado. Quem analisar seu pedido vai conferi-lo."), "success")
        if application is not None:
            return redirect(url_for("adoption.my_application", application_id=application.id))
        if back:
            return redirect(url_for("adoption.apply", listing_id=back))
        return redirect(url_for("adoption.documents"))
    return render_template(
        "adoption/documents.html",
        form=form,
        kept=kept.files("file"),
        docs=documents_of(current_user),
        back=back,
        application=application,
    )


@bp.post("/minhas/<int:application_id>/documentos")
@signed_in
def attach(application_id: int):
    """Attach a proof already sent to this open application, without sending it again."""
    application = _own_application(application_id)
    form = AttachDocumentForm()
    form.document.choices = _attach_choices(application)
    if form.validate_on_submit():
        run_service(
            lambda: _attach(application, db.session.get(ApplicantDocument, form.document.data)),
            success=_("Documento anexado ao pedido."),
        )
    else:
        flash(_("Escolha o documento."), "danger")
    return redirect(url_for("adoption.my_application", application_id=application.id))


def _attach(application: AdoptionApplication, doc: ApplicantDocument | None) -> None:
    if doc is None:
        raise AdoptionError("document", "not_found", _("Documento não encontrado."))
    attach_document(application, doc, current_user)


def _attach_choices(application: AdoptionApplication) -> list[Any]:
    return choices(
        (str(d.id), f"{DOCUMENT_LABELS[d.kind]} – {format_date(d.uploaded_at, 'dd/MM/yyyy')}")
        for d in attachable_documents(application)
    )


# -- Minhas adoções ------------------------------------------------------------------------------


def _own_application(application_id: int) -> AdoptionApplication:
    application = db.session.get(AdoptionApplication, application_id)
    if application is None or application.applicant_id != current_user.id:
        abort(404)
    return application


@bp.get("/minhas")
@signed_in
def my_applications():
    return render_template(
        "adoption/my_applications.html", applications=apps.applications_of(current_user)
    )


@bp.get("/minhas/<int:application_id>")
@signed_in
def my_application(application_id: int):
    application = _own_application(application_id)
    form = AnswerInfoForm(data=application.answers)
    return _render_my_application(application, form)


def _render_my_application(
    application: AdoptionApplication, form: AnswerInfoForm, problems: list[str] | None = None
):
    results = (
        check_eligibility(
            profile(), current_user, application.listing, today(), application=application
        )
        if application.is_open
        else []
    )
    attach_form = AttachDocumentForm()
    attach_form.document.choices = _attach_choices(application)
    return render_template(
        "adoption/my_application.html",
        application=application,
        form=form,
        cancel_form=EmptyForm(),
        attached=attached_documents(application),
        attach_form=attach_form,
        results=results,
        problems=problems or [],
    )


@bp.post("/minhas/<int:application_id>/responder")
@signed_in
def answer(application_id: int):
    application = _own_application(application_id)
    form = AnswerInfoForm()
    problems: list[str] = []
    if form.validate_on_submit():
        done = run_service(
            lambda: apps.answer_info(
                application, current_user, form.answers(), form.note.data or ""
            ),
            show=False,  # answers' problems by their fields, any other above the form
            success=_("Resposta enviada. Seu pedido voltou para análise."),
        )
        if done.ok:
            return redirect(url_for("adoption.my_application", application_id=application.id))
        if isinstance(done.error, InvalidData):
            problems = add_errors(form, done.error.errors)
        elif done.error is not None:
            problems = [done.error.message]
    return _render_my_application(application, form, problems), 400


@bp.post("/minhas/<int:application_id>/cancelar")
@signed_in
def cancel(application_id: int):
    application = _own_application(application_id)
    if EmptyForm().validate_on_submit():
        run_service(
            lambda: apps.cancel_application(application, current_user),
            success=_("Pedido cancelado."),
            success_category="info",
        )
    return redirect(url_for("adoption.my_application", application_id=application.id))


def _leaflet_application(application_id: int) -> AdoptionApplication:
    application = db.session.get(AdoptionApplication, application_id)
    if application is None or application.status != ApplicationStatus.COMPLETED:
        abort(404)
    if application.applicant_id != current_user.id and not apps.may_review(
        current_user, application
    ):
        abort(404)
    return application


@bp.get("/minhas/<int:application_id>/folheto")
@signed_in
def leaflet(application_id: int):
    """VV 28 §3: the adopter's leaflet, with the adopted animal's own dates."""
    application = _leaflet_application(application_id)
    return render_template(
        "adoption/leaflet.html",
        application=application,
        sections=leaflet_sections(application),
        cites_law=cites_own_law(),
        footer=leaflet_footer(),
    )


@bp.get("/minhas/<int:application_id>/folheto.pdf")
@signed_in
def leaflet_download(application_id: int):
    application = _leaflet_application(application_id)
    return Response(
        leaflet_pdf(application),
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f"attachment; filename=folheto-adocao-{application.id}.pdf",
            "Cache-Control": "private, no-store",
        },
    )


@bp.get("/folheto")
@public
def leaflet_general():
    """The same leaflet for anyone thinking of adopting (no personal data)."""
    return render_template(
        "adoption/leaflet.html",
        application=None,
        sections=leaflet_sections(None),
        cites_law=cites_own_law(),
        footer=leaflet_footer(),
    )


@bp.get("/folheto.pdf")
@public
def leaflet_general_pdf():
    return Response(
        leaflet_pdf(None),
        mimetype="application/pdf",
        headers={"Content-Disposition": "inline; filename=folheto-adocao.pdf"},
    )


@bp.get("/termo")
@public
def term():
    return render_template("adoption/term.html", clauses=term_clauses(), version=TERM_VERSION)


# -- NGO registration ----------------------------------------------------------------------------


@bp.route("/ong/cadastro", methods=["GET", "POST"])
@signed_in
@limiter.limit("10/hour", methods=["POST"])
def organization_request():
    """A citizen asks to register an NGO (CNPJ, responsible person, address); staff approve."""
    form = OrganizationForm()
    mine = organizations_requested_by(current_user)
    if form.validate_on_submit():
        data = OrganizationData(
            **{
                name: (getattr(form, name).data or "")
                for name in OrganizationData.__dataclass_fields__
            }
        )
        done = run_service(
            lambda: request_organization(current_user, data),
            form=form,
            fallback="cnpj",  # every problem names a field of the form; one naming none: CNPJ
            success=_("Pedido de cadastro enviado. Avisaremos por e-mail quando for analisado."),
        )
        if done.ok:
            return redirect(url_for("adoption.organization_request"))
    return render_template("adoption/organization_request.html", form=form, mine=mine)
