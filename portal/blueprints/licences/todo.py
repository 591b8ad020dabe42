"""The licence's lines on the citizen's to-do list (home page, "Meus animais"): a request left as
a draft, what the CCZ asked, the request under analysis with its next step and date, a decision
of the last days, and, above the registration fees of the animals registered inside a request,
one line saying what those fees are (billing lists each fee on its own line to pay it)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from flask import url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select

from portal.blueprints.licences import progress
from portal.blueprints.licences.common import inside_fees
from portal.extensions import db
from portal.models import Animal, ExcessLicence, LicenceStatus, PaymentItem, User
from portal.services import drafts
from portal.services.clock import current_profile, local_today
from portal.services.money import format_brl
from portal.services.todo import TodoItem

DRAFT_KIND = "licence_request"
RECENT_DECISION_DAYS = 30  # a decision stays on the list this long (it is in "Minhas licenças")


def licence_todo(user: User) -> Iterator[TodoItem]:
    today = local_today()
    draft = drafts.find(user, DRAFT_KIND, "")
    if draft is not None:
        yield TodoItem(
            "licence_draft",
            _("Pedido de licença em rascunho: nada do que você preencheu foi perdido."),
            url_for("licences.request", step=draft.step or "animais"),
            _("Continuar o pedido"),
            order=35,
        )
    found = db.session.scalars(
        select(ExcessLicence)
        .where(ExcessLicence.holder_id == user.id)
        .order_by(ExcessLicence.id.desc())
    ).all()
    fees = inside_fees(lic.id for lic in found)  # one query for every request
    for licence in found:
        yield from _fees(licence, fees.get(licence.id, []))
        yield from _status(licence, today)


def _fees(licence: ExcessLicence, fees: list[tuple[Animal, PaymentItem]]) -> Iterator[TodoItem]:
    """GRU 22 I; BJP 11 a: one registration fee per animal registered inside the request."""
    items = [item for _animal, item in fees if item.payable]
    if not items:
        return
    price = current_profile().prices.get("registration")
    yield TodoItem(
        "licence_fees",
        ngettext(
            "Pedido de licença nº %(id)d: %(num)d taxa de registro, total de %(total)s, do "
            "animal novo registrado no pedido (%(names)s). É o preço público do registro "
            "(%(article)s); a licença em si não tem taxa. Pague abaixo ou peça isenção.",
            "Pedido de licença nº %(id)d: %(num)d taxas de registro, total de %(total)s, uma por "
            "animal novo registrado no pedido (%(names)s). É o preço público do registro "
            "(%(article)s); a licença em si não tem taxa. Pague cada uma abaixo ou peça isenção.",
            len(items),
            id=licence.id,
            total=format_brl(sum(i.amount_cents for i in items)),
            names=", ".join(animal.name for animal, item in fees if item.payable),
            article=price.article if price is not None else "",
        ),
        url_for("licences.detail", licence_id=licence.id),
        _("Ver o pedido"),
        order=9,  # just above the fees themselves (order 10)
    )


def _status(licence: ExcessLicence, today) -> Iterator[TodoItem]:
    url = url_for("licences.detail", licence_id=licence.id)
    if licence.status == LicenceStatus.INFO_REQUESTED:
        yield TodoItem(
            "licence_info",
            _("O CCZ pediu mais informações no pedido de licença nº %(id)d.", id=licence.id),
            url,
            _("Responder"),
            order=20,
        )
    elif licence.status == LicenceStatus.REQUESTED:
        step = progress.next_step(licence, today)
        yield TodoItem(
            "licence_open",
            _(
                "Pedido de licença nº %(id)d em análise. Próximo passo: %(what)s Quem: %(who)s. "
                "Até %(day)s.",
                id=licence.id,
                what=step.what,
                who=step.who,
                day=step.by.strftime("%d/%m/%Y") if step.by else "—",
            ),
            url,
            _("Acompanhar"),
            order=60,
        )
    elif (
        licence.decided_on is not None
        and licence.decided_on >= today - timedelta(days=RECENT_DECISION_DAYS)
        and licence.status in (LicenceStatus.APPROVED, LicenceStatus.REFUSED)
    ):
        if licence.status == LicenceStatus.APPROVED:
            assert licence.valid_until is not None
            text = _(
                "Licença aprovada (pedido nº %(id)d): até %(n)d cães e gatos, válida até "
                "%(day)s. Baixe o documento.",
                id=licence.id,
                n=licence.max_animals or 0,
                day=licence.valid_until.strftime("%d/%m/%Y"),
            )
        else:
            text = _("Pedido de licença nº %(id)d recusado: veja o motivo.", id=licence.id)
        yield TodoItem("licence_decision", text, url, _("Ver a decisão"), order=15)
