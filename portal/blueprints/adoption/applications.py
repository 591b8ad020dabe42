"""Adoption applications: submit, review, hand-over (DOMAIN §5).

The life of an application::

    submitted ──> needs_info ──> submitted (the applicant answers)
        │   └──────────────┐
        ├──> approved ──> completed      (listing: published -> reserved -> adopted)
        ├──> refused      (by the owner, with a reason; an approval undone frees the listing)
        └──> cancelled    (by the applicant)

Every step writes an :class:`ApplicationEvent` and e-mails the applicant. The hand-over
(:func:`complete_adoption`) refuses an animal that is not vaccinated, dewormed and sterilised,
issues or transfers the RGA, charges the profile's adoption fee and closes the other applications.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult

from portal import urls
from portal.blueprints.adoption.eligibility import (
    RuleResult,
    approval_blockers,
    check_eligibility,
    submission_blockers,
)
from portal.blueprints.adoption.services import (
    AdoptionError,
    InvalidData,
    close_open_applications,
)
from portal.blueprints.adoption.term import TERM_VERSION
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    Animal,
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
from portal.services.fees import FeeError, compute_fee
from portal.services.mail import send_email
from portal.services.money import format_brl

STATUS_LABELS: dict[str, Any] = {
    ApplicationStatus.SUBMITTED: _l("Em análise"),
    ApplicationStatus.NEEDS_INFO: _l("Aguardando informações suas"),
    ApplicationStatus.APPROVED: _l("Aprovado – aguardando a entrega"),
    ApplicationStatus.REFUSED: _l("Não aprovado"),
    ApplicationStatus.COMPLETED: _l("Adoção concluída"),
    ApplicationStatus.CANCELLED: _l("Cancelado"),
}
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


class NotEligible(AdoptionError):
    """Rules stop the step; ``results`` are the blocking ones, each with message and article."""

    def __init__(self, results: list[RuleResult]) -> None:
        super().__init__(results[0].message if results else "", "eligibility", "not_eligible")
        self.results = results


class DeliveryRefused(AdoptionError):
    """The animal is not ready to be handed over; ``problems`` are (field, message, article)."""

    def __init__(self, problems: list[tuple[str, str, str]]) -> None:
        super().__init__(problems[0][1], problems[0][0], "not_ready")
        self.problems = problems


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


absolute_url = urls.absolute_url  # links in e-mails (PUBLIC_BASE_URL, never the Host header)


def _event(
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


def _notify_applicant(application: AdoptionApplication, subject: str, text: str) -> None:
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


def _notify_owner(application: AdoptionApplication, subject: str, text: str) -> None:
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
            _("Este animal não está disponível para adoção no momento."), "listing", "not_available"
        )
    if open_application_of(person, listing) is not None:
        raise AdoptionError(
            _("Você já tem um pedido em andamento para este animal."), "listing", "duplicate"
        )
    clean_answers = answers.validate()
    if not term_accepted:
        raise AdoptionError(
            _("Para enviar o pedido, leia e aceite o Termo de Compromisso de Adoção."),
            "accept_term",
            "term_required",
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
    application.eligibility = [r.as_dict() for r in check_eligibility(profile, person, listing, on)]
    db.session.flush()
    _notify_applicant(
        application,
        _("Recebemos seu pedido de adoção"),
        _(
            "Recebemos seu pedido para adotar %(animal)s. %(owner)s vai analisar e "
            "você receberá um e-mail a cada etapa.",
            animal=listing.name,
            owner=listing.owner_name,
        ),
    )
    _notify_owner(
        application,
        _("Novo pedido de adoção"),
        _("Há um novo pedido para adotar %(animal)s.", animal=listing.name),
    )
    return application


def _require(application: AdoptionApplication, *statuses: str) -> None:
    if application.status not in statuses:
        raise AdoptionError(
            _(
                'Este pedido está "%(status)s"; a ação não é possível agora.',
                status=STATUS_LABELS[application.status],
            ),
            "status",
            "invalid_transition",
        )


def request_info(application: AdoptionApplication, reviewer: User, message: str) -> None:
    """The reviewer asks the applicant for more information (or another document)."""
    _require(application, ApplicationStatus.SUBMITTED)
    if not message.strip():
        raise AdoptionError(
            _("Escreva o que a pessoa precisa enviar ou esclarecer."), "message", "required"
        )
    application.info_request = message.strip()
    _event(application, ApplicationStatus.NEEDS_INFO, reviewer, message.strip())
    db.session.flush()
    _notify_applicant(
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
    _require(application, ApplicationStatus.NEEDS_INFO)
    application.answers = answers.validate()
    _event(application, ApplicationStatus.SUBMITTED, person, note.strip() or None)
    db.session.flush()
    _notify_owner(
        application,
        _("Pedido de adoção respondido"),
        _("O pedido para adotar %(animal)s foi respondido.", animal=application.listing.name),
    )


def approve_application(
    profile: Profile, application: AdoptionApplication, reviewer: User, on: date
) -> None:
    """Approve: every eligibility rule must pass; the listing is reserved for this applicant."""
    _require(application, ApplicationStatus.SUBMITTED)
    listing = application.listing
    if listing.state != ListingState.PUBLISHED:
        raise AdoptionError(
            _(
                "O animal não está disponível: outro pedido já foi aprovado ou o "
                "anúncio foi retirado."
            ),
            "listing",
            "not_available",
        )
    blockers = approval_blockers(
        check_eligibility(profile, application.applicant, listing, on, reviewer=True)
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
            _(
                "O animal não está disponível: outro pedido já foi aprovado ou o "
                "anúncio foi retirado."
            ),
            "listing",
            "not_available",
        )
    db.session.refresh(listing, ["state", "updated_at"])
    application.decided_at = utcnow()
    application.decided_by_id = reviewer.id
    application.refusal_reason = None
    _event(application, ApplicationStatus.APPROVED, reviewer)
    db.session.flush()
    audit.record("adoption.application_approved", application, actor_id=reviewer.id)
    _notify_applicant(
        application,
        _("Pedido de adoção aprovado!"),
        _(
            "Seu pedido para adotar %(animal)s foi aprovado. %(owner)s vai combinar "
            "com você a entrega. Leve um documento com foto.",
            animal=listing.name,
            owner=listing.owner_name,
        ),
    )


def refuse_application(application: AdoptionApplication, reviewer: User, reason: str) -> None:
    """Refuse with a reason the applicant receives; an approval undone frees the animal."""
    _require(
        application,
        ApplicationStatus.SUBMITTED,
        ApplicationStatus.NEEDS_INFO,
        ApplicationStatus.APPROVED,
    )
    if not reason.strip():
        raise AdoptionError(
            _("Informe o motivo da recusa; ele será enviado à pessoa."), "reason", "required"
        )
    was_approved = application.status == ApplicationStatus.APPROVED
    application.refusal_reason = reason.strip()
    application.decided_at = utcnow()
    application.decided_by_id = reviewer.id
    _event(application, ApplicationStatus.REFUSED, reviewer, reason.strip())
    if was_approved and application.listing.state == ListingState.RESERVED:
        application.listing.state = ListingState.PUBLISHED
    db.session.flush()
    audit.record("adoption.application_refused", application, actor_id=reviewer.id)
    _notify_applicant(
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
    _require(application, *OPEN_APPLICATION_STATUSES)
    was_approved = application.status == ApplicationStatus.APPROVED
    _event(application, ApplicationStatus.CANCELLED, person)
    if was_approved and application.listing.state == ListingState.RESERVED:
        application.listing.state = ListingState.PUBLISHED
    db.session.flush()
    _notify_applicant(
        application,
        _("Pedido de adoção cancelado"),
        _("Você cancelou o pedido para adotar %(animal)s.", animal=application.listing.name),
    )
    _notify_owner(
        application,
        _("Pedido de adoção cancelado"),
        _("A pessoa cancelou o pedido para adotar %(animal)s.", animal=application.listing.name),
    )


def close_application(application: AdoptionApplication, actor: User | None, reason: str) -> None:
    """Close an open application because the animal is gone (adopted by someone else, withdrawn)."""
    application.refusal_reason = reason
    application.decided_at = utcnow()
    _event(application, ApplicationStatus.REFUSED, actor, reason)
    db.session.flush()
    _notify_applicant(
        application,
        _("Pedido de adoção encerrado"),
        _(
            "Seu pedido para adotar %(animal)s foi encerrado: %(reason)s",
            animal=application.listing.name,
            reason=reason,
        ),
    )


# ---------------------------------------------------------------------------------------------
# Hand-over
# ---------------------------------------------------------------------------------------------

# The animal is delivered vaccinated, dewormed and sterilised (DOMAIN §5). VV 28 §1 asks for all
# three; CABO 14 and GRU 85 only the vaccination; the portal requires all three everywhere and cites
# the local law where it has the requirement, VV 28 §1 otherwise.
DELIVERY_CONDITIONS = {
    "vaccinated": _l("O animal precisa estar vacinado para ser entregue."),
    "dewormed": _l("O animal precisa estar vermifugado para ser entregue."),
    "sterilized": _l("O animal precisa estar esterilizado para ser entregue."),
}
_PROFILE_DELIVERY = {"vaccinated": "vaccinated", "dewormed": "dewormed", "sterilized": "sterilised"}
DELIVERY_SOURCE_ARTICLE = "VV 28 §1"


def delivery_article(profile: Profile, condition: str) -> tuple[str, bool]:
    """The citation for a delivery condition and whether the local law itself requires it."""
    if _PROFILE_DELIVERY[condition] in profile.adoption.delivered:
        return profile.adoption.cite("delivered"), True
    return DELIVERY_SOURCE_ARTICLE, False


DELIVERY_WORDS = {
    "vaccinated": _l("vacinação"),
    "dewormed": _l("vermifugação"),
    "sterilized": _l("castração"),
}


def delivery_citations(profile: Profile) -> list[tuple[str, bool, list[str]]]:
    """(article, in the local law, conditions) for the page that explains the hand-over."""
    grouped: dict[tuple[str, bool], list[str]] = {}
    for condition in DELIVERY_CONDITIONS:
        grouped.setdefault(delivery_article(profile, condition), []).append(
            str(DELIVERY_WORDS[condition])
        )
    return [(article, local, words) for (article, local), words in grouped.items()]


def delivery_problems(profile: Profile, listing: Listing) -> list[tuple[str, str, str]]:
    """What keeps the animal from being handed over: (field, message, article)."""
    problems = []
    for condition, message in DELIVERY_CONDITIONS.items():
        if not getattr(listing, condition):
            article, local = delivery_article(profile, condition)
            suffix = "" if local else " " + _("(regra do programa de adoção)")
            problems.append((condition, str(message) + suffix, article))
    return problems


@dataclass
class HealthRecord:
    """What the hand-over form confirms about the animal's health, with dates, and optionally the
    rabies shot's record (BJP 13 §1 fields) so the new RGA is active at once."""

    vaccinated: bool
    vaccinated_on: date | None
    dewormed: bool
    dewormed_on: date | None
    sterilized: bool
    sterilized_on: date | None
    rabies_vaccine: str = ""
    rabies_batch: str = ""
    rabies_vet_name: str = ""
    rabies_vet_crmv: str = ""

    @property
    def has_rabies_record(self) -> bool:
        return any(
            v.strip()
            for v in (
                self.rabies_vaccine,
                self.rabies_batch,
                self.rabies_vet_name,
                self.rabies_vet_crmv,
            )
        )


