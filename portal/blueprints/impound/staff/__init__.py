"""Staff pages under ``/ccz/recolhimentos``: the field capture form (made for a phone), the kennel
custody list, one capture's file with reclaim at the counter, release and destination, and the
certidão exams. Views are thin: parse, call one service, commit once, redirect."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import STAFF, roles_required
from portal.blueprints.files import file_url
from portal.blueprints.impound import bp, euthanasia, services
from portal.blueprints.impound.destinations import euthanasia_refusal
from portal.blueprints.impound.forms import (
    WITHDRAW_PREFIX,
    AuctionOutcomeForm,
    CertificateExamForm,
    CounterReclaimForm,
    DefinitiveOpenForm,
    DestinationForm,
    LaudoForm,
    LaudoWithdrawForm,
    RabiesForm,
    RegisterOnReclaimForm,
    ReleaseForm,
)
from portal.domain import DomainError
from portal.extensions import db
from portal.forms import EmptyForm, choices
from portal.kept_uploads import Kept, Slot, keep
from portal.models import Capture, CaptureCertificate, CertificateStatus, Organization, User
from portal.services import audit, drafts
from portal.services.clock import current_profile, local_today
from portal.services.identity import clean_cpf
from portal.views import run_service
from portal.wiring import wiring

EXPENSE_FIELDS = ("capture", "transport", "food", "veterinary", "storage")
DESTINATION_DRAFT = "capture_destination"  # the draft holding a destination's laudo


def _capture(protocol: str) -> Capture:
    return services.find_by_protocol(protocol) or abort(404)


def _act(action: Callable[[], object], done: str, form=None) -> bool:
    return run_service(action, form=form, success=done).ok


def _held(kind: str, protocol: str) -> list[drafts.HeldFile]:
    return drafts.held(drafts.find(current_user, kind, protocol)).get("laudo_file", [])


def _back(capture: Capture):
    return redirect(url_for("impound.staff_capture", protocol=capture.protocol))


@bp.get("/ccz/recolhimentos")
@roles_required(*STAFF)
def staff_custody():
    """The kennel's list: animals in custody with days left, the deadline and the next step."""
    today = local_today()
    return render_template(
        "impound/staff_custody.html", rows=services.custody_rows(today), today=today, s=services
    )


def _capture_forms(profile, capture: Capture, *, fresh: bool = False) -> dict[str, object]:
    """The forms of one capture's staff page (reclaim, release, destination, laudo...); ``fresh``:
    empty, not filled from the request (the page shown again after one of them failed)."""
    blank = {"formdata": None} if fresh else {}
    counter = CounterReclaimForm(**blank)
    counter.exemption.choices = choices(
        [
            ("", _("Nenhuma")),
            *((e.code, f"{e.label} ({e.article})") for e in profile.exemptions_for("reclaim")),
        ]
    )
    return {
        "counter_form": counter,
        "register_form": RegisterOnReclaimForm(**blank),
        "rabies_form": RabiesForm(**blank),
        "definitive_open_form": DefinitiveOpenForm(**blank),
        "release_form": ReleaseForm(**blank),
        "destination_form": _destination_form(profile, capture),
        "withheld": services.destinations_withheld(profile, capture),
        # GRU 88 II; CAB 20: when another species' euthanasia is allowed, beside the laudo
        "euthanasia_rule": euthanasia_refusal(profile, capture),
        "auction_form": AuctionOutcomeForm(**blank),
        "pending_auction": services.pending_auction(capture),
        "laudo_form": LaudoForm(**blank),
        "laudo_withdraw_form": LaudoWithdrawForm(prefix=WITHDRAW_PREFIX, **blank),
        "coordinating_vet": euthanasia.is_coordinating_vet(current_user),  # VV 21 §4
        "empty": EmptyForm(),
    }


