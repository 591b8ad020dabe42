"""The CCZ's review of establishments: the file (GRU 12), inspections, decisions, renewals,
accreditation and baixa. Opening a file shows personal data (the responsible vet, contacts):
every view is audited."""

from __future__ import annotations

from collections.abc import Callable

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import STAFF, roles_required
from portal.blueprints.establishments import bp, services
from portal.blueprints.establishments.forms import InspectionForm, ReasonForm
from portal.extensions import db
from portal.forms import EmptyForm
from portal.models import Establishment, User
from portal.services import audit
from portal.services.clock import current_profile, local_today
from portal.views import run_service
from portal.wiring import wiring

DECIDERS = ("coordinator", "admin")


def _establishment(establishment_id: int) -> Establishment:
    establishment = db.session.get(Establishment, establishment_id)
    if establishment is None:
        abort(404)
    return establishment


def _act(establishment: Establishment, action: Callable[[], object], done: str) -> object:
    """Run one service; on a rule's refusal roll back and say why, else commit and confirm."""
    return run_service(action, success=done).value


@bp.get("/ccz/estabelecimentos")
@roles_required(*STAFF)
def staff_list():
    if current_profile().establishments is None:
        abort(404)
    today = local_today()
    found = db.session.scalars(
        select(Establishment).order_by(Establishment.valid_until, Establishment.id).limit(500)
    ).all()
    return render_template(
        "establishments/staff_list.html", rows=[(e, services.status_label(e, today)) for e in found]
    )


@bp.get("/ccz/estabelecimentos/<int:establishment_id>")
@roles_required(*STAFF)
def staff_file(establishment_id: int):
    establishment = _establishment(establishment_id)
    audit.record("establishment.viewed", establishment)
    db.session.commit()
    today = local_today()
    inspection = InspectionForm()
    if inspection.inspected_on.data is None:
        inspection.inspected_on.data = today
    return render_template(
        "establishments/staff_file.html",
        establishment=establishment,
        today=today,
        # GRU 12 III-VII: the documents addressed to its CNPJ (enforcement answers the wiring)
        notices=wiring().notices_linked_to_cnpj(establishment.cnpj),
        status=services.status_label(establishment, today),
        inspection_form=inspection,
        reason_form=ReasonForm(),
        form=EmptyForm(),
        kind_label=services.kind_label,
        event_label=services.event_label,
        window=services.renewal_window(establishment, current_profile()),
        rule=current_profile().establishments,
        deciders=DECIDERS,
    )


@bp.post("/ccz/estabelecimentos/<int:establishment_id>/vistoria")
@roles_required("agent", "vet", "coordinator", "admin")
def staff_inspection(establishment_id: int):
    establishment = _establishment(establishment_id)
    form = InspectionForm()
    if form.validate_on_submit():
        _act(
            establishment,
            lambda: services.record_inspection(
                establishment,
                current_user._get_current_object(),
                inspected_on=form.inspected_on.data,
                findings=form.findings.data,
                satisfactory=form.satisfactory.data,
                today=local_today(),
            ),
            _("Vistoria registrada."),
        )
    else:
        flash(_("Preencha a data e o que foi verificado na vistoria."), "danger")
    return redirect(url_for("establishments.staff_file", establishment_id=establishment.id))


def _decision(
    action: str, establishment: Establishment, staff: User, reason: str
) -> tuple[Callable[[], object], str] | None:
    """The service call a decision's URL word stands for, with its confirmation."""
    profile, today = current_profile(), local_today()
    decisions: dict[str, tuple[Callable[[], object], str]] = {
        "aprovar": (
            lambda: services.approve(establishment, staff, profile=profile, today=today),
            _("Cadastro aprovado."),
        ),
        "recusar": (
            lambda: services.refuse(establishment, staff, reason),
            _("Pedido recusado."),
        ),
        "renovar": (
            lambda: services.approve_renewal(establishment, staff, profile=profile, today=today),
            _("Renovação aprovada."),
        ),
        "credenciar": (
            lambda: services.accredit(establishment, staff, profile=profile, today=today),
            _("Estabelecimento credenciado para registrar animais."),
        ),
        "descredenciar": (
            lambda: services.revoke_accreditation(establishment, staff, reason),
            _("Credenciamento suspenso."),
        ),
        "baixa": (
            lambda: services.close(establishment, staff, reason),
            _("Cadastro encerrado (baixa)."),
        ),
    }
    return decisions.get(action)


@bp.post("/ccz/estabelecimentos/<int:establishment_id>/<action>")
@roles_required(*DECIDERS)
def staff_decide(establishment_id: int, action: str):
    establishment = _establishment(establishment_id)
    staff = current_user._get_current_object()
    reason = (request.form.get("reason") or "").strip()
    if not EmptyForm().validate_on_submit():
        abort(400)
    decision = _decision(action, establishment, staff, reason)
    if decision is None:
        abort(404)
    token = _act(establishment, *decision)
    if action == "credenciar" and token:
        flash(
            _(
                "Token de API do estabelecimento (anote agora; não será mostrado de novo): "
                "%(token)s",
                token=token,
            ),
            "info",
        )
    return redirect(url_for("establishments.staff_file", establishment_id=establishment.id))
