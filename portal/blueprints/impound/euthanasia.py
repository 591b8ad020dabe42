"""Federal Lei 14.228/2021 for captured dogs and cats, beyond "never a healthy one".

* Art. 2º: euthanasia only for serious incurable disease or infectious illness that puts human or
  animal health at risk, justified by the responsible veterinarian's laudo (§1º: preceded by a
  laboratory exam where it applies). The vet first records the laudo as a *proposal*.
* Art. 2º §1º, art. 3º: animal-protection NGOs have unrestricted access to the documentation; VV 21
  §4 I also sends the numbered laudo to the NGOs' veterinarians. Every approved NGO (adoption
  domain) is e-mailed and sees the case, the laudo and its file in its area.
* Art. 2º §2º: except for an incurable infectious disease that puts public health at risk, an NGO
  may claim the animal. The euthanasia decision cannot be recorded while the claim window is open.

* VV 21 §4: where the profile says so (``impound.laudo_supervision``), a laudo takes effect —
  claim window, NGOs and owner told — only once the coordinating vet signs it off
  (``laudo_review``); a vet may withdraw a laudo with a reason (``laudo_review``).

The law sets no window; the portal gives NGOs the programme's ``ngo_claim_business_days`` business
days from the day the laudo takes effect (``profile.programme``: a CCZ choice, never cited as
law). Services flush, never commit, and raise DomainError.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import IO, TYPE_CHECKING

from flask_babel import gettext as _
from sqlalchemy import func, select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Capture,
    CaptureStatus,
    DestinationDecision,
    EuthanasiaProposal,
    Organization,
    ProposalStatus,
    StoredFile,
    User,
)
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.dates import deadline
from portal.services.mail import send_email
from portal.services.municipal_holidays import municipal_holidays
from portal.urls import absolute_url

from .destinations import check_may_destine, check_timing
from .labels import species_label

if TYPE_CHECKING:
    from .destinations import DestinationData

FEDERAL_NGO_CLAIM = "Lei federal 14.228/2021, art. 2º §2º"
FEDERAL_DOCUMENTS = "Lei federal 14.228/2021, art. 2º §1º e art. 3º"
LAUDO_PURPOSE = "euthanasia_laudo"  # StoredFile purpose of a laudo's file
LAUDO_DRAFT = "euthanasia_laudo"  # the vet's draft holding the file across a refused post
# Lei 14.228/2021, art. 2º §2º gives NGOs the claim but no term: the window is the CCZ programme's
# own choice, ``profile.programme.ngo_claim_business_days`` (3 business days unless a city's file
# says otherwise).


@dataclass
class ProposalData:
    vet_report: str
    vet_crmv: str
    lab_exam: str | None = None
    infectious: bool = False  # incurable infectious disease, public-health risk: no NGO claim
    # sent with this post, or held by the form's draft across a refused post (issue 25)
    laudo_file: tuple[IO[bytes], str | None] | StoredFile | None = None


def _check_proposal(capture: Capture, data: ProposalData, vet: User) -> None:
    if not vet.has_role("vet"):
        raise DomainError(
            None, "vet_only", _("Só o médico veterinário responsável registra o laudo.")
        )
    if capture.species not in ("dog", "cat"):
        raise DomainError(
            None,
            "not_dog_or_cat",
            _("A Lei 14.228/2021 trata de cães e gatos; registre a destinação com o laudo."),
        )
    check_may_destine(capture)
    if not data.vet_report.strip():
        raise DomainError("vet_report", "required", _("Escreva o laudo técnico."))
    if not data.vet_crmv.strip():
        raise DomainError("vet_crmv", "required", _("Informe o CRMV do veterinário."))
    if data.infectious and not (data.lab_exam or "").strip():
        # Lei 14.228/2021, art. 2º §1º: the laudo is preceded by a laboratory exam where it
        # applies, and an infectious disease (which also takes the NGOs' claim away) is that case
        raise DomainError(
            "lab_exam",
            "required",
            _(
                "Informe o exame laboratorial que confirma a doença infectocontagiosa "
                "(Lei 14.228/2021, art. 2º §1º)."
            ),
        )
    if current_proposal(capture) is not None:
        raise DomainError(None, "already_proposed", _("Já há um laudo em aberto para este animal."))


def propose_euthanasia(
    profile: Profile, capture: Capture, data: ProposalData, *, vet: User, today: date
) -> EuthanasiaProposal:
    """Record the vet's laudo proposing euthanasia. It takes effect at once (:func:`take_effect`)
    unless the profile asks for the coordinating vet's supervision (VV 21 §4) and the author is
    not that vet: then it waits, status ``pending``, for ``laudo_review.supervise_proposal``."""
    _check_proposal(capture, data, vet)
    check_timing(
        profile, capture, actor=vet, laudo=True, today=today
    )  # BJP 25 §4; GRU 86 II; CAB 11 V
    count = db.session.scalar(
        select(func.count())
        .select_from(EuthanasiaProposal)
        .where(EuthanasiaProposal.capture_id == capture.id)
    )
    proposal = EuthanasiaProposal(
        number=f"LAUDO-{capture.protocol}-{(count or 0) + 1}",  # VV 21 §4 I: laudo numerado
        capture_id=capture.id,
        vet_report=data.vet_report.strip(),
        vet_crmv=data.vet_crmv.strip(),
        lab_exam=(data.lab_exam or "").strip() or None,
        infectious=data.infectious,
        proposed_by_id=vet.id,
    )
    if data.laudo_file is not None:
        proposal.laudo_file_id = _store_laudo(data.laudo_file).id
    db.session.add(proposal)
    db.session.flush()
    pending = needs_supervision(profile, vet)
    audit.record(
        "impound.euthanasia_proposed",
        capture,
        detail={
            "laudo": proposal.number,
            "infectious": proposal.infectious,
            "pending_supervision": pending,
        },
        actor_id=vet.id,
    )
    if pending:
        proposal.status = ProposalStatus.PENDING
    else:
        take_effect(profile, proposal, today)
    return proposal


def is_coordinating_vet(user: User) -> bool:
    """VV 21 §4: "médico veterinário coordenador" — a vet who also coordinates the CCZ."""
    return user.has_role("vet") and user.has_role("coordinator")


def needs_supervision(profile: Profile, author: User) -> bool:
    """VV 21 §4: the laudo waits for the coordinating vet, unless that vet wrote it."""
    return profile.impound.laudo_supervision and not is_coordinating_vet(author)


def take_effect(profile: Profile, proposal: EuthanasiaProposal, today: date) -> None:
    """The laudo is in effect: the NGOs' claim window opens (art. 2º §2º; none for an incurable
    infectious disease), every approved NGO is e-mailed (art. 3º; VV 21 §4 I) and so is the
    owner of an identified animal."""
    from .laudo_review import notify_owner_of_laudo

    proposal.status = ProposalStatus.OPEN
    proposal.claim_until = None if proposal.infectious else claim_window_end(profile, today)
    _notify_ngos(proposal, proposal.capture)
    notify_owner_of_laudo(profile, proposal)


def claim_window_end(profile: Profile, today: date) -> date:
    """Last day an NGO may claim (art. 2º §2º): the programme's business days after the laudo's
    day (the law sets no term)."""
    return deadline(
        today,
        profile.programme.ngo_claim_business_days,
        "business",
        state=profile.state,
        municipal_holidays=municipal_holidays([today]),
        moves_to_business_day=True,
    )


def _store_laudo(upload: tuple[IO[bytes], str | None] | StoredFile) -> StoredFile:
    from portal.services.uploads import UploadError, store_document

    if isinstance(upload, StoredFile):  # held by the draft: checked already, now the laudo's
        upload.purpose, upload.owner_id, upload.public = LAUDO_PURPOSE, None, False
        return upload
    stream, filename = upload
    try:
        return store_document(stream, purpose=LAUDO_PURPOSE, owner_id=None, filename=filename)
    except UploadError as err:
        raise DomainError("laudo_file", "invalid_file", err.message) from None


def approved_ngos() -> list[Organization]:
    return [
        org
        for org in db.session.scalars(select(Organization).order_by(Organization.id))
        if org.is_approved
    ]


def ngo_addresses(organizations: list[Organization]) -> list[str]:
    """The e-mail of each NGO and of the people acting for it (its vets among them)."""
    found: list[str] = []
    for org in organizations:
        for email in (org.email, *(m.user.email for m in org.members)):
            if email and email not in found:
                found.append(email)
    return found


def _notify_ngos(proposal: EuthanasiaProposal, capture: Capture) -> None:
    if proposal.infectious:
        claim = _(
            "O laudo atesta doença infectocontagiosa incurável com risco à saúde pública: "
            "o animal não pode ser resgatado por entidade (%(law)s).",
            law=FEDERAL_NGO_CLAIM,
        )
    else:
        assert proposal.claim_until is not None
        claim = _(
            "Sua entidade pode resgatar o animal até %(day)s (%(law)s).",
            day=proposal.claim_until.strftime("%d/%m/%Y"),
            law=FEDERAL_NGO_CLAIM,
        )
    body = "\n".join(
        [
            _(
                "O médico veterinário do CCZ registrou o laudo nº %(n)s, que propõe a eutanásia "
                "do animal do protocolo %(protocol)s (%(species)s, %(color)s).",
                n=proposal.number,
                protocol=capture.protocol,
                species=species_label(capture.species),
                color=capture.color,
            ),
            claim,
            _(
                "Veja o caso, o laudo e os documentos (%(law)s): %(url)s",
                law=FEDERAL_DOCUMENTS,
                url=absolute_url("impound.ngo_case", number=proposal.number),
            ),
        ]
    )
    subject = _("Laudo de eutanásia nº %(n)s: acesso das entidades", n=proposal.number)
    organizations = approved_ngos()
    proposal.notified_organization_ids = [org.id for org in organizations]
    for email in ngo_addresses(organizations):
        send_email(email, subject, body)


LIVE = (ProposalStatus.OPEN, ProposalStatus.PENDING)  # a laudo in effect or awaiting sign-off


def current_proposal(capture: Capture) -> EuthanasiaProposal | None:
    """The capture's open laudo (or, VV 21 §4, the one awaiting supervision), if any."""
    return db.session.scalar(
        select(EuthanasiaProposal).where(
            EuthanasiaProposal.capture_id == capture.id,
            EuthanasiaProposal.status.in_(LIVE),
        )
    )


