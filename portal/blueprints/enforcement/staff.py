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
from portal.blueprints.enforcement import bp, duties, issue_form, services
from portal.blueprints.enforcement.documents import document_pdf
from portal.blueprints.enforcement.forms import (
    DecisionForm,
    IssueForm,
    LaudoReceivedForm,
    ServiceForm,
)
from portal.blueprints.enforcement.labels import SERVICE_LABELS
from portal.blueprints.enforcement.routes import petition_context
from portal.extensions import db
from portal.forms import EmptyForm, choices
from portal.models import Capture, EnforcementDocument, MaltreatmentReport, Petition, ReportState
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import current_profile, local_today

ISSUERS = ("agent", "coordinator")
JUDGES = ("coordinator", "admin")


def _doc(doc_id: int) -> EnforcementDocument:
    doc = db.session.get(EnforcementDocument, doc_id)
    if doc is None:
        abort(404)
    return doc


@bp.get("/ccz/fiscalizacao")
@roles_required(*STAFF)
def staff_list():
    docs = db.session.scalars(
        select(EnforcementDocument).order_by(EnforcementDocument.issued_at.desc()).limit(100)
    ).all()
    return render_template("enforcement/staff_list.html", docs=docs)


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
    parent = _doc(int(after)) if after.isdigit() and len(after) <= 9 else None  # int4 ids
    return report, parent


def _before_term(parent: EnforcementDocument | None) -> Response | None:
    """GRU 70 §2: no auto after an open preliminary notice before its term ends."""
    if parent is None or parent.kind != "preliminary" or parent.status != "open":
        return None
    try:
        services.check_not_complied(parent)
    except services.EnforcementError as err:
        flash(err.message, "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=parent.id))  # type: ignore[return-value]
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
        try:
            doc = issue_form.submit(form, profile, current_user, parent=parent, report=report)
        except services.EnforcementError as err:
            db.session.rollback()
            if not err.show_on(form):
                flash(err.message, "danger")
        else:
            db.session.commit()
            flash(
                _("Documento %(n)s emitido. Registre a ciência do autuado.", n=doc.number),
                "success",
            )
            return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
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
    doc = _doc(doc_id)
    audit.record("enforcement.viewed", doc, detail={"number": doc.number})
    db.session.commit()
    profile = current_profile()
    service_form = ServiceForm()
    service_form.method.choices = choices([(k, str(v)) for k, v in SERVICE_LABELS.items()])
    service_form.service_on.data = local_today()
    decision_form = DecisionForm()
    decision_form.method.choices = service_form.method.choices
    decision_form.service_on.data = local_today()
    return render_template(
        "enforcement/staff_detail.html",
        doc=doc,
        service_form=service_form,
        decision_form=decision_form,
        empty=EmptyForm(),
        may_penalty=services.may_issue_penalty(profile, doc, local_today()),
        may_decide=services.may_decide,
        fine_status=services.fine_status(doc),
        access_code=services.printed_code(doc),
        review=services.awaiting_review(doc),
        doc_capture=db.session.get(Capture, doc.capture_id) if doc.capture_id else None,
        comply_over=_comply_over(doc),
        finding_applies=_finding_applies(profile, doc),  # GRU 87 V-VI
        laudo_form=LaudoReceivedForm(received_on=local_today()),  # VV 23 II
        **petition_context(profile, doc),
    )


def _finding_applies(profile: Profile, doc: EnforcementDocument) -> bool:
    """GRU 87 V-VI: the record makes the apprehension definitive and none was issued yet."""
    finding = duties.repeat_finding(profile, doc)
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
        services.check_not_complied(doc)
    except services.EnforcementError:
        return False
    return True


@bp.get("/ccz/fiscalizacao/<int:doc_id>/documento.pdf")
@roles_required(*STAFF)
def staff_pdf(doc_id: int):
    return document_pdf(_doc(doc_id), current_profile())


@bp.post("/ccz/fiscalizacao/<int:doc_id>/ciencia")
@roles_required(*ISSUERS)
def serve(doc_id: int):
    doc = _doc(doc_id)
    form = ServiceForm()
    form.method.choices = choices([(k, str(v)) for k, v in SERVICE_LABELS.items()])
    if not form.validate_on_submit():
        flash(_("Informe como e quando o autuado tomou ciência."), "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
    try:
        services.record_service(
            current_profile(),
            doc,
            method=form.method.data,
            service_on=form.service_on.data,
            note=form.note.data,
            actor=current_user,
        )
    except services.EnforcementError as err:
        db.session.rollback()
        flash(err.message, "danger")
    else:
        db.session.commit()
        flash(_("Ciência registrada; os prazos começaram a correr."), "success")
    return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))


