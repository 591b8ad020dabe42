"""Laudos that propose the euthanasia of a captured dog or cat (Lei 14.228/2021; VV 21 §4 I).

The vet records the laudo from the capture's staff page; approved NGOs read every laudo, its file
and the animal's facts in their area ``/ong/laudos`` (art. 2º §1º, 3º) and, within the claim window
and unless the disease is incurable and infectious, claim the animal (art. 2º §2º)."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import STAFF, roles_required
from portal.blueprints.files import file_url
from portal.blueprints.impound import bp, euthanasia, services
from portal.blueprints.impound.forms import (
    WITHDRAW_PREFIX,
    LaudoForm,
    LaudoWithdrawForm,
    NgoClaimForm,
)
from portal.blueprints.impound.laudo_review import supervise_proposal, withdraw_proposal
from portal.forms import EmptyForm, choices
from portal.kept_uploads import Kept, Slot, keep
from portal.models import EuthanasiaProposal, Organization, ProposalStatus
from portal.services.clock import current_profile, local_today
from portal.views import requested_page, run_service

NGO_AREA = ("ngo", *STAFF)


@bp.post("/ccz/recolhimentos/<protocol>/laudo")
@roles_required("vet")
def staff_laudo(protocol: str):
    """The vet's laudo proposing euthanasia: the NGOs are e-mailed at once."""
    from portal.blueprints.impound.staff import capture_page  # the package imports this module

    capture = services.find_by_protocol(protocol) or abort(404)
    form = LaudoForm()
    # issue 25: the signed laudo is held as soon as it arrives, and a refusal shows the capture's
    # page again with the text as typed and the file held
    kept = keep(euthanasia.LAUDO_DRAFT, capture.protocol, [Slot("laudo_file")])
    valid = form.validate_on_submit()
    for messages in kept.refused.values():
        flash(" ".join(messages), "danger")
    if not valid or kept.refused:
        if not valid:
            flash(_("Escreva o laudo e informe o CRMV."), "danger")
        return capture_page(capture, laudo_form=form)
    data = _proposal_data(form, kept)

    def propose() -> EuthanasiaProposal:
        proposal = euthanasia.propose_euthanasia(
            current_profile(), capture, data, vet=current_user, today=local_today()
        )
        kept.discard()  # the laudo is the proposal's now; the draft goes in the same commit
        return proposal

    if not run_service(propose, form=form, success=_recorded).ok:
        return capture_page(capture, laudo_form=form)
    return redirect(url_for("impound.staff_capture", protocol=capture.protocol))


def _proposal_data(form: LaudoForm, kept: Kept) -> euthanasia.ProposalData:
    """The laudo as typed, with the signed file the draft holds (the last one sent)."""
    held = kept.files("laudo_file")
    return euthanasia.ProposalData(
        vet_report=form.vet_report.data or "",
        vet_crmv=form.vet_crmv.data or "",
        lab_exam=form.lab_exam.data,
        infectious=bool(form.infectious.data),
        laudo_file=held[-1].stored if held else None,
    )


def _recorded(proposal: EuthanasiaProposal) -> str:
    if proposal.status == ProposalStatus.PENDING:  # VV 21 §4
        return _(
            "Laudo nº %(n)s registrado; aguarda a supervisão do médico veterinário "
            "coordenador (%(article)s).",
            n=proposal.number,
            article=current_profile().impound.cite("laudo_supervision"),
        )
    return _("Laudo nº %(n)s registrado; as entidades foram avisadas.", n=proposal.number)


def _staff_proposal(protocol: str, number: str) -> EuthanasiaProposal:
    proposal = euthanasia.proposal_by_number(number)
    if proposal is None or proposal.capture.protocol != protocol.strip().upper():
        abort(404)
    return proposal


def _laudo_step(proposal: EuthanasiaProposal, invalid: str | None, step, done: str):
    """Run one step on a laudo (``invalid``: the form's problem, if any), commit, go back."""
    back = redirect(url_for("impound.staff_capture", protocol=proposal.capture.protocol))
    if invalid:
        flash(invalid, "danger")
        return back
    run_service(step, success=done)
    return back


