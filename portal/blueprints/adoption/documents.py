"""The adopter's proofs (VV 28 §2): uploaded once, attached to each application they support
(:class:`ApplicationDocument`), and seen by the reviewing NGO only through an open application."""

from __future__ import annotations

from datetime import date
from typing import IO, Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.blueprints.adoption.errors import AdoptionError
from portal.blueprints.adoption.organizations import organizations_of
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApplicantDocument,
    ApplicationDocument,
    DocumentKind,
    DocumentStatus,
    Listing,
    StoredFile,
    User,
)
from portal.models.adoption import OPEN_APPLICATION_STATUSES
from portal.models.base import utcnow
from portal.services import audit
from portal.services.mail import send_email
from portal.services.uploads import UploadError, store_document
from portal.urls import absolute_url

DOCUMENT_PURPOSE = "adoption_document"


DOCUMENT_LABELS: dict[str, Any] = {
    DocumentKind.IDENTITY: _l("Documento de identidade (RG ou CNH)"),
    DocumentKind.PROOF_OF_ADDRESS: _l("Comprovante de endereço"),
    DocumentKind.PROOF_OF_INCOME: _l("Comprovante de renda"),
}


DOCUMENT_STATUS_LABELS: dict[str, Any] = {
    DocumentStatus.PENDING: _l("Aguardando conferência"),
    DocumentStatus.ACCEPTED: _l("Aceito"),
    DocumentStatus.REFUSED: _l("Recusado"),
}


def upload_document(
    person: User,
    kind: str,
    stream: IO[bytes] | StoredFile,
    filename: str | None,
    issued_on: date | None,
    on: date,
) -> ApplicantDocument:
    """Keep a proof (PDF or photo, private). A proof of address needs its issue date, at most
    90 days before ``on`` (VV 28 §2 "atualizado"). Raises AdoptionError."""
    from portal.blueprints.adoption.eligibility import proof_of_address_max_age_days

    max_days = proof_of_address_max_age_days()

    if kind not in DOCUMENT_LABELS:
        raise AdoptionError("kind", "invalid_choice", _("Tipo de documento desconhecido."))
    if kind == DocumentKind.PROOF_OF_ADDRESS:
        if issued_on is None:
            raise AdoptionError(
                "issued_on", "required", _("Informe a data de emissão do comprovante.")
            )
        if issued_on > on:
            raise AdoptionError(
                "issued_on", "future", _("A data de emissão não pode estar no futuro.")
            )
        if (on - issued_on).days > max_days:  # VV 28 §2
            raise AdoptionError(
                "issued_on",
                "too_old",
                _(
                    "Este comprovante foi emitido há mais de %(max)d dias. Envie um "
                    "emitido nos últimos %(max)d dias.",
                    max=max_days,
                ),
            )
    if isinstance(stream, StoredFile):  # held by the form's draft: validated when it arrived
        stored = stream
        stored.purpose, stored.owner_id, stored.public = DOCUMENT_PURPOSE, person.id, False
    else:
        try:
            stored = store_document(
                stream, purpose=DOCUMENT_PURPOSE, owner_id=person.id, filename=filename
            )
        except UploadError as err:
            raise AdoptionError("file", "invalid_file", err.message) from err
    doc = ApplicantDocument(
        person_id=person.id,
        kind=kind,
        stored_file=stored,
        issued_on=issued_on if kind == DocumentKind.PROOF_OF_ADDRESS else None,
        status=DocumentStatus.PENDING,
    )
    db.session.add(doc)
    db.session.flush()
    return doc


def attached_documents(application: AdoptionApplication) -> list[ApplicantDocument]:
    """The proofs attached to ``application``, newest first."""
    return list(
        db.session.scalars(
            select(ApplicantDocument)
            .join(ApplicationDocument, ApplicationDocument.document_id == ApplicantDocument.id)
            .where(ApplicationDocument.application_id == application.id)
            .order_by(ApplicantDocument.id.desc())
        )
    )


def attach_document(
    application: AdoptionApplication, doc: ApplicantDocument, actor: User
) -> ApplicationDocument:
    """Attach one of the applicant's own proofs to their open application (again: a no-op).

    Raises AdoptionError for someone else's proof or a closed application."""
    if doc.person_id != application.applicant_id:
        raise AdoptionError("document", "not_found", _("Documento não encontrado."))
    if not application.is_open:
        raise AdoptionError(
            "document",
            "closed",
            _("Este pedido já foi encerrado; não é possível anexar documentos a ele."),
        )
    link = db.session.scalar(
        select(ApplicationDocument).where(
            ApplicationDocument.application_id == application.id,
            ApplicationDocument.document_id == doc.id,
        )
    )
    if link is not None:
        return link
    link = ApplicationDocument(application_id=application.id, document_id=doc.id)
    db.session.add(link)
    db.session.flush()
    audit.record(
        "adoption.document_attached",
        application,
        actor_id=actor.id,
        detail={"document_id": doc.id, "kind": doc.kind},
    )
    refused = _replaced(application, doc)
    if refused is not None:
        _tell_reviewer(application, doc, refused)
    return link


def _replaced(application: AdoptionApplication, doc: ApplicantDocument) -> ApplicantDocument | None:
    """The refused proof of the same kind that ``doc`` replaces on ``application``, if any."""
    for other in attached_documents(application):
        if other.id != doc.id and other.kind == doc.kind and other.status == DocumentStatus.REFUSED:
            return other
    return None