def capture_page(capture: Capture, **submitted: object):
    """The capture's staff page; ``submitted``: a form that failed, shown with what was typed."""
    profile, today = current_profile(), local_today()
    fee = None
    if capture.reclaimable and services.active_reclaim(capture) is None:
        try:
            fee = services.reclaim_fee(profile, capture, today)
        except DomainError:
            fee = None
    forms = _capture_forms(profile, capture, fresh=bool(submitted))
    forms.update(submitted)
    return render_template(
        "impound/staff_capture.html",
        capture=capture,
        s=services,
        today=today,
        profile=profile,
        fee=fee,
        reclaim=services.active_reclaim(capture),
        term=services.release_term(profile, capture),
        photo_url=file_url,
        next_step=services.next_step(capture, today),
        proposals=euthanasia.proposals_of(capture),
        claim_open=euthanasia.claim_open,
        auto=wiring().apprehension_linked_to_capture(capture),  # GRU 87 §ú (enforcement)
        # issue 25: the laudos a refused post left in this person's drafts, shown back
        destination_kept=_held(DESTINATION_DRAFT, capture.protocol),
        laudo_kept=_held(euthanasia.LAUDO_DRAFT, capture.protocol),
        **forms,
    ), (422 if submitted else 200)


@bp.get("/ccz/recolhimentos/<protocol>")
@roles_required(*STAFF)
def staff_capture(protocol: str):
    capture = _capture(protocol)
    audit.record("impound.viewed", capture)
    db.session.commit()
    return capture_page(capture)


def _destination_form(profile, capture: Capture) -> DestinationForm:
    form = DestinationForm()
    # Lei 14.228/2021: euthanasia is listed only for a vet, and accepted only with a laudo.
    allow = current_user.has_role("vet")
    form.destination.choices = choices(
        (d, services.destination_label(d))
        for d in services.destinations_offered(profile, capture, incurable_laudo=allow)
    )
    form.community_conditions.choices = choices(
        (c, services.community_condition_label(c))
        for c in profile.impound.community_return_conditions
    )
    orgs = db.session.scalars(select(Organization).order_by(Organization.legal_name))
    form.organization_id.choices = choices(
        [
            ("", _("Escolha")),
            *((str(o.id), o.trade_name or o.legal_name) for o in orgs if o.is_approved),
        ]
    )
    return form


def _claimant(form: CounterReclaimForm) -> User:
    """The person reclaiming at the counter, found by CPF or registered now (name and e-mail);
    a DomainError when neither works."""
    from portal.blueprints.animals.services import AnimalError, OwnerData, find_or_create_owner

    cpf = clean_cpf(form.claimant_cpf.data or "")
    if cpf is None:
        raise DomainError(None, "claimant_cpf", _("CPF inválido."))
    claimant = db.session.scalar(select(User).where(User.cpf == cpf))
    if claimant is not None:
        return claimant
    owner = OwnerData(
        name=form.claimant_name.data or "", cpf=cpf, email=form.claimant_email.data or ""
    )
    try:
        return find_or_create_owner(owner)
    except AnimalError as err:
        raise DomainError(
            None,
            "claimant_unknown",
            _("Pessoa sem cadastro: informe nome completo e e-mail para cadastrá-la."),
        ) from err


def _expenses(form: CounterReclaimForm) -> list[dict[str, Any]]:
    """CABO 41; GRU 72 §1: the CCZ's itemised expenses typed at the counter."""
    from portal.services.money import parse_brl

    return [
        {"kind": k, "amount_cents": parse_brl(getattr(form, f"{k}_reais").data)}
        for k in EXPENSE_FIELDS
        if (getattr(form, f"{k}_reais").data or "").strip()
    ]


@bp.post("/ccz/recolhimentos/<protocol>/resgate")
@roles_required(*STAFF)
def staff_reclaim(protocol: str):
    """Reclaim at the counter: the claimant, an exemption whose proof staff checked, expenses."""
    capture = _capture(protocol)
    form = CounterReclaimForm()
    form.exemption.choices = choices(
        [("", ""), *((e.code, e.code) for e in current_profile().exemptions_for("reclaim"))]
    )
    if not form.validate_on_submit():
        problems = "; ".join(str(e) for errs in form.errors.values() for e in errs)
        flash(_("Confira os dados do resgate: %(errors)s", errors=problems), "danger")
        return _back(capture)
    # The claimant is found or registered in the same commit as the reclaim (or neither).
    _act(
        lambda: services.start_reclaim(
            current_profile(),
            capture,
            claimant=_claimant(form),
            channel="counter",
            started_by=current_user,
            today=local_today(),
            exemption=form.exemption.data or None,
            expenses=_expenses(form) or None,
        ),
        _("Resgate iniciado: a cobrança foi gerada."),
    )
    return _back(capture)


