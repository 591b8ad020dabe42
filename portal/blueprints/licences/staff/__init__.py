"""The CCZ's side of the licences under ``/ccz/licencas``: the list, the file of a request
(assignment, inspection, decision, cancellation) and the households above the limit without a
valid licence. Opening a file or a household shows personal data: every view is audited."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from flask_wtf import FlaskForm
from sqlalchemy import select

from portal.access import STAFF, roles_required
from portal.blueprints.licences import bp, decisions, reduction
from portal.blueprints.licences.common import document_name, rule_of
from portal.blueprints.licences.decisions import (
    ask_info,
    assign,
    cancel,
    file_viewed,
    record_inspection,
    refuse,
    schedule_inspection,
)
from portal.blueprints.licences.forms import (
    ApproveForm,
    AssignForm,
    InspectionForm,
    LiftReductionForm,
    QuestionForm,
    ReasonForm,
    ReductionForm,
    ScheduleForm,
)
from portal.blueprints.licences.household import (
    counted,
    household_allowance,
    household_viewed,
    residence_animals,
)
from portal.blueprints.licences.labels import event_label, status_label
from portal.extensions import db
from portal.forms import choices
from portal.kept_uploads import Kept, Slot, keep
from portal.models import Animal, ExcessLicence, User, UserRole
from portal.profiles.schema import ChecklistItem, LicenceRule, Profile
from portal.services import drafts
from portal.services.clock import current_profile, local_today
from portal.views import run_service

# BJP 17 §4: "a critério do agente sanitário responsável pelo processo"; coordinators too.
DECIDERS = ("agent", "vet", "coordinator", "admin")
INSPECTION_DRAFT = "licence_inspection"  # the agent's draft holding the visit's photos


def _licence(licence_id: int) -> ExcessLicence:
    licence = db.session.get(ExcessLicence, licence_id)
    if licence is None:
        abort(404)
    return licence


def _agents() -> list[User]:
    return list(
        db.session.scalars(
            select(User)
            .join(UserRole, UserRole.user_id == User.id)
            .where(UserRole.role.in_(["agent", "vet"]))
            .distinct()
            .order_by(User.full_name)
        )
    )


def checklist_label(item: ChecklistItem) -> str:
    from portal.blueprints.reports.labels import CHECKLIST_LABELS

    return item.label or str(CHECKLIST_LABELS.get(item.code, item.code))


def _agent_choices(form: AssignForm | ScheduleForm) -> None:
    form.agent_id.choices = choices((str(a.id), a.full_name) for a in _agents())


def _act(licence: ExcessLicence, action: Callable[[], object], done: str) -> bool:
    return run_service(action, success=done).ok


def _back(licence: ExcessLicence):
    return redirect(url_for("licences.staff_file", licence_id=licence.id))


@bp.get("/ccz/licencas")
@roles_required(*STAFF)
def staff_list():
    today = local_today()
    found = db.session.scalars(
        select(ExcessLicence).order_by(ExcessLicence.id.desc()).limit(300)
    ).all()
    return render_template(
        "licences/staff_list.html",
        today=today,
        rows=[(lic, status_label(lic, today)) for lic in found],
    )


def _file_forms(licence: ExcessLicence, rule: LicenceRule, today: date) -> dict[str, FlaskForm]:
    """The file's forms, with their choices and the defaults a decision usually takes."""
    assign_form, schedule_form = AssignForm(), ScheduleForm()
    _agent_choices(assign_form)
    _agent_choices(schedule_form)
    inspection = InspectionForm()
    inspection.checklist.choices = choices((i.code, checklist_label(i)) for i in rule.checklist)
    if inspection.inspected_on.data is None:
        inspection.inspected_on.data = today
    approve = ApproveForm()
    approve.covered.choices = choices(
        (str(link.id), f"{link.animal.rga} · {link.animal.name}") for link in licence.animals
    )
    if approve.max_animals.data is None:
        approve.max_animals.data = min(
            licence.animals_requested, rule.max_animals or licence.animals_requested
        )
    if not approve.covered.data:
        approve.covered.data = [str(link.id) for link in licence.animals]
    return {
        "assign_form": assign_form,
        "schedule_form": schedule_form,
        "inspection_form": inspection,
        "approve_form": approve,
    }