@bp.post("/ccz/recolhimentos/<protocol>/laudo/<number>/retirar")
@roles_required("vet")
def staff_laudo_withdraw(protocol: str, number: str):
    """A vet withdraws the laudo with a reason; the NGOs and the owner told get a notice."""
    proposal = _staff_proposal(protocol, number)
    form = LaudoWithdrawForm(prefix=WITHDRAW_PREFIX)
    return _laudo_step(
        proposal,
        None if form.validate_on_submit() else _("Escreva por que o laudo é retirado."),
        lambda: withdraw_proposal(proposal, vet=current_user, reason=form.reason.data or ""),
        _("Laudo nº %(n)s retirado.", n=proposal.number),
    )


@bp.post("/ccz/recolhimentos/<protocol>/laudo/<number>/supervisionar")
@roles_required("vet")
def staff_laudo_supervise(protocol: str, number: str):
    """VV 21 §4: the coordinating vet signs the laudo off; it takes effect."""
    proposal = _staff_proposal(protocol, number)
    return _laudo_step(
        proposal,
        None if EmptyForm().validate_on_submit() else _("Envie o formulário novamente."),
        lambda: supervise_proposal(
            current_profile(), proposal, supervisor=current_user, today=local_today()
        ),
        _("Laudo nº %(n)s supervisionado: as entidades foram avisadas.", n=proposal.number),
    )


@bp.get("/ong/laudos")
@roles_required(*NGO_AREA)
def ngo_cases():
    """Every laudo, for approved NGOs and staff (art. 3º: unrestricted access)."""
    if not euthanasia.may_read_laudos(current_user):
        abort(403)
    page = requested_page()
    proposals, older = euthanasia.proposals_for_ngos(page)
    return render_template(
        "impound/ngo_cases.html",
        proposals=proposals,
        page=page,
        older=older,
        today=local_today(),
        claim_open=euthanasia.claim_open,
        s=services,
    )


def _organizations() -> list[Organization]:
    from portal.blueprints.adoption.services import organizations_of

    return organizations_of(current_user)


def _proposal(number: str) -> EuthanasiaProposal:
    if not euthanasia.may_read_laudos(current_user):
        abort(403)
    return euthanasia.proposal_by_number(number) or abort(404)


@bp.get("/ong/laudos/<number>")
@roles_required(*NGO_AREA)
def ngo_case(number: str):
    """One laudo: the animal, the laudo, its file and, while open, the claim."""
    proposal = _proposal(number)
    form = NgoClaimForm()
    orgs = _organizations()
    form.organization_id.choices = choices((str(o.id), o.display_name) for o in orgs)
    return render_template(
        "impound/ngo_case.html",
        proposal=proposal,
        capture=proposal.capture,
        form=form,
        may_claim=bool(orgs) and euthanasia.claim_open(proposal, local_today()),
        s=services,
        photo_url=file_url,
        law=euthanasia.FEDERAL_NGO_CLAIM,
        documents_law=euthanasia.FEDERAL_DOCUMENTS,
    )


@bp.post("/ong/laudos/<number>/resgatar")
@roles_required("ngo")
def ngo_claim(number: str):
    """Art. 2º §2º: the NGO takes the animal; it is destined to it."""
    proposal = _proposal(number)
    form = NgoClaimForm()
    orgs = {str(o.id): o for o in _organizations()}
    form.organization_id.choices = choices((k, o.display_name) for k, o in orgs.items())
    back = redirect(url_for("impound.ngo_case", number=proposal.number))
    if not form.validate_on_submit() or form.organization_id.data not in orgs:
        flash(_("Escolha a entidade e confirme o resgate."), "danger")
        return back
    run_service(
        lambda: euthanasia.claim_for_ngo(
            proposal, orgs[form.organization_id.data], user=current_user, today=local_today()
        ),
        success=_("Resgate registrado: combine com o CCZ a retirada do animal."),
    )
    return back
