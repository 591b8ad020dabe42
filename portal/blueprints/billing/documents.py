"""The two payment documents, as PDF (reportlab): the counter slip (*guia*) and the receipt
(*comprovante*).

Both are official documents in Portuguese whatever the reader's interface language. The CPF is
always masked. The guia carries the reference as text, as a Code 128 barcode for the counter's
reader, and a QR code to the item's page in the portal.
"""

from __future__ import annotations

import io
from datetime import date, datetime

from flask import current_app
from flask_babel import force_locale
from flask_babel import gettext as _
from reportlab.graphics.barcode import code128
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from portal.blueprints.billing.items import external_url
from portal.blueprints.billing.labels import kind_label, method_label, status_label
from portal.models import PaymentItem, PaymentMethod, PaymentStatus
from portal.services.clock import current_profile, tz
from portal.services.identity import mask_cpf
from portal.services.money import format_brl
from portal.services.pdf import qr_image

WIDTH, HEIGHT = A4
MARGIN = 18 * mm
TEXT_WIDTH = WIDTH - 2 * MARGIN


def _date(value: date) -> str:
    return value.strftime("%d/%m/%Y")


def _instant(value: datetime) -> str:
    return value.astimezone(tz()).strftime("%d/%m/%Y %H:%M")


class _Writer:
    """A cursor going down the page, with the few drawing moves the two documents need."""

    def __init__(self, canvas: Canvas) -> None:
        self.c = canvas
        self.y = HEIGHT - MARGIN

    def text(
        self,
        text: str,
        *,
        size: float = 10,
        bold: bool = False,
        gap: float = 4,
        x: float = MARGIN,
        width: float = TEXT_WIDTH,
    ) -> None:
        font = "Helvetica-Bold" if bold else "Helvetica"
        for line in simpleSplit(text, font, size, width) or [""]:
            self.c.setFont(font, size)
            self.c.drawString(x, self.y - size, line)
            self.y -= size + gap

    def pair(self, label: str, value: str, *, size: float = 10) -> None:
        self.c.setFont("Helvetica-Bold", size)
        self.c.drawString(MARGIN, self.y - size, label)
        lines = simpleSplit(value, "Helvetica", size, TEXT_WIDTH - 45 * mm) or [""]
        self.c.setFont("Helvetica", size)
        for line in lines:
            self.c.drawString(MARGIN + 45 * mm, self.y - size, line)
            self.y -= size + 4

    def rule(self, dashed: bool = False) -> None:
        self.y -= 4
        if dashed:
            self.c.setDash(3, 3)
        self.c.line(MARGIN, self.y, WIDTH - MARGIN, self.y)
        self.c.setDash()
        self.y -= 8

    def space(self, points: float) -> None:
        self.y -= points

    def breakdown(self, item: PaymentItem) -> None:
        lines = item.breakdown or [
            {"label": item.description, "amount_cents": item.amount_cents, "article": ""}
        ]
        self.text(_("Discriminação"), bold=True, size=11)
        for line in lines:
            label = str(line.get("label", ""))
            article = str(line.get("article") or "")
            amount = format_brl(int(line.get("amount_cents", 0)))
            wrapped = simpleSplit(
                label + (f" ({article})" if article else ""), "Helvetica", 9, TEXT_WIDTH - 35 * mm
            ) or [""]
            self.c.setFont("Helvetica", 9)
            for i, part in enumerate(wrapped):
                self.c.drawString(MARGIN, self.y - 9, part)
                if i == 0:
                    self.c.drawRightString(WIDTH - MARGIN, self.y - 9, amount)
                self.y -= 13
        self.c.setFont("Helvetica-Bold", 10)
        self.c.drawString(MARGIN, self.y - 10, _("Total"))
        self.c.drawRightString(WIDTH - MARGIN, self.y - 10, format_brl(item.amount_cents))
        self.y -= 16


def _header(w: _Writer, title: str) -> None:
    profile = current_profile()
    w.text(
        _("Prefeitura de %(city)s – %(state)s", city=profile.municipality, state=profile.state),
        bold=True,
        size=12,
        gap=2,
    )
    w.text(_("Centro de Controle de Zoonoses"), size=10, gap=2)
    w.text(profile.law_title, size=8)
    w.space(4)
    w.text(title, bold=True, size=16, gap=6)
    w.rule()


def _qr(canvas: Canvas, url: str, x: float, y: float, size: float) -> None:
    # One QR library for every document (issue 9): the same helper as the RGA card and certificate.
    canvas.drawImage(qr_image(url), x, y, width=size, height=size)


def _payer_lines(w: _Writer, item: PaymentItem) -> None:
    payer = item.responsible
    w.pair(_("Contribuinte:"), payer.full_name if payer else _("Não identificado"))
    w.pair(_("CPF:"), mask_cpf(payer.cpf) if payer and payer.cpf else "—")