def _tell_reviewer(
    application: AdoptionApplication, doc: ApplicantDocument, refused: ApplicantDocument
) -> None:
    """Issue 25: the review waits for the replacement of a refused proof, so whoever reviews is
    told when it arrives: the NGO at its e-mail; for a CCZ listing (or an NGO without an
    e-mail), the person who refused the proof. The applicant's name stays out of the e-mail."""
    from portal.blueprints.adoption.workflow import notify_owner

    subject = _("Novo documento no pedido de adoção nº %(n)d", n=application.id)
    text = _(
        "O candidato enviou outro documento (%(doc)s) no lugar do que foi recusado. "
        "Confira-o para a análise do pedido continuar.",
        doc=DOCUMENT_LABELS[doc.kind],
    )
    org = application.listing.organization
    if org is not None and org.email:
        notify_owner(application, subject, text)
        return
    reviewer = db.session.get(User, refused.reviewed_by_id) if refused.reviewed_by_id else None
    if reviewer is None or not reviewer.email:
        return  # CCZ staff also find it in their queue of applications
    send_email(
        reviewer.email,
        subject,
        _(
            "%(text)s\n\nAnalise o pedido nº %(n)d: %(link)s\n\nCentro de Controle de Zoonoses",
            text=text,
            n=application.id,
            link=absolute_url("adoption.review", application_id=application.id),
        ),
    )


def current_proofs(person: User) -> list[ApplicantDocument]:
    """The person's proof of each kind that counts today (the one the eligibility check reads):
    what a new application carries without sending anything again."""
    from portal.blueprints.adoption.proof_rules import best_document

    found = (best_document(person, kind) for kind in DOCUMENT_LABELS)
    return [d for d in found if d is not None and d.status != DocumentStatus.REFUSED]


def attach_current_proofs(application: AdoptionApplication, actor: User) -> list[ApplicantDocument]:
    """At submission, attach :func:`current_proofs`: a proof already sent is reused."""
    proofs = current_proofs(application.applicant)
    for doc in proofs:
        attach_document(application, doc, actor)
    return proofs


def attachable_documents(application: AdoptionApplication) -> list[ApplicantDocument]:
    """The applicant's proofs not attached to ``application`` yet and not refused."""
    attached = {d.id for d in attached_documents(application)}
    return [
        d
        for d in documents_of(application.applicant)
        if d.id not in attached and d.status != DocumentStatus.REFUSED
    ]


def may_see_document(user: User, doc: ApplicantDocument) -> bool:
    """Staff, or a member of an NGO with an open application to which ``doc`` is attached.

    An NGO sees a proof only while it has something to decide and only the proofs attached to
    that application: once it is cancelled, refused or completed the proofs close for
    it, and a proof the person uploads later for another application or purpose never opens.
    """
    if user.is_staff:
        return True
    org_ids = [o.id for o in organizations_of(user)]
    if not org_ids:
        return False
    return (
        db.session.scalar(
            select(ApplicationDocument.id)
            .join(AdoptionApplication, ApplicationDocument.application_id == AdoptionApplication.id)
            .join(Listing, AdoptionApplication.listing_id == Listing.id)
            .where(
                ApplicationDocument.document_id == doc.id,
                AdoptionApplication.applicant_id == doc.person_id,
                AdoptionApplication.status.in_(OPEN_APPLICATION_STATUSES),
                Listing.organization_id.in_(org_ids),
            )
            .limit(1)
        )
        is not None
    )


def application_documents(application: AdoptionApplication, user: User) -> list[ApplicantDocument]:
    """The proofs attached to ``application`` as ``user`` may see them on the review page: an
    NGO only while the application is open; CCZ staff also afterwards (the CCZ's own record)."""
    if not (application.is_open or user.is_staff):
        return []
    return attached_documents(application)


def document_file_rule(user: User, stored: StoredFile) -> bool:
    """File-access rule (``wiring(app).file_rule``): an NGO opens an adoption proof only while an
    application to it that carries this proof is open; any other file of the person stays closed
    to it."""
    if stored.purpose != DOCUMENT_PURPOSE:
        return False
    doc = db.session.scalar(
        select(ApplicantDocument).where(ApplicantDocument.stored_file_id == stored.id)
    )
    return doc is not None and doc.person_id == stored.owner_id and may_see_document(user, doc)


def review_document(
    doc: ApplicantDocument, reviewer: User, accept: bool, reason: str = ""
) -> ApplicantDocument:
    """Accept or refuse a proof; a refusal needs a reason, which is e-mailed to the person."""
    if not accept and not reason.strip():
        raise AdoptionError("reason", "required", _("Informe o motivo da recusa do documento."))
    doc.status = DocumentStatus.ACCEPTED if accept else DocumentStatus.REFUSED
    doc.refusal_reason = None if accept else reason.strip()
    doc.reviewed_by_id = reviewer.id
    doc.reviewed_at = utcnow()
    db.session.flush()
    audit.record(
        "adoption.document_reviewed",
        doc,
        actor_id=reviewer.id,
        detail={"kind": doc.kind, "status": doc.status},
    )
    if not accept and doc.person.email:
        send_email(
            doc.person.email,
            _("Documento recusado no pedido de adoção"),
            _(
                "%(doc)s não foi aceito. Motivo: %(reason)s\nEnvie outro documento em "
                '"Minhas adoções": a análise do seu pedido continua quando ele chegar.\n%(link)s',
                doc=DOCUMENT_LABELS[doc.kind],
                reason=doc.refusal_reason,
                link=absolute_url("adoption.my_applications"),
            ),
        )
    return doc


def documents_of(person: User) -> list[ApplicantDocument]:
    return list(
        db.session.scalars(
            select(ApplicantDocument)
            .where(ApplicantDocument.person_id == person.id)
            .order_by(ApplicantDocument.id.desc())
        )
    )
