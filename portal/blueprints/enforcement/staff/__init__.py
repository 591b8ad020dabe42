"""Staff pages: agents issue documents (from a report's inspection or their own round, on a
phone), record service, return visits and penalties; superiors decide petitions; the dívida ativa
CSV for the city's tax system."""

from __future__ import annotations

import csv
import io

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import STAFF, roles_required
from portal.blueprints.enforcement import bp, issue_form
from portal.blueprints.enforcement.common import EnforcementError
from portal.blueprints.enforcement.decisions import decide_petition, decision_preview, may_decide
from portal.blueprints.enforcement.documents import document_pdf
from portal.blueprints.enforcement.duties import RepeatFinding
from portal.blueprints.enforcement.fines import collection_rows, fine_status, mark_for_collection
from portal.blueprints.enforcement.forms import (
    DecisionForm,
    IssueForm,
    LaudoReceivedForm,
    ServiceForm,
)
from portal.blueprints.enforcement.labels import SERVICE_LABELS
from portal.blueprints.enforcement.petitions import issue_penalty, may_issue_penalty
from portal.blueprints.enforcement.reading import printed_code
from portal.blueprints.enforcement.review import answer_grant, awaiting_review
from portal.blueprints.enforcement.routes import (
    document_context,
    document_or_404,
    petition_context,
    render_page,
)
from portal.blueprints.enforcement.serving import (
    check_not_complied,
    extend_comply_term,
    record_return_visit,
    record_service,
)
from portal.extensions import db
from portal.forms import EmptyForm, choices
from portal.models import Capture, EnforcementDocument, MaltreatmentReport, Petition, ReportState
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import current_profile, local_today
from portal.views import run_service

ISSUERS = ("agent", "coordinator")
JUDGES = ("coordinator", "admin")


def _button_post(doc_id: int) -> EnforcementDocument:
    """The document a staff button acts on; 400 when the POST lacks its CSRF token."""
    doc = document_or_404(doc_id)
    if not EmptyForm().validate_on_submit():
        abort(400)
    return doc


def _petition(petition_id: int) -> Petition:
    petition = db.session.get(Petition, petition_id)
    if petition is None:
        abort(404)
    return petition


@bp.get("/ccz/fiscalizacao")
@roles_required(*STAFF)
def staff_list():
    docs = db.session.scalars(
        select(EnforcementDocument).order_by(EnforcementDocument.issued_at.desc()).limit(100)
    ).all()
    return render_page("enforcement/staff_list.html", docs=docs)


def _issue_context() -> tuple[MaltreatmentReport | None, EnforcementDocument | None]:
    report = None
    protocol = request.args.get("denuncia")
    if protocol:
        report = db.session.scalar(
            select(MaltreatmentReport).where(MaltreatmentReport.protocol == protocol)
        )
        if report is None or report.state != ReportState.INSPECTED:
            abort(404)
    after = request.args.get("apos", "")
    # int4 ids: a longer number names no document
    parent = document_or_404(int(after)) if after.isdigit() and len(after) <= 9 else None
    return report, parent


def _before_term(parent: EnforcementDocument | None) -> Response | None:
    """GRU 70 §2: no auto after an open preliminary notice before its term ends."""
    if parent is None or parent.kind != "preliminary" or parent.status != "open":
        return None
    return _term_still_running(parent)


