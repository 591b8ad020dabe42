"""The PDF of a document (GRU 95, 96, 98): A4, its number, the facts, the terms, the fine lines
with their articles, the access code and a QR code to the public verification page."""

from __future__ import annotations

import io

from flask import Response
from flask_babel import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from portal.blueprints.enforcement.codes import printed_code
from portal.blueprints.enforcement.labels import KIND_LABELS, SERVICE_LABELS, label
from portal.models import EnforcementDocument
from portal.profiles.schema import Profile
from portal.services.clock import tz
from portal.services.identity import mask_cpf
from portal.services.money import format_brl
from portal.services.pdf import qr_image as _qr
from portal.urls import absolute_url


def verify_url(doc: EnforcementDocument) -> str:
    return absolute_url("enforcement.verify", number=doc.number)


def render_pdf(doc: EnforcementDocument, profile: Profile) -> bytes:
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    width, height = A4
    canvas.setTitle(f"{label(KIND_LABELS, doc.kind)} {doc.number}")
    y = height - 20 * mm

    def line(text: str, size: float = 10, bold: bool = False) -> None:
        nonlocal y
        font = "Helvetica-Bold" if bold else "Helvetica"
        for part in simpleSplit(text, font, size, width - 40 * mm - 45 * mm):
            if y < 25 * mm:
                canvas.showPage()
                y = height - 20 * mm
            canvas.setFont(font, size)
            canvas.drawString(20 * mm, y, part)
            y -= size * 1.45

    canvas.drawImage(_qr(verify_url(doc)), width - 55 * mm, height - 55 * mm, 35 * mm, 35 * mm)
    line(_("Centro de Controle de Zoonoses – %(city)s", city=profile.municipality), 11, True)
    line(f"{label(KIND_LABELS, doc.kind)} nº {doc.number}", 14, True)
    code = printed_code(doc)
    line(
        _("Código de acesso: %(code)s", code=code)
        if code
        else _("Código de acesso: o impresso na via original entregue ao autuado."),
        10,
        True,
    )
    y -= 4
    who = doc.addressee_name
    if doc.addressee_cpf:
        who += " – CPF " + mask_cpf(doc.addressee_cpf)
    if doc.addressee_cnpj:
        who += " – CNPJ " + doc.addressee_cnpj
    line(_("Autuado: %(who)s", who=who))
    if doc.addressee_activity:
        line(_("Ramo de atividade: %(a)s", a=doc.addressee_activity))
    if doc.addressee_address:
        line(_("Endereço: %(a)s", a=doc.addressee_address))
    line(_("Fato: %(f)s", f=doc.fact))
    line(
        _(
            "Local: %(p)s – %(when)s",
            p=doc.place,
            when=doc.occurred_at.astimezone(tz()).strftime("%d/%m/%Y %H:%M"),
        )
    )
    line(_("Dispositivo legal transgredido: %(p)s", p=doc.legal_provision))
    if doc.penalty_provision:
        line(_("Penalidade cominada: %(p)s", p=doc.penalty_provision))
    if doc.required_action:
        line(_("Providência exigida: %(a)s", a=doc.required_action))
    if doc.comply_hours is not None:
        line(
            _(
                "Prazo para sanar: %(n)d hora(s), contadas minuto a minuto (GRU 70 §4).",
                n=doc.comply_hours,
            )
        )
    elif doc.comply_days is not None:
        line(
            _("Prazo para sanar: imediatamente.")
            if doc.comply_days == 0
            else _("Prazo para sanar: %(n)d dias a partir da ciência.", n=doc.comply_days)
        )
    if doc.laudo_every_days and profile.notices.remedy_duties:
        # VV 23 II: the duties during the remedy term are part of what the notice intimates
        duties = _(
            "Enquanto o prazo para sanar estiver correndo, o responsável avisa o CCZ de qualquer "
            "mudança de endereço do animal e apresenta a cada %(k)d dias um laudo veterinário "
            "da integridade física do animal.",
            k=doc.laudo_every_days,
        )
        line(f"{duties} ({profile.notices.remedy_duties.article})")
    for row in doc.fine_breakdown or []:
        line(f"{row['label']}: {format_brl(row['amount_cents'])} ({row['article']})")
    if doc.fine_cents:
        line(_("Total da multa: %(v)s", v=format_brl(doc.fine_cents)), 10, True)
    if doc.measures:
        line(_("Medidas sanitárias: %(m)s", m=doc.measures))
    if doc.kind == "infraction" and profile.notices.defence_days:
        line(
            _(
                "Prazo de %(n)d dias para defesa, contados da ciência (%(a)s).",
                n=profile.notices.defence_days,
                a=profile.notices.cite("defence_days"),
            )
        )
    if doc.kind in ("penalty", "apprehension") and profile.notices.appeal_days:
        line(
            _(
                "Prazo de %(n)d dias para recurso, contados da ciência (%(a)s).",
                n=profile.notices.appeal_days,
                a=profile.notices.cite("appeal_days"),
            )
        )
    line(_("Autoridade sanitária: %(n)s, %(t)s", n=doc.agent.full_name, t=doc.agent_title))
    if doc.service_method:
        line(
            _(
                "Ciência: %(m)s em %(d)s",
                m=label(SERVICE_LABELS, doc.service_method),
                d=doc.service_on.strftime("%d/%m/%Y") if doc.service_on else "—",
            )
        )
        if doc.service_note:
            line(_("Observação: %(n)s", n=doc.service_note))
    y -= 6
    line(
        _(
            "Confira este documento em %(url)s com o número e o código de acesso; apresente "
            "defesa ou recurso pelo portal, em Minhas notificações.",
            url=verify_url(doc),
        ),
        9,
    )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def document_pdf(doc: EnforcementDocument, profile: Profile) -> Response:
    return Response(
        render_pdf(doc, profile),
        mimetype="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{doc.number}.pdf"'},
    )
