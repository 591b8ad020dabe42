"""The licence as a PDF (A4): holder, residence, cap, term, the animals it covers by RGA, and a QR
code to its public check page (``/licencas/<code>``), drawn like the RGA card
(``portal/blueprints/animals/documents.py``). The CPF is masked."""

from __future__ import annotations

import io
from datetime import date

from flask_babel import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from portal.models import ExcessLicence
from portal.models.animal import species_label
from portal.profiles.schema import Profile
from portal.services.identity import mask_cpf
from portal.services.pdf import BLUE, a4_check_footer, a4_header
from portal.services.pdf import clip as _clip


def licence_pdf(
    licence: ExcessLicence, profile: Profile, public_url: str, issued_on: date
) -> bytes:
    rule = profile.licence
    assert rule is not None and licence.valid_from and licence.valid_until
    kennel = rule.document == "kennel_laudo"
    buffer = io.BytesIO()
    width, height = A4
    c = Canvas(buffer, pagesize=A4)
    title = (
        _("Laudo de canil particular")
        if kennel
        else _("Licença especial para cães e gatos acima do limite")
    )
    c.setTitle(title)
    c.setAuthor(_("Centro de Controle de Zoonoses de %(city)s", city=profile.municipality))
    x = 20 * mm
    header = _(
        "CCZ – Prefeitura de %(city)s/%(uf)s · %(law)s, %(article)s",
        city=profile.municipality,
        uf=profile.state,
        law=profile.law_title,
        article=rule.article,
    )
    a4_header(c, title, header)
    y = height - 40 * mm
    c.setFillColor(BLUE)
    c.setFont("Helvetica-Bold", 13)
    c.drawString(x, y, _("Nº %(id)d · código %(code)s", id=licence.id, code=licence.code))
    y -= 10 * mm
    c.setFillColor(colors.black)
    holder = licence.holder
    rows = [
        (_("Titular"), holder.full_name),
        (_("CPF"), mask_cpf(holder.cpf) or "—"),
        (_("Residência"), licence.address_line),
        (_("Número máximo de cães e gatos"), str(licence.max_animals)),
        (
            _("Validade"),
            _(
                "de %(start)s a %(end)s",
                start=licence.valid_from.strftime("%d/%m/%Y"),
                end=licence.valid_until.strftime("%d/%m/%Y"),
            ),
        ),
    ]
    if licence.status == "cancelled":
        cancelled_on = (licence.cancelled_on or issued_on).strftime("%d/%m/%Y")
        rows.append((_("Situação"), _("CANCELADA em %(day)s", day=cancelled_on)))
    for label, value in rows:
        c.setFont("Helvetica", 10)
        c.drawString(x, y, f"{label}:")
        c.setFont("Helvetica-Bold", 10)
        c.drawString(x + 58 * mm, y, _clip(c, value, "Helvetica-Bold", 10, width - x - 78 * mm))
        y -= 7 * mm
    y -= 4 * mm
    c.setFont("Helvetica-Bold", 11)
    c.drawString(x, y, _("Animais cobertos (RGA)"))
    y -= 7 * mm
    c.setFont("Helvetica", 9.5)
    for link in licence.covered:
        animal = link.animal
        species = species_label(animal.species)
        c.drawString(
            x,
            y,
            _clip(
                c,
                f"{animal.rga} · {animal.name} · {species}",
                "Helvetica",
                9.5,
                width - 2 * x - 40 * mm,
            ),
        )
        y -= 5.5 * mm
        if y < 60 * mm:
            c.showPage()
            y = height - 25 * mm
            c.setFont("Helvetica", 9.5)
    notes = []
    if rule.never_replaced_above is not None:
        notes.append(
            _(
                "Os animais acima de %(n)d nunca podem ser substituídos em caso de morte, "
                "perda ou doação (%(article)s).",
                n=rule.never_replaced_above,
                article=rule.cite("never_replaced_above"),
            )
        )
    if rule.new_acquisition_cancels:
        notes.append(
            _(
                "Adquirir novo cão ou gato cancela a licença (%(article)s).",
                article=rule.cite("new_acquisition_cancels"),
            )
        )
    if rule.renewal_window_days:
        notes.append(
            _("Renove nos %(days)d dias anteriores ao vencimento.", days=rule.renewal_window_days)
        )
    c.setFont("Helvetica", 8.5)
    ny = 48 * mm
    for note in notes:
        c.drawString(x, ny, _clip(c, note, "Helvetica", 8.5, width - 2 * x - 40 * mm))
        ny -= 5 * mm
    a4_check_footer(c, public_url, _("Confira a situação pelo código ao lado ou em:"))
    c.drawString(x, 12 * mm, _("Emitido em %(day)s.", day=issued_on.strftime("%d/%m/%Y")))
    c.showPage()
    c.save()
    return buffer.getvalue()
