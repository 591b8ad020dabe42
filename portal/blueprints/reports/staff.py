"""CCZ pages (``/ccz/denuncias``): queues with filters and the district map, one report's page
with triage (valid / duplicate / out of scope / police), assignment, public replies, the
inspection record (built for a phone) and the police letter.

Every page is for agents, coordinators and admins; the service's state machine decides which moves
each may make, and ``services.reporter_for`` decides (and audits) who sees a confidential reporter.
"""

from __future__ import annotations

from flask import Response, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import roles_required
from portal.blueprints.reports import STAFF_ROLES, bp
from portal.blueprints.reports.casework import (
    add_reply,
    allowed,
    close_after_handover,
    forward_to_police,
    merge,
    police_letter_printed,
    record_inspection,
    reporter_for,
    triage_out_of_scope,
    triage_valid,
)
from portal.blueprints.reports.common import PhotoUpload, ReportErrors
from portal.blueprints.reports.documents import police_letter_pdf
from portal.blueprints.reports.forms import (
    AssignForm,
    CloseForm,
    FilterForm,
    ForwardForm,
    InspectionForm,
    MergeForm,
    OutOfScopeForm,
    ReplyForm,
)
from portal.blueprints.reports.intake import possible_duplicates
from portal.blueprints.reports.labels import FINDING_LABELS, checklist
from portal.blueprints.reports.queries import (
    QUEUES,
    Filters,
    agents,
    by_protocol,
    category_choices,
    district_counts,
    is_overdue,
    queue,
)
from portal.extensions import db
from portal.forms import choices
from portal.kept_uploads import Kept, Slot, keep
from portal.models import Inspection, MaltreatmentReport, User
from portal.profiles.schema import Profile
from portal.services.clock import current_profile, local_today
from portal.views import Outcome, run_service, show_error
from portal.wiring import wiring


def _queue_labels() -> dict[str, str]:
    return {
        "triage": _("Para triagem"),
        "mine": _("Atribuídas a mim"),
        "today": _("Vistorias de hoje"),
        "overdue": _("Atrasadas"),
        "waiting": _("Aguardando notificação/captura"),
        "all": _("Todas"),
    }


def _filters(form: FilterForm) -> Filters:
    return Filters(
        category=form.category.data or None,
        district=form.district.data or None,
        state=form.state.data or None,
        since=form.since.data,
        until=form.until.data,
    )


def _report_or_404(protocol: str):
    report = by_protocol(protocol)
    if report is None:
        abort(404)
    return report


@bp.get("/ccz/denuncias")
@roles_required(*STAFF_ROLES)
def staff_list():
    profile = current_profile()
    today = local_today(profile)
    form = FilterForm(request.args)
    form.category.choices = choices([("", _("Todas")), *category_choices(profile)])
    form.validate()
    filters = _filters(form) if not form.errors else Filters()
    name = request.args.get("fila", "triage")
    if name not in QUEUES:
        name = "triage"
    reports = queue(name, current_user, filters, profile, today)
    counts = {
        q: len(queue(q, current_user, Filters(), profile, today)) for q in QUEUES if q != "all"
    }
    return render_template(
        "reports/staff_list.html",
        form=form,
        reports=reports,
        queue=name,
        queues=_queue_labels(),
        counts=counts,
        today=today,
        profile=profile,
        overdue=lambda r: is_overdue(r, profile, today),
    )


@bp.get("/ccz/denuncias/mapa")
@roles_required(*STAFF_ROLES)
def staff_map():
    profile = current_profile()
    form = FilterForm(request.args)
    form.category.choices = choices([("", _("Todas")), *category_choices(profile)])
    form.validate()
    filters = _filters(form) if not form.errors else Filters()
    rows = district_counts(filters, profile)
    points = [
        r
        for r in queue("all", current_user, filters, profile, local_today(profile), limit=1000)
        if r.lat is not None and r.lng is not None
    ]
    return render_template(
        "reports/staff_map.html",
        form=form,
        rows=rows,
        points=points,
        top=max((r["count"] for r in rows), default=0),
    )


