"""Exemptions from a fee (GRU 23, 82 §3; VV 12 §3-4): the payer's request with its proof and the
staff's decision."""

from __future__ import annotations

from typing import IO

from flask_babel import force_locale
from flask_babel import gettext as _

from portal.blueprints.billing.items import (
    BillingError,
    add_note,
    close_online_sessions,
    external_url,
    transition,
)
from portal.blueprints.billing.labels import status_label
from portal.extensions import db
from portal.models import (
    ExemptionRequest,
    ExemptionStatus,
    PaymentItem,
    PaymentStatus,
    StoredFile,
    User,
)
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.mail import send_email
from portal.services.money import format_brl
from portal.services.uploads import UploadError, store_document

# ---------------------------------------------------------------------------------------------
# Exemptions (GRU 23, 82 §3; VV 12 §3-4)
# ---------------------------------------------------------------------------------------------


def exemptions_for_item(profile: Profile, item: PaymentItem) -> list:
    """The exemptions of the law that may waive this item's kind of fee.

    None for a charge an accredited establishment pays for the registrations it made (GRU 22 I,
    §2): GRU 23 exempts owners who prove unemployment or low income, not a clinic or pet shop.
    """
    if item.api_client_id is not None:
        return []  # GRU 23: "os proprietários ... ao fazerem o registro"
    return [e for e in profile.exemptions if item.kind in e.fee_kinds]


def request_exemption(
    item: PaymentItem,
    requester: User,
    *,
    profile: Profile,
    code: str,
    statement: str | None,
    proof: IO[bytes] | StoredFile,
    filename: str | None,
) -> ExemptionRequest:
    """The payer asks to be exempted and uploads proof (private: staff only). Raises BillingError
    (field ``proof``, code ``invalid_upload`` for a file that is not an acceptable PDF or image)."""
    if item.payer_id != requester.id:
        raise BillingError(None, "invalid", _("Só quem deve o pagamento pode pedir isenção."))
    if not item.payable:
        raise BillingError(
            None,
            "invalid",
            _(
                "Este pagamento está %(status)s: não cabe pedido de isenção.",
                status=status_label(item.status).lower(),
            ),
        )
    if item.open_exemption_request is not None:
        raise BillingError(
            None, "invalid", _("Já há um pedido de isenção em análise para este pagamento.")
        )
    exemption = next((e for e in exemptions_for_item(profile, item) if e.code == code), None)
    if exemption is None:
        raise BillingError("code", "invalid", _("Escolha uma das isenções previstas na lei."))
    # owner_id stays empty: the proof is served to staff only, never back to the browser.
    if isinstance(proof, StoredFile):  # held by the form's draft: validated when it arrived
        stored = proof
        stored.purpose, stored.owner_id, stored.public = "exemption_proof", None, False
    else:
        try:
            stored = store_document(
                proof, purpose="exemption_proof", owner_id=None, filename=filename
            )
        except UploadError as err:
            raise BillingError("proof", "invalid_upload", err.message) from None
    req = ExemptionRequest(
        item=item,
        requester_id=requester.id,
        code=exemption.code,
        label=exemption.label,
        article=exemption.article,
        statement=(statement or "").strip()[:2000] or None,
        proof=stored,
    )
    db.session.add(req)
    add_note(
        item,
        _("Pedido de isenção enviado (%(article)s)", article=exemption.article),
        actor_id=requester.id,
    )
    audit.record(
        "payment.exemption_requested",
        item,
        detail={"code": exemption.code, "article": exemption.article},
        actor_id=requester.id,
    )
    db.session.flush()
    return req


def decide_exemption(
    req: ExemptionRequest, *, accept: bool, reason: str | None, actor: User
) -> None:
    """Staff accept (the item becomes exempt) or refuse with a reason (it stays to be paid).

    The applicant is told by e-mail. Raises BillingError.
    """
    if req.status != ExemptionStatus.PENDING:
        raise BillingError(None, "invalid", _("Este pedido já foi decidido."))
    reason = (reason or "").strip()
    if not accept and not reason:
        raise BillingError(
            "reason", "invalid", _("Informe o motivo da recusa: ele é enviado ao requerente.")
        )
    item = req.item
    req.decided_at = utcnow()
    req.decided_by_id = actor.id
    req.decision_reason = reason or None
    if accept:
        transition(
            item,
            PaymentStatus.EXEMPT,
            _("Isenção concedida (%(article)s)", article=req.article),
            actor_id=actor.id,
        )
        req.status = ExemptionStatus.ACCEPTED
        close_online_sessions(item)
    else:
        # The item was never taken out of "pending" while the request waited: refusing leaves it
        # payable again, with the reason in its history.
        add_note(item, _("Isenção recusada: %(reason)s", reason=reason), actor_id=actor.id)
        req.status = ExemptionStatus.REFUSED
    audit.record(
        "payment.exemption_accepted" if accept else "payment.exemption_refused",
        item,
        detail={
            "request_id": req.id,
            "code": req.code,
            **({"reason": reason[:200]} if reason else {}),
        },
        actor_id=actor.id,
    )
    db.session.flush()
    _email_exemption_decision(req)


def _email_exemption_decision(req: ExemptionRequest) -> None:
    person = req.requester
    if not person.email:
        return
    item = req.item
    with force_locale("pt_BR"):
        if req.status == ExemptionStatus.ACCEPTED:
            subject = _("Isenção concedida")
            outcome = _(
                "Seu pedido de isenção (%(article)s) foi aceito: não há nada a pagar.",
                article=req.article,
            )
        else:
            subject = _("Pedido de isenção recusado")
            outcome = _(
                "Seu pedido de isenção (%(article)s) foi recusado pelo seguinte motivo:\n"
                "%(reason)s\n\nVocê pode pagar online ou com a guia, ou enviar um novo "
                "pedido com outro comprovante.",
                article=req.article,
                reason=req.decision_reason or "",
            )
        body = _(
            "Olá, %(name)s.\n\nPagamento: %(what)s (%(amount)s), referência %(ref)s.\n\n"
            "%(outcome)s\n\nVeja os detalhes em:\n%(url)s\n\nCentro de Controle de Zoonoses",
            name=person.full_name.split()[0],
            what=item.description,
            amount=format_brl(item.amount_cents),
            ref=item.formatted_reference,
            outcome=outcome,
            url=external_url("billing.item", item_id=item.id),
        )
        send_email(person.email, subject, body)
