"""The RGA documents as HTTP downloads (card, tag, provisional document), shared by the owner's
pages, the staff pages and the establishments' API, so none of them imports another's views."""

from __future__ import annotations

import io

from flask import Response, send_file

from portal.blueprints.animals import documents
from portal.models import Animal
from portal.services.clock import current_profile, local_today
from portal.services.uploads import file_path
from portal.urls import absolute_url


def pdf_response(data: bytes, name: str) -> Response:
    """A PDF attachment that no shared cache keeps (it carries the owner's data)."""
    response = send_file(
        io.BytesIO(data), mimetype="application/pdf", as_attachment=True, download_name=name
    )
    response.headers["Cache-Control"] = "private, no-store"
    return response


def card_response(animal: Animal) -> Response:
    """The animal's RGA card (with its photo when there is one) as a download."""
    profile = current_profile()
    photo = file_path(animal.photo, "thumbnail") if animal.photo else None
    pdf = documents.card_pdf(
        animal,
        profile,
        absolute_url("animals.public_rga", number=animal.rga),
        local_today(profile),
        photo_path=str(photo) if photo and photo.exists() else None,
    )
    return pdf_response(pdf, f"rga-{animal.rga}-carteira.pdf")


def tag_response(animal: Animal) -> Response:
    """The animal's collar tag with the QR code of its public page, as a download."""
    profile = current_profile()
    pdf = documents.tag_pdf(animal, profile, absolute_url("animals.public_rga", number=animal.rga))
    return pdf_response(pdf, f"rga-{animal.rga}-plaqueta.pdf")
