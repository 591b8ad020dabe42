"""What happens next with a licence request, who does it and by when: the citizen's pages
(the request's review step, "Minhas licenças", the request page) and the home to-do list read it
here, in plain words.

The laws set no deadline for the CCZ to decide a licence (GRU 37 §1, BJP 17, CAB 31 are silent):
the portal shows the CCZ's own target, :func:`decision_target_days` (the profile's programme
policy, the same one the staff queue counts overdue requests by) and says it is the CCZ's target,
not the law's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from flask_babel import gettext as _

from portal.models import ExcessLicence, LicenceStatus
from portal.services.clock import current_profile


def decision_target_days() -> int:
    """The CCZ's own target to decide a request (the laws set none): programme policy."""
    return current_profile().programme.licence_decision_target_days


@dataclass(frozen=True)
class NextStep:
    what: str  # the next step, in plain words
    who: str  # who does it
    by: date | None  # by when (None: nothing is waiting)


def decision_due(licence: ExcessLicence) -> date:
    """The day the CCZ aims to decide by: the target counted from the request."""
    return licence.requested_on + timedelta(days=decision_target_days())


def _scheduled(licence: ExcessLicence) -> tuple[date, str] | None:
    for inspection in reversed(licence.inspections):
        if inspection.inspected_on is None:
            return inspection.scheduled_for, inspection.agent.full_name
    return None


def next_step(licence: ExcessLicence, today: date) -> NextStep:
    """The next step of the request, or of the licence once decided."""
    if licence.status == LicenceStatus.INFO_REQUESTED:
        return NextStep(
            _("Responder ao que o CCZ pediu, nesta página."),
            _("Você"),
            None,
        )
    if licence.status == LicenceStatus.REQUESTED:
        scheduled = _scheduled(licence)
        if scheduled is not None:
            day, agent = scheduled
            return NextStep(
                _(
                    "Vistoria da residência em %(day)s: o agente confere o alojamento e os "
                    "animais; depois o CCZ decide.",
                    day=day.strftime("%d/%m/%Y"),
                ),
                _("Agente sanitário %(name)s, do CCZ", name=agent),
                day,
            )
        if any(i.inspected_on for i in licence.inspections):
            return NextStep(
                _("Decisão sobre o pedido, com base no laudo da vistoria."),
                _("O agente sanitário responsável ou a coordenação do CCZ"),
                decision_due(licence),
            )
        return NextStep(
            _(
                "Análise dos documentos e agendamento da vistoria da residência; depois da "
                "vistoria, a decisão."
            ),
            _("A equipe de licenças do CCZ (um agente sanitário faz a vistoria)"),
            decision_due(licence),
        )
    if licence.status == LicenceStatus.APPROVED and licence.valid_until is not None:
        return NextStep(
            _("Manter os animais da licença; pedir a renovação antes do vencimento."),
            _("Você"),
            licence.valid_until,
        )
    return NextStep(_("Nada pendente neste pedido."), _("—"), None)