def claim_open(proposal: EuthanasiaProposal, today: date) -> bool:
    """Whether an NGO may still claim: open, not infectious, in the window, animal in custody."""
    return (
        proposal.status == ProposalStatus.OPEN
        and proposal.capture.status == CaptureStatus.IN_CUSTODY
        and not proposal.infectious
        and proposal.claim_until is not None
        and today <= proposal.claim_until
    )


def proposal_ready_for_decision(
    capture: Capture, data: DestinationData, *, today: date
) -> EuthanasiaProposal:
    """The laudo a dog's or cat's euthanasia decision rests on, once the NGOs had their chance.

    Lei 14.228/2021, art. 2º §2º: not while the claim window is open (except for an incurable
    infectious disease, which has none); the decision carries the proposal's laudo."""
    proposal = current_proposal(capture)
    if proposal is None:
        # Art. 2º: no laudo, no euthanasia (a healthy dog or cat never has one).
        raise DomainError(
            "destination",
            "euthanasia_refused",
            _(
                "Eutanásia de cão ou gato só depois do laudo do médico veterinário responsável "
                "que ateste doença grave incurável ou infectocontagiosa, enviado às entidades de "
                "proteção animal, que podem resgatar o animal (%(law)s).",
                law=FEDERAL_NGO_CLAIM,
            ),
        )
    if proposal.status == ProposalStatus.PENDING:
        # VV 21 §4: under the coordinating vet's supervision; not in effect before the sign-off.
        raise DomainError(
            "destination",
            "laudo_unsupervised",
            _(
                "O laudo nº %(n)s aguarda a supervisão do médico veterinário coordenador "
                "(VV 21 §4).",
                n=proposal.number,
            ),
        )
    if claim_open(proposal, today):
        assert proposal.claim_until is not None
        raise DomainError(
            "destination",
            "ngo_claim_window_open",
            _(
                "As entidades de proteção animal podem resgatar o animal até %(day)s "
                "(%(law)s): a eutanásia não pode ser decidida antes disso.",
                day=proposal.claim_until.strftime("%d/%m/%Y"),
                law=FEDERAL_NGO_CLAIM,
            ),
        )
    data.vet_report = data.vet_report or proposal.vet_report
    data.vet_crmv = data.vet_crmv or proposal.vet_crmv
    data.lab_exam = data.lab_exam or proposal.lab_exam
    data.incurable = True  # the laudo states it (art. 2º)
    return proposal


