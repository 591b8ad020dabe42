"""Staff pages under ``/ccz/recolhimentos``: the field capture form (made for a phone), the kennel
custody list, one capture's file with reclaim at the counter, release and destination, and the
certidão exams. Views are thin: parse, call one service, commit once, redirect."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import STAFF, roles_required
from portal.blueprints.files import file_url
from portal.blueprints.impound import bp, services
from portal.blueprints.impound.forms import (
    CaptureForm,
    CertificateExamForm,
    CounterReclaimForm,
    DefinitiveDecisionForm,
    DefinitiveOpenForm,
    DestinationForm,
    RabiesForm,
    RegisterOnReclaimForm,
    ReleaseForm,
)
from portal.domain import DomainError
from portal.extensions import db
from portal.forms import EmptyForm, choices
from portal.models import Capture, CaptureCertificate, CertificateStatus, Organization, User
from portal.services import audit
from portal.services.clock import current_profile, local_now, local_today, tz
from portal.services.identity import clean_cpf

EXPENSE_FIELDS = ("capture", "transport", "food", "veterinary", "storage")


def _capture(protocol: str) -> Capture:
    return services.find_by_protocol(protocol) or abort(404)


def _act(action: Callable[[], object], done: str, form=None) -> bool:  # type: ignore[no-untyped-def]
    try:
        action()
    except DomainError as err:
        db.session.rollback()
        if form is None or not err.show_on(form):
            flash(err.message, "danger")
        return False
    db.session.commit()
    flash(done, "success")
    return True


def _back(capture: Capture):  # type: ignore[no-untyped-def]
    return redirect(url_for("impound.staff_capture", protocol=capture.protocol))


def _reason_choices(form: CaptureForm) -> None:
    profile = current_profile()
    form.reason.choices = choices(
        (r, f"{services.reason_label(r)} ({services.reason_article(profile, r)})")
        for r in services.REASONS
    )


@bp.route("/ccz/recolhimentos/novo", methods=["GET", "POST"])
@roles_required(*STAFF)
def staff_new():
    """The field agent records a capture on a phone."""
    form = CaptureForm()
    _reason_choices(form)
    if request.method == "GET":
        now = local_now()
        form.captured_on.data, form.captured_time.data = (
            now.date(),
            now.time().replace(second=0, microsecond=0),
        )
    if form.validate_on_submit():
        local = datetime.combine(form.captured_on.data, form.captured_time.data, tzinfo=tz())
        photos = [(f.stream, f.filename) for f in (form.photos.data or []) if f and f.filename]
        data = services.CaptureData(
            species=form.species.data,
            size=form.size.data,
            sex=form.sex.data,
            color=form.color.data,
            place=form.place.data,
            district=form.district.data,
            captured_at=local.astimezone(UTC),
            captured_on=form.captured_on.data,
            reason=form.reason.data,
            condition=form.condition.data,
            custody_type=form.custody_type.data,
            tag_read=form.tag_read.data,
            microchip=form.microchip.data,
            condition_note=form.condition_note.data,
            latitude=float(form.latitude.data) if form.latitude.data is not None else None,
            longitude=float(form.longitude.data) if form.longitude.data is not None else None,
            photos=photos,
        )
        try:
            capture = services.record_capture(
                current_profile(), data, agent=current_user, today=local_today()
            )
        except DomainError as err:
            db.session.rollback()
            if not err.show_on(form):
                flash(err.message, "danger")
        else:
            db.session.commit()
            flash(
                _("Captura registrada: protocolo %(protocol)s.", protocol=capture.protocol),
                "success",
            )
            return _back(capture)
    return render_template("impound/staff_new.html", form=form)


@bp.get("/ccz/recolhimentos")
@roles_required(*STAFF)
def staff_custody():
    """The kennel's list: animals in custody with days left, the deadline and the next step."""
    today = local_today()
    return render_template(
        "impound/staff_custody.html", rows=services.custody_rows(today), today=today, s=services
    )


@bp.get("/ccz/recolhimentos/<protocol>")
@roles_required(*STAFF)
def staff_capture(protocol: str):
    capture = _capture(protocol)
    audit.record("impound.viewed", capture)
    db.session.commit()
    profile, today = current_profile(), local_today()
    counter = CounterReclaimForm()
    counter.exemption.choices = choices(
        [
            ("", _("Nenhuma")),
            *((e.code, f"{e.label} ({e.article})") for e in profile.exemptions_for("reclaim")),
        ]
    )
    destination = _destination_form(profile, capture)
    fee = None
    if capture.reclaimable and services.active_reclaim(capture) is None:
        try:
            fee = services.reclaim_fee(profile, capture, today)
        except DomainError:
            fee = None
    return render_template(
        "impound/staff_capture.html",
        capture=capture,
        s=services,
        today=today,
        profile=profile,
        fee=fee,
        reclaim=services.active_reclaim(capture),
        counter_form=counter,
        register_form=RegisterOnReclaimForm(),
        rabies_form=RabiesForm(),
        definitive_open_form=DefinitiveOpenForm(),
        definitive_decision_form=DefinitiveDecisionForm(),
        release_form=ReleaseForm(),
        destination_form=destination,
        empty=EmptyForm(),
        term=services.release_term(profile, capture),
        photo_url=file_url,
        next_step=services.next_step(capture, today),
    )