def guia_pdf(item: PaymentItem, due: date, issued_at: datetime) -> bytes:
    """The counter slip of an item (its reference, amount, due date and payer)."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=0)
    with force_locale("pt_BR"):
        canvas.setTitle(_("Guia de recolhimento %(ref)s", ref=item.reference))
        canvas.setAuthor(_("Centro de Controle de Zoonoses"))
        w = _Writer(canvas)
        _header(w, _("GUIA DE RECOLHIMENTO"))
        w.pair(_("Referência:"), item.formatted_reference, size=13)
        w.pair(_("Valor:"), format_brl(item.amount_cents), size=13)
        w.pair(_("Vencimento:"), _date(due), size=11)
        _payer_lines(w, item)
        w.pair(_("Referente a:"), f"{kind_label(item.kind)} – {item.description}")
        w.space(4)
        w.breakdown(item)
        w.space(4)
        # Only the ways this deployment accepts: the CCZ counter, and online with Stripe keys
        # (no bank agreement exists).
        w.text(
            _(
                "Como pagar: apresente esta guia no caixa do CCZ e informe a referência acima, "
                "ou pague online pelo portal (cartão, boleto ou PIX). Depois da baixa, o "
                'comprovante fica disponível em "Meus pagamentos" no portal e é enviado por '
                "e-mail."
            )
            if current_app.config.get("STRIPE_SECRET_KEY")
            else _(
                "Como pagar: apresente esta guia no caixa do CCZ e informe a referência acima. "
                'Depois da baixa pelo CCZ, o comprovante fica disponível em "Meus pagamentos" '
                "no portal e é enviado por e-mail."
            ),
            size=9,
        )
        w.text(
            _(
                "Emitida em %(when)s. Pague até o vencimento; depois dele, imprima uma nova guia "
                "no portal.",
                when=_instant(issued_at),
            ),
            size=8,
        )

        # Barcode and QR code, then the stub the bank or counter keeps.
        barcode = code128.Code128(item.reference, barHeight=14 * mm, barWidth=0.38 * mm)
        code_y = w.y - 18 * mm
        barcode.drawOn(canvas, MARGIN - 6 * mm, code_y)
        canvas.setFont("Helvetica", 9)
        canvas.drawString(MARGIN, code_y - 10, item.reference)
        _qr(
            canvas,
            external_url("billing.item", item_id=item.id),
            WIDTH - MARGIN - 28 * mm,
            code_y - 8 * mm,
            28 * mm,
        )
        w.y = code_y - 14 * mm
        w.rule(dashed=True)
        w.text(_("Canhoto – via do CCZ"), bold=True, size=9)
        w.pair(_("Referência:"), item.formatted_reference)
        w.pair(_("Valor:"), format_brl(item.amount_cents))
        w.pair(_("Vencimento:"), _date(due))
        w.pair(_("Contribuinte:"), item.responsible.full_name if item.responsible else "—")
        w.pair(_("Recibo nº:"), "______________________   " + _("Data:") + " ____/____/______")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def receipt_pdf(item: PaymentItem, issued_at: datetime) -> bytes:
    """The receipt of a paid (or later refunded) item. Raises ValueError if nothing was paid."""
    payment = item.payment
    if payment is None:
        raise ValueError("no payment for this item")
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=0)
    with force_locale("pt_BR"):
        canvas.setTitle(_("Comprovante de pagamento %(number)s", number=payment.receipt_number))
        canvas.setAuthor(_("Centro de Controle de Zoonoses"))
        w = _Writer(canvas)
        _header(w, _("COMPROVANTE DE PAGAMENTO"))
        w.pair(_("Comprovante nº:"), payment.receipt_number, size=12)
        w.pair(_("Referência:"), item.formatted_reference)
        w.pair(_("Valor pago:"), format_brl(payment.amount_cents), size=12)
        w.pair(_("Data do pagamento:"), _date(payment.received_on))
        w.pair(_("Forma de pagamento:"), method_label(payment.method))
        label = (
            _("Recibo / autenticação:")
            if payment.method == PaymentMethod.COUNTER
            else _("Identificador Stripe:")
        )
        w.pair(label, payment.provider_reference)
        _payer_lines(w, item)
        w.pair(_("Referente a:"), f"{kind_label(item.kind)} – {item.description}")
        w.space(4)
        w.breakdown(item)
        if item.status == PaymentStatus.REFUNDED and item.refunds:
            refund = item.refunds[-1]
            w.space(4)
            w.text(
                _(
                    "ESTORNADO em %(when)s: %(reason)s",
                    when=_instant(refund.created_at),
                    reason=refund.reason,
                ),
                bold=True,
                size=11,
            )
        w.space(6)
        w.text(
            _(
                "Situação em %(when)s: %(status)s.",
                when=_instant(issued_at),
                status=status_label(item.status),
            ),
            size=9,
        )
        w.text(
            _('Confira a autenticidade deste comprovante no portal, em "Meus pagamentos".'), size=8
        )
        _qr(
            canvas,
            external_url("billing.item", item_id=item.id),
            WIDTH - MARGIN - 26 * mm,
            MARGIN,
            26 * mm,
        )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
