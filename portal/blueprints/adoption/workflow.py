"""What every step of an application shares: the status labels, the event it writes, the
e-mails to the applicant and the NGO, and the check that a step is possible now."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from portal import urls
from portal.blueprints.adoption.eligibility import (
    RuleResult,
)
from portal.blueprints.adoption.errors import AdoptionError
from portal.models import (
    AdoptionApplication,
    ApplicationEvent,
    ApplicationStatus,
    User,
)
from portal.services.mail import send_email

STATUS_LABELS: dict[str, Any] = {
    ApplicationStatus.SUBMITTED: _l("Em análise"),
    ApplicationStatus.NEEDS_INFO: _l("Aguardando informações suas"),
    ApplicationStatus.APPROVED: _l("Aprovado – aguardando a entrega"),
    ApplicationStatus.REFUSED: _l("Não aprovado"),
    ApplicationStatus.COMPLETED: _l("Adoção concluída"),
    ApplicationStatus.CANCELLED: _l("Cancelado"),
}


class NotEligible(AdoptionError):
    """Rules stop the step; ``results`` are the blocking ones, each with message and article."""

    def __init__(self, results: list[RuleResult]) -> None:
        super().__init__("eligibility", "not_eligible", results[0].message if results else "")
        self.results = results


absolute_url = urls.absolute_url  # links in e-mails (PUBLIC_BASE_URL, never the Host header)


def record_step(
    application: AdoptionApplication, to_status: str, actor: User | None, note: str | None = None
) -> None:
    application.events.append(
        ApplicationEvent(
            from_status=application.status if application.id else None,
            to_status=to_status,
            note=note,
            actor_id=actor.id if actor else None,
        )
    )
    application.status = to_status


def notify_applicant(application: AdoptionApplication, subject: str, text: str) -> None:
    person = application.applicant
    if not person.email:
        return
    link = absolute_url("adoption.my_application", application_id=application.id)
    send_email(
        person.email,
        subject,
        _(
            'Olá, %(name)s.\n\n%(text)s\n\nAcompanhe em "Minhas adoções": %(link)s\n\n'
            "Centro de Controle de Zoonoses",
            name=person.full_name.split()[0],
            text=text,
            link=link,
        ),
    )


def notify_owner(application: AdoptionApplication, subject: str, text: str) -> None:
    """Tell the NGO (its e-mail) about applications to its listings; CCZ staff see their queue."""
    org = application.listing.organization
    if org is None or not org.email:
        return
    link = absolute_url("adoption.review", application_id=application.id)
    send_email(
        org.email,
        subject,
        _(
            "Olá, equipe de %(org)s.\n\n%(text)s\n\nAnalise o pedido nº %(n)d em "
            '"Gestão de adoções": %(link)s\n\nCentro de Controle de Zoonoses',
            org=org.display_name,
            text=text,
            n=application.id,
            link=link,
        ),
    )


def require_status(application: AdoptionApplication, *statuses: str) -> None:
    if application.status not in statuses:
        raise AdoptionError(
            "status",
            "invalid_transition",
            _(
                'Este pedido está "%(status)s"; a ação não é possível agora.',
                status=STATUS_LABELS[application.status],
            ),
        )
