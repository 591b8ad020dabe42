"""PDF documents of an RGA: the card (*carteira*), the tag (*plaqueta*) and the provisional ID
that a second-copy request serves as.

* Card: ID-card size (ISO/IEC 7810 ID-1, 85.6 x 54 mm), front with the animal and a QR code to the
  public page, back with the owner (BJP 3 b; GRU 15 III) — the CPF masked, so a lost card does not
  leak it — and the issue date.
* Tag: the number, large, with a QR code, for the collar (BJP 3 c).
* Provisional ID: the second-copy request, stating until when it identifies the animal
  (BJP 8 §ú: 60 days; GRU 19 §1: 45 days).

Pure drawing: callers pass the data and the absolute public URL; reportlab's built-in Helvetica
covers Portuguese (WinAnsi) accents.
"""

from __future__ import annotations

import io
from datetime import date

from flask_babel import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader, simpleSplit
from reportlab.pdfgen.canvas import Canvas

from portal.models import Animal, DocumentCopyRequest
from portal.models.animal import sex_label, species_label
from portal.profiles.schema import Profile
from portal.services.identity import mask_cpf
from portal.services.pdf import BLUE, NAVY
from portal.services.pdf import clip as _clip
from portal.services.pdf import qr_image as _qr

CARD_SIZE = (85.6 * mm, 54 * mm)
TAG_SIZE = (40 * mm, 40 * mm)


def _fit(canvas: Canvas, text: str, font: str, size: float, width: float) -> float:
    """The largest font size up to ``size`` at which ``text`` fits in ``width``."""
    while size > 4 and canvas.stringWidth(text, font, size) > width:
        size -= 0.25
    return size


def _species(animal: Animal) -> str:
    return species_label(animal.species)


def _sex(animal: Animal) -> str:
    return sex_label(animal.sex)


def _birth(animal: Animal) -> str:
    text = animal.birth_date.strftime("%d/%m/%Y")
    return text + (" " + _("(presumida)") if animal.birth_date_estimated else "")


def _status_note(animal: Animal) -> str | None:
    if animal.status == "closed":
        return _("RGA ENCERRADO (baixa)")
    if animal.status == "pending":
        return _("PROVISÓRIO – PENDENTE: aguardando vacinação antirrábica no CCZ")
    if animal.provisional:  # until the fee is settled and the rabies proof checked
        return _("PROVISÓRIO – aguardando pagamento e conferência pelo CCZ")
    return None