@bp.get("/ccz/denuncias/<protocol>")
@roles_required(*STAFF_ROLES)
def staff_detail(protocol: str):
    report = _report_or_404(protocol)
    profile = current_profile()
    contact = reporter_for(current_user, report)
    if contact is not None:
        db.session.commit()  # the audit line of the view
    assign = AssignForm()
    assign.agent_id.choices = choices([(str(a.id), a.full_name) for a in agents()])
    if report.assigned_agent_id:
        assign.agent_id.data = report.assigned_agent_id
        assign.inspection_on.data = report.inspection_on
    return render_template(
        "reports/staff_detail.html",
        report=report,
        report_captures=wiring().captures_linked_to_report(report),
        contact=contact,
        profile=profile,
        assign=assign,
        out=OutOfScopeForm(),
        merge=MergeForm(),
        forward=ForwardForm(),
        reply=ReplyForm(),
        close=CloseForm(),
        allowed=lambda state: allowed(report, state, current_user),
        checklist=dict(checklist(profile)),
        FINDING_LABELS=FINDING_LABELS,
        is_assigned_agent=report.assigned_agent_id == current_user.id,
        category=profile.reports.category(report.category),
        duplicates=possible_duplicates(report),
    )


def _act(report, action):
    """Run one staff action; on a domain error, flash it and go back to the report."""
    done = run_service(action)
    return redirect(url_for("reports.staff_detail", protocol=report.protocol)), done.ok


def _form_problem(form, report):
    for errs in form.errors.values():
        for message in errs:
            flash(str(message), "danger")
    return redirect(url_for("reports.staff_detail", protocol=report.protocol))


@bp.post("/ccz/denuncias/<protocol>/atribuir")
@roles_required("coordinator", "admin")
def staff_assign(protocol: str):
    report = _report_or_404(protocol)
    form = AssignForm()
    if not form.validate_on_submit():
        return _form_problem(form, report)
    agent = db.session.get(User, form.agent_id.data) if form.agent_id.data else None
    if agent is None:
        flash(_("Escolha um agente da lista."), "danger")
        return redirect(url_for("reports.staff_detail", protocol=report.protocol))
    response, ok = _act(
        report,
        lambda: triage_valid(report, current_user, agent, form.inspection_on.data, local_today()),
    )
    if ok:
        flash(_("Vistoria programada."), "success")
    return response


@bp.post("/ccz/denuncias/<protocol>/fora-de-escopo")
@roles_required("coordinator", "admin")
def staff_out_of_scope(protocol: str):
    report = _report_or_404(protocol)
    form = OutOfScopeForm()
    if not form.validate_on_submit():
        return _form_problem(form, report)
    response, ok = _act(report, lambda: triage_out_of_scope(report, current_user, form.reason.data))
    if ok:
        flash(_("Denúncia encerrada como fora do escopo do CCZ."), "success")
    return response


@bp.post("/ccz/denuncias/<protocol>/juntar")
@roles_required("coordinator", "admin")
def staff_merge(protocol: str):
    report = _report_or_404(protocol)
    form = MergeForm()
    if not form.validate_on_submit():
        return _form_problem(form, report)
    target = by_protocol(form.target.data)
    response, ok = _act(report, lambda: merge(report, target, current_user))
    if ok:
        flash(_("Denúncia juntada a %(p)s.", p=target.protocol if target else ""), "success")
    return response


@bp.post("/ccz/denuncias/<protocol>/policia")
@roles_required("agent", "coordinator", "admin")
def staff_forward(protocol: str):
    report = _report_or_404(protocol)
    form = ForwardForm()
    if not form.validate_on_submit():
        return _form_problem(form, report)
    response, ok = _act(
        report, lambda: forward_to_police(report, current_user, form.note.data or None)
    )
    if ok:
        flash(_("Encaminhada à polícia. Baixe o ofício e envie-o pelo canal oficial."), "success")
    return response


