"""The owner's copy of the document of a record made where the animal was
(:mod:`portal.blueprints.impound.on_site_document`), and the public check of the code printed on
it, which shows only what the paper shows without a person on it."""

from __future__ import annotations

from flask import abort, render_template
from flask_login import current_user
from sqlalchemy import select

from portal.access import public, signed_in
from portal.blueprints.impound import bp
from portal.blueprints.impound import on_site_rules as rules
from portal.blueprints.impound.labels import size_label, species_label
from portal.blueprints.impound.on_site_document import (
    document_title,
    pdf_response,
    record_by_number,
)
from portal.extensions import db
from portal.models import OnSiteEuthanasia


@bp.get("/meus-recolhimentos/no-local/<number>/documento.pdf")
@signed_in
def my_on_site_pdf(number: str):
    """The owner's copy: only the owner the record names reads it (404 to anyone else)."""
    record = record_by_number(number)
    if record.owner_id is None or record.owner_id != current_user.id:
        abort(404)
    return pdf_response(record)


@bp.get("/conferir/no-local/<code>")
@public
def on_site_check(code: str):
    """The public check of the code printed on the document: nothing about any person."""
    record = db.session.scalar(
        select(OnSiteEuthanasia).where(OnSiteEuthanasia.check_code == code.strip().upper())
    )
    if record is None:
        abort(404)
    return render_template(
        "impound/on_site_check.html",
        record=record,
        title=document_title(record),
        outcome=rules.outcome_label(record.outcome),
        animal=f"{species_label(record.species or 'other')} ({size_label(record.size)})",
    )