def _term_still_running(doc: EnforcementDocument) -> Response | None:
    """GRU 70 §2: "não sanada" only once the notice's term is over. Before, back to the document
    with the reason; None when the term is over. A check: nothing is written, nothing to undo."""
    try:
        check_not_complied(doc)
    except EnforcementError as err:
        flash(err.message, "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))  # type: ignore[return-value]
    return None


@bp.route("/ccz/fiscalizacao/novo", methods=["GET", "POST"])
@roles_required(*ISSUERS)
def issue():
    profile = current_profile()
    report, parent = _issue_context()
    early = _before_term(parent)
    if early is not None:
        return early
    form = IssueForm()
    issue_form.fill_choices(form, profile)
    if request.method == "GET":
        seize = request.args.get("tipo") == "apreensao"  # GRU 87 V-VI, from the document page
        issue_form.prefill(form, report, parent, apprehension=seize)
    if form.validate_on_submit():
        done = run_service(
            lambda: issue_form.submit(form, profile, current_user, parent=parent, report=report),
            form=form,
            success=lambda doc: _(
                "Documento %(n)s emitido. Registre a ciência do autuado.", n=doc.number
            ),
        )
        if done.value is not None:
            return redirect(url_for("enforcement.staff_detail", doc_id=done.value.id))
    return _issue_page(profile, form, report, parent)


def _issue_page(
    profile: Profile,
    form: IssueForm,
    report: MaltreatmentReport | None,
    parent: EnforcementDocument | None,
) -> str:
    """The issuing form, with the fines that go together and the expenses the law charges."""
    rule = profile.expense_rule("fine")
    return render_template(
        "enforcement/issue.html",
        form=form,
        report=report,
        parent=parent,
        joint=issue_form.joint_fines(profile),
        expense_kinds=issue_form.expense_kinds(profile),
        expense_article=rule.article if rule else "",
    )


@bp.get("/ccz/fiscalizacao/<int:doc_id>")
@roles_required(*STAFF)
def staff_detail(doc_id: int):
    doc = document_or_404(doc_id)
    audit.record("enforcement.viewed", doc, detail={"number": doc.number})
    db.session.commit()
    profile = current_profile()
    shown = document_context(profile, doc)
    return render_page(
        "enforcement/staff_detail.html",
        doc=doc,
        **_service_forms(),
        empty=EmptyForm(),
        may_penalty=may_issue_penalty(profile, doc, local_today()),
        may_decide=may_decide,
        fine_status=fine_status(doc),
        access_code=printed_code(doc),
        review=awaiting_review(doc),
        doc_capture=db.session.get(Capture, doc.capture_id) if doc.capture_id else None,
        comply_over=_comply_over(doc),
        finding_applies=_finding_applies(shown["finding"], doc),  # GRU 87 V-VI
        laudo_form=LaudoReceivedForm(received_on=local_today()),  # VV 23 II
        today=local_today(),
        **shown,
        **petition_context(profile, doc),
    )


def _service_forms() -> dict[str, ServiceForm | DecisionForm]:
    """The forms that record the ciência of the document and of a decision, dated today."""
    service_form = ServiceForm()
    service_form.method.choices = choices([(k, str(v)) for k, v in SERVICE_LABELS.items()])
    service_form.service_on.data = local_today()
    decision_form = DecisionForm()
    decision_form.method.choices = service_form.method.choices
    decision_form.service_on.data = local_today()
    return {"service_form": service_form, "decision_form": decision_form}


def _finding_applies(finding: RepeatFinding | None, doc: EnforcementDocument) -> bool:
    """GRU 87 V-VI: the record makes the apprehension definitive and none was issued yet."""
    if finding is None or not finding.applies:
        return False
    issued = db.session.scalar(
        select(EnforcementDocument.id)
        .where(
            EnforcementDocument.parent_id == doc.id,
            EnforcementDocument.kind == "apprehension",
            EnforcementDocument.status != "cancelled",
        )
        .limit(1)
    )
    return issued is None


def _comply_over(doc: EnforcementDocument) -> bool:
    try:
        check_not_complied(doc)
    except EnforcementError:
        return False
    return True


@bp.get("/ccz/fiscalizacao/<int:doc_id>/documento.pdf")
@roles_required(*STAFF)
def staff_pdf(doc_id: int):
    return document_pdf(document_or_404(doc_id), current_profile())


@bp.post("/ccz/fiscalizacao/<int:doc_id>/ciencia")
@roles_required(*ISSUERS)
def serve(doc_id: int):
    doc = document_or_404(doc_id)
    form = ServiceForm()
    form.method.choices = choices([(k, str(v)) for k, v in SERVICE_LABELS.items()])
    if not form.validate_on_submit():
        flash(_("Informe como e quando o autuado tomou ciência."), "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
    run_service(
        lambda: record_service(
            current_profile(),
            doc,
            method=form.method.data,
            service_on=form.service_on.data,
            note=form.note.data,
            actor=current_user,
        ),
        success=_("Ciência registrada; os prazos começaram a correr."),
    )
    return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))


