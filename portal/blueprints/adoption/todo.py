"""Adoption's lines on the home to-do list (portal.services.todo): for the applicant, each open
application with its next step, who does it and by when, and a decision of the last days; for a
member of an NGO, each application to the NGO's animals that waits for its action. Providers
only read."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from flask import url_for
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from portal.blueprints.adoption.organizations import organizations_of
from portal.blueprints.adoption.progress import applicant_step, owner_step, refused_proofs
from portal.extensions import db
from portal.models import AdoptionApplication, ApplicationStatus, Listing, User
from portal.models.adoption import OPEN_APPLICATION_STATUSES
from portal.services.clock import local_date, local_today
from portal.services.todo import TodoItem

RECENT_DAYS = 30  # a decision stays on the list this long (it stays in "Minhas adoções")
# What each line reads of an application, loaded with the list (not one query per line).
_LOADS = (
    selectinload(AdoptionApplication.listing).selectinload(Listing.organization),
    selectinload(AdoptionApplication.events),
)


def _day(value) -> str:
    return value.strftime("%d/%m/%Y") if value else "—"


def adoption_todo(user: User) -> Iterator[TodoItem]:
    yield from _applicant_items(user)
    yield from _owner_items(user)


def _applicant_items(user: User) -> Iterator[TodoItem]:
    today = local_today()
    found = db.session.scalars(
        select(AdoptionApplication)
        .where(AdoptionApplication.applicant_id == user.id)
        .options(*_LOADS)
        .order_by(AdoptionApplication.id.desc())
    )
    for application in found:
        item = _applicant_item(application, today)
        if item is not None:
            yield item


def _applicant_item(application: AdoptionApplication, today) -> TodoItem | None:
    animal, owner = application.listing.name, application.listing.owner_name
    url = url_for("adoption.my_application", application_id=application.id)
    step = applicant_step(application)
    status = application.status
    if status == ApplicationStatus.NEEDS_INFO:
        text = _(
            "%(owner)s pediu mais informações sobre o seu pedido para adotar %(animal)s: "
            "%(question)s Responda para a análise continuar.",
            owner=owner,
            animal=animal,
            question=application.info_request or "",
        )
        return TodoItem("adoption", text, url + "#responder", _("Responder"), 15)
    if status == ApplicationStatus.APPROVED:
        text = _(
            "Pedido para adotar %(animal)s aprovado! %(owner)s combina a entrega com você até "
            "%(day)s (meta do programa de adoção); leve um documento com foto.",
            animal=animal,
            owner=owner,
            day=_day(step.by),
        )
        return TodoItem("adoption", text, url, _("Ver o pedido"), 12)
    refused = refused_proofs(application) if status == ApplicationStatus.SUBMITTED else []
    if refused:
        text = _(
            "Pedido para adotar %(animal)s: %(step)s",
            animal=animal,
            step=step.what,
        )
        link = url_for("adoption.documents", pedido=application.id, tipo=refused[0].kind)
        return TodoItem("adoption", text, link, _("Enviar documento"), 15)
    if status == ApplicationStatus.SUBMITTED:
        text = _(
            "Pedido para adotar %(animal)s em análise por %(owner)s: decisão prevista até "
            "%(day)s (meta do programa de adoção).",
            animal=animal,
            owner=owner,
            day=_day(step.by),
        )
        return TodoItem("adoption", text, url, _("Ver o pedido"), 40)
    decided = application.completed_at or application.decided_at
    if decided is None or today - local_date(decided) > timedelta(days=RECENT_DAYS):
        return None
    if status == ApplicationStatus.COMPLETED:
        text = _(
            "Adoção de %(animal)s concluída em %(day)s; RGA %(rga)s no seu nome. Leia o folheto "
            "do adotante.",
            animal=animal,
            day=_day(local_date(decided)),
            rga=application.rga_number or "—",
        )
        return TodoItem("adoption", text, url, _("Ver a adoção"), 90)
    if status == ApplicationStatus.REFUSED:
        text = _(
            "Pedido para adotar %(animal)s não aprovado em %(day)s. Motivo: %(reason)s",
            animal=animal,
            day=_day(local_date(decided)),
            reason=application.refusal_reason or "—",
        )
        return TodoItem("adoption", text, url, _("Ver o pedido"), 90)
    return None


def _owner_items(user: User) -> Iterator[TodoItem]:
    """An NGO member's applications waiting for the NGO (the CCZ's own wait in the staff queue)."""
    orgs = [o.id for o in organizations_of(user)]
    if not orgs:
        return
    found = db.session.scalars(
        select(AdoptionApplication)
        .join(Listing)
        .where(
            Listing.organization_id.in_(orgs),
            AdoptionApplication.status.in_(OPEN_APPLICATION_STATUSES),
            AdoptionApplication.status != ApplicationStatus.NEEDS_INFO,  # the person's turn
        )
        .options(*_LOADS, selectinload(AdoptionApplication.applicant))
        .order_by(AdoptionApplication.submitted_at)
    )
    for application in found:
        step = owner_step(application)
        if step.by is None:  # waiting for the person (a refused proof to replace)
            continue
        text = _(
            "Pedido nº %(n)d: %(person)s quer adotar %(animal)s. %(what)s Até %(day)s.",
            n=application.id,
            person=application.applicant.full_name,
            animal=application.listing.name,
            what=step.what,
            day=_day(step.by),
        )
        action = (
            _("Registrar a entrega")
            if application.status == ApplicationStatus.APPROVED
            else _("Analisar o pedido")
        )
        url = url_for("adoption.review", application_id=application.id)
        yield TodoItem("adoption_review", text, url, action, 30)