@bp.post("/ccz/denuncias/<protocol>/encerrar")
@roles_required("coordinator", "admin")
def staff_close(protocol: str):
    report = _report_or_404(protocol)
    form = CloseForm()
    if not form.validate_on_submit():
        return _form_problem(form, report)
    response, ok = _act(report, lambda: close_after_handover(report, current_user, form.text.data))
    if ok:
        flash(_("Denúncia encerrada."), "success")
    return response


@bp.post("/ccz/denuncias/<protocol>/mensagem")
@roles_required(*STAFF_ROLES)
def staff_reply(protocol: str):
    report = _report_or_404(protocol)
    form = ReplyForm()
    if not form.validate_on_submit():
        return _form_problem(form, report)
    response, ok = _act(
        report, lambda: add_reply(report, current_user, form.text.data, bool(form.public.data))
    )
    if ok:
        flash(_("Mensagem registrada."), "success")
    return response


@bp.get("/ccz/denuncias/<protocol>/oficio-policia.pdf")
@roles_required(*STAFF_ROLES)
def staff_police_letter(protocol: str):
    report = _report_or_404(protocol)
    profile = current_profile()
    pdf = police_letter_pdf(report, profile, local_today(profile))
    police_letter_printed(report)
    db.session.commit()
    return Response(
        pdf,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'attachment; filename="oficio-{report.protocol}.pdf"',
            "Cache-Control": "private, no-store",
        },
    )


_INSPECTION_SLOTS = [Slot("photos", accept="image", many=True)]


def _record_inspection(
    form: InspectionForm,
    report: MaltreatmentReport,
    profile: Profile,
    findings: dict[str, str],
    kept: Kept,
) -> Outcome[Inspection]:
    def record() -> Inspection:
        made = record_inspection(
            profile,
            report,
            current_user,
            visited_on=form.visited_on.data,
            findings=findings,
            notes=form.notes.data,
            people_present=form.people_present.data,
            outcome=form.outcome.data,
            photos=[PhotoUpload(held=f.stored) for f in kept.files("photos")],
            today=local_today(profile),
        )
        kept.discard()  # the photos are the report's now; the draft goes in the same commit
        return made

    return run_service(record, show=False, success=_("Vistoria registrada."))


@bp.route("/ccz/denuncias/<protocol>/vistoria", methods=["GET", "POST"])
@roles_required("agent", "coordinator")
def staff_inspection(protocol: str):
    report = _report_or_404(protocol)
    profile = current_profile()
    items = checklist(profile)
    if report.state != "assigned" or not allowed(report, "inspected", current_user):
        flash(_("Só o agente designado registra a vistoria de uma denúncia atribuída."), "danger")
        return redirect(url_for("reports.staff_detail", protocol=report.protocol))
    form = InspectionForm()
    if request.method == "GET":
        form.visited_on.data = local_today(profile)
    findings = {code: request.form.get(f"finding_{code}", "not_checked") for code, _l in items}
    # issue 25: the photos are held as they arrive; a refusal of any field keeps them
    kept = keep("report_inspection", report.protocol, _INSPECTION_SLOTS)
    valid = form.validate_on_submit()
    if not kept.show_refused(form) and valid:
        done = _record_inspection(form, report, profile, findings, kept)
        if isinstance(done.error, ReportErrors):
            show_error(done.error, form, fallback="notes")
        else:
            if done.error is not None:  # IllegalMove: the state machine said no
                flash(done.error.message, "danger")
            return redirect(url_for("reports.staff_detail", protocol=report.protocol))
    return _inspection_page(report, form, items, findings, kept), 400 if form.errors else 200


def _inspection_page(
    report: MaltreatmentReport,
    form: InspectionForm,
    items: list[tuple[str, str]],
    findings: dict[str, str],
    kept: Kept,
) -> str:
    """The inspection form with the checklist as answered and the photos the draft holds."""
    return render_template(
        "reports/inspection.html",
        report=report,
        form=form,
        items=items,
        findings=findings,
        FINDING_LABELS=FINDING_LABELS,
        category=current_profile().reports.category(report.category),
        kept=kept.files("photos"),
    )