# The RGA domain names vaccination fields by their API path; the hand-over form by its own names.
_RGA_FIELDS = {
    "rabies_vaccination.date": "vaccinated_on",
    "rabies_vaccination.vaccine": "rabies_vaccine",
    "rabies_vaccination.batch": "rabies_batch",
    "rabies_vaccination.vet_name": "rabies_vet_name",
    "rabies_vaccination.vet_crmv": "rabies_vet_crmv",
    "owner.address": "address",
}


def adoption_fee(profile: Profile, listing: Listing, on: date) -> tuple[int, list[dict]] | None:
    """The municipal adoption fee for ``listing`` on ``on`` and its breakdown, or None.

    The amount comes from the one fee service (the city's price list, unit values in force on
    ``on``). Only CCZ animals pay the municipal fee: BJP 28 and CAB 17 charge for animals the CCZ
    hands over, and an NGO's own animals are not the city's. CAB 17 charges per day held, counted
    from ``held_since`` (or the first publication). Raises AdoptionError when the fee cannot be
    computed (e.g. the UFM of that day is not entered yet).
    """
    if profile.adoption.fee is None or listing.organization_id is not None:
        return None
    inputs: dict[str, Any] = {}
    if profile.adoption.fee_per == "day_held":  # CAB 17: "por cabeça e por dia de apreensão"
        # The local day of the first publication (published_at is UTC; 22:00 in São Paulo is
        # already the next day in UTC, which would drop a day held).
        from portal.blueprints.adoption.leaflet import local_day

        start = listing.held_since or (
            local_day(listing.published_at) if listing.published_at else on
        )
        inputs["days_held"] = max(1, (on - start).days)
    try:
        fee = compute_fee(profile, "adoption", inputs, on)
    except FeeError as err:
        raise AdoptionError(
            _(
                "Não foi possível calcular a taxa de adoção: %(reason)s Cadastre o "
                "valor que falta antes de registrar a entrega.",
                reason=err.message,
            ),
            "fee",
            err.code,
        ) from err
    return fee.total_cents, fee.breakdown()


