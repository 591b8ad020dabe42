"""The CCZ's side of a residence's reduced limit (BJP 17 §1), on the residence page
(``/ccz/licencas/residencias/<animal>``): set it with the technical report, or lift it."""

from __future__ import annotations

from flask import abort, redirect, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import roles_required
from portal.blueprints.licences import bp, reduction
from portal.blueprints.licences.forms import LiftReductionForm, ReductionForm
from portal.blueprints.licences.staff import household_page
from portal.extensions import db
from portal.kept_uploads import Kept, Slot, keep
from portal.models import Animal
from portal.services.clock import current_profile, local_today
from portal.views import run_service

REDUCERS = reduction.REDUCERS
REDUCTION_DRAFT = "household_reduction"  # the staff member's draft holding the laudo técnico


def _first(animal_id: int) -> Animal:
    first = db.session.get(Animal, animal_id)
    if first is None or not current_profile().household.agent_may_reduce:
        abort(404)
    return first


def _back(first: Animal):
    return redirect(url_for("licences.staff_household", animal_id=first.id, _anchor="reducao"))


@bp.post("/ccz/licencas/residencias/<int:animal_id>/reducao")
@roles_required(*REDUCERS)
def staff_reduce(animal_id: int):
    first = _first(animal_id)
    form = ReductionForm()
    # issue 25: the laudo técnico is held as soon as it arrives; a refusal of another field
    # (a date, the number) keeps it
    kept = keep(REDUCTION_DRAFT, str(first.id), [Slot("report")])
    kept.relax(form)
    valid = form.validate_on_submit()
    if kept.show_refused(form) or not valid:
        return household_page(first, reduction_form=form, reduction_kept=kept.files("report"))
    outcome = run_service(
        lambda: _reduce(first, form, kept),
        form=form,
        success=_("Limite da residência reduzido; os moradores foram avisados por e-mail."),
    )
    if outcome.ok:
        return _back(first)
    return household_page(first, reduction_form=form, reduction_kept=kept.files("report"))


def _reduce(first: Animal, form: ReductionForm, kept: Kept) -> object:
    held = kept.files("report")
    made = reduction.set_reduced_limit(
        current_profile(),
        first,
        max_animals=form.max_animals.data,
        report=held[-1].stored if held else None,
        report_name=None,
        report_on=form.report_on.data,
        reason=form.reason.data or "",
        staff=current_user._get_current_object(),
        today=local_today(),
    )
    kept.discard()  # the report is the reduction's now; the draft goes in the same commit
    return made


@bp.post("/ccz/licencas/residencias/<int:animal_id>/reducao/retirar")
@roles_required(*REDUCERS)
def staff_lift_reduction(animal_id: int):
    first = _first(animal_id)
    current = reduction.in_force(first.residence_key)
    if current is None:
        abort(404)
    form = LiftReductionForm()
    if form.validate_on_submit():
        outcome = run_service(
            lambda: reduction.lift_reduced_limit(
                current,
                current_user._get_current_object(),
                profile=current_profile(),
                reason=form.lift_reason.data or "",
            ),
            form=form,
            success=_("Redução retirada; a residência volta ao limite da lei."),
        )
        if outcome.ok:
            return _back(first)
    return household_page(first, lift_form=form)