@bp.post("/ccz/recolhimentos/<protocol>/registrar")
@roles_required(*STAFF)
def staff_register(protocol: str):
    capture = _capture(protocol)
    form = RegisterOnReclaimForm()
    reclaim = services.active_reclaim(capture)
    if reclaim is None or not form.validate_on_submit():
        flash(_("Informe o nome e a data de nascimento aproximada do animal."), "danger")
        return _back(capture)
    _act(
        lambda: services.register_on_reclaim(
            current_profile(),
            reclaim,
            name=form.name.data,
            birth_date=form.birth_date.data,
            staff=current_user,
            today=local_today(),
        ),
        _("Animal registrado: RGA emitido."),
    )
    return _back(capture)


def _vaccination(form: RabiesForm):
    """The shot given at the CCZ, as the RGA domain records it (applied today)."""
    from portal.blueprints.animals.services import VaccinationData

    if form.rabies.data != "vaccinated":
        return None
    return VaccinationData(
        applied_on=local_today(),
        vaccine_name=form.vaccine_name.data or "",
        batch=form.batch.data or "",
        vet_name=form.vet_name.data or "",
        vet_crmv=form.vet_crmv.data or "",
        manufacturer=form.manufacturer.data or None,
        expires_on=form.expires_on.data,
        establishment=_("Centro de Controle de Zoonoses"),
    )


@bp.post("/ccz/recolhimentos/<protocol>/vacina")
@roles_required(*STAFF)
def staff_rabies(protocol: str):
    capture = _capture(protocol)
    form = RabiesForm()
    reclaim = services.active_reclaim(capture)
    if reclaim is None or not form.validate_on_submit():
        flash(_("Escolha a situação da vacina antirrábica."), "danger")
        return _back(capture)
    _act(
        lambda: services.record_rabies(
            current_profile(),
            reclaim,
            form.rabies.data,
            staff=current_user,
            today=local_today(),
            vaccination=_vaccination(form),
        ),
        _("Vacinação antirrábica registrada."),
    )
    return _back(capture)


@bp.post("/ccz/recolhimentos/<protocol>/causa-cessada")
@roles_required("agent", "vet", "coordinator")
def staff_cause_ended(protocol: str):
    capture = _capture(protocol)
    if EmptyForm().validate_on_submit():
        _act(
            lambda: services.confirm_cause_ended(capture, agent=current_user),
            _("Registrado: não persistem as causas da captura."),
        )
    return _back(capture)


@bp.post("/ccz/recolhimentos/<protocol>/devolucao")
@roles_required(*STAFF)
def staff_release(protocol: str):
    capture = _capture(protocol)
    form = ReleaseForm()
    if not form.validate_on_submit():
        flash(_("Informe quem assina o termo e confirme a assinatura."), "danger")
        return _back(capture)
    _act(
        lambda: services.release(
            current_profile(),
            capture,
            signed_by_name=form.signed_by_name.data,
            staff=current_user,
            today=local_today(),
        ),
        _("Devolução registrada."),
    )
    return _back(capture)


@bp.post("/ccz/recolhimentos/<protocol>/destinacao")
@roles_required("agent", "vet", "coordinator")
def staff_destination(protocol: str):
    capture = _capture(protocol)
    profile = current_profile()
    form = _destination_form(profile, capture)
    # issue 25: the signed laudo (GRU 88 II) is held as soon as it arrives; a refusal keeps it
    kept = keep(DESTINATION_DRAFT, capture.protocol, [Slot("laudo_file")])
    offered = form.destination.choices
    # Any destination passes the form, so the service says why one is refused (Lei 14.228/2021).
    form.destination.choices = choices((d, d) for d in services.DESTINATIONS)
    valid = form.validate_on_submit()
    form.destination.choices = offered  # the page shown again lists only what the law allows
    if kept.show_refused(form) or not valid:
        flash(_("Escolha a destinação e explique o motivo."), "danger")
        return capture_page(capture, destination_form=form)
    data = _destination_data(form, kept)

    def decide() -> None:
        services.decide_destination(profile, capture, data, actor=current_user, today=local_today())
        kept.discard()  # the laudo is the decision's now (or unused); the draft goes too

    if not _act(decide, _("Destinação registrada."), form):
        # What was typed stays, the message beside its field (or on top).
        return capture_page(_capture(protocol), destination_form=form)
    return _back(capture)


