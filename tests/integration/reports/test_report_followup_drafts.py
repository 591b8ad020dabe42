"""Issue 25: the report forms after the first keep their photos across a refused post (held in
the person's, or the anonymous browser's, draft; shown as "Arquivo já enviado" with a box to
remove each) and the next post uses them without a new upload: the reporter's follow-up on the
tracking page and the agent's inspection."""

from __future__ import annotations

from sqlalchemy import select

from portal.extensions import db
from portal.models import DraftFile, FormDraft
from tests.factories import photo, submit
from tests.integration.reports.test_reports_staff import _assign, _inspect


def test_a_refused_follow_up_keeps_its_photo_and_the_next_post_uses_it(client) -> None:
    _r, report, _code = submit(client)  # an anonymous reporter, tracking in this browser
    url = f"/denuncias/acompanhar/{report.protocol}"
    first = client.post(
        url, data={"text": "x" * 2001, "photos": [photo()]}, content_type="multipart/form-data"
    )
    page = first.get_data(as_text=True)
    assert first.status_code == 400 and "Arquivo já enviado:" in page
    held = db.session.scalar(select(DraftFile))
    assert held is not None and f'value="{held.id}"' in page
    assert "/thumbnail" not in page  # an anonymous draft's file is served to staff only
    second = client.post(url, data={"text": "Hoje o cachorro parecia mais fraco."})
    assert second.status_code == 302
    db.session.refresh(report)
    assert [p.file_id for p in report.photos if p.stage == "report"][-1] == held.stored_file_id
    assert db.session.scalar(select(FormDraft)) is None


def test_a_refused_inspection_keeps_its_photo_and_the_next_post_uses_it(
    client, auth, coordinator, agent
) -> None:
    _r, report, _c = submit(client)
    auth.login(coordinator)
    _assign(client, report, agent)
    auth.logout()
    auth.login(agent)
    first = _inspect(client, report, visited_on="", photos=[photo()])
    page = first.get_data(as_text=True)
    assert first.status_code == 400 and "Arquivo já enviado:" in page and "/thumbnail" in page
    held = db.session.scalar(select(DraftFile))
    assert held is not None and f'value="{held.id}"' in page
    assert _inspect(client, report).status_code == 302
    db.session.refresh(report)
    assert [p.file_id for p in report.photos if p.stage == "inspection"] == [held.stored_file_id]
    assert db.session.scalar(select(FormDraft)) is None
