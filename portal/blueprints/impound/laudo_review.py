"""What happens to a euthanasia laudo after the vet records it (Lei 14.228/2021; VV 21 §4).

* The owner of an identified animal is e-mailed when the laudo takes effect: the laudo's reason,
  the federal article and what they can do (reclaim while the animal may be reclaimed, see the
  laudo or bring another vet's at the CCZ).
* VV 21 §4: the coordinating vet signs the laudo off (:func:`supervise_proposal`); only then does
  it take effect (``euthanasia.take_effect``).
* A vet withdraws a laudo by hand with a reason (:func:`withdraw_proposal`): audited; the NGOs
  and the owner who were told get a short notice.

Services flush, never commit, and raise DomainError.
"""

from __future__ import annotations

from datetime import date

from flask_babel import gettext as _
from sqlalchemy import select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import EuthanasiaProposal, Organization, ProposalStatus, User
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.mail import send_email
from portal.urls import absolute_url

from .euthanasia import (
    FEDERAL_NGO_CLAIM,
    LIVE,
    is_coordinating_vet,
    ngo_addresses,
    take_effect,
)
from .labels import FEDERAL_EUTHANASIA, species_label


def _owner_email(proposal: EuthanasiaProposal) -> str | None:
    owner = proposal.capture.owner
    return owner.email if owner is not None and owner.email else None


def notify_owner_of_laudo(profile: Profile, proposal: EuthanasiaProposal) -> None:
    """Tell the owner of an identified animal that a laudo proposes its euthanasia: the reason
    (the laudo), the article (Lei 14.228/2021, art. 2º) and what they can do."""
    email = _owner_email(proposal)
    if email is None:
        return
    capture = proposal.capture
    lines = [
        _("Olá, %(name)s.", name=capture.owner.full_name),  # type: ignore[union-attr]
        "",
        _(
            "O médico veterinário do CCZ de %(city)s registrou o laudo nº %(n)s, que propõe a "
            "eutanásia do seu animal (%(species)s, %(color)s; recolhimento %(protocol)s).",
            city=profile.municipality,
            n=proposal.number,
            species=species_label(capture.species),
            color=capture.color,
            protocol=capture.protocol,
        ),
        _("Motivo, segundo o laudo: %(report)s", report=proposal.vet_report),
        _(
            "A lei só permite a eutanásia de cão ou gato por doença grave incurável ou "
            "infectocontagiosa com risco à saúde humana ou animal, com laudo do médico "
            "veterinário responsável (%(law)s).",
            law=FEDERAL_EUTHANASIA,
        ),
        "",
    ]
    if capture.reclaimable and not proposal.infectious:
        lines.append(
            _(
                "Enquanto o animal estiver sob a guarda do CCZ, você pode resgatá-lo e tratá-lo "
                "com um médico veterinário de sua confiança: %(url)s",
                url=absolute_url("impound.my_capture", protocol=capture.protocol),
            )
        )
    lines.append(
        _(
            "Você também pode ir ao CCZ com documento com foto para ler o laudo ou entregar o "
            "laudo de outro médico veterinário; cite o laudo nº %(n)s.",
            n=proposal.number,
        )
    )
    send_email(
        email,
        _("Laudo de eutanásia do seu animal (%(protocol)s)", protocol=capture.protocol),
        "\n".join(lines),
    )


def supervise_proposal(
    profile: Profile, proposal: EuthanasiaProposal, *, supervisor: User, today: date
) -> None:
    """VV 21 §4: the coordinating vet signs the laudo off; it takes effect now (claim window from
    today, NGOs and owner told). Raises DomainError."""
    if not is_coordinating_vet(supervisor):
        raise DomainError(
            None,
            "not_coordinating_vet",
            _(
                "Só o médico veterinário coordenador supervisiona o laudo (%(article)s).",
                article=profile.impound.cite("laudo_supervision"),
            ),
        )
    if proposal.status != ProposalStatus.PENDING:
        raise DomainError(None, "not_pending", _("Este laudo não aguarda supervisão."))
    proposal.supervised_by_id = supervisor.id
    proposal.supervised_at = utcnow()
    take_effect(profile, proposal, today)
    audit.record(
        "impound.laudo_supervised",
        proposal.capture,
        detail={"laudo": proposal.number, "article": profile.impound.cite("laudo_supervision")},
        actor_id=supervisor.id,
    )


def withdraw_proposal(proposal: EuthanasiaProposal, *, vet: User, reason: str) -> None:
    """A vet withdraws the laudo (e.g. the animal responded to treatment). Raises DomainError."""
    reason = (reason or "").strip()
    if not vet.has_role("vet"):
        raise DomainError(None, "vet_only", _("Só o médico veterinário retira um laudo."))
    if proposal.status not in LIVE:
        raise DomainError(None, "not_open", _("Este laudo já não está em aberto."))
    if not reason:
        raise DomainError("reason", "required", _("Escreva por que o laudo é retirado."))
    proposal.status = ProposalStatus.WITHDRAWN
    proposal.withdrawn_by_id = vet.id
    proposal.withdrawn_at = utcnow()
    proposal.withdrawal_reason = reason[:2000]
    db.session.flush()
    audit.record(
        "impound.laudo_withdrawn",
        proposal.capture,
        detail={"laudo": proposal.number},
        actor_id=vet.id,
    )
    _notify_withdrawal(proposal)


def _notify_withdrawal(proposal: EuthanasiaProposal) -> None:
    """A short notice to those the laudo was sent to: the NGOs of the time and the owner. A laudo
    withdrawn before it took effect (VV 21 §4) was sent to nobody."""
    ids = proposal.notified_organization_ids or []
    organizations = (
        list(db.session.scalars(select(Organization).where(Organization.id.in_(ids))))
        if ids
        else []
    )
    subject = _("Laudo nº %(n)s retirado", n=proposal.number)
    body = _(
        "O laudo nº %(n)s, que propunha a eutanásia do animal do recolhimento %(protocol)s, foi "
        "retirado pelo médico veterinário do CCZ e não tem mais efeito.",
        n=proposal.number,
        protocol=proposal.capture.protocol,
    )
    for email in ngo_addresses(organizations):
        send_email(
            email,
            subject,
            body
            + "\n"
            + _(
                "O pedido de resgate por entidades (%(law)s) não se aplica mais.",
                law=FEDERAL_NGO_CLAIM,
            ),
        )
    owner_email = _owner_email(proposal)
    took_effect = proposal.notified_organization_ids is not None  # set when it took effect
    if owner_email is not None and took_effect:
        send_email(owner_email, subject, body)