def card_pdf(
    animal: Animal,
    profile: Profile,
    public_url: str,
    issued_on: date,
    photo_path: str | None = None,
) -> bytes:
    """The two-sided card at ID-1 size, one side per page."""
    buffer = io.BytesIO()
    width, height = CARD_SIZE
    c = Canvas(buffer, pagesize=CARD_SIZE)
    c.setTitle(_("Carteira do RGA %(rga)s", rga=animal.rga))
    c.setAuthor(_("Centro de Controle de Zoonoses de %(city)s", city=profile.municipality))
    margin = 3 * mm

    # Front: header band, number, animal, QR.
    c.setFillColor(NAVY)
    c.rect(0, height - 9 * mm, width, 9 * mm, stroke=0, fill=1)
    c.setFillColor(colors.white)
    c.setFont("Helvetica-Bold", 6.5)
    c.drawString(margin, height - 4 * mm, _("REGISTRO GERAL DO ANIMAL – RGA"))
    if animal.provisional and animal.status != "closed":
        # Seen at a glance, not only in the small print at the bottom
        c.drawRightString(width - margin, height - 4 * mm, _("PROVISÓRIO"))
    c.setFont("Helvetica", 5.5)
    c.drawString(
        margin,
        height - 7.3 * mm,
        _clip(
            c,
            _("CCZ – Prefeitura de %(city)s/%(uf)s", city=profile.municipality, uf=profile.state),
            "Helvetica",
            5.5,
            width - 2 * margin,
        ),
    )
    qr_size = 20 * mm
    c.drawImage(_qr(public_url), width - margin - qr_size, margin + 2.5 * mm, qr_size, qr_size)
    c.setFillColor(colors.black)
    c.setFont("Helvetica", 4.5)
    c.drawCentredString(width - margin - qr_size / 2, margin, _("Encontrou? Leia o código"))
    text_x = margin
    if photo_path:
        try:
            c.drawImage(
                ImageReader(photo_path),
                margin,
                margin + 2.5 * mm,
                16 * mm,
                20 * mm,
                preserveAspectRatio=True,
                anchor="c",
            )
            text_x = margin + 17 * mm
        except OSError:  # a missing photo file must not stop the card
            pass
    text_width = width - text_x - qr_size - 2 * margin
    c.setFillColor(BLUE)
    size = _fit(c, animal.rga, "Helvetica-Bold", 11, width - 2 * margin)
    c.setFont("Helvetica-Bold", size)
    c.drawString(margin, height - 14.5 * mm, animal.rga)
    c.setFillColor(colors.black)
    lines = [
        (_("Nome"), animal.name),
        (_("Espécie/sexo"), f"{_species(animal)} · {_sex(animal)}"),
        (_("Raça"), animal.breed or "—"),
        (_("Cor/pelagem"), animal.color or "—"),
        (_("Nascimento"), _birth(animal)),
    ]
    y = height - 19 * mm
    for label, value in lines:
        c.setFont("Helvetica", 4.5)
        c.drawString(text_x, y + 2.1 * mm, label.upper())
        c.setFont("Helvetica-Bold", 6.5)
        c.drawString(text_x, y, _clip(c, value, "Helvetica-Bold", 6.5, text_width))
        y -= 5.6 * mm
    note = _status_note(animal)
    if note:
        c.setFillColor(colors.HexColor("#b00020"))
        c.setFont("Helvetica-Bold", 5)
        c.drawString(margin, 1.2 * mm, _clip(c, note, "Helvetica-Bold", 5, width - 2 * margin))
    c.showPage()

    # Back: owner data (BJP 3 b; GRU 15 III b), issue date (c).
    owner = animal.owner
    c.setFillColor(NAVY)
    c.rect(0, height - 6 * mm, width, 6 * mm, stroke=0, fill=1)
    c.setFillColor(colors.white)
    c.setFont("Helvetica-Bold", 6.5)
    c.drawString(margin, height - 4.2 * mm, _("PROPRIETÁRIO(A)"))
    c.setFillColor(colors.black)
    rows = [
        (_("Nome"), owner.full_name),
        (_("RG / CPF"), f"{owner.rg or '—'} / {mask_cpf(owner.cpf) or '—'}"),
        (_("Endereço"), owner.address_line or "—"),
        (_("Telefone"), owner.phone or "—"),
        (
            _("Registro / expedição"),
            f"{animal.registered_on.strftime('%d/%m/%Y')} / {issued_on.strftime('%d/%m/%Y')}",
        ),
    ]
    y = height - 11 * mm
    for label, value in rows:
        c.setFont("Helvetica", 4.5)
        c.drawString(margin, y + 2.1 * mm, label.upper())
        c.setFont("Helvetica-Bold", 6.2)
        # a long address ("Avenida Presidente ... , Bloco B apto 1203 – Vila Augusta") wraps onto
        # a second line instead of losing its end: the card is the proof of the residence
        parts = simpleSplit(value, "Helvetica-Bold", 6.2, width - 2 * margin) or [value]
        if len(parts) > 2:
            parts = [
                parts[0],
                _clip(c, " ".join(parts[1:]), "Helvetica-Bold", 6.2, width - 2 * margin),
            ]
        for index, part in enumerate(parts):
            c.drawString(margin, y - index * 2.5 * mm, part)
        y -= 6.2 * mm + (len(parts) - 1) * 2.5 * mm
    c.setFont("Helvetica", 4.3)
    c.drawString(
        margin,
        2 * mm,
        _clip(
            c,
            _("Documento do animal: mantenha com o proprietário (%(law)s).", law=profile.law_title),
            "Helvetica",
            4.3,
            width - 2 * margin,
        ),
    )
    c.showPage()
    c.save()
    return buffer.getvalue()


def tag_pdf(animal: Animal, profile: Profile, public_url: str) -> bytes:
    """The collar tag (BJP 3 c): a 40 mm square with the number and a QR code."""
    buffer = io.BytesIO()
    width, height = TAG_SIZE
    c = Canvas(buffer, pagesize=TAG_SIZE)
    c.setTitle(_("Plaqueta do RGA %(rga)s", rga=animal.rga))
    c.setStrokeColor(NAVY)
    c.setLineWidth(0.6)
    c.roundRect(1 * mm, 1 * mm, width - 2 * mm, height - 2 * mm, 4 * mm)
    c.setFont("Helvetica-Bold", 6)
    c.setFillColor(NAVY)
    title = _("RGA – CCZ %(city)s", city=profile.municipality)
    c.drawCentredString(
        width / 2, height - 6 * mm, _clip(c, title, "Helvetica-Bold", 6, width - 4 * mm)
    )
    qr_size = 20 * mm
    c.drawImage(_qr(public_url), (width - qr_size) / 2, 11 * mm, qr_size, qr_size)
    size = _fit(c, animal.rga, "Helvetica-Bold", 9, width - 6 * mm)
    c.setFont("Helvetica-Bold", size)
    c.setFillColor(colors.black)
    c.drawCentredString(width / 2, 6 * mm, animal.rga)
    c.showPage()
    c.save()
    return buffer.getvalue()


