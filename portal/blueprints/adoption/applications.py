"""Adoption applications: submit, review, hand-over (VV 28).

The life of an application::

    submitted ──> needs_info ──> submitted (the applicant answers)
        │   └──────────────┐
        ├──> approved ──> completed      (listing: published -> reserved -> adopted)
        ├──> refused      (by the owner, with a reason; an approval undone frees the listing)
        └──> cancelled    (by the applicant)

Every step writes an :class:`ApplicationEvent` and e-mails the applicant (:mod:`.workflow`). The
hand-over (:func:`complete_adoption`, in :mod:`.handover`, re-exported here) refuses an animal
that is not vaccinated, dewormed and sterilized, issues or transfers the RGA, charges the
profile's adoption fee and closes the other applications.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult

from portal.blueprints.adoption.documents import attach_current_proofs
from portal.blueprints.adoption.eligibility import (
    approval_blockers,
    check_eligibility,
    submission_blockers,
)
from portal.blueprints.adoption.errors import AdoptionError, InvalidData
from portal.blueprints.adoption.handover import (  # re-exported: views and tests import them here
    DELIVERY_CONDITIONS as DELIVERY_CONDITIONS,
)
from portal.blueprints.adoption.handover import DELIVERY_WORDS as DELIVERY_WORDS
from portal.blueprints.adoption.handover import DeliveryRefused as DeliveryRefused
from portal.blueprints.adoption.handover import HealthRecord as HealthRecord
from portal.blueprints.adoption.handover import adoption_fee as adoption_fee
from portal.blueprints.adoption.handover import complete_adoption as complete_adoption
from portal.blueprints.adoption.handover import delivery_article as delivery_article
from portal.blueprints.adoption.handover import delivery_citations as delivery_citations
from portal.blueprints.adoption.handover import delivery_problems as delivery_problems
from portal.blueprints.adoption.progress import handover_due, review_due
from portal.blueprints.adoption.term import TERM_VERSION
from portal.blueprints.adoption.workflow import STATUS_LABELS as STATUS_LABELS
from portal.blueprints.adoption.workflow import (
    NotEligible,
    notify_applicant,
    notify_owner,
    record_step,
    require_status,
)
from portal.blueprints.adoption.workflow import absolute_url as absolute_url
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApplicationEvent,
    ApplicationStatus,
    Listing,
    ListingState,
    User,
)
from portal.models.adoption import OPEN_APPLICATION_STATUSES
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit

HOME_TYPES = {
    "house_yard": _l("Casa com quintal"),
    "house": _l("Casa sem quintal"),
    "apartment": _l("Apartamento"),
    "rural": _l("Chácara ou sítio"),
    "other": _l("Outro"),
}


OTHER_ANIMALS = {
    "none": _l("Nenhum"),
    "dogs": _l("Cães"),
    "cats": _l("Gatos"),
    "dogs_and_cats": _l("Cães e gatos"),
    "other": _l("Outros animais"),
}


QUESTION_LABELS = {
    "home_type": _l("Tipo de moradia"),
    "other_animals": _l("Outros animais em casa"),
    "other_animals_detail": _l("Sobre os outros animais"),
    "caretaker": _l("Quem vai cuidar do animal no dia a dia"),
    "holidays": _l("Com quem o animal fica em viagens e feriados"),
}


@dataclass
class Answers:
    """The short questionnaire."""

    home_type: str
    other_animals: str
    caretaker: str
    holidays: str
    other_animals_detail: str = ""

    def validate(self) -> dict[str, Any]:
        errors = []
        if self.home_type not in HOME_TYPES:
            errors.append(("home_type", "required", _("Escolha o tipo de moradia.")))
        if self.other_animals not in OTHER_ANIMALS:
            errors.append(("other_animals", "required", _("Diga se há outros animais em casa.")))
        if self.other_animals not in ("none", "") and not self.other_animals_detail.strip():
            errors.append(
                (
                    "other_animals_detail",
                    "required",
                    _("Conte quantos são e se são vacinados e castrados."),
                )
            )
        for name, text, message in (
            ("caretaker", self.caretaker, _("Diga quem vai cuidar do animal.")),
            ("holidays", self.holidays, _("Diga com quem o animal fica quando viajarem.")),
        ):
            if not text.strip():
                errors.append((name, "required", message))
            elif len(text) > 1000:
                errors.append((name, "too_long", _("No máximo 1000 caracteres.")))
        if len(self.other_animals_detail) > 1000:
            errors.append(("other_animals_detail", "too_long", _("No máximo 1000 caracteres.")))
        if errors:
            raise InvalidData(errors)
        return {
            "home_type": self.home_type,
            "other_animals": self.other_animals,
            "other_animals_detail": self.other_animals_detail.strip(),
            "caretaker": self.caretaker.strip(),
            "holidays": self.holidays.strip(),
        }


def applications_of(person: User) -> list[AdoptionApplication]:
    """ "Minhas adoções": the person's applications, newest first."""
    return list(
        db.session.scalars(
            select(AdoptionApplication)
            .where(AdoptionApplication.applicant_id == person.id)
            .order_by(AdoptionApplication.id.desc())
        )
    )