@bp.get("/ccz/licencas/<int:licence_id>")
@roles_required(*STAFF)
def staff_file(licence_id: int):
    licence = _licence(licence_id)
    file_viewed(licence)
    db.session.commit()
    return _file_page(licence)


def _file_page(licence: ExcessLicence, **forms: FlaskForm) -> str:
    """The licence file; ``forms``: a refused form shown again with what was typed."""
    profile, today = current_profile(), local_today()
    rule = rule_of(profile)
    held = drafts.find(current_user, INSPECTION_DRAFT, str(licence.id))
    return render_template(
        "licences/staff_file.html",
        licence=licence,
        today=today,
        rule=rule,
        household=profile.household,
        status=status_label(licence, today),
        **{**_file_forms(licence, rule, today), **forms},
        inspection_kept=drafts.held(held).get("photos", []),
        reason_form=ReasonForm(),
        question_form=QuestionForm(),
        event_label=event_label,
        checklist_label=checklist_label,
        checklist_items=rule.checklist,
        deciders=DECIDERS,
        document=document_name(profile),
        at_home=residence_animals(licence.residence_key),
    )


@bp.post("/ccz/licencas/<int:licence_id>/designar")
@roles_required(*STAFF)
def staff_assign(licence_id: int):
    licence = _licence(licence_id)
    form = AssignForm()
    _agent_choices(form)
    if form.validate_on_submit():
        agent = db.session.get(User, int(form.agent_id.data))
        if agent is not None:
            _act(
                licence,
                lambda: assign(licence, agent, current_user._get_current_object()),
                _("Agente designado."),
            )
    else:
        flash(_("Escolha um agente."), "danger")
    return _back(licence)


@bp.post("/ccz/licencas/<int:licence_id>/agendar")
@roles_required(*STAFF)
def staff_schedule(licence_id: int):
    licence = _licence(licence_id)
    form = ScheduleForm()
    _agent_choices(form)
    if form.validate_on_submit():
        agent = db.session.get(User, int(form.agent_id.data))
        if agent is not None:
            _act(
                licence,
                lambda: schedule_inspection(
                    licence,
                    agent,
                    form.scheduled_for.data,
                    current_user._get_current_object(),
                    today=local_today(),
                ),
                _("Vistoria agendada."),
            )
    else:
        flash(_("Escolha o agente e a data da vistoria."), "danger")
    return _back(licence)


@bp.post("/ccz/licencas/<int:licence_id>/vistoria")
@roles_required("agent", "vet", "coordinator", "admin")
def staff_inspection(licence_id: int):
    licence = _licence(licence_id)
    profile = current_profile()
    form = InspectionForm()
    form.checklist.choices = choices(
        (i.code, checklist_label(i)) for i in rule_of(profile).checklist
    )
    # issue 25: the photos are held as they arrive; a refusal of any field keeps them (and the
    # page comes back with what was typed, not a redirect that would lose it)
    kept = keep(INSPECTION_DRAFT, str(licence.id), [Slot("photos", accept="image", many=True)])
    valid = form.validate_on_submit()
    if kept.show_refused(form) or not valid:
        flash(_("Preencha a data e o que foi verificado na vistoria."), "danger")
        return _file_page(licence, inspection_form=form), 400
    recorded = _act(
        licence,
        lambda: _record_inspection(profile, licence, form, kept),
        _("Vistoria registrada."),
    )
    if not recorded:
        return _file_page(licence, inspection_form=form), 400
    return _back(licence)


def _record_inspection(
    profile: Profile, licence: ExcessLicence, form: InspectionForm, kept: Kept
) -> object:
    """The visit as typed, with the photos its draft holds."""
    made = record_inspection(
        licence,
        current_user._get_current_object(),
        inspected_on=form.inspected_on.data,
        checklist={code: True for code in form.checklist.data or []},
        findings=form.findings.data,
        satisfactory=bool(form.satisfactory.data),
        profile=profile,
        today=local_today(),
        photos=[f.stored for f in kept.files("photos")],
    )
    kept.discard()  # the photos are the file's now; the draft goes in the same commit
    return made