@bp.post("/ccz/fiscalizacao/<int:doc_id>/retorno")
@roles_required(*ISSUERS)
def return_visit(doc_id: int):
    """ "Sanada" closes the notice; "não sanada" writes nothing here: the notice is closed with
    the auto de infração that follows it, in one transaction (``issue_form.submit``)."""
    doc = _doc(doc_id)
    result = request.form.get("result")
    if not EmptyForm().validate_on_submit() or result not in ("sanada", "nao-sanada"):
        abort(400)
    try:
        if result == "sanada":
            services.record_return_visit(doc, complied=True, actor=current_user)
        else:
            services.check_not_complied(doc)  # GRU 70 §2: only after the term
    except services.EnforcementError as err:
        db.session.rollback()
        flash(err.message, "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
    if result == "sanada":
        db.session.commit()
        return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
    return redirect(url_for("enforcement.issue", apos=doc.id))


@bp.get("/ccz/fiscalizacao/<int:doc_id>/nao-sanada")
@roles_required(*ISSUERS)
def confirm_not_complied(doc_id: int):
    """The confirmation step of "não sanada", with its consequences stated (issue 25)."""
    doc = _doc(doc_id)
    try:
        services.check_not_complied(doc)
    except services.EnforcementError as err:
        flash(err.message, "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
    return render_template("enforcement/confirm_not_complied.html", doc=doc, empty=EmptyForm())


@bp.post("/ccz/fiscalizacao/<int:doc_id>/prorrogar")
@roles_required(*ISSUERS)
def extend(doc_id: int):
    doc = _doc(doc_id)
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        services.extend_comply_term(current_profile(), doc, current_user)
    except services.EnforcementError as err:
        db.session.rollback()
        flash(err.message, "danger")
    else:
        db.session.commit()
        flash(_("Prazo prorrogado."), "success")
    return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))


@bp.post("/ccz/fiscalizacao/<int:doc_id>/penalidade")
@roles_required(*ISSUERS)
def penalty(doc_id: int):
    doc = _doc(doc_id)
    if not EmptyForm().validate_on_submit():
        abort(400)
    try:
        new = services.issue_penalty(current_profile(), doc, current_user)
    except services.EnforcementError as err:
        db.session.rollback()
        flash(err.message, "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=doc.id))
    db.session.commit()
    return redirect(url_for("enforcement.staff_detail", doc_id=new.id))


@bp.post("/ccz/fiscalizacao/peticoes/<int:petition_id>/decidir")
@roles_required(*JUDGES)
def decide(petition_id: int):
    petition = db.session.get(Petition, petition_id)
    if petition is None:
        abort(404)
    form = DecisionForm()
    form.method.choices = choices([(k, str(v)) for k, v in SERVICE_LABELS.items()])
    if not form.validate_on_submit():
        flash(_("Preencha a decisão, a fundamentação e a ciência."), "danger")
        return redirect(url_for("enforcement.staff_detail", doc_id=petition.document_id))
    if form.confirmed.data != "1":  # issue 25: the consequences, then the decision
        return render_template(
            "enforcement/confirm_decision.html",
            petition=petition,
            form=form,
            grant=form.outcome.data == "grant",
            preview=services.decision_preview(
                current_profile(), petition, grant=form.outcome.data == "grant"
            ),
        )
    try:
        services.decide_petition(
            current_profile(),
            petition,
            current_user,
            grant=form.outcome.data == "grant",
            reason=form.reason.data,
            method=form.method.data,
            service_on=form.service_on.data,
            ar_on=form.ar_on.data,
        )
    except services.EnforcementError as err:
        db.session.rollback()
        flash(err.message, "danger")
    else:
        db.session.commit()
        flash(_("Decisão registrada."), "success")
    return redirect(url_for("enforcement.staff_detail", doc_id=petition.document_id))


@bp.post("/ccz/fiscalizacao/peticoes/<int:petition_id>/vista")
@roles_required(*ISSUERS)
def grant_review(petition_id: int):
    """GRU 104: the issuing agent agrees with a grant or orders its re-examination."""
    petition = db.session.get(Petition, petition_id)
    if petition is None or not EmptyForm().validate_on_submit():
        abort(404 if petition is None else 400)
    try:
        services.answer_grant(
            current_profile(),
            petition,
            current_user,
            reexamine=request.form.get("answer") == "reexame",
            note=request.form.get("note", ""),
        )
    except services.EnforcementError as err:
        db.session.rollback()
        flash(err.message, "danger")
    else:
        db.session.commit()
        flash(_("Vista registrada."), "success")
    return redirect(url_for("enforcement.staff_detail", doc_id=petition.document_id))


@bp.get("/ccz/fiscalizacao/divida-ativa.csv")
@roles_required(*JUDGES)
def collection_csv():
    today = local_today()
    services.mark_for_collection(today, current_user)
    rows = services.collection_rows(today)
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
