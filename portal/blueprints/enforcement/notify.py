"""The addressee is told every decision on their defence or appeal (issue 25: the page promised
"Você será avisado da decisão" and nothing was sent): what was decided, by whom, why, and the
next step with its date (appeal, payment, nothing). Sent through the outbox
(``portal.services.mail``); a representative whose power of attorney was accepted gets a copy."""

from __future__ import annotations

from flask_babel import gettext as _

from portal.blueprints.enforcement.addressees import recipient
from portal.blueprints.enforcement.authority import authority_line
from portal.blueprints.enforcement.labels import KIND_LABELS, PETITION_LABELS
from portal.blueprints.enforcement.petitions import petition_option
from portal.models import EnforcementDocument, Petition, PetitionStatus, RepresentationStatus
from portal.profiles.schema import Profile
from portal.services.mail import send_email
from portal.services.money import format_brl
from portal.urls import absolute_url


def _day(value) -> str:
    return value.strftime("%d/%m/%Y")


def next_step(
    profile: Profile, doc: EnforcementDocument, penalty: EnforcementDocument | None
) -> str:
    """What the addressee may or must do after a decision on ``doc``, in one sentence."""
    target = penalty or doc
    option = petition_option(profile, target)
    item = target.payment_item
    if penalty is not None and option is not None:
        return _(
            "Foi lavrado o auto de imposição de penalidade nº %(n)s%(fine)s. Você pode recorrer "
            "em %(i)dª instância até %(d)s; quem decide é %(who)s. O recurso suspende a cobrança "
            "da multa enquanto é julgado.",
            n=penalty.number,
            fine=_(", com multa de %(v)s", v=format_brl(penalty.fine_cents))
            if penalty.fine_cents
            else "",
            i=option.instance,
            d=_day(option.due_on),
            who=authority_line(profile, penalty, option.instance),
        )
    if option is not None:
        return _(
            "Você pode recorrer em %(i)dª instância até %(d)s; quem decide é %(who)s.",
            i=option.instance,
            d=_day(option.due_on),
            who=authority_line(profile, target, option.instance),
        )
    if item is not None and item.payable and item.due_on is not None:
        return _(
            "A decisão é definitiva. Pague a multa de %(v)s até %(d)s pelo portal ou com a guia "
            "no banco.",
            v=format_brl(item.amount_cents),
            d=_day(item.due_on),
        )
    return _("Não há outro passo a dar neste documento.")


def tell_decision(
    profile: Profile,
    doc: EnforcementDocument,
    petition: Petition,
    penalty: EnforcementDocument | None = None,
) -> None:
    """E-mail the decision on ``petition`` to the addressee of ``doc`` and, when a
    representative whose power of attorney staff accepted filed it, to them too."""
    people = [recipient(doc)]
    if (
        petition.as_representative
        and petition.representation_status == RepresentationStatus.ACCEPTED
    ):
        people.append(petition.filed_by)
    told = {p.email: p for p in people if p is not None and p.email}  # once per address
    if not told:
        return
    kind = str(KIND_LABELS.get(doc.kind, doc.kind)).lower()
    facts = dict(filed=_day(petition.filed_on), kind=kind, n=doc.number)
    facts["who"] = authority_line(profile, doc, petition.instance)
    defence = petition.kind == "defence"
    if petition.status == PetitionStatus.GRANTED:
        said = (
            _(
                "Sua defesa de %(filed)s contra o %(kind)s nº %(n)s foi deferida. "
                "Quem decidiu: %(who)s.",
                **facts,
            )
            if defence
            else _(
                "Seu recurso de %(filed)s contra o %(kind)s nº %(n)s foi deferido. "
                "Quem decidiu: %(who)s.",
                **facts,
            )
        )
        if petition.review_due_on is not None:
            after = _(
                "O deferimento produz efeito depois da vista da autoridade autuante, que pode "
                "pedir o reexame até %(d)s (%(a)s).",
                d=_day(petition.review_due_on),
                a=profile.notices.cite("grant_review_days"),
            )
        else:
            after = _("O documento e a multa que ele trazia estão cancelados.")
    elif petition.status == PetitionStatus.REFUSED:
        said = (
            _(
                "Sua defesa de %(filed)s contra o %(kind)s nº %(n)s foi indeferida sem análise "
                "do mérito.",
                **facts,
            )
            if defence
            else _(
                "Seu recurso de %(filed)s contra o %(kind)s nº %(n)s foi indeferido sem análise "
                "do mérito.",
                **facts,
            )
        )
        after = next_step(profile, doc, penalty)
    else:
        said = (
            _(
                "Sua defesa de %(filed)s contra o %(kind)s nº %(n)s foi indeferida. "
                "Quem decidiu: %(who)s.",
                **facts,
            )
            if defence
            else _(
                "Seu recurso de %(filed)s contra o %(kind)s nº %(n)s foi indeferido. "
                "Quem decidiu: %(who)s.",
                **facts,
            )
        )
        after = next_step(profile, doc, penalty)
    what = str(PETITION_LABELS.get(petition.kind, petition.kind))
    subject = _("Decisão: %(what)s – documento %(n)s", what=what.lower(), n=doc.number)
    link = absolute_url("enforcement.detail", doc_id=(penalty or doc).id)
    for email, person in told.items():
        body = _(
            "Olá, %(name)s.\n\n%(said)s\n\nFundamentação: %(reason)s\n\n%(after)s\n\nVeja o "
            "documento e a decisão em:\n%(link)s",
            name=person.full_name,
            said=said,
            reason=petition.decision_reason or "",
            after=after,
            link=link,
        )
        send_email(email, subject, body)