def claim_for_ngo(
    proposal: EuthanasiaProposal, organization: Organization, *, user: User, today: date
) -> DestinationDecision:
    """Art. 2º §2º: an approved NGO claims the animal; it is destined to that NGO."""
    if not organization.is_approved or all(m.user_id != user.id for m in organization.members):
        raise DomainError(None, "not_member", _("Você não age por esta entidade aprovada."))
    if proposal.infectious:
        raise DomainError(
            None,
            "infectious",
            _(
                "Doença infectocontagiosa incurável com risco à saúde pública: o animal não pode "
                "ser resgatado (%(law)s).",
                law=FEDERAL_NGO_CLAIM,
            ),
        )
    if not claim_open(proposal, today):
        raise DomainError(None, "claim_closed", _("O prazo para o resgate por entidades acabou."))
    capture = proposal.capture
    check_may_destine(capture)
    proposal.status = ProposalStatus.CLAIMED
    proposal.claimed_by_organization_id = organization.id
    proposal.claimed_by_id = user.id
    proposal.claimed_at = utcnow()
    decision = DestinationDecision(
        capture=capture,
        destination="ngo_donation",
        reason=_(
            "Resgate pela entidade %(org)s do animal cujo laudo nº %(n)s propunha a eutanásia "
            "(%(law)s).",
            org=organization.display_name,
            n=proposal.number,
            law=FEDERAL_NGO_CLAIM,
        ),
        before_deadline=today <= capture.deadline_on,
        vet_report=proposal.vet_report,
        vet_crmv=proposal.vet_crmv,
        lab_exam=proposal.lab_exam,
        organization_id=organization.id,
        decided_by_id=user.id,
    )
    db.session.add(decision)
    capture.status = CaptureStatus.DESTINED
    db.session.flush()
    audit.record(
        "impound.ngo_claimed",
        capture,
        detail={"laudo": proposal.number, "organization_id": organization.id},
        actor_id=user.id,
    )
    return decision