def provisional_pdf(copy: DocumentCopyRequest, profile: Profile, public_url: str) -> bytes:
    """The second-copy request as provisional ID (BJP 8 §ú; GRU 19 §1), on A4."""
    animal = copy.animal
    buffer = io.BytesIO()
    width, height = A4
    c = Canvas(buffer, pagesize=A4)
    c.setTitle(_("Documento provisório do RGA %(rga)s", rga=animal.rga))
    x = 20 * mm
    y = height - 25 * mm
    c.setFont("Helvetica-Bold", 15)
    c.setFillColor(NAVY)
    c.drawString(x, y, _("Documento provisório de identificação do animal"))
    y -= 7 * mm
    c.setFont("Helvetica", 10)
    c.setFillColor(colors.black)
    c.drawString(
        x,
        y,
        _(
            "Centro de Controle de Zoonoses – Prefeitura de %(city)s/%(uf)s",
            city=profile.municipality,
            uf=profile.state,
        ),
    )
    y -= 12 * mm
    kind = _("carteira do RGA") if copy.kind == "card" else _("plaqueta de identificação")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(x, y, _("Pedido de segunda via da %(kind)s nº %(id)d", kind=kind, id=copy.id))
    y -= 10 * mm
    rows = [
        (_("RGA"), animal.rga),
        (_("Animal"), f"{animal.name} – {_species(animal)}, {_sex(animal)}"),
        (_("Raça / cor"), f"{animal.breed or '—'} / {animal.color or '—'}"),
        (_("Nascimento"), _birth(animal)),
        (_("Proprietário(a)"), animal.owner.full_name),
        (_("CPF"), mask_cpf(animal.owner.cpf) or "—"),
        (_("Pedido em"), copy.requested_on.strftime("%d/%m/%Y")),
    ]
    for label, value in rows:
        c.setFont("Helvetica", 10)
        c.drawString(x, y, f"{label}:")
        c.setFont("Helvetica-Bold", 10)
        c.drawString(x + 40 * mm, y, _clip(c, value, "Helvetica-Bold", 10, width - x - 60 * mm))
        y -= 7 * mm
    y -= 5 * mm
    c.setFillColor(colors.HexColor("#fff5c2"))
    c.rect(x - 3 * mm, y - 18 * mm, width - 2 * x + 6 * mm, 24 * mm, stroke=0, fill=1)
    c.setFillColor(colors.black)
    c.setFont("Helvetica-Bold", 12)
    if copy.valid_until is not None and profile.provisional_id is not None:
        c.drawString(
            x,
            y,
            _(
                "Válido como documento de identificação até %(day)s",
                day=copy.valid_until.strftime("%d/%m/%Y"),
            ),
        )
        c.setFont("Helvetica", 10)
        c.drawString(
            x,
            y - 7 * mm,
            _(
                "%(days)d dias a partir do pedido (%(article)s), até a entrega da segunda via.",
                days=profile.provisional_id.validity_days,
                article=profile.provisional_id.article,
            ),
        )
        if profile.provisional_id.staff_must_issue_within:
            c.drawString(
                x,
                y - 13 * mm,
                _(
                    "O CCZ deve entregar a segunda via dentro deste prazo (%(article)s).",
                    article=profile.provisional_id.cite("staff_must_issue_within"),
                ),
            )
    else:
        c.drawString(x, y, _("Comprovante do pedido de segunda via."))
        c.setFont("Helvetica", 10)
        c.drawString(
            x,
            y - 7 * mm,
            _("A lei do município não prevê prazo de validade para este comprovante."),
        )
    qr_size = 30 * mm
    c.drawImage(_qr(public_url), width - x - qr_size, 25 * mm, qr_size, qr_size)
    c.setFont("Helvetica", 8)
    c.drawString(x, 30 * mm, _("Confira a situação do registro pelo código ao lado ou em:"))
    c.drawString(x, 25 * mm, _clip(c, public_url, "Helvetica", 8, width - 2 * x - qr_size - 5 * mm))
    c.showPage()
    c.save()
    return buffer.getvalue()
