"""Issue 8 item 5 in a real browser, on a phone: the applicant attaches a proof already sent to an
open application (no new upload), and the NGO reviewing it then opens that proof and no other."""

from __future__ import annotations

from datetime import date

from playwright.sync_api import Page, expect

from portal.blueprints.adoption import applications as apps
from portal.extensions import db
from portal.models import DocumentKind
from tests import factories
from tests.factories import add_document, eligible_person, make_listing, ngo_user, run_axe


def _login(page: Page, base: str, email: str | None) -> None:
    page.goto(f"{base}/conta/entrar")
    page.get_by_label("E-mail").fill(email or "")
    page.get_by_label("Senha").fill(factories.PASSWORD)
    page.get_by_role("button", name="Entrar").click()


def test_applicant_attaches_a_proof_and_only_that_ngo_sees_it(live_server, page: Page) -> None:
    base = live_server.url
    app = live_server.app
    with app.app_context():
        profile = app.extensions["portal_profile"]
        reviewer, org = ngo_user("ONG Patinhas")
        listing = make_listing(org, name="Amora", author=reviewer)
        adopter = eligible_person(full_name="Helena Adotante")
        answers = apps.Answers(
            home_type="house", other_animals="none", caretaker="Eu", holidays="Mãe"
        )
        application = apps.submit_application(
            profile, adopter, listing, answers, True, date.today()
        )
        extra = add_document(adopter, DocumentKind.PROOF_OF_INCOME)  # sent later, not attached
        db.session.commit()
        ids = (application.id, extra.stored_file.token, reviewer.email, adopter.email)
    application_id, token, reviewer_email, adopter_email = ids

    page.set_viewport_size({"width": 360, "height": 740})
    _login(page, base, reviewer_email)
    page.goto(f"{base}/adocao/gestao/pedidos/{application_id}")
    expect(page.get_by_role("heading", name="Documentos")).to_be_visible()
    assert token not in page.content()
    page.context.clear_cookies()

    _login(page, base, adopter_email)
    page.goto(f"{base}/adocao/minhas/{application_id}")
    expect(page.get_by_role("heading", name="Documentos deste pedido")).to_be_visible()
    assert run_axe(page) == []  # the new section and its form are labelled
    page.get_by_label("Documento já enviado").select_option(index=0)
    page.get_by_role("button", name="Anexar ao pedido").click()
    expect(page.get_by_text("Documento anexado ao pedido.")).to_be_visible()
    page.screenshot(path="/tmp/adopt/attached-360.png", full_page=True)
    page.context.clear_cookies()

    _login(page, base, reviewer_email)
    page.goto(f"{base}/adocao/gestao/pedidos/{application_id}")
    assert token in page.content()
