"""Reviewing an application (NGO or CCZ staff): answers, live eligibility and the proofs attached
to it, the decision, the proofs' check and the hand-over. Someone else's application answers 404."""

from __future__ import annotations

from flask import abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import roles_required
from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption import bp, documents
from portal.blueprints.adoption.documents import application_documents
from portal.blueprints.adoption.eligibility import check_eligibility
from portal.blueprints.adoption.errors import AdoptionError
from portal.blueprints.adoption.forms import (
    DocumentReviewForm,
    HandoverForm,
    InfoRequestForm,
    ReasonForm,
    StateForm,
)
from portal.blueprints.adoption.web import (
    MANAGERS,
    managed_application,
    profile,
    show_error,
    today,
)
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApplicantDocument,
)
from portal.services import audit
from portal.views import run_service
from portal.views import show_error as flash_error


def _render_review(
    application: AdoptionApplication,
    problems: list[str] | None = None,
    info_form: InfoRequestForm | None = None,
    refuse_form: ReasonForm | None = None,
    status: int = 200,
):
    results = (
        check_eligibility(
            profile(),
            application.applicant,
            application.listing,
            today(),
            reviewer=True,
            application=application,
        )
        if application.is_open
        else []
    )
    return render_template(
        "adoption/review.html",
        application=application,
        results=results,
        documents=application_documents(application, current_user),
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
    application = managed_application(application_id)
    audit.record("adoption.application_viewed", application)
    db.session.commit()
    return _render_review(application)


def _act(application: AdoptionApplication, action, success: str):
    done = run_service(action, success=success, show=False)
    if isinstance(done.error, apps.NotEligible):  # the page lists the rules not met
        return _render_review(
            managed_application(application.id),
            [f"{r.message} ({r.article})" for r in done.error.results],
            status=400,
        )
    if done.error is not None:
        flash_error(done.error)
    return redirect(url_for("adoption.review", application_id=application.id))


@bp.post("/gestao/pedidos/<int:application_id>/aprovar")
@roles_required(*MANAGERS)
def approve(application_id: int):
    application = managed_application(application_id)
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
    application = managed_application(application_id)
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
    application = managed_application(application_id)
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
    application = managed_application(application_id)
    doc = db.session.get(ApplicantDocument, document_id)
    if doc is None or doc not in application_documents(application, current_user):
        abort(404)
    form = DocumentReviewForm()
    if not form.validate_on_submit():
        abort(400)
    return _act(
        application,
        lambda: documents.review_document(
            doc, current_user, form.decision.data == "accept", form.reason.data or ""
        ),
        _("Documento conferido."),
    )


def _complete(application: AdoptionApplication, form: HandoverForm) -> list[str] | None:
    """Record the hand-over, commit and confirm (None); when refused, roll back and return the
    problems that no field of the form shows."""
    done = run_service(
        lambda: apps.complete_adoption(
            profile(), application, current_user, form.health_record(), today()
        ),
        show=False,  # each kind of refusal is shown its own way below
        success=lambda _v: _(
            "Adoção concluída. RGA %(rga)s emitido para %(name)s; o folheto foi enviado "
            "por e-mail.",
            rga=application.rga_number,
            name=application.applicant.full_name,
        ),
    )
    err = done.error
    if err is None:
        return None
    if isinstance(err, apps.DeliveryRefused):
        problems = [f"{m} ({a})" if a else m for _n, m, a in err.problems]
        for (name, _m, _a), problem in zip(err.problems, problems, strict=True):
            getattr(form, name).errors = [problem]
        return problems
    if isinstance(err, apps.NotEligible):
        return [f"{r.message} ({r.article})" for r in err.results]
    return show_error(form, err)


@bp.route("/gestao/pedidos/<int:application_id>/entrega", methods=["GET", "POST"])
@roles_required(*MANAGERS)
def handover(application_id: int):
    """The hand-over: confirms the animal's health (VV 28 §1), issues the RGA, charges the fee."""
    application = managed_application(application_id)
    form = HandoverForm(obj=application.listing) if request.method == "GET" else HandoverForm()
    problems: list[str] | None = []
    if form.validate_on_submit():
        problems = _complete(application, form)
        if problems is None:
            return redirect(url_for("adoption.review", application_id=application.id))
        application = managed_application(application_id)
    return _handover_page(application, form, problems or [])


def _handover_page(application: AdoptionApplication, form: HandoverForm, problems: list[str]):
    """The hand-over form with the fee to charge and the problems no field shows."""
    fee = None
    try:
        fee = apps.adoption_fee(profile(), application.listing, today())
    except AdoptionError as err:
        problems.append(err.message)
    return render_template(
        "adoption/handover.html",
        application=application,
        form=form,
        problems=problems,
        fee=fee,
        delivery=apps.delivery_citations(profile()),
    ), (400 if problems or form.errors else 200)