def _destination_data(form: DestinationForm, kept: Kept) -> services.DestinationData:
    held = kept.files("laudo_file")
    return services.DestinationData(
        destination=form.destination.data,
        reason=form.reason.data,
        vet_report=form.vet_report.data,
        vet_crmv=form.vet_crmv.data,
        lab_exam=form.lab_exam.data,
        incurable=bool(form.incurable.data),
        organization_id=int(form.organization_id.data) if form.organization_id.data else None,
        carer_name=form.carer_name.data,
        listing_name=form.listing_name.data,
        community_conditions=tuple(form.community_conditions.data or ()),
        slaughterhouse=form.slaughterhouse.data,
        laudo_file=held[-1].stored if held else None,
    )


@bp.post("/ccz/recolhimentos/<protocol>/leilao")
@roles_required("agent", "vet", "coordinator")
def staff_auction_outcome(protocol: str):
    """CAB 20: the auction's outcome; a failed one brings the animal back for another
    destination."""
    capture = _capture(protocol)
    form = AuctionOutcomeForm()
    if not form.validate_on_submit():
        return capture_page(capture, auction_form=form)
    sold = form.outcome.data == "sold"
    done = _act(
        lambda: services.record_auction_outcome(
            capture, sold=sold, actor=current_user, today=local_today()
        ),
        _("Leilão arrematado: caso encerrado.")
        if sold
        else _("Leilão frustrado registrado: escolha agora a destinação do animal."),
        form,
    )
    if not done:
        return capture_page(_capture(protocol), auction_form=form)
    return _back(capture)


@bp.post("/ccz/recolhimentos/<protocol>/apreensao-definitiva")
@roles_required("agent", "vet", "coordinator")
def staff_definitive_open(protocol: str):
    """GRU 87 I-XI; CABO 39 §4: open a definitive apprehension; the auto de apreensão is issued
    through the enforcement procedure (defence and appeal)."""
    capture = _capture(protocol)
    form = DefinitiveOpenForm()
    if not form.validate_on_submit():
        flash(_("Informe o artigo e o motivo."), "danger")
        return _back(capture)
    _act(
        lambda: services.open_definitive_apprehension(
            capture,
            article=form.definitive_article.data.strip(),
            reason=form.definitive_reason.data.strip(),
            actor=current_user,
        ),
        _("Apreensão definitiva aberta: o animal não pode ser resgatado até a decisão final."),
    )
    return _back(capture)


@bp.get("/ccz/certidoes")
@roles_required(*STAFF)
def staff_certificates():
    found = db.session.scalars(
        select(CaptureCertificate)
        .where(CaptureCertificate.status == CertificateStatus.REQUESTED)
        .order_by(CaptureCertificate.exam_on)
    ).all()
    return render_template(
        "impound/staff_certificates.html", certificates=found, form=CertificateExamForm()
    )


@bp.post("/ccz/certidoes/<int:certificate_id>/exame")
@roles_required(*STAFF)
def staff_certificate_exam(certificate_id: int):
    cert = db.session.get(CaptureCertificate, certificate_id) or abort(404)
    form = CertificateExamForm()
    if form.validate_on_submit():
        _act(
            lambda: services.issue_certificate(
                current_profile(),
                cert,
                confirmed=form.confirmed.data == "yes",
                note=form.note.data or "",
                staff=current_user,
                today=local_today(),
            ),
            _("Exame registrado."),
        )
    else:
        flash(_("Escolha o resultado do exame."), "danger")
    return redirect(url_for("impound.staff_certificates"))


# the views by subject register on ``bp`` when imported
from portal.blueprints.impound.staff import field, laudos, on_site_document  # noqa: E402,F401
