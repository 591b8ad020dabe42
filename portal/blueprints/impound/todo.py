"""The citizen's to-do list (portal.services.todo) for impound: an animal of theirs in the CCZ
(what, where it is, the last day to reclaim, the amount), a reclaim to pay or to collect, a
release just recorded, a certidão exam booked or its result. Providers only read."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from flask import url_for
from flask_babel import gettext as _
from sqlalchemy import and_, or_, select
from sqlalchemy.orm import selectinload

from portal.domain import DomainError
from portal.extensions import db
from portal.models import Capture, CaptureCertificate, CaptureStatus, ReclaimStatus, User
from portal.services import ccz
from portal.services.clock import current_profile, local_date, local_today
from portal.services.money import format_brl
from portal.services.todo import TodoItem

from .capture import active_reclaim, captures_of_user
from .labels import species_label
from .reclaim import reclaim_fee

RECENT_DAYS = 30  # a release or a certidão stays on the list this long (a download, a record)


def _name(capture: Capture) -> str:
    if capture.animal is not None:
        return capture.animal.name
    return f"{species_label(capture.species)} {capture.color}"


def _where() -> str:
    found = ccz.contact()
    if found is None:  # never a guess: the city has not confirmed where and when
        return _("no CCZ (confirme o endereço e o horário com a Prefeitura)")
    return _("no CCZ (%(address)s; %(hours)s)", address=found.address, hours=found.hours)


def _capture_item(capture: Capture) -> TodoItem | None:
    today, url = local_today(), url_for("impound.my_capture", protocol=capture.protocol)
    day = capture.deadline_on.strftime("%d/%m/%Y")
    if capture.status == CaptureStatus.DEFINITIVE_PENDING:
        text = _(
            "%(name)s está sob a guarda do CCZ em apreensão definitiva (%(article)s): não pode "
            "ser resgatado até a decisão final.",
            name=_name(capture),
            article=capture.definitive_article,
        )
        return TodoItem("impound", text, url, _("Ver o recolhimento"), 20)
    if capture.status == CaptureStatus.RELEASED and capture.release is not None:
        released = local_date(capture.release.released_at)
        if today - released > timedelta(days=RECENT_DAYS):
            return None
        text = _(
            "%(name)s foi devolvido em %(day)s a %(who)s: recolhimento encerrado.",
            name=_name(capture),
            day=released.strftime("%d/%m/%Y"),
            who=capture.release.signed_by_name,
        )
        return TodoItem("impound", text, url, _("Ver o registro"), 90)
    if not capture.reclaimable:
        return None
    reclaim = active_reclaim(capture)
    if reclaim is not None and reclaim.status == ReclaimStatus.PAID:
        text = _(
            "Resgate de %(name)s pago: busque o animal %(where)s até %(day)s, com documento "
            "com foto.",
            name=_name(capture),
            where=_where(),
            day=day,
        )
        return TodoItem("impound", text, url, _("Ver o resgate"), 8)
    if reclaim is not None and reclaim.payment_item is not None:
        text = _(
            "Resgate de %(name)s iniciado: pague %(amount)s e busque o animal %(where)s até "
            "%(day)s.",
            name=_name(capture),
            amount=format_brl(reclaim.payment_item.amount_cents),
            where=_where(),
            day=day,
        )
        return TodoItem("impound", text, url, _("Ver o resgate"), 8)
    try:
        amount = format_brl(reclaim_fee(current_profile(), capture, today).total_cents)
    except DomainError:
        amount = None
    text = _(
        "%(name)s foi recolhido pelo CCZ em %(captured)s e está %(where)s. Resgate até %(day)s; "
        "taxa hoje: %(amount)s.",
        name=_name(capture),
        captured=capture.captured_on.strftime("%d/%m/%Y"),
        where=_where(),
        day=day,
        amount=amount or _("calculada no balcão"),
    )
    return TodoItem("impound", text, url, _("Resgatar"), 5)


def _certificate_items(user: User) -> Iterator[TodoItem]:
    today = local_today()
    found = db.session.scalars(
        select(CaptureCertificate)
        .where(
            CaptureCertificate.requester_id == user.id,
            or_(  # only what is still on the list: an exam to come, a recent certidão
                and_(CaptureCertificate.status == "requested", CaptureCertificate.exam_on >= today),
                and_(
                    CaptureCertificate.status == "issued",
                    CaptureCertificate.issued_on >= today - timedelta(days=RECENT_DAYS),
                ),
            ),
        )
        .options(selectinload(CaptureCertificate.animal))
    )
    for cert in found:
        if cert.status == "requested" and cert.exam_on >= today:
            text = _(
                "Certidão de captura do RGA %(rga)s: leve o animal, contido, %(where)s em %(day)s "
                "para o exame.",
                rga=cert.animal.rga,
                where=_where(),
                day=cert.exam_on.strftime("%d/%m/%Y"),
            )
            yield TodoItem("certificate", text, url_for("impound.certificate_mine"), _("Ver"), 30)
        elif (
            cert.status == "issued"
            and cert.issued_on
            and today - cert.issued_on <= timedelta(days=RECENT_DAYS)
        ):
            text = _(
                "Certidão de captura %(code)s emitida (RGA %(rga)s).",
                code=cert.code,
                rga=cert.animal.rga,
            )
            url = url_for("impound.certificate_check", code=cert.code)
            yield TodoItem("certificate", text, url, _("Ver a certidão"), 80)


def impound_todo(user: User) -> list[TodoItem]:
    """What the signed-in citizen has to do about captures and certidões."""
    items = [item for c in captures_of_user(user) if (item := _capture_item(c)) is not None]
    items.extend(_certificate_items(user))
    return items
