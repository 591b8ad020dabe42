"""Issue 25 point 5: staff pages are staff pages — the staff header (staff navigation, the staff
search), Painel tiles only for what the role acts on (others explained in one line), the agent's
"Minhas vistorias de hoje", and "hoje"/"ontem"/"há N dias" instead of "há 0 dias"."""

from __future__ import annotations

import re
from datetime import timedelta

from portal.extensions import db
from portal.models import MaltreatmentReport
from portal.models.base import utcnow
from portal.services.clock import local_today
from tests import factories


def _report(protocol: str, **fields) -> MaltreatmentReport:  # type: ignore[no-untyped-def]
    report = MaltreatmentReport(
        protocol=protocol,
        tracking_hash="0" * 64,
        category="no_shelter",
        description="Cachorro sem água.",
        **fields,
    )
    db.session.add(report)
    return report


def _nav(html: str) -> str:
    return html.split('aria-label="Menu principal"', 1)[1].split("</nav>", 1)[0]


def test_a_staff_page_has_the_staff_menu_and_search(client, auth) -> None:
    auth.login(roles=("agent",))
    html = client.get("/ccz/filas/rga-segundas-vias").get_data(as_text=True)
    menu = _nav(html)
    assert "Área do CCZ" in menu and "Busca do CCZ" in menu
    assert "/adocao" not in menu and "/animais/cadastrar" not in menu  # no citizen menu
    assert len(re.findall(r"<li>", menu)) <= 6
    search = html.split('class="portal-header-search"', 1)[1].split("</form>", 1)[0]
    assert 'action="/ccz/busca"' in search and 'method="post"' in search
    assert 'id="busca"' in search  # e-MAG Alt+3 still lands in it


def test_the_same_person_on_a_citizen_page_gets_the_citizen_menu(client, auth) -> None:
    auth.login(roles=("citizen", "agent"))
    html = client.get("/regras").get_data(as_text=True)
    assert "Área do CCZ" in _nav(html)
    search = html.split('class="portal-header-search"', 1)[1].split("</form>", 1)[0]
    assert 'method="get"' in search


def test_an_agent_gets_no_triage_tile_but_a_line_saying_who_triages(client, auth) -> None:
    _report("DEN-2026-000001")
    db.session.commit()
    auth.login(roles=("agent",))
    html = client.get("/admin/").get_data(as_text=True)
    cards = html.split("O que precisa ser feito", 1)[1]
    assert "Denúncias de maus-tratos para triagem</a></h3>" not in cards
    assert "A triagem das denúncias é feita pela coordenação." in html


def test_the_coordinator_keeps_the_triage_tile(client, auth) -> None:
    _report("DEN-2026-000001")
    db.session.commit()
    auth.login(roles=("coordinator",))
    html = client.get("/admin/").get_data(as_text=True)
    assert "Denúncias de maus-tratos para triagem</a></h3>" in html
    assert "A triagem das denúncias é feita pela coordenação." not in html


def test_the_agent_sees_my_inspections_today_first(client, auth) -> None:
    agent = factories.user(roles=("agent",))
    other = factories.user(roles=("agent",))
    for n, (who, day) in enumerate(
        [(agent, local_today()), (agent, local_today() - timedelta(days=1)), (other, local_today())]
    ):
        _report(f"DEN-2026-00010{n}", state="assigned", assigned_agent_id=who.id, inspection_on=day)
    db.session.commit()
    auth.login(agent)
    html = client.get("/admin/").get_data(as_text=True)
    tile = html.split('class="portal-cards portal-my-day"', 1)[1].split("</ul>", 1)[0]
    assert "Minhas vistorias de hoje" in tile
    assert "<strong>2</strong> vistorias" in tile and "1 de dias anteriores" in tile
    assert html.index("portal-my-day") < html.index("O que precisa ser feito")
    listing = client.get("/ccz/filas/minhas-vistorias-hoje").get_data(as_text=True)
    assert "DEN-2026-000102" not in listing  # another agent's


