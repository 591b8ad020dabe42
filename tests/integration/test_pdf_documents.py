"""The shared PDF drawing (portal/services/pdf.py): the capture certificate and the licence keep
their header band (title, issuer and article) and their "check it online" footer, on one page,
with the same text as before the helpers were shared."""

from __future__ import annotations

import base64
import re
import zlib
from datetime import date
from types import SimpleNamespace as NS

from flask import current_app

from portal.blueprints.impound.documents import certificate_pdf
from portal.blueprints.licences.documents import licence_pdf


def _page_count(pdf: bytes) -> int:
    return int(re.search(rb"/Count (\d+)", pdf).group(1))  # type: ignore[union-attr]


def _text(pdf: bytes) -> str:
    """The strings drawn on the pages (reportlab's ASCII85 + Flate content streams)."""
    out = []
    for head, body in re.findall(rb"<<([^>]*?)>>\s*stream\r?\n(.*?)endstream", pdf, re.S):
        if b"/Subtype /Image" in head:
            continue
        data = zlib.decompress(base64.a85decode(body.strip().removesuffix(b"~>")))
        for raw in re.findall(rb"\((.*?)(?<!\\)\) Tj", data, re.S):
            raw = re.sub(rb"\\([0-7]{3})", lambda m: bytes([int(m.group(1), 8)]), raw)
            out.append(re.sub(rb"\\([()\\])", rb"\1", raw).decode("cp1252"))
    return "\n".join(out)


def test_certificate_pdf_header_and_footer(app) -> None:
    profile = current_app.extensions["portal_profile"]
    cert = NS(
        issued_on=date(2026, 1, 5),
        period_from=date(2021, 1, 5),
        period_to=date(2026, 1, 5),
        code="ABC123",
        captures_in_period=0,
        animal=NS(rga="G-2026-000001-1"),
    )
    pdf = certificate_pdf(cert, profile, "http://localhost/certidoes/ABC123")  # type: ignore[arg-type]
    assert pdf.startswith(b"%PDF") and _page_count(pdf) == 1
    text = _text(pdf)
    assert "Certidão negativa de captura" in text
    assert f"CCZ – Prefeitura de {profile.municipality}/{profile.state}" in text
    assert profile.impound.cite("capture_certificate") in text
    assert "Confira a certidão pelo código ao lado ou em:" in text
    assert "http://localhost/certidoes/ABC123" in text
    assert "Código ABC123" in text


def test_licence_pdf_header_footer_and_second_page(app) -> None:
    profile = current_app.extensions["portal_profile"]
    covered = [
        NS(animal=NS(rga=f"G-2026-{i:06d}-1", name=f"Rex {i}", species="dog")) for i in range(30)
    ]
    licence = NS(
        id=7,
        code="LIC7",
        valid_from=date(2026, 1, 1),
        valid_until=date(2027, 1, 1),
        holder=NS(full_name="Maria da Silva", cpf="12345678909"),
        address_line="Rua Um, 1",
        max_animals=30,
        status="active",
        cancelled_on=None,
        covered=covered,
    )
    pdf = licence_pdf(licence, profile, "http://localhost/licencas/LIC7", date(2026, 1, 1))  # type: ignore[arg-type]
    # 30 animals do not fit on the first page: the list continues on a second one
    assert _page_count(pdf) == 2
    text = _text(pdf)
    assert f"CCZ – Prefeitura de {profile.municipality}/{profile.state}" in text
    assert profile.licence.article in text
    assert "Confira a situação pelo código ao lado ou em:" in text
    assert "http://localhost/licencas/LIC7" in text
    assert "12345678909" not in text  # the CPF is masked