def applications_for(listing: Listing) -> list[AdoptionApplication]:
    """Every application to one listing, newest first."""
    return list(
        db.session.scalars(
            select(AdoptionApplication)
            .where(AdoptionApplication.listing_id == listing.id)
            .order_by(AdoptionApplication.id.desc())
        )
    )


def open_application_of(person: User, listing: Listing) -> AdoptionApplication | None:
    return db.session.scalar(
        select(AdoptionApplication).where(
            AdoptionApplication.applicant_id == person.id,
            AdoptionApplication.listing_id == listing.id,
            AdoptionApplication.status.in_(OPEN_APPLICATION_STATUSES),
        )
    )


def submit_application(
    profile: Profile,
    person: User,
    listing: Listing,
    answers: Answers,
    term_accepted: bool,
    on: date,
) -> AdoptionApplication:
    """The person applies to adopt ``listing``. Raises InvalidData, NotEligible or AdoptionError.

    Eligibility runs first: any failed rule, or a proof not uploaded yet, stops the submission; a
    proof waiting for the reviewer does not. The term is recorded with its version, time and
    account (VV 28 §2).
    """
    if listing.state != ListingState.PUBLISHED:
        raise AdoptionError(
            "listing", "not_available", _("Este animal não está disponível para adoção no momento.")
        )
    if open_application_of(person, listing) is not None:
        raise AdoptionError(
            "listing", "duplicate", _("Você já tem um pedido em andamento para este animal.")
        )
    clean_answers = answers.validate()
    if not term_accepted:
        raise AdoptionError(
            "accept_term",
            "term_required",
            _("Para enviar o pedido, leia e aceite o Termo de Compromisso de Adoção."),
        )
    blockers = submission_blockers(check_eligibility(profile, person, listing, on))
    if blockers:
        raise NotEligible(blockers)
    now = utcnow()
    application = AdoptionApplication(
        listing=listing,
        applicant=person,
        answers=clean_answers,
        term_version=TERM_VERSION,
        term_accepted_at=now,
        term_accepted_by_id=person.id,
        submitted_at=now,
        status=ApplicationStatus.SUBMITTED,
    )
    application.events.append(
        ApplicationEvent(
            from_status=None, to_status=ApplicationStatus.SUBMITTED, actor_id=person.id
        )
    )
    db.session.add(application)
    db.session.flush()
    attach_current_proofs(application, person)  # the NGO sees these, and only these
    application.eligibility = [
        r.as_dict()
        for r in check_eligibility(profile, person, listing, on, application=application)
    ]
    db.session.flush()
    notify_applicant(
        application,
        _("Recebemos seu pedido de adoção"),
        _(
            "Recebemos seu pedido para adotar %(animal)s. %(owner)s vai analisar e "
            "você receberá um e-mail a cada etapa. Decisão prevista até %(day)s (meta do "
            "programa de adoção; a lei não fixa prazo).",
            animal=listing.name,
            owner=listing.owner_name,
            day=review_due(application).strftime("%d/%m/%Y"),
        ),
    )
    notify_owner(
        application,
        _("Novo pedido de adoção"),
        _("Há um novo pedido para adotar %(animal)s.", animal=listing.name),
    )
    return application


def request_info(application: AdoptionApplication, reviewer: User, message: str) -> None:
    """The reviewer asks the applicant for more information (or another document)."""
    require_status(application, ApplicationStatus.SUBMITTED)
    if not message.strip():
        raise AdoptionError(
            "message", "required", _("Escreva o que a pessoa precisa enviar ou esclarecer.")
        )
    application.info_request = message.strip()
    record_step(application, ApplicationStatus.NEEDS_INFO, reviewer, message.strip())
    db.session.flush()
    notify_applicant(
        application,
        _("Pedido de adoção: precisamos de mais informações"),
        _(
            "Sobre o pedido para adotar %(animal)s: %(message)s",
            animal=application.listing.name,
            message=message.strip(),
        ),
    )


def answer_info(
    application: AdoptionApplication, person: User, answers: Answers, note: str
) -> None:
    """The applicant answers a request for information; the application goes back to review."""
    require_status(application, ApplicationStatus.NEEDS_INFO)
    application.answers = answers.validate()
    record_step(application, ApplicationStatus.SUBMITTED, person, note.strip() or None)
    db.session.flush()
    notify_owner(
        application,
        _("Pedido de adoção respondido"),
        _("O pedido para adotar %(animal)s foi respondido.", animal=application.listing.name),
    )