def _register_animal(
    profile: Profile,
    application: AdoptionApplication,
    reviewer: User,
    health: HealthRecord,
    on: date,
) -> Animal:
    """Issue the adopter's RGA, or transfer the animal's existing one (VV 28 §1; GRU 88 §2;
    GRU 18 §1). The listing's vaccination (when, and who: the NGO or the CCZ) and its cover photo
    go into the RGA; the NGO / CCZ vouches for the vaccination, so the RGA waits for no proof
    check and is never a late registration (issue 8). Raises InvalidData with the RGA domain's
    problems on the hand-over's fields."""
    from portal.blueprints.animals import provisional
    from portal.blueprints.animals import services as rga

    listing, adopter = application.listing, application.applicant
    vaccination = None
    if health.has_rabies_record:
        vaccination = rga.VaccinationData(
            applied_on=listing.vaccinated_on,
            vaccine_name=health.rabies_vaccine,
            batch=health.rabies_batch,
            vet_name=health.rabies_vet_name,
            vet_crmv=health.rabies_vet_crmv,
        )
    try:
        if listing.animal is not None:
            animal = listing.animal
            if vaccination is not None:
                rga.record_vaccination(
                    animal, vaccination, recorded_by=reviewer, at_ccz=False, today=on
                )
            animal.sterilized = animal.sterilized or listing.sterilized
            rga.transfer_animal(animal, adopter, immediate=True, profile=profile, today=on)
        else:
            animal = rga.register_animal_for_adoption(
                adopter=adopter,
                registered_by=reviewer,
                profile=profile,
                today=on,
                vaccination=vaccination,
                data=rga.AnimalData(
                    name=listing.name,
                    species=listing.species,
                    sex=listing.sex,
                    birth_date=listing.birth_date,
                    birth_date_estimated=listing.birth_date_estimated,
                    breed=listing.breed or "SRD",
                    color=listing.color,
                    size=listing.size,
                    sterilized=listing.sterilized,
                    photo=provisional.copy_photo(listing.cover, adopter.id),
                ),
            )
            listing.animal = animal
        if animal.photo is None and listing.cover is not None:
            animal.photo = provisional.copy_photo(listing.cover, adopter.id)
        provisional.vouch_at_handover(
            animal,
            applied_on=listing.vaccinated_on if listing.vaccinated else None,
            vouched_by=listing.owner_name,
            at_ccz=listing.is_ccz,
            recorded_by=reviewer,
            profile=profile,
            today=on,
        )
    except rga.AnimalError as err:
        raise InvalidData(
            [(_RGA_FIELDS.get(e.field or "", "rga"), e.code, e.message) for e in err.errors]
        ) from err
    return animal