@bp.post("/ccz/fiscalizacao/<int:doc_id>/retorno")
@roles_required(*ISSUERS)
def return_visit(doc_id: int):
    """ "Sanada" closes the notice; "não sanada" writes nothing here: the notice is closed with
    the auto de infração that follows it, in one transaction (``issue_form.submit``)."""
    doc = document_or_404(doc_id)
    result = request.form.get("result")
    if not EmptyForm().validate_on_submit() or result not in ("sanada", "nao-sanada"):
        abort(400)
    if result == "sanada":
        run_service(lambda: record_return_visit(doc, complied=True, actor=current_user))
        return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
    return _term_still_running(doc) or redirect(url_for("enforcement.issue", apos=doc.id))


@bp.get("/ccz/fiscalizacao/<int:doc_id>/nao-sanada")
@roles_required(*ISSUERS)
def confirm_not_complied(doc_id: int):
    """The confirmation step of "não sanada", with its consequences stated (issue 25)."""
    doc = document_or_404(doc_id)
    refused = _term_still_running(doc)
    if refused is not None:
        return refused
    return render_page("enforcement/confirm_not_complied.html", doc=doc, empty=EmptyForm())


@bp.post("/ccz/fiscalizacao/<int:doc_id>/prorrogar")
@roles_required(*ISSUERS)
def extend(doc_id: int):
    doc = _button_post(doc_id)
    run_service(
        lambda: extend_comply_term(current_profile(), doc, current_user),
        success=_("Prazo prorrogado."),
    )
    return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))


@bp.post("/ccz/fiscalizacao/<int:doc_id>/penalidade")
@roles_required(*ISSUERS)
def penalty(doc_id: int):
    doc = _button_post(doc_id)
    done = run_service(lambda: issue_penalty(current_profile(), doc, current_user))
    new = done.value if done.value is not None else doc
    return redirect(url_for("enforcement.staff_detail", doc_id=new.id))


@bp.post("/ccz/fiscalizacao/peticoes/<int:petition_id>/decidir")
@roles_required(*JUDGES)
def decide(petition_id: int):
    petition = _petition(petition_id)
    form = DecisionForm()
    form.method.choices = choices([(k, str(v)) for k, v in SERVICE_LABELS.items()])
    if not form.validate_on_submit():
        flash(_("Preencha a decisão, a fundamentação e a ciência."), "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=petition.document_id))
    if form.confirmed.data != "1":  # issue 25: the consequences, then the decision
        return _confirm_decision(petition, form)
    run_service(
        lambda: decide_petition(
            current_profile(),
            petition,
            current_user,
            grant=form.outcome.data == "grant",
            reason=form.reason.data,
            method=form.method.data,
            service_on=form.service_on.data,
            ar_on=form.ar_on.data,
        ),
        success=_("Decisão registrada."),
    )
    return redirect(url_for("enforcement.staff_detail", doc_id=petition.document_id))


def _confirm_decision(petition: Petition, form: DecisionForm) -> str:
    """What the decision will set in motion, for the judge to confirm before it is recorded."""
    grant = form.outcome.data == "grant"
    return render_page(
        "enforcement/confirm_decision.html",
        petition=petition,
        form=form,
        grant=grant,
        preview=decision_preview(current_profile(), petition, grant=grant),
    )


@bp.post("/ccz/fiscalizacao/peticoes/<int:petition_id>/vista")
@roles_required(*ISSUERS)
def grant_review(petition_id: int):
    """GRU 104: the issuing agent agrees with a grant or orders its re-examination."""
    petition = _petition(petition_id)
    if not EmptyForm().validate_on_submit():
        abort(400)
    run_service(
        lambda: answer_grant(
            current_profile(),
            petition,
            current_user,
            reexamine=request.form.get("answer") == "reexame",
            note=request.form.get("note", ""),
        ),
        success=_("Vista registrada."),
    )
    return redirect(url_for("enforcement.staff_detail", doc_id=petition.document_id))


@bp.get("/ccz/fiscalizacao/divida-ativa.csv")
@roles_required(*JUDGES)
def collection_csv():
    today = local_today()
    mark_for_collection(today, current_user)
    rows = collection_rows(today)
    audit.record("enforcement.collection_exported", None, detail={"rows": len(rows) - 1})
    db.session.commit()
    out = io.StringIO()
    csv.writer(out, delimiter=";").writerows(rows)
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="divida-ativa-{today.isoformat()}.csv"'
        },
    )


# the views by subject register on ``bp`` when imported
from portal.blueprints.enforcement.staff import duties, interdiction, representation  # noqa: E402,F401,I001