@bp.post("/ccz/licencas/<int:licence_id>/decisao/<action>")
@roles_required(*DECIDERS)
def staff_decide(licence_id: int, action: str):
    licence = _licence(licence_id)
    decide = _DECISIONS.get(action)
    if decide is None:
        abort(404)
    decide(licence, current_user._get_current_object(), action)
    return _back(licence)


def _approve(licence: ExcessLicence, staff: User, _action: str) -> None:
    form = ApproveForm()
    form.covered.choices = choices((str(link.id), str(link.id)) for link in licence.animals)
    if not form.validate_on_submit():
        flash(_("Informe o número aprovado."), "danger")
        return
    covered = [int(v) for v in form.covered.data or []]
    _act(
        licence,
        lambda: decisions.approve(
            licence,
            staff,
            max_animals=form.max_animals.data,
            covered_ids=covered,
            reason=form.reason.data,
            profile=current_profile(),
            today=local_today(),
        ),
        _("Licença aprovada."),
    )


def _ask_info(licence: ExcessLicence, staff: User, _action: str) -> None:
    question = QuestionForm()
    if not question.validate_on_submit():
        flash(_("Escreva o que o cidadão deve informar."), "danger")
        return
    _act(
        licence,
        lambda: ask_info(licence, staff, question.question.data),
        _("Pedido de informações enviado ao cidadão."),
    )


def _refuse_or_cancel(licence: ExcessLicence, staff: User, action: str) -> None:
    reason = ReasonForm()
    if not reason.validate_on_submit():
        flash(_("Explique o motivo."), "danger")
        return
    today = local_today()
    if action == "recusar":
        _act(
            licence,
            lambda: refuse(licence, staff, reason.reason.data, today=today),
            _("Pedido recusado."),
        )
    else:
        _act(
            licence,
            lambda: cancel(licence, staff, reason.reason.data, today=today),
            _("Licença cancelada."),
        )


_DECISIONS: dict[str, Callable[[ExcessLicence, User, str], None]] = {
    "aprovar": _approve,
    "pedir-informacoes": _ask_info,
    "recusar": _refuse_or_cancel,
    "cancelar": _refuse_or_cancel,
}


@bp.get("/ccz/licencas/residencias/<int:animal_id>")
@roles_required(*STAFF)
def staff_household(animal_id: int):
    """A residence above the limit (from the staff queue): its animals and licence history."""
    first = db.session.get(Animal, animal_id)
    if first is None:
        abort(404)
    household_viewed(first)
    db.session.commit()
    return household_page(first)


def household_page(
    first: Animal,
    *,
    reduction_form: ReductionForm | None = None,
    lift_form: LiftReductionForm | None = None,
    reduction_kept: list[drafts.HeldFile] | None = None,
) -> str:
    """The residence page, with the forms of a reduced limit (BJP 17 §1) where the law has it;
    ``reduction_kept``: the laudo técnico held from a refused post (by default, whatever the
    staff member's draft of this residence's reduction holds)."""
    profile, today = current_profile(), local_today()
    if reduction_kept is None:
        held = drafts.find(current_user, "household_reduction", str(first.id))
        reduction_kept = drafts.held(held).get("report", [])
    key = first.residence_key
    history = db.session.scalars(
        select(ExcessLicence)
        .where(ExcessLicence.residence_key == key)
        .order_by(ExcessLicence.id.desc())
    ).all()
    at_home = residence_animals(key)
    allowance = household_allowance(profile, key, today)
    return render_template(
        "licences/staff_household.html",
        first=first,
        animals=at_home,
        today=today,
        counted=counted(at_home, today, profile),
        household=profile.household,
        allowance=allowance,
        history=[(lic, status_label(lic, today)) for lic in history],
        reduction=reduction.in_force(key) if profile.household.agent_may_reduce else None,
        reduction_form=reduction_form or ReductionForm(formdata=None),
        lift_form=lift_form or LiftReductionForm(formdata=None),
        reduction_kept=reduction_kept,
        reducers=reduction.REDUCERS,
    )


# BJP 17 §1: the reduced limit's views register on ``bp`` when imported
from portal.blueprints.licences.staff import household_reduction  # noqa: E402,F401