def approve_application(
    profile: Profile, application: AdoptionApplication, reviewer: User, on: date
) -> None:
    """Approve: every eligibility rule must pass; the listing is reserved for this applicant."""
    require_status(application, ApplicationStatus.SUBMITTED)
    listing = application.listing
    if listing.state != ListingState.PUBLISHED:
        raise AdoptionError(
            "listing",
            "not_available",
            _(
                "O animal não está disponível: outro pedido já foi aprovado ou o "
                "anúncio foi retirado."
            ),
        )
    blockers = approval_blockers(
        check_eligibility(
            profile, application.applicant, listing, on, reviewer=True, application=application
        )
    )
    if blockers:
        raise NotEligible(blockers)
    # Reserve with a conditional UPDATE, not by setting the attribute: two reviewers approving
    # two applicants for the same animal at the same moment both saw "published"; only the one
    # whose UPDATE still finds the row published wins (one animal, one adopter).
    reserved: CursorResult[Any] = db.session.execute(  # type: ignore[assignment]
        update(Listing)
        .where(Listing.id == listing.id, Listing.state == ListingState.PUBLISHED)
        .values(state=ListingState.RESERVED, updated_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if reserved.rowcount != 1:
        db.session.refresh(listing)
        raise AdoptionError(
            "listing",
            "not_available",
            _(
                "O animal não está disponível: outro pedido já foi aprovado ou o "
                "anúncio foi retirado."
            ),
        )
    db.session.refresh(listing, ["state", "updated_at"])
    application.decided_at = utcnow()
    application.decided_by_id = reviewer.id
    application.refusal_reason = None
    record_step(application, ApplicationStatus.APPROVED, reviewer)
    db.session.flush()
    audit.record("adoption.application_approved", application, actor_id=reviewer.id)
    notify_applicant(
        application,
        _("Pedido de adoção aprovado!"),
        _(
            "Seu pedido para adotar %(animal)s foi aprovado. %(owner)s vai combinar "
            "com você a entrega até %(day)s (meta do programa de adoção). Leve um documento "
            "com foto; na entrega o RGA passa para o seu nome.",
            animal=listing.name,
            owner=listing.owner_name,
            day=handover_due(application).strftime("%d/%m/%Y"),
        ),
    )


def refuse_application(application: AdoptionApplication, reviewer: User, reason: str) -> None:
    """Refuse with a reason the applicant receives; an approval undone frees the animal."""
    require_status(
        application,
        ApplicationStatus.SUBMITTED,
        ApplicationStatus.NEEDS_INFO,
        ApplicationStatus.APPROVED,
    )
    if not reason.strip():
        raise AdoptionError(
            "reason", "required", _("Informe o motivo da recusa; ele será enviado à pessoa.")
        )
    was_approved = application.status == ApplicationStatus.APPROVED
    application.refusal_reason = reason.strip()
    application.decided_at = utcnow()
    application.decided_by_id = reviewer.id
    record_step(application, ApplicationStatus.REFUSED, reviewer, reason.strip())
    if was_approved and application.listing.state == ListingState.RESERVED:
        application.listing.state = ListingState.PUBLISHED
    db.session.flush()
    audit.record("adoption.application_refused", application, actor_id=reviewer.id)
    notify_applicant(
        application,
        _("Pedido de adoção não aprovado"),
        _(
            "Seu pedido para adotar %(animal)s não foi aprovado. Motivo: %(reason)s",
            animal=application.listing.name,
            reason=reason.strip(),
        ),
    )


def cancel_application(application: AdoptionApplication, person: User) -> None:
    """The applicant gives up; a reserved animal becomes available again."""
    require_status(application, *OPEN_APPLICATION_STATUSES)
    was_approved = application.status == ApplicationStatus.APPROVED
    record_step(application, ApplicationStatus.CANCELLED, person)
    if was_approved and application.listing.state == ListingState.RESERVED:
        application.listing.state = ListingState.PUBLISHED
    db.session.flush()
    notify_applicant(
        application,
        _("Pedido de adoção cancelado"),
        _("Você cancelou o pedido para adotar %(animal)s.", animal=application.listing.name),
    )
    notify_owner(
        application,
        _("Pedido de adoção cancelado"),
        _("A pessoa cancelou o pedido para adotar %(animal)s.", animal=application.listing.name),
    )


def close_application(application: AdoptionApplication, actor: User | None, reason: str) -> None:
    """Close an open application because the animal is gone (adopted by someone else, withdrawn)."""
    application.refusal_reason = reason
    application.decided_at = utcnow()
    record_step(application, ApplicationStatus.REFUSED, actor, reason)
    db.session.flush()
    notify_applicant(
        application,
        _("Pedido de adoção encerrado"),
        _(
            "Seu pedido para adotar %(animal)s foi encerrado: %(reason)s",
            animal=application.listing.name,
            reason=reason,
        ),
    )


def may_review(user: User, application: AdoptionApplication) -> bool:
    from portal.blueprints.adoption.listings import may_manage

    return may_manage(user, application.listing)
