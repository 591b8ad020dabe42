"""Helpers for the maus-tratos report tests: form data, photos with GPS, PDF text, staff users."""

from __future__ import annotations

import base64
import io
import re
import zlib
from typing import Any

import pytest
from PIL import Image, TiffImagePlugin
from sqlalchemy import select

from portal.extensions import db
from portal.models import MaltreatmentReport
from tests import factories

# Somebody the tests look for in every output that must not name the reporter.
REPORTER = {
    "name": "Genoveva Quitéria Sigilosa",
    "email": "genoveva.sigilosa@example.com",
    "phone": "11 98765-4321",
}


def form_data(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "category": "no_shelter",
        "description": "Cachorro preso no quintal, sem água e sem sombra há dias.",
        "cep": "07000-000",
        "street": "Rua das Flores",
        "number": "10",
        "district": "Centro",
        "species": "dog",
        "animal_count": "1",
        "identity": "anonymous",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def jpeg_bytes(gps: bool = False, size: tuple[int, int] = (60, 40)) -> bytes:
    """A JPEG, optionally with EXIF camera data and a GPS point (Guarulhos)."""
    image = Image.new("RGB", size, (120, 60, 30))
    exif = Image.Exif()
    exif[0x010F] = "MarcaDoCelular"
    if gps:
        r = TiffImagePlugin.IFDRational
        exif.get_ifd(0x8825).update(
            {1: "S", 2: (r(23), r(27), r(1368, 100)), 3: "W", 4: (r(46), r(32), r(0))}
        )
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif)
    return buffer.getvalue()


def photo(gps: bool = False, name: str = "foto.jpg") -> tuple[io.BytesIO, str]:
    return io.BytesIO(jpeg_bytes(gps)), name


def pdf_text(data: bytes) -> str:
    """The text drawn in a PDF (reportlab writes page streams ASCII85 + Flate encoded)."""
    chunks = []
    for raw in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        raw = raw.strip()
        for decode in (
            lambda b: zlib.decompress(base64.a85decode(b, adobe=True)),
            zlib.decompress,
            lambda b: b,
        ):
            try:
                chunks.append(decode(raw))
                break
            except (ValueError, zlib.error):
                continue
    return b"\n".join(chunks).decode("latin-1")


def submit(client, **overrides: Any):  # type: ignore[no-untyped-def]
    """Post the public form; return (response, report or None, tracking code or None)."""
    response = client.post(
        "/denuncias/nova", data=form_data(**overrides), content_type="multipart/form-data"
    )
    if response.status_code != 302:
        return response, None, None
    protocol = response.headers["Location"].rsplit("/", 1)[-1]
    receipt = client.get(response.headers["Location"]).get_data(as_text=True)
    match = re.search(r'id="codigo">([^<]+)<', receipt)
    report = db.session.scalar(
        select(MaltreatmentReport).where(MaltreatmentReport.protocol == protocol)
    )
    return response, report, match.group(1) if match else None


@pytest.fixture
def coordinator(app):  # type: ignore[no-untyped-def]
    person = factories.user(roles=("coordinator",), full_name="Coordenadora Clara")
    db.session.commit()
    return person


@pytest.fixture
def agent(app):  # type: ignore[no-untyped-def]
    person = factories.user(roles=("agent",), full_name="Agente Armando Fiscal")
    db.session.commit()
    return person


@pytest.fixture
def other_agent(app):  # type: ignore[no-untyped-def]
    person = factories.user(roles=("agent",), full_name="Agente Bruno Outro")
    db.session.commit()
    return person