def complete_adoption(
    profile: Profile,
    application: AdoptionApplication,
    reviewer: User,
    health: HealthRecord,
    on: date,
) -> AdoptionApplication:
    """Record the hand-over. Raises DeliveryRefused, NotEligible or AdoptionError.

    The animal must be vaccinated, dewormed and sterilised (VV 28 §1; CABO 14; GRU 85); every
    eligibility rule must still pass (the household may have grown since the approval). Then the
    RGA is issued to the adopter or transferred (VV 28 §1; GRU 88 §2), the adoption fee becomes a
    payment item, the listing is adopted and the other applications are closed.
    """
    from portal.blueprints.billing.services import create_payment_item

    _require(application, ApplicationStatus.APPROVED)
    listing = application.listing
    for name in ("vaccinated", "dewormed", "sterilized"):
        flag, when = getattr(health, name), getattr(health, f"{name}_on")
        if when is not None and when > on:
            raise AdoptionError(_("A data não pode estar no futuro."), f"{name}_on", "future")
        setattr(listing, name, flag or when is not None)
        setattr(listing, f"{name}_on", when if (flag or when) else None)
    problems = delivery_problems(profile, listing)
    if problems:
        raise DeliveryRefused(problems)
    blockers = approval_blockers(
        check_eligibility(profile, application.applicant, listing, on, reviewer=True)
    )
    if blockers:
        raise NotEligible(blockers)

    from portal.blueprints.animals import provisional

    animal = _register_animal(profile, application, reviewer, health, on)
    application.rga_number = animal.rga
    fee = adoption_fee(profile, listing, on)
    item = None
    if fee is not None:
        amount, breakdown = fee
        item = create_payment_item(
            kind="adoption",
            amount_cents=amount,
            description=_("Adoção de %(animal)s", animal=listing.name),
            payer=application.applicant,
            subject_type="adoption_application",
            subject_id=application.id,
            breakdown=breakdown,
        )
        application.payment_item_id = item.id
    # Issue 8: the hand-over's RGA waits only for the adoption fee (none: definitive at once; the
    # adoption e-mail below already tells the adopter, so no second one now)
    provisional.attach_fee(animal, item)
    provisional.refresh(animal, notify=False)
    application.completed_at = utcnow()
    application.completed_by_id = reviewer.id
    _event(application, ApplicationStatus.COMPLETED, reviewer)
    listing.state = ListingState.ADOPTED
    listing.adopted_at = application.completed_at
    db.session.flush()
    close_open_applications(
        listing, reviewer, _("este animal foi adotado por outra família."), keep=application
    )
    audit.record(
        "adoption.completed",
        application,
        actor_id=reviewer.id,
        detail={"listing_id": listing.id, "rga": application.rga_number},
    )
    leaflet = absolute_url("adoption.leaflet", application_id=application.id)
    text = _(
        "A adoção de %(animal)s está concluída. RGA: %(rga)s.\n\nLeia o folheto do adotante "
        "(cuidados, vacinação, esterilização e onde denunciar maus-tratos): %(link)s",
        animal=listing.name,
        rga=application.rga_number,
        link=leaflet,
    )
    if fee is not None:
        text += "\n\n" + _(
            'Taxa de adoção: %(amount)s, a pagar em "Pagar taxas".', amount=format_brl(fee[0])
        )
    _notify_applicant(application, _("Adoção concluída – bem-vindo(a) à família!"), text)
    return application


def may_review(user: User, application: AdoptionApplication) -> bool:
    from portal.blueprints.adoption.services import may_manage

    return may_manage(user, application.listing)
