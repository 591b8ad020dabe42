"""What happens next with an adoption application, who does it and by when, in plain words: the
applicant's pages ("Minhas adoções", the application) and home to-do list, and every staff or NGO
record of an application (its next action, or that it is closed).

The laws set no deadline for deciding an application or for the hand-over (VV 28-29, BJP 24,
CAB 16-17, GRU 88 are silent): the portal shows the adoption programme's own targets (the
profile's programme policy, ``adoption_review_target_days`` and ``adoption_handover_target_days``)
and says they are the programme's, not the law's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from flask_babel import gettext as _

from portal.blueprints.adoption.documents import DOCUMENT_LABELS, attached_documents
from portal.models import (
    AdoptionApplication,
    ApplicantDocument,
    ApplicationStatus,
    DocumentStatus,
)
from portal.services.clock import current_profile, local_date


@dataclass(frozen=True)
class NextStep:
    what: str  # the next step, in plain words
    who: str  # who does it
    by: date | None  # by when (None: nothing is waiting, or the person sets the pace)
    closed: bool = False  # the application is over: nothing is left to do


def _event_day(application: AdoptionApplication, status: str) -> date | None:
    for event in reversed(application.events):
        if event.to_status == status and event.at is not None:
            return local_date(event.at)
    return None


def review_due(application: AdoptionApplication) -> date:
    """The day the owner aims to decide by: the target counted from the last (re)submission."""
    start = _event_day(application, ApplicationStatus.SUBMITTED) or local_date(
        application.submitted_at
    )
    return start + timedelta(days=current_profile().programme.adoption_review_target_days)


def handover_due(application: AdoptionApplication) -> date:
    approved = _event_day(application, ApplicationStatus.APPROVED)
    if approved is None and application.decided_at is not None:
        approved = local_date(application.decided_at)
    days = current_profile().programme.adoption_handover_target_days
    return (approved or local_date(application.submitted_at)) + timedelta(days=days)


def _owner(application: AdoptionApplication) -> str:
    listing = application.listing
    if listing.organization is None:
        return _("A equipe de adoção do CCZ")
    return listing.owner_name


def refused_proofs(
    application: AdoptionApplication, docs: list[ApplicantDocument] | None = None
) -> list[ApplicantDocument]:
    """The proofs the reviewer refused and the person has not replaced yet (the newest of each
    kind attached to the application is refused): the person's turn, not the reviewer's.
    ``docs``: the application's :func:`attached_documents`, when the caller has them already."""
    newest: dict[str, ApplicantDocument] = {}
    for doc in attached_documents(application) if docs is None else docs:  # newest first
        newest.setdefault(doc.kind, doc)
    return [d for d in newest.values() if d.status == DocumentStatus.REFUSED]


def _resend(refused: list[ApplicantDocument]) -> NextStep | None:
    if not refused:
        return None
    names = "; ".join(
        _("%(doc)s (motivo: %(reason)s)", doc=DOCUMENT_LABELS[d.kind], reason=d.refusal_reason)
        for d in refused
    )
    return NextStep(
        _(
            "Enviar outro documento no lugar do recusado: %(names)s. A análise continua "
            "quando ele chegar.",
            names=names,
        ),
        _("Você"),
        None,
    )


def applicant_step(application: AdoptionApplication) -> NextStep:
    """The applicant's next step, for "Minhas adoções", the application page and the to-do."""
    status, animal = application.status, application.listing.name
    if status == ApplicationStatus.SUBMITTED and (resend := _resend(refused_proofs(application))):
        return resend
    if status == ApplicationStatus.SUBMITTED:
        return NextStep(
            _(
                "Análise do pedido e conferência dos seus documentos; você recebe a decisão "
                "por e-mail e na página inicial."
            ),
            _owner(application),
            review_due(application),
        )
    if status == ApplicationStatus.NEEDS_INFO:
        return NextStep(
            _(
                "Responder ao que foi pedido, nesta página; a análise continua quando você "
                "responder."
            ),
            _("Você"),
            None,
        )
    if status == ApplicationStatus.APPROVED:
        return NextStep(
            _(
                "Combinar a entrega de %(animal)s e buscá-lo(a) com um documento com foto; na "
                "entrega o RGA passa para o seu nome.",
                animal=animal,
            ),
            _("%(owner)s entra em contato com você", owner=_owner(application)),
            handover_due(application),
        )
    if status == ApplicationStatus.COMPLETED:
        return NextStep(
            _("Adoção concluída: leia o folheto do adotante e mantenha a vacinação em dia."),
            _("Você"),
            None,
            closed=True,
        )
    return NextStep(_("Pedido encerrado: nada mais a fazer."), "", None, closed=True)


def owner_step(application: AdoptionApplication) -> NextStep:
    """The next action of the NGO or the CCZ on this application, or that it is closed."""
    status = application.status
    who = _owner(application)
    docs = attached_documents(application) if status == ApplicationStatus.SUBMITTED else []
    if status == ApplicationStatus.SUBMITTED and refused_proofs(application, docs):
        return NextStep(
            _(
                "Aguardar o novo documento da pessoa (um documento foi recusado); depois, "
                "conferi-lo e decidir."
            ),
            _("A pessoa que pediu a adoção"),
            None,
        )
    if status == ApplicationStatus.SUBMITTED:
        pending = sum(1 for d in docs if d.status == DocumentStatus.PENDING)
        if pending:
            what = _(
                "Conferir %(n)d documento(s) pendente(s) e decidir: aprovar, pedir informações "
                "ou recusar.",
                n=pending,
            )
        else:
            what = _("Decidir: aprovar, pedir informações ou recusar.")
        return NextStep(what, who, review_due(application))
    if status == ApplicationStatus.NEEDS_INFO:
        asked = _event_day(application, ApplicationStatus.NEEDS_INFO)
        return NextStep(
            _(
                "Aguardar a resposta da pessoa (informações pedidas em %(day)s); o pedido volta "
                "para análise quando ela responder.",
                day=asked.strftime("%d/%m/%Y") if asked else "—",
            ),
            _("A pessoa que pediu a adoção"),
            None,
        )
    if status == ApplicationStatus.APPROVED:
        return NextStep(
            _("Combinar a entrega com a pessoa e registrá-la (saúde do animal e RGA)."),
            who,
            handover_due(application),
        )
    closed: dict[str, str] = {
        ApplicationStatus.COMPLETED: _("Pedido encerrado: adoção concluída."),
        ApplicationStatus.REFUSED: _("Pedido encerrado: não aprovado."),
        ApplicationStatus.CANCELLED: _("Pedido encerrado: cancelado pela pessoa."),
    }
    return NextStep(closed.get(status, _("Pedido encerrado.")), "", None, closed=True)
