"""The certidão negativa de captura as a PDF (A4; GRU 84 §3, §5): the RGA, the captures within
the prescription period, the period, the issue date and a QR code to its public check page
(``/certidoes/<code>``). Like the check page, nothing about the owner or the requester."""

from __future__ import annotations

import io

from flask_babel import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from portal.models import CaptureCertificate
from portal.profiles.schema import Profile
from portal.services.pdf import BLUE, a4_check_footer, a4_header
from portal.services.pdf import clip as _clip


def certificate_pdf(cert: CaptureCertificate, profile: Profile, public_url: str) -> bytes:
    assert cert.issued_on and cert.period_from and cert.period_to
    buffer = io.BytesIO()
    width, height = A4
    c = Canvas(buffer, pagesize=A4)
    title = _("Certidão negativa de captura")
    c.setTitle(title)
    c.setAuthor(_("Centro de Controle de Zoonoses de %(city)s", city=profile.municipality))
    x = 20 * mm
    a4_header(
        c,
        title,
        _(
            "CCZ – Prefeitura de %(city)s/%(uf)s · %(law)s, %(article)s",
            city=profile.municipality,
            uf=profile.state,
            law=profile.law_title,
            article=profile.impound.cite("capture_certificate"),
        ),
    )
    y = height - 40 * mm
    c.setFillColor(BLUE)
    c.setFont("Helvetica-Bold", 13)
    c.drawString(x, y, _("Código %(code)s", code=cert.code))
    y -= 10 * mm
    c.setFillColor(colors.black)
    captures = cert.captures_in_period or 0
    rows = [
        (_("RGA"), cert.animal.rga),
        (_("Capturas no período"), str(captures) if captures else _("Nenhuma captura")),
        (
            _("Período"),
            _(
                "de %(start)s a %(end)s",
                start=cert.period_from.strftime("%d/%m/%Y"),
                end=cert.period_to.strftime("%d/%m/%Y"),
            ),
        ),
        (_("Emitida em"), cert.issued_on.strftime("%d/%m/%Y")),
    ]
    for label, value in rows:
        c.setFont("Helvetica", 10)
        c.drawString(x, y, f"{label}:")
        c.setFont("Helvetica-Bold", 10)
        c.drawString(x + 50 * mm, y, _clip(c, value, "Helvetica-Bold", 10, width - x - 70 * mm))
        y -= 7 * mm
    c.setFont("Helvetica", 8.5)
    c.drawString(
        x,
        48 * mm,
        _clip(
            c,
            # generic: the profile's certificate article is cited in the heading above
            _("As capturas acompanham o animal, com quem quer que esteja."),
            "Helvetica",
            8.5,
            width - 2 * x - 40 * mm,
        ),
    )
    a4_check_footer(c, public_url, _("Confira a certidão pelo código ao lado ou em:"))
    c.showPage()
    c.save()
    return buffer.getvalue()
