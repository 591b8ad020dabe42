"""The staff's copy of the document of a record made where the animal was
(:mod:`portal.blueprints.impound.on_site_document`: CABO 11's auto de constatação, elsewhere the
record of the act or of the assessment), to print and sign."""

from __future__ import annotations

from portal.access import roles_required
from portal.blueprints.impound import bp
from portal.blueprints.impound.on_site_document import pdf_response, record_by_number

STAFF_READERS = ("agent", "vet", "coordinator")


@bp.get("/ccz/eutanasia-no-local/<number>/documento.pdf")
@roles_required(*STAFF_READERS)
def staff_on_site_pdf(number: str):
    """CABO 11: the auto de constatação (elsewhere, the record) for staff to print and sign."""
    return pdf_response(record_by_number(number))
