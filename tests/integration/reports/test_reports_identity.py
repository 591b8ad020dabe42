"""The reporter's identity never appears where the reported person or a non-allowed role can see
it (issue 12; DOMAIN §7: "visible to staff only, never to the reported person").

Allowed: the coordinator and the agent assigned to the report, each view audited. Every other
output is checked here: police letter, public tracking page, Open311 (public and staff), e-mails
to anyone but the reporter, staff pages for a non-assigned agent, a vet and an admin.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal.blueprints.reports import services as svc
from portal.extensions import db
from portal.models import AuditEvent, OutboxMessage
from tests import factories
from tests.factories import REPORTER, pdf_text, submit

TRACES = (REPORTER["name"], "Genoveva", REPORTER["email"], "98765-4321", "98765")


def _clean(text: str) -> None:
    for trace in TRACES:
        assert trace not in text, trace


def _shown(response) -> str:  # type: ignore[no-untyped-def]
    """The page's text, once it is certain the page was shown (a refusal would hide nothing)."""
    assert response.status_code == 200, response.status_code
    return response.get_data(as_text=True)


@pytest.fixture
def confidential(app, client, coordinator, agent):  # type: ignore[no-untyped-def]
    """A confidential report, triaged and assigned to ``agent`` (the reporter's own browser is
    returned too, having proved the code)."""
    reporter = app.test_client()
    _r, report, _code = submit(reporter, identity="confidential", **REPORTER)
    svc.triage_valid(report, coordinator, agent, svc.local_today(), svc.local_today())
    db.session.commit()
    return report, reporter


def test_allowed_roles_see_the_reporter_and_each_view_is_audited(
    client, auth, confidential, coordinator, agent
) -> None:
    report, _reporter = confidential
    for person in (coordinator, agent):
        auth.login(person)
        html = client.get(f"/ccz/denuncias/{report.protocol}").get_data(as_text=True)
        assert REPORTER["name"] in html and REPORTER["email"] in html
        auth.logout()
    views = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "report.reporter_viewed")
    ).all()
    assert sorted(v.actor_id for v in views) == sorted([coordinator.id, agent.id])


@pytest.mark.parametrize("roles", [("agent",), ("vet", "agent"), ("admin",)])
def test_other_staff_do_not_see_the_reporter(client, auth, confidential, roles) -> None:
    report, _reporter = confidential
    auth.login(roles=roles)
    html = client.get(f"/ccz/denuncias/{report.protocol}").get_data(as_text=True)
    assert report.protocol in html
    _clean(html)
    assert (
        db.session.scalars(
            select(AuditEvent).where(AuditEvent.action == "report.reporter_viewed")
        ).all()
        == []
    )


def test_police_letter_has_no_reporter(client, auth, confidential, coordinator) -> None:
    report, _reporter = confidential
    auth.login(coordinator)
    pdf = client.get(f"/ccz/denuncias/{report.protocol}/oficio-policia.pdf")
    text = pdf_text(pdf.data)
    assert report.protocol in text
    _clean(text)
    _clean(pdf.data.decode("latin-1"))  # not in the metadata either


def test_public_tracking_page_has_no_reporter_nor_agent(confidential, agent) -> None:
    report, reporter = confidential
    html = reporter.get(f"/denuncias/acompanhar/{report.protocol}").get_data(as_text=True)
    assert "Vistoria programada" in html
    _clean(html)
    assert agent.full_name not in html


def test_open311_has_no_reporter_for_anyone(client, auth, confidential, coordinator) -> None:
    report, _reporter = confidential
    # The profile keeps this category private: the public answer is a 404 (issue 26 #5).
    hidden = client.get(f"/open311/v2/requests/{report.protocol}.json")
    assert hidden.status_code == 404
    _clean(hidden.get_data(as_text=True))
    auth.login(coordinator)
    _clean(_shown(client.get(f"/open311/v2/requests/{report.protocol}.json")))
    _clean(_shown(client.get("/open311/v2/requests.json")))


def test_emails_to_anyone_else_have_no_reporter(
    client, auth, confidential, coordinator, agent
) -> None:
    report, _reporter = confidential
    auth.login(agent)
    client.post(
        f"/ccz/denuncias/{report.protocol}/vistoria",
        data={"visited_on": svc.local_today().isoformat(), "outcome": "orientation"},
        content_type="multipart/form-data",
    )
    mails = db.session.scalars(select(OutboxMessage)).all()
    to_reporter = [m for m in mails if m.to == REPORTER["email"]]
    to_others = [m for m in mails if m.to != REPORTER["email"]]
    assert to_others, "the agent is told of the assignment"
    for mail in to_others:
        _clean(mail.subject + mail.body)
    # The reporter's own e-mails name no agent and carry no internal note.
    assert len(to_reporter) == 3  # code, assigned, closed
    for mail in to_reporter:
        assert agent.full_name not in mail.body and "Atribuída a" not in mail.body


def test_staff_lists_and_map_have_no_reporter(client, auth, confidential) -> None:
    auth.login(roles=("agent",))
    for url in ("/ccz/denuncias?fila=all", "/ccz/denuncias/mapa"):
        _clean(_shown(client.get(url)))


def test_audit_details_have_no_reporter(client, auth, confidential, coordinator) -> None:
    report, _r = confidential
    auth.login(coordinator)
    _shown(client.get(f"/ccz/denuncias/{report.protocol}"))
    events = list(db.session.scalars(select(AuditEvent)))
    assert events  # the triage and the staff view are audited: there is something to check
    for event in events:
        _clean(str(event.detail))


def test_reassigning_takes_the_reporter_away_from_the_old_agent(
    client, auth, confidential, coordinator, agent
) -> None:
    report, _r = confidential
    newcomer = factories.user(roles=("agent",))
    db.session.commit()
    svc.triage_valid(report, coordinator, newcomer, svc.local_today(), svc.local_today())
    db.session.commit()
    auth.login(agent)
    _clean(client.get(f"/ccz/denuncias/{report.protocol}").get_data(as_text=True))
