"""Citizen billing views: my payments, the item page (pay online, guia, exemption), receipts,
and the public price list, and the Stripe webhook (blueprint ``payments``, at the end). Staff views
are in ``staff.py``.

A person only ever sees their own items: anything else answers 404, never 403.
"""

from __future__ import annotations

import json
from typing import Any

import stripe
from flask import (
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import public, signed_in
from portal.blueprints.billing import bp, documents, stripe_gateway, webhook_bp
from portal.blueprints.billing import exemptions as billing_exemptions
from portal.blueprints.billing.exemptions import exemptions_for_item
from portal.blueprints.billing.forms import ExemptionRequestForm
from portal.blueprints.billing.items import (
    SUSPENDED_MESSAGE,
    get_item,
    guia_due_date,
    is_responsible,
    items_of,
    may_view,
    on_hold,
)
from portal.blueprints.billing.labels import status_label
from portal.blueprints.billing.ledger import guia_printed, receipt_viewed
from portal.domain import DomainError
from portal.extensions import db
from portal.forms import EmptyForm, choices
from portal.kept_uploads import Kept, Slot, keep
from portal.models import PaymentItem
from portal.models.base import utcnow
from portal.services.clock import current_profile, local_today
from portal.services.fees import price_list
from portal.views import run_service


def _profile():
    return current_profile()


def _visible_item(item_id: int) -> PaymentItem:
    """The item if the signed-in person may see it (payer or staff), else 404."""
    item = get_item(item_id)
    if item is None or not may_view(item, current_user):
        abort(404)
    return item


def _own_item(item_id: int) -> PaymentItem:
    """The item if the signed-in person is its payer, else 404."""
    item = get_item(item_id)
    if item is None or not is_responsible(item, current_user):
        abort(404)
    return item


def _pdf(data: bytes, filename: str) -> Response:
    return Response(
        data,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "Cache-Control": "private, no-store",
        },
    )


@bp.get("/")
@signed_in
def my_payments():
    return render_template("billing/my_payments.html", items=items_of(current_user))


@bp.get("/precos")
@public
def prices():
    profile = _profile()
    entries = price_list(profile, local_today())
    return render_template("billing/prices.html", entries=entries, exemptions=profile.exemptions)


@bp.get("/<int:item_id>")
@public  # the payer and staff see the item; anyone else is told how to sign in (or gets 404)
def item(item_id: int):
    if not current_user.is_authenticated:
        # Say nothing about the item itself: ids are sequential and the page is public.
        return render_template(
            "billing/sign_in_to_pay.html",
            login_url=url_for("auth.login", next=request.path),
            signup_url=url_for("auth.signup", next=request.path),
        )
    found = _visible_item(item_id)
    if not is_responsible(found, current_user):
        return redirect(url_for("billing.staff_item", item_id=found.id))
    return render_template(
        "billing/item.html",
        item=found,
        form=EmptyForm(),
        online=stripe_gateway.stripe_enabled(),
        exemptions=exemptions_for_item(_profile(), found) if found.payer_id else [],
        on_hold=on_hold(found),
    )


@bp.post("/<int:item_id>/pagar-online")
@signed_in
def pay_online(item_id: int):
    found = _own_item(item_id)
    form = EmptyForm()
    if not form.validate_on_submit():
        flash(_("A sessão expirou; tente de novo."), "warning")
        return redirect(url_for("billing.item", item_id=found.id))
    done = run_service(
        lambda: stripe_gateway.start_checkout(found, current_user).url,
        # Another tab opened the same Stripe session (same idempotency key) a moment earlier:
        # send this tab to that session instead of an error page.
        on_conflict=lambda: stripe_gateway.open_session_url(get_item(item_id)),
    )
    if not done.ok:
        return redirect(url_for("billing.item", item_id=found.id))
    return redirect(done.value or url_for("billing.item", item_id=found.id), code=303)


@bp.get("/<int:item_id>/retorno")
@signed_in
def checkout_return(item_id: int):
    """Back from Stripe. Nothing is marked paid here: only the signed webhook does that."""
    return render_template("billing/checkout_return.html", item=_own_item(item_id))


@bp.get("/<int:item_id>/pagamento-cancelado")
@signed_in
def checkout_cancelled(item_id: int):
    found = _own_item(item_id)
    flash(_("Pagamento online não concluído. Você pode tentar de novo ou imprimir a guia."), "info")
    return redirect(url_for("billing.item", item_id=found.id))


@bp.get("/<int:item_id>/guia.pdf")
@signed_in
def guia_pdf(item_id: int):
    found = _visible_item(item_id)
    if not found.payable:
        flash(
            _(
                "Não há guia para um pagamento %(status)s.",
                status=status_label(found.status).lower(),
            ),
            "warning",
        )
        return redirect(url_for("billing.item", item_id=found.id))
    if on_hold(found):  # GRU 110: no guia for a suspended fine, even by a typed URL
        flash(str(SUSPENDED_MESSAGE), "warning")
        return redirect(url_for("billing.item", item_id=found.id))
    data = documents.guia_pdf(found, guia_due_date(found), utcnow())
    if guia_printed(found, current_user):
        db.session.commit()
    return _pdf(data, f"guia-{found.reference}.pdf")