def test_the_oldest_item_reads_today_not_zero_days_ago(app, client, auth) -> None:
    from portal.models import DocumentCopyRequest

    owner = factories.user()
    animal = factories.animal(owner)
    db.session.add(
        DocumentCopyRequest(
            animal=animal,
            kind="card",
            requested_on=local_today(),
            requested_at=utcnow(),
            valid_until=local_today() + timedelta(days=45),
        )
    )
    db.session.commit()
    auth.login(roles=("agent",))
    html = client.get("/admin/").get_data(as_text=True)
    assert "há 0 dias" not in html
    assert "O mais antigo: hoje" in html


def test_days_ago_says_today_yesterday_and_n_days(app) -> None:
    from portal.services.relative_days import days_ago

    today = local_today()
    with app.test_request_context():
        assert days_ago(today) == "hoje"
        assert days_ago(today - timedelta(days=1)) == "ontem"
        assert days_ago(today - timedelta(days=5)) == "há 5 dias"
        assert days_ago(0) == "hoje" and days_ago(None) == ""
        assert days_ago(utcnow()) == "hoje"


def test_my_inspections_today_include_licence_inspections(client, auth) -> None:
    from portal.models import ExcessLicence, LicenceInspection

    agent = factories.user(roles=("agent",))
    other = factories.user(roles=("agent",))
    holder = factories.user()
    today = local_today()
    visits = [
        (agent, today, None),  # today's
        (agent, today - timedelta(days=2), None),  # left from an earlier day
        (agent, today + timedelta(days=1), None),  # tomorrow's: not today's work
        (agent, today - timedelta(days=1), today),  # already recorded
        (other, today, None),  # another agent's
    ]
    for n, (who, day, done) in enumerate(visits):
        licence = ExcessLicence(
            code=f"LIC-T{n}",
            holder=holder,
            residence_key=f"k{n}",
            address_line=f"Rua Vistoria, {100 + n}",
            animals_requested=7,
            requested_on=today - timedelta(days=5),
        )
        licence.inspections.append(
            LicenceInspection(agent_id=who.id, scheduled_for=day, inspected_on=done)
        )
        db.session.add(licence)
    db.session.commit()
    auth.login(agent)
    html = client.get("/admin/").get_data(as_text=True)
    tiles = html.split('class="portal-cards portal-my-day"', 1)[1].split("</ul>", 1)[0]
    tile = tiles.split("Minhas vistorias de hoje: licenças para mais animais", 1)[1]
    assert "<strong>2</strong> vistorias" in tile and "1 de dias anteriores" in tile
    listing = client.get("/ccz/filas/minhas-vistorias-hoje-licencas").get_data(as_text=True)
    assert "Rua Vistoria, 100" in listing and "Rua Vistoria, 101" in listing
    for n in (102, 103, 104):
        assert f"Rua Vistoria, {n}" not in listing


def test_days_until_says_today_tomorrow_and_in_n_days(app) -> None:
    from portal.services.relative_days import days_until

    today = local_today()
    with app.test_request_context():
        assert days_until(today) == "hoje" and days_until(0) == "hoje"
        assert days_until(today + timedelta(days=1)) == "amanhã"
        assert days_until(5) == "em 5 dias" and days_until(-1) == "ontem"
        assert days_until(None) == ""


def test_overdue_custody_reads_in_words_not_dia_s(client, auth) -> None:
    from tests.integration.impound.test_impound_pages import _capture_form

    auth.login(roles=("agent",))
    day = local_today() - timedelta(days=40)
    response = client.post(
        "/ccz/recolhimentos/novo", data=_capture_form(day), content_type="multipart/form-data"
    )
    assert response.status_code == 302
    html = client.get("/ccz/recolhimentos").get_data(as_text=True)
    assert "dia(s)" not in html
    assert re.search(r"vencido (ontem|há \d+ dias)", html)
