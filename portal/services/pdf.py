"""Drawing helpers shared by the portal's PDF documents (RGA card, capture certificate, licence,
enforcement documents): the gov.br colours, the QR code, text clipping, and the A4 header band and
"check it online" footer that the certificate and the licence share, so they look alike.

Pure drawing on a reportlab canvas: callers pass already translated text."""

from __future__ import annotations

import qrcode
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

NAVY = colors.HexColor("#071d41")
BLUE = colors.HexColor("#1351b4")
A4_MARGIN = 20 * mm


def qr_image(url: str) -> ImageReader:
    """A QR code of ``url`` (medium error correction, thin border) ready for ``drawImage``."""
    code = qrcode.QRCode(border=1, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(url)
    code.make(fit=True)
    image = code.make_image(fill_color="black", back_color="white").get_image()
    return ImageReader(image)


def clip(canvas: Canvas, text: str, font: str, size: float, width: float) -> str:
    """``text`` cut with an ellipsis so it fits in ``width`` at that font and size."""
    if canvas.stringWidth(text, font, size) <= width:
        return text
    while text and canvas.stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def a4_header(canvas: Canvas, title: str, subtitle: str) -> None:
    """The navy band at the top of an A4 document: the title, and under it who issues it and on
    which article. Leaves the fill colour white (callers set theirs next)."""
    width, height = A4
    x = A4_MARGIN
    canvas.setFillColor(NAVY)
    canvas.rect(0, height - 28 * mm, width, 28 * mm, stroke=0, fill=1)
    canvas.setFillColor(colors.white)
    canvas.setFont("Helvetica-Bold", 15)
    canvas.drawString(x, height - 14 * mm, clip(canvas, title, "Helvetica-Bold", 15, width - 2 * x))
    canvas.setFont("Helvetica", 10)
    canvas.drawString(x, height - 21 * mm, clip(canvas, subtitle, "Helvetica", 10, width - 2 * x))


def a4_check_footer(canvas: Canvas, public_url: str, prompt: str) -> None:
    """The bottom of an A4 document: a QR code to its public check page on the right, and the
    prompt and the address on the left."""
    width, _height = A4
    x = A4_MARGIN
    qr_size = 32 * mm
    canvas.drawImage(qr_image(public_url), width - x - qr_size, 18 * mm, qr_size, qr_size)
    canvas.setFont("Helvetica", 8)
    canvas.drawString(x, 24 * mm, prompt)
    canvas.drawString(
        x, 19 * mm, clip(canvas, public_url, "Helvetica", 8, width - 2 * x - qr_size - 5 * mm)
    )