@bp.get("/<int:item_id>/comprovante.pdf")
@signed_in
def receipt_pdf(item_id: int):
    found = _visible_item(item_id)
    if found.payment is None:
        abort(404)
    data = documents.receipt_pdf(found, utcnow())
    if receipt_viewed(found, current_user):
        db.session.commit()
    return _pdf(data, f"comprovante-{found.reference}.pdf")


@bp.route("/<int:item_id>/isencao", methods=["GET", "POST"])
@signed_in
def request_exemption(item_id: int):
    found = _own_item(item_id)
    exemptions = exemptions_for_item(_profile(), found) if found.payer_id else []
    if not exemptions:
        abort(404)
    if not found.payable or found.open_exemption_request is not None:
        flash(_("Este pagamento não aceita pedido de isenção agora."), "warning")
        return redirect(url_for("billing.item", item_id=found.id))
    form = ExemptionRequestForm()
    form.code.choices = choices((e.code, f"{e.label} ({e.article})") for e in exemptions)
    if len(exemptions) == 1 and not form.is_submitted():
        form.code.data = exemptions[0].code
    # issue 25: the proof is held as soon as it arrives; a refusal of another field keeps it
    kept = keep("exemption_request", str(found.id), [Slot("proof")])
    kept.relax(form)
    valid = form.validate_on_submit()
    refused = kept.show_refused(form)  # after validate(), which resets the fields' errors
    if valid and not refused:
        done = run_service(
            lambda: _send_exemption(found, form, kept),
            form=form,
            fallback="code",
            success=_("Pedido de isenção enviado. Você receberá a decisão por e-mail."),
        )
        if done.ok:
            return redirect(url_for("billing.item", item_id=found.id))
    return render_template(
        "billing/exemption_form.html", item=found, form=form, kept=kept.files("proof")
    )


def _send_exemption(found: PaymentItem, form: ExemptionRequestForm, kept: Kept) -> object:
    proof = kept.take("proof", "exemption_proof", owner_id=None)
    made = billing_exemptions.request_exemption(
        found,
        current_user,
        profile=_profile(),
        code=form.code.data,
        statement=form.statement.data,
        proof=proof[-1],
        filename=None,
    )
    kept.discard()
    return made


# The Stripe webhook, ``POST /payments/stripe/webhook`` (blueprint ``payments``): outside the
# /pagamentos prefix (the URL configured in the Stripe dashboard), CSRF-exempt, public, and trusted
# only through the signature. A bad, missing or stale signature (older than the library's 5-minute
# tolerance) answers 400 and changes nothing. A verified event answers 200 even when it is ignored
# or a repeat, so Stripe stops retrying; anything odd about the money becomes a review flag for
# staff instead of an error.


def _webhook_refusal(code: str, message: str):
    return jsonify(errors=[{"field": None, "code": code, "message": message}]), 400


@webhook_bp.post("/stripe/webhook")
@public  # authenticated by the Stripe-Signature header (STRIPE_WEBHOOK_SECRET), checked below
def stripe_webhook():
    secret = current_app.config.get("STRIPE_WEBHOOK_SECRET")
    if not secret:
        current_app.logger.warning("Stripe webhook called but STRIPE_WEBHOOK_SECRET is not set")
        return _webhook_refusal("not_configured", "Webhook da Stripe não configurado.")
    payload = request.get_data(cache=False)
    try:
        stripe.WebhookSignature.verify_header(
            payload,
            request.headers.get("Stripe-Signature"),
            secret,
            stripe.Webhook.DEFAULT_TOLERANCE,
        )
        data = json.loads(payload)
    except (ValueError, stripe.SignatureVerificationError):
        return _webhook_refusal("invalid_signature", "Assinatura inválida ou expirada.")
    done = run_service(
        lambda: _apply(data),
        show=False,
        # The same event delivered twice at the same moment: the other delivery recorded it.
        on_conflict=lambda: "duplicate",
    )
    if isinstance(done.error, InvalidEvent):
        return _webhook_refusal("invalid_event", "Evento inválido.")
    if done.error is not None:
        raise done.error  # any other refusal is a bug: the error handler answers it, as before
    outcome = done.value
    current_app.logger.info("Stripe event %s (%s): %s", data.get("id"), data.get("type"), outcome)
    return jsonify(received=True, outcome=outcome)


class InvalidEvent(DomainError):
    """A verified event the gateway cannot apply: answered 400 after the rollback."""


def _apply(data: Any) -> str:
    """The event applied (the gateway's outcome), or InvalidEvent for a malformed one."""
    if not isinstance(data, dict):
        # Signed, but not an event (a JSON array, a string...): nothing to apply. The library's
        # construct_event fails on these with an AttributeError, hence the check made here.
        raise InvalidEvent(None, "invalid_event", "Evento inválido.")
    try:
        return stripe_gateway.handle_event(data)
    except ValueError as err:
        raise InvalidEvent(None, "invalid_event", "Evento inválido.") from err
    except (TypeError, AttributeError, KeyError) as err:
        # A signed event of an unexpected shape deeper down (a list where Stripe sends an
        # object): refuse it like a malformed event instead of answering 500.
        current_app.logger.exception("Stripe event %s has an unexpected shape", data.get("id"))
        raise InvalidEvent(None, "invalid_event", "Evento inválido.") from err
