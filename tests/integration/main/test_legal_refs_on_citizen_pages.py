"""Issue 25 point 3: on the pages a citizen reads (a captured animal, a report, an enforcement
document addressed to them), every law code sits in a small link to /regras
(``a.portal-article``, from ``portal.services.legal.legal_ref``) with plain words before it."""

from __future__ import annotations

import re
from datetime import date, timedelta
from html.parser import HTMLParser

from sqlalchemy import select

from portal.extensions import db
from portal.models import Capture
from portal.services.clock import local_today
from tests import factories
from tests.factories import submit
from tests.integration.enforcement import test_enforcement
from tests.integration.enforcement.test_decision_edges import _known
from tests.integration.impound.test_impound_pages import _capture_form

profile, people = test_enforcement.profile, test_enforcement.people  # its fixtures

CODE = re.compile(r"\b(?:GRU|BJP|CABO|CAB|VV) \d+")
WORD = re.compile(r"[A-Za-zÀ-ú]{3,}")


class _Main(HTMLParser):
    """The text of ``<main>`` in order, each piece marked with whether it sits inside an
    ``a.portal-article`` link."""

    def __init__(self) -> None:
        super().__init__()
        self.in_main = False
        self.in_link = False
        self.pieces: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "main":
            self.in_main = True
        classes = (dict(attrs).get("class") or "").split()
        if tag == "a" and "portal-article" in classes:
            self.in_link = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "main":
            self.in_main = False
        if tag == "a":
            self.in_link = False

    def handle_data(self, data: str) -> None:
        if self.in_main and data.strip():
            self.pieces.append((data, self.in_link))


def _codes_outside_links(html: str) -> tuple[list[str], int]:
    """(codes shown bare or as a link with no words before it, codes shown as proper links)."""
    parser = _Main()
    parser.feed(html)
    bad: list[str] = []
    linked = 0
    before = ""
    for text, in_link in parser.pieces:
        for code in CODE.findall(text):
            if not in_link:
                bad.append(f"bare {code!r} in {text.strip()[:80]!r}")
            elif not WORD.search(before[-60:]):
                bad.append(f"{code!r} without words before it: {before[-60:]!r}")
            else:
                linked += 1
        before = "" if in_link else before + text
    return bad, linked


def _check(html: str, *, at_least: int = 1) -> None:
    bad, linked = _codes_outside_links(html)
    assert not bad, bad
    assert linked >= at_least


def test_captured_animal_pages_show_each_code_as_a_link_with_plain_words(client, auth):
    owner = factories.user()
    pet = factories.animal(owner)
    db.session.commit()
    auth.login(roles=("agent",))
    response = client.post(
        "/ccz/recolhimentos/novo",
        data=_capture_form(local_today(), tag_read=pet.rga),
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    capture = db.session.scalar(select(Capture))
    auth.logout()
    _check(client.get(f"/animais-recolhidos/{capture.protocol}").text, at_least=0)
    listing = client.get("/animais-recolhidos").text
    _check(listing)  # the reclaim term's article
    assert 'class="portal-article" href="/regras#apreensao"' in listing
    auth.login(owner)
    _check(client.get(f"/meus-recolhimentos/{capture.protocol}").text)  # the fee's lines


def test_report_form_and_tracking_page_show_each_code_as_a_link_with_plain_words(client):
    _check(client.get("/denuncias/nova").text)
    _response, report, _code = submit(client)
    page = client.get(f"/denuncias/acompanhar/{report.protocol}")
    assert page.status_code == 200
    # Guarulhos' law is silent on the triage deadline: no code at all, and none bare.
    _check(page.text, at_least=0)


def test_addressee_document_and_petition_pages_show_each_code_as_a_link_with_plain_words(
    profile, people, client, auth
):
    citizen = people[3]
    doc = _known(profile, people, date.today() - timedelta(days=1), fine=True)
    db.session.commit()
    auth.login(citizen)
    page = client.get(f"/minhas-notificacoes/{doc.id}").text
    _check(page, at_least=2)  # the provision transgressed and the fine's line
    assert "(GRU 37)</a>" in page
    _check(client.get(f"/minhas-notificacoes/{doc.id}/peticao").text)


def test_home_todo_names_who_decides_with_the_article_as_a_link(profile, people, client, auth):
    from portal.blueprints.enforcement import services

    citizen = people[3]
    doc = _known(profile, people, date.today() - timedelta(days=1), fine=True)
    services.file_petition(profile, doc, citizen, text="Peço a <b>revisão</b>.")
    db.session.commit()
    auth.login(citizen)
    home = client.get("/").text
    todo = home.split('class="portal-todo-list"', 1)[1].split("</ul>", 1)[0]
    assert "Quem decide:" in todo
    _check(
        f"<main>{todo}</main>"
    )  # "Quem decide: o superior … (GRU …)" with the code a link, not bare
    assert todo.count("<a ") == todo.count("</a>")  # no link left open inside another
    assert "<b>" not in todo  # escaped, never raw HTML


def test_payment_breakdown_shows_each_code_as_a_link_with_plain_words(client, auth):
    from portal.blueprints.billing.services import create_payment_item

    payer = factories.user()
    item = create_payment_item(
        kind="registration",
        amount_cents=2500,
        description="Taxa de registro",
        payer=payer,
        breakdown=[{"label": "Registro", "amount_cents": 2500, "article": "GRU 37"}],
    )
    db.session.commit()
    auth.login(payer)
    page = client.get(f"/pagamentos/{item.id}").text
    _check("<main>" + page.split("<caption>", 1)[1].split("</table>", 1)[0] + "</main>")


def test_addressee_deadline_reads_in_words_not_zero_days(profile, people, client, auth):
    """Issue 25: "(faltam 0 dias)" / "(1 dias)" read like errors; the shared helper says
    "hoje", "amanhã" or "em N dias"."""
    citizen = people[3]
    doc = _known(profile, people, date.today() - timedelta(days=1), fine=True)
    db.session.commit()
    auth.login(citizen)
    for url in (f"/minhas-notificacoes/{doc.id}", "/minhas-notificacoes"):
        page = client.get(url).text
        assert "faltam" not in page and not re.search(r"\(\d+ dias\)", page), url
        assert re.search(r"\((hoje|amanhã|em \d+ dias?)\)", page), url
