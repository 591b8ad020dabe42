"""Tracking by protocol and private code: refusal without telling whether the protocol exists,
history, information and photos added by the reporter (issue 12)."""

from __future__ import annotations

from sqlalchemy import select

from portal.extensions import db
from portal.models import MaltreatmentReport, ReportEvent
from tests.factories import photo, submit


def _track(client, protocol: str, code: str):  # type: ignore[no-untyped-def]
    return client.post("/denuncias/acompanhar", data={"protocol": protocol, "code": code})


def test_wrong_code_and_unknown_protocol_get_the_same_answer(app) -> None:
    reporter = app.test_client()
    _r, report, _code = submit(reporter)
    stranger = app.test_client()
    wrong = _track(stranger, report.protocol, "AAAA-BBBB-CCCC")
    unknown = _track(stranger, "DEN-2026-999999", "AAAA-BBBB-CCCC")
    assert wrong.status_code == unknown.status_code == 400

    def strip(r):  # type: ignore[no-untyped-def]
        return (
            r.get_data(as_text=True).replace(report.protocol, "X").replace("DEN-2026-999999", "X")
        )

    assert strip(wrong) == strip(unknown)
    assert "Protocolo ou código não conferem" in wrong.get_data(as_text=True)
    # Without the proof, the status page sends the stranger to the form.
    page = stranger.get(f"/denuncias/acompanhar/{report.protocol}")
    assert page.status_code == 302 and page.headers["Location"].endswith("/denuncias/acompanhar")


def test_right_code_shows_the_status_in_any_case_and_spacing(app) -> None:
    _r, report, code = submit(app.test_client())
    other_browser = app.test_client()
    response = _track(other_browser, report.protocol.lower(), code.lower().replace("-", " "))
    assert response.status_code == 302
    page = other_browser.get(response.headers["Location"]).get_data(as_text=True)
    assert "Recebida, aguardando análise" in page and report.protocol in page


def test_the_code_is_shown_once(client) -> None:
    response = client.post(
        "/denuncias/nova",
        data={
            "category": "no_shelter",
            "description": "Gato abandonado na praça há uma semana.",
            "street": "Praça Central",
            "identity": "anonymous",
        },
    )
    receipt_url = response.headers["Location"]
    first = client.get(receipt_url).get_data(as_text=True)
    assert 'id="codigo"' in first
    again = client.get(receipt_url)
    assert again.status_code == 302  # the code is gone for good


def test_reporter_adds_information_and_photos(client) -> None:
    _r, report, _code = submit(client)
    response = client.post(
        f"/denuncias/acompanhar/{report.protocol}",
        data={"text": "Hoje o cachorro parecia mais fraco.", "photos": [photo()]},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    db.session.refresh(report)
    assert len(report.photos) == 1
    event = db.session.scalars(select(ReportEvent).where(ReportEvent.kind == "reporter_info")).one()
    assert "mais fraco" in event.text and event.actor_id is None
    page = client.get(f"/denuncias/acompanhar/{report.protocol}").get_data(as_text=True)
    assert "mais fraco" in page


def test_adding_nothing_is_refused_with_a_message(client) -> None:
    _r, report, _code = submit(client)
    response = client.post(f"/denuncias/acompanhar/{report.protocol}", data={"text": ""})
    assert response.status_code == 400 and "Escreva algo" in response.get_data(as_text=True)


def test_tracking_page_is_rate_limited(client) -> None:
    statuses = [_track(client, "DEN-2026-000001", "AAAA-BBBB-CCCC").status_code for _ in range(11)]
    assert statuses[-1] == 429 and statuses[0] == 400
    assert db.session.scalars(select(MaltreatmentReport)).all() == []
