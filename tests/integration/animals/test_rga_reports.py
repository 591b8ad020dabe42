"""The establishment's monthly report (BJP 9; GRU 20): the CSV opens in Excel pt-BR and no typed
text runs as a formula."""

from __future__ import annotations

import csv
import io

from portal.blueprints.animals import services
from tests import factories


def test_bjp_9_monthly_report_csv_opens_in_excel(app) -> None:
    """UTF-8 with BOM, ";" between columns, and no formula from a typed name."""
    owner = factories.user(full_name='=HYPERLINK("http://x") Conceição')
    pet = factories.animal(owner, name="Açúcar")
    with app.test_request_context():
        text = services.report_csv([services.report_row(pet)])
    assert text.startswith("\ufeffrga;registered_on;")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    assert rows[0]["name"] == "Açúcar"
    assert rows[0]["owner_name"].startswith("'=HYPERLINK")
    assert len(rows[0]) == len(services.REPORT_COLUMNS)