def may_read_laudos(user: User) -> bool:
    """Art. 3º: staff and the people of an approved NGO read every laudo and its documents."""
    from portal.blueprints.adoption.services import organizations_of

    return bool(user.is_authenticated and (user.is_staff or organizations_of(user)))


def laudo_file_rule(user: User, stored: StoredFile) -> bool:
    """File access rule for laudo files (art. 2º §1º, 3º: NGOs' unrestricted access)."""
    return stored.purpose == LAUDO_PURPOSE and may_read_laudos(user)


NGO_PAGE_SIZE = 100  # laudos a page of the NGOs' list


def proposals_for_ngos(page: int = 1) -> tuple[list[EuthanasiaProposal], bool]:
    """Every laudo, newest first, a page at a time (art. 3º: the NGOs see all of them, open or
    decided): the page's laudos, and whether older ones follow."""
    rows = list(
        db.session.scalars(
            select(EuthanasiaProposal)
            .order_by(EuthanasiaProposal.id.desc())
            .offset((page - 1) * NGO_PAGE_SIZE)
            .limit(NGO_PAGE_SIZE + 1)
        )
    )
    return rows[:NGO_PAGE_SIZE], len(rows) > NGO_PAGE_SIZE


def withdraw_open_proposals(capture: Capture) -> None:
    """The animal left custody another way (reclaimed, another destination): its open laudo no
    longer proposes anything."""
    for proposal in proposals_of(capture):
        if proposal.status in LIVE:
            proposal.status = ProposalStatus.WITHDRAWN


def proposals_of(capture: Capture) -> list[EuthanasiaProposal]:
    return list(
        db.session.scalars(
            select(EuthanasiaProposal)
            .where(EuthanasiaProposal.capture_id == capture.id)
            .order_by(EuthanasiaProposal.id)
        )
    )


def proposal_by_number(number: str) -> EuthanasiaProposal | None:
    return db.session.scalar(
        select(EuthanasiaProposal).where(EuthanasiaProposal.number == number.strip().upper())
    )
