"""Staff views of the RGA (admin area): vaccination proofs to check and registrations awaiting the
shot, vaccination, approval, search, second copies to issue, and a registration's full record.

Every page that shows a citizen's personal data writes an audit event (who, when, what); the
owner's CPF is searched through a POST form, so it never appears in a URL or an access-log line,
and it is never written in the audit detail.
"""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import roles_required, staff_required
from portal.blueprints.animals import bp, provisional
from portal.blueprints.animals.common import VaccinationData
from portal.blueprints.animals.copies import mark_copy_issued, report_death
from portal.blueprints.animals.downloads import card_response, tag_response
from portal.blueprints.animals.forms import (
    DeathForm,
    ProofRefusalForm,
    StaffSearchForm,
    StaffVaccinationForm,
)
from portal.blueprints.animals.registration import approve_registration, fees_of, record_vaccination
from portal.blueprints.animals.reports import (
    open_copy_requests,
    pending_registrations,
    search_animals,
)
from portal.blueprints.animals.validation import current_vaccination
from portal.domain import DomainError
from portal.extensions import db
from portal.forms import EmptyForm
from portal.models import Animal, DocumentCopyRequest
from portal.services import audit
from portal.services.clock import current_profile, local_today
from portal.views import problems, run_service
from portal.wiring import wiring

VACCINATORS = ("vet", "agent", "admin")  # agents vaccinate in campaigns (BJP 13 §3)
APPROVERS = ("vet", "coordinator", "admin")


def _animal(animal_id: int) -> Animal:
    animal = db.session.get(Animal, animal_id)
    if animal is None:
        abort(404)
    return animal


def _render_pending(refusing: tuple[int, ProofRefusalForm] | None = None, status: int = 200):
    """The queue: owner-typed vaccinations to check (provisional.py), then registrations awaiting
    the rabies shot at the CCZ (BJP 6 §ú)."""
    proofs = provisional.proofs_to_check()
    animals = pending_registrations()
    audit.record("animal.pending_listed", detail={"count": len(animals), "proofs": len(proofs)})
    db.session.commit()
    forms = {a.id: ProofRefusalForm(prefix=f"recusa-{a.id}", formdata=None) for a in proofs}
    if refusing is not None and refusing[0] in forms:
        forms[refusing[0]] = refusing[1]
    return render_template(
        "animals/staff/pending.html",
        animals=animals,
        proofs=proofs,
        refuse_forms=forms,
        form=EmptyForm(),
        may_check=current_user.has_role(*APPROVERS),
    ), status


@bp.get("/animais/ccz/pendentes")
@staff_required
def staff_pending():
    return _render_pending()


@bp.post("/animais/ccz/animal/<int:animal_id>/comprovante/aceitar")
@roles_required(*APPROVERS)
def staff_accept_proof(animal_id: int):
    """The owner's vaccination record is right (provisional.py): the RGA becomes definitive when
    its fee is settled too, and the owner is told by e-mail."""
    animal = _animal(animal_id)
    if EmptyForm().validate_on_submit():
        run_service(
            lambda: provisional.accept_proof(animal, current_user._get_current_object()),
            error_category="warning",
            success=lambda definitive: (
                _("Comprovante aceito: o RGA %(rga)s agora é definitivo.", rga=animal.rga)
                if definitive
                else _(
                    "Comprovante aceito. O RGA %(rga)s fica definitivo quando a taxa for paga.",
                    rga=animal.rga,
                )
            ),
        )
    return redirect(url_for("animals.staff_pending"))


@bp.post("/animais/ccz/animal/<int:animal_id>/comprovante/recusar")
@roles_required(*APPROVERS)
def staff_refuse_proof(animal_id: int):
    """Refuse the owner's vaccination record with a reason, sent to the owner by e-mail."""
    animal = _animal(animal_id)
    form = ProofRefusalForm(prefix=f"recusa-{animal.id}")
    if form.validate_on_submit():
        done = run_service(
            lambda: provisional.refuse_proof(
                animal, current_user._get_current_object(), form.reason.data or ""
            ),
            form=form,  # a missing reason goes next to the field; the rest is flashed
            error_category="warning",
            success=lambda _none: _(
                "Comprovante recusado; o proprietário foi avisado por e-mail e o RGA "
                "%(rga)s aguarda a vacinação no CCZ.",
                rga=animal.rga,
            ),
            success_category="info",
        )
        if done.ok:
            return redirect(url_for("animals.staff_pending"))
        if form.reason.errors:
            return _render_pending((animal.id, form), 422)
    elif form.errors:
        return _render_pending((animal.id, form), 422)
    return redirect(url_for("animals.staff_pending"))


@bp.route("/animais/ccz/buscar", methods=["GET", "POST"])
@staff_required
def staff_search():
    """Search by RGA, microchip, owner CPF or name: POST only, so no CPF reaches a URL or log."""
    form = StaffSearchForm()
    results = None
    if form.validate_on_submit():
        done = run_service(lambda: _search(form), show=False)
        results = done.value
        if done.error is not None:  # every search problem is about the term typed
            form.q.errors = [*form.q.errors, done.error.message]
    return render_template("animals/staff/search.html", form=form, results=results)


def _search(form: StaffSearchForm) -> list[Animal]:
    results = search_animals(form.kind.data, form.q.data)
    # the search term is personal data for CPF and name searches: only kind and count
    audit.record("animal.searched", detail={"kind": form.kind.data, "results": len(results)})
    return results


@bp.get("/animais/ccz/animal/<int:animal_id>")
@staff_required
def staff_animal(animal_id: int):
    animal = _animal(animal_id)
    audit.record("animal.viewed", animal, detail={"rga": animal.rga})
    db.session.commit()
    return _animal_page(animal, StaffVaccinationForm(formdata=None))