def _destination_form(profile, capture: Capture) -> DestinationForm:  # type: ignore[no-untyped-def]
    form = DestinationForm()
    # Lei 14.228/2021: euthanasia is listed only for a vet, and accepted only with a laudo.
    allow = current_user.has_role("vet")
    form.destination.choices = choices(
        (d, services.destination_label(d))
        for d in services.destinations_offered(profile, capture, incurable_laudo=allow)
    )
    orgs = db.session.scalars(select(Organization).order_by(Organization.legal_name))
    form.organization_id.choices = choices(
        [
            ("", _("Escolha")),
            *((str(o.id), o.trade_name or o.legal_name) for o in orgs if o.is_approved),
        ]
    )
    return form


@bp.post("/ccz/recolhimentos/<protocol>/resgate")
@roles_required(*STAFF)
def staff_reclaim(protocol: str):
    """Reclaim at the counter: the claimant, an exemption whose proof staff checked, expenses."""
    from portal.blueprints.animals.services import AnimalError, OwnerData, find_or_create_owner

    capture = _capture(protocol)
    form = CounterReclaimForm()
    form.exemption.choices = choices(
        [("", ""), *((e.code, e.code) for e in current_profile().exemptions_for("reclaim"))]
    )
    if not form.validate_on_submit():
        flash(
            _(
                "Confira os dados do resgate: %(errors)s",
                errors="; ".join(str(e) for errs in form.errors.values() for e in errs),
            ),
            "danger",
        )
        return _back(capture)
    cpf = clean_cpf(form.claimant_cpf.data or "")
    if cpf is None:
        flash(_("CPF inválido."), "danger")
        return _back(capture)
    claimant = db.session.scalar(select(User).where(User.cpf == cpf))
    if claimant is None:
        try:
            claimant = find_or_create_owner(
                OwnerData(
                    name=form.claimant_name.data or "",
                    cpf=cpf,
                    email=form.claimant_email.data or "",
                )
            )
        except AnimalError:
            db.session.rollback()
            flash(
                _("Pessoa sem cadastro: informe nome completo e e-mail para cadastrá-la."), "danger"
            )
            return _back(capture)
    expenses = [
        {"kind": k, "amount_cents": getattr(form, f"{k}_cents").data}
        for k in EXPENSE_FIELDS
        if getattr(form, f"{k}_cents").data
    ]
    _act(
        lambda: services.start_reclaim(
            current_profile(),
            capture,
            claimant=claimant,
            channel="counter",
            started_by=current_user,
            today=local_today(),
            exemption=form.exemption.data or None,
            expenses=expenses or None,
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
            current_profile(), reclaim, form.rabies.data, staff=current_user, today=local_today()
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
    form.destination.choices = choices((d, d) for d in services.DESTINATIONS)
    if not form.validate_on_submit():
        flash(_("Escolha a destinação e explique o motivo."), "danger")
        return _back(capture)
    data = services.DestinationData(
        destination=form.destination.data,
        reason=form.reason.data,
        vet_report=form.vet_report.data,
        vet_crmv=form.vet_crmv.data,
        lab_exam=form.lab_exam.data,
        incurable=bool(form.incurable.data),
        organization_id=int(form.organization_id.data) if form.organization_id.data else None,
        carer_name=form.carer_name.data,
        listing_name=form.listing_name.data,
    )
    _act(
        lambda: services.decide_destination(
            profile, capture, data, actor=current_user, today=local_today()
        ),
        _("Destinação registrada."),
    )
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


@bp.post("/ccz/recolhimentos/<protocol>/apreensao-definitiva/decisao")
@roles_required("coordinator")
def staff_definitive_decision(protocol: str):
    capture = _capture(protocol)
    form = DefinitiveDecisionForm()
    if not form.validate_on_submit():
        flash(_("Escolha a decisão final."), "danger")
        return _back(capture)
    _act(
        lambda: services.decide_definitive_apprehension(
            capture,
            upheld=form.upheld.data == "yes",
            actor=current_user,
            note=form.decision_note.data or "",
        ),
        _("Decisão final registrada."),
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
