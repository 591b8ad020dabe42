"""Issue 25: the laudo técnico of a reduced limit (BJP 17 §1) is held when the staff form is
refused (a date in the future), shown as "Arquivo já enviado" with a box to remove it, and the next
post reduces the limit without a new upload."""

from __future__ import annotations

import io

from sqlalchemy import select

from portal.extensions import db
from portal.models import DraftFile, FormDraft, ReducedHouseholdLimit
from tests import factories
from tests.conftest import AuthActions
from tests.integration.licences.test_licence_rules import adult

PDF = b"%PDF-1.4 laudo"


def test_bjp_17_1_a_refused_reduction_keeps_the_report_and_the_next_post_uses_it(make_app) -> None:
    app = make_app(PORTAL_PROFILE="bjp")
    client = app.test_client()
    with app.app_context():
        owner = factories.user()
        pets = [adult(owner) for _ in range(6)]
        agent = factories.user(roles=("agent",))
        db.session.commit()
        AuthActions(client).login(agent)
        url = f"/ccz/licencas/residencias/{pets[0].id}/reducao"
        form = {"max_animals": "5", "reason": "Espaço insuficiente para seis cães."}
        first = client.post(
            url,
            data={
                **form,
                "report_on": "2999-01-01",
                "report": (io.BytesIO(b"%PDF-1.4 l"), "l.pdf"),
            },
            content_type="multipart/form-data",
        )
        page = first.get_data(as_text=True)
        assert "Informe a data do laudo" in page and "Arquivo já enviado:" in page
        assert "l.pdf" in page and "Anexe o laudo técnico." not in page
        held = db.session.scalar(select(DraftFile))
        assert held is not None and f'value="{held.id}"' in page
        again = client.get(f"/ccz/licencas/residencias/{pets[0].id}").get_data(as_text=True)
        assert "l.pdf" in again  # still shown on the next visit
        second = client.post(url, data={**form, "report_on": "2026-11-20"})
        assert second.status_code == 302
        cut = db.session.scalar(select(ReducedHouseholdLimit))
        assert cut is not None and cut.report_id == held.stored_file_id
        assert cut.report.purpose == "household_limit_report" and cut.report.owner_id is None
        assert db.session.scalar(select(FormDraft)) is None