def _animal_page(animal: Animal, vaccination_form: StaffVaccinationForm) -> str:
    """The staff page of an animal, its vaccination form as given (blank, or refused)."""
    today = local_today()
    return render_template(
        "animals/staff/animal.html",
        animal=animal,
        today=today,
        current=current_vaccination(animal, today),
        vaccination_form=vaccination_form,
        death_form=DeathForm(formdata=None),
        form=EmptyForm(),
        fees=fees_of(animal),
        missing=provisional.missing(animal),
        consequences=wiring().consequences_linked_to_person(animal.owner.cpf),  # enforcement
    )


# Where each service error field is shown on the staff vaccination form.
_VACCINATION_FIELDS = {
    "rabies_vaccination.date": "applied_on",
    "rabies_vaccination.vaccine": "vaccine_name",
    "rabies_vaccination.batch": "batch",
    "rabies_vaccination.vet_name": "vet_name",
    "rabies_vaccination.vet_crmv": "vet_crmv",
    "rabies_vaccination.expires_on": "expires_on",
    "rabies_vaccination.next_due": "next_due_on",
}


def _show_vaccination_errors(form: StaffVaccinationForm, err: DomainError | None) -> None:
    for problem in problems(err) if err is not None else []:
        target = form[_VACCINATION_FIELDS.get(problem.field or "", "applied_on")]
        target.errors = [*target.errors, problem.message]


def _vaccination_data(form: StaffVaccinationForm) -> VaccinationData:
    """The BJP 13 §1 fields of the staff vaccination form."""
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
    )


@bp.post("/animais/ccz/animal/<int:animal_id>/vacina")
@roles_required(*VACCINATORS)
def staff_vaccinate(animal_id: int):
    """Record a rabies vaccination (BJP 13 §1 fields); a pending registration becomes active."""
    animal = _animal(animal_id)
    form = StaffVaccinationForm()
    if form.validate_on_submit():
        was_pending = animal.status == "pending"
        done = run_service(
            lambda: record_vaccination(
                animal,
                _vaccination_data(form),
                recorded_by=current_user._get_current_object(),
                at_ccz=True,
                today=local_today(),
            ),
            show=False,  # the service's field paths are mapped onto this form below
            success=lambda _v: (
                _("Vacinação registrada; o RGA %(rga)s está ativo.", rga=animal.rga)
                if was_pending and animal.status == "active"
                else _("Vacinação registrada.")
            ),
        )
        if done.ok:
            return redirect(url_for("animals.staff_animal", animal_id=animal.id))
        _show_vaccination_errors(form, done.error)
    return _animal_page(animal, form), 422


@bp.post("/animais/ccz/animal/<int:animal_id>/aprovar")
@roles_required(*APPROVERS)
def staff_approve(animal_id: int):
    animal = _animal(animal_id)
    if EmptyForm().validate_on_submit():
        profile = current_profile()
        run_service(
            lambda: approve_registration(
                animal,
                approved_by=current_user._get_current_object(),
                profile=profile,
                today=local_today(profile),
            ),
            success=lambda _v: _("Registro aprovado: RGA %(rga)s ativo.", rga=animal.rga),
        )
    return redirect(url_for("animals.staff_animal", animal_id=animal.id))


@bp.post("/animais/ccz/animal/<int:animal_id>/obito")
@roles_required("vet", "admin")
def staff_death(animal_id: int):
    """A vet reports the death (GRU 21: "cabe ao proprietário ou ao veterinário responsável")."""
    animal = _animal(animal_id)
    form = DeathForm()
    if form.validate_on_submit():
        run_service(
            lambda: report_death(
                animal,
                reported_by=current_user._get_current_object(),
                died_on=form.died_on.data,
                today=local_today(),
                note=form.note.data,
            ),
            success=lambda _v: _("Baixa registrada: RGA %(rga)s encerrado.", rga=animal.rga),
            success_category="info",
        )
    else:
        for errors in form.errors.values():
            flash(" ".join(str(e) for e in errors), "danger")
    return redirect(url_for("animals.staff_animal", animal_id=animal.id))


@bp.get("/animais/ccz/animal/<int:animal_id>/carteira.pdf")
@staff_required
def staff_card(animal_id: int):
    """Staff print the card at the counter (the owner's data is on it: audited)."""
    animal = _animal(animal_id)
    audit.record("animal.card_printed", animal, detail={"rga": animal.rga})
    db.session.commit()
    return card_response(animal)


@bp.get("/animais/ccz/animal/<int:animal_id>/plaqueta.pdf")
@staff_required
def staff_tag(animal_id: int):
    return tag_response(_animal(animal_id))


@bp.get("/animais/ccz/segundas-vias")
@staff_required
def staff_copies():
    """Second copies to issue, the closest provisional expiry first (GRU 19 §2)."""
    copies = open_copy_requests()
    audit.record("animal.copies_listed", detail={"count": len(copies)})
    db.session.commit()
    return render_template(
        "animals/staff/copies.html", copies=copies, form=EmptyForm(), today=local_today()
    )


@bp.post("/animais/ccz/segundas-vias/<int:copy_id>/emitida")
@staff_required
def staff_copy_issued(copy_id: int):
    copy = db.session.get(DocumentCopyRequest, copy_id)
    if copy is None:
        abort(404)
    if EmptyForm().validate_on_submit():
        run_service(
            lambda: mark_copy_issued(copy, current_user._get_current_object()),
            error_category="warning",
            success=_("Segunda via marcada como emitida."),
        )
    return redirect(url_for("animals.staff_copies"))
