"""Issue 25, impound slice: the hand-overs between the CCZ and the citizen. The owner reclaims
from the animal's public page, finds the capture on the home to-do list and in "Meus animais
recolhidos" (cards, not a cut-off table), reads the same fee wording everywhere (guia at the
counter without Stripe, online with it), and the CCZ's address and hours wherever they must go
in person; an animal "Sob guarda" cannot be captured again and a released one says so; the
agent's Painel opens with "Registrar captura", the capture form offers "Usar minha localização"
and money is typed in reais; the certidão and the public checks are linked where people look,
each with a "conferir código" form; each decision reaches the person by e-mail."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from portal.blueprints.billing.services import mark_paid_at_counter
from portal.blueprints.impound import services
from portal.domain import DomainError
from portal.extensions import db
from portal.models import CaptureCertificate, CaptureStatus, OutboxMessage, ReclaimRecord
from portal.profiles import load_profile
from portal.services.clock import local_today
from tests import factories
from tests.integration.impound.test_impound_rules import GRU, _data

PROFILES = ("bjp", "cabeceira", "cabo", "guarulhos", "vilavelha")


def _captured(owner=None, **fields):  # type: ignore[no-untyped-def]
    """A dog of ``owner`` (a new one if None) captured today, by its tag."""
    owner = owner or factories.user(full_name="Olga Dona")
    pet = factories.animal(owner, name="Thor")
    agent = factories.user(roles=("agent",))
    capture = services.record_capture(
        GRU, _data(local_today(), tag_read=pet.rga, **fields), agent=agent, today=local_today()
    )
    db.session.commit()
    return owner, pet, capture


def _mails(to: str) -> list[OutboxMessage]:
    return list(
        db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == to).order_by(OutboxMessage.id)
        )
    )


def _released(capture, owner):  # type: ignore[no-untyped-def]
    staff = factories.user(roles=("agent",))
    reclaim = services.start_reclaim(
        GRU, capture, claimant=owner, channel="counter", started_by=staff, today=local_today()
    )
    mark_paid_at_counter(
        reclaim.payment_item, receipt_number="R-1", paid_on=local_today(), actor=staff
    )
    services.record_rabies(GRU, reclaim, "waived", staff=staff, today=local_today())
    services.confirm_cause_ended(capture, agent=staff)
    return services.release(
        GRU, capture, signed_by_name="Olga Dona", staff=staff, today=local_today()
    )


# -- Capture guards ----------------------------------------------------------------------------


def test_animal_sob_guarda_cannot_be_captured_again_by_tag_or_chip(app):
    owner, pet, first = _captured()
    agent = factories.user(roles=("agent",))
    with pytest.raises(DomainError) as err:
        services.record_capture(
            GRU, _data(local_today(), tag_read=pet.rga), agent=agent, today=local_today()
        )
    assert (err.value.field, err.value.code) == ("tag_read", "already_in_custody")
    assert first.protocol in err.value.message and "sob a guarda do CCZ" in err.value.message
    first.microchip = "985112003000077"
    db.session.flush()
    with pytest.raises(DomainError) as err:
        services.record_capture(
            GRU, _data(local_today(), microchip="985112003000077"), agent=agent, today=local_today()
        )
    assert err.value.code == "already_in_custody"


def test_capture_form_refuses_an_animal_sob_guarda_beside_the_tag_field(client, auth, app):
    owner, pet, first = _captured()
    auth.login(roles=("agent",))
    form = {
        "species": "dog",
        "size": "small",
        "sex": "male",
        "color": "Caramelo",
        "place": "Rua A, 1",
        "district": "Centro",
        "captured_on": local_today().isoformat(),
        "captured_time": "09:30",
        "reason": "loose",
        "condition": "good",
        "custody_type": "ordinary",
        "tag_read": pet.rga,
    }
    response = client.post("/ccz/recolhimentos/novo", data=form)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "já está sob a guarda do CCZ" in html
    assert 'id="tag_read-erro"' in html and "Rua A, 1" in html  # beside the field, kept


def test_released_capture_names_who_and_when_and_no_pending_step(client, auth, app):
    owner, pet, capture = _captured()
    _released(capture, owner)
    db.session.commit()
    step = services.next_step(capture, local_today())
    assert "Aguardar o proprietário" not in step
    assert step.startswith("Nenhum: caso encerrado") and "Olga Dona" in step
    assert local_today().strftime("%d/%m/%Y") in step
    auth.login(roles=("agent",))
    html = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert "Aguardar o proprietário" not in html and "devolvido a Olga Dona" in html


# -- The owner's reclaim -----------------------------------------------------------------------


def test_owner_signed_in_gets_the_reclaim_button_on_the_public_page(client, auth, app):
    owner, pet, capture = _captured()
    anonymous = client.get(f"/animais-recolhidos/{capture.protocol}").get_data(as_text=True)
    assert "Entrar para resgatar" in anonymous and ">Resgatar</button>" not in anonymous
    auth.login(owner)
    html = client.get(f"/animais-recolhidos/{capture.protocol}").get_data(as_text=True)
    assert ">Resgatar</button>" in html and "entre no portal" not in html
    assert "Taxa de resgate hoje: R$" in html and "confirme com a Prefeitura antes de ir" in html
    response = client.post(f"/meus-recolhimentos/{capture.protocol}/resgatar")
    assert response.status_code == 302
    assert db.session.scalar(select(ReclaimRecord)) is not None


def test_someone_else_signed_in_sees_no_reclaim_button(client, auth, app):
    owner, pet, capture = _captured()
    auth.login()
    html = client.get(f"/animais-recolhidos/{capture.protocol}").get_data(as_text=True)
    assert ">Resgatar</button>" not in html and "documento com foto" in html


def test_home_todo_names_the_animal_the_place_the_deadline_and_the_amount(client, auth, app):
    owner, pet, capture = _captured()
    auth.login(owner)
    html = client.get("/").get_data(as_text=True)
    fee = services.reclaim_fee(GRU, capture, local_today()).total_cents
    from portal.services.money import format_brl

    assert "Thor foi recolhido pelo CCZ" in html
    assert f"Resgate até {capture.deadline_on.strftime('%d/%m/%Y')}" in html
    assert f"taxa hoje: {format_brl(fee)}" in html
    assert "confirme o endereço e o horário com a Prefeitura" in html
    assert f"/meus-recolhimentos/{capture.protocol}" in html


def test_my_captures_list_is_cards_with_resgatar(client, auth, app):
    owner, pet, capture = _captured()
    auth.login(owner)
    html = client.get("/meus-recolhimentos").get_data(as_text=True)
    assert "<table" not in html and "portal-cards" in html
    assert 'class="br-button primary"' in html and ">Resgatar</a>" in html
    animal = client.get(f"/meus-animais/{pet.id}").get_data(as_text=True)
    if "recolhimentos-lista" in animal:  # the animal's page lists its captures as cards too
        assert ">Resgatar</a>" in animal


def test_fee_wording_says_what_happens_without_and_with_stripe(client, auth, app):
    owner, pet, capture = _captured()
    public = client.get("/animais-recolhidos").get_data(as_text=True)
    assert "pode ser feito pelo portal" not in public
    assert "paga no caixa do CCZ com a guia" in public
    auth.login(owner)
    mine = client.get(f"/meus-recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert "O pagamento online não está disponível" in mine
    app.config["STRIPE_SECRET_KEY"] = "sk_test_x"
    try:
        mine = client.get(f"/meus-recolhimentos/{capture.protocol}").get_data(as_text=True)
        public = client.get("/animais-recolhidos").get_data(as_text=True)
    finally:
        app.config["STRIPE_SECRET_KEY"] = None
    assert "você paga online (cartão, boleto ou PIX) ou com a guia" in mine
    assert "pague online (cartão, boleto ou PIX) ou com a guia no caixa do CCZ" in public


@pytest.mark.parametrize("key", PROFILES)
def test_no_profile_ships_an_unconfirmed_ccz_address(key):
    # issue 25: the address and hours were invented placeholders; only the city's confirmed data
    # (its [ccz] table, or the CCZ_* settings: tests/integration/impound/test_ccz_contact.py)
    assert load_profile(key).ccz is None


def test_ccz_page_says_where_to_confirm_and_is_linked_where_people_go(client, auth, app):
    html = client.get("/onde-fica-o-ccz").get_data(as_text=True)
    assert "confirme com a Prefeitura antes de ir" in html
    assert "8h às 16h" not in html and "endereço a confirmar" not in html
    owner, pet, capture = _captured()
    for url in ("/animais-recolhidos", f"/animais-recolhidos/{capture.protocol}", "/certidoes"):
        assert "/onde-fica-o-ccz" in client.get(url).get_data(as_text=True), url


def test_reclaim_paid_and_release_reach_the_owner_by_email_and_todo(client, auth, app):
    owner, pet, capture = _captured()
    staff = factories.user(roles=("agent",))
    reclaim = services.start_reclaim(
        GRU, capture, claimant=owner, channel="online", started_by=owner, today=local_today()
    )
    before = len(_mails(owner.email))
    mark_paid_at_counter(
        reclaim.payment_item, receipt_number="R-9", paid_on=local_today(), actor=staff
    )
    paid = [m for m in _mails(owner.email)[before:] if m.subject.startswith("Resgate pago")]
    assert len(paid) == 1 and "Confirme com a Prefeitura o endereço" in paid[0].body
    db.session.commit()
    auth.login(owner)
    assert "Resgate de Thor pago: busque o animal" in client.get("/").get_data(as_text=True)
    services.record_rabies(GRU, reclaim, "waived", staff=staff, today=local_today())
    services.confirm_cause_ended(capture, agent=staff)
    services.release(GRU, capture, signed_by_name="Olga Dona", staff=staff, today=local_today())
    db.session.commit()
    [mail] = [m for m in _mails(owner.email) if m.subject.startswith("Animal devolvido")]
    assert "devolvido em" in mail.body and "Olga Dona" in mail.body
    home = client.get("/").get_data(as_text=True)
    assert "Thor foi devolvido em" in home and "recolhimento encerrado" in home
    mine = client.get(f"/meus-recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert "Animal devolvido em" in mine and "Caso encerrado" in mine


# -- The agent on a phone ----------------------------------------------------------------------


def test_agent_painel_opens_with_registrar_captura(client, auth, app):
    auth.login(roles=("agent",))
    html = client.get("/admin/").get_data(as_text=True)
    top = html.index('id="registrar-captura"')
    assert top < html.index("O que precisa ser feito")


def test_capture_form_offers_my_location_and_the_coordinates_as_a_fallback(client, auth, app):
    auth.login(roles=("agent",))
    html = client.get("/ccz/recolhimentos/novo").get_data(as_text=True)
    assert 'id="usar-localizacao"' in html and "Usar minha localização" in html
    assert '<details id="coordenadas"' in html and 'name="latitude"' in html
    assert "impound/capture-map.js" in html  # the geolocation works without map tiles too


def test_no_impound_form_or_page_asks_for_centavos():
    root = Path(__file__).resolve().parents[3] / "portal"
    files = [*root.joinpath("templates/impound").glob("*.html")]
    files += [root / "blueprints/impound/forms.py"]
    assert [f.name for f in files if "centavos" in f.read_text(encoding="utf-8")] == []


def test_counter_expenses_are_typed_in_reais(client, auth, app):
    owner, pet, capture = _captured()
    auth.login(roles=("agent",))
    page = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert "centavos" not in page
    response = client.post(
        f"/ccz/recolhimentos/{capture.protocol}/resgate",
        data={"claimant_cpf": owner.cpf, "transport_reais": "12,50"},
    )
    assert response.status_code == 302
    reclaim = db.session.scalar(select(ReclaimRecord))
    assert reclaim is not None  # GRU 72 §1: transport is one of the expenses the law allows
    if GRU.expense_rule("reclaim") is not None:
        assert reclaim.expenses == [{"kind": "transport", "amount_cents": 1250}]
    bad = client.post(
        f"/ccz/recolhimentos/{capture.protocol}/resgate",
        data={"claimant_cpf": owner.cpf, "transport_reais": "doze"},
        follow_redirects=True,
    )
    assert "Informe o valor em reais, por exemplo 12,50." in bad.get_data(as_text=True)


def test_counter_expense_too_large_is_a_field_message_not_a_500(client, auth, app):
    # 20 digits fit the field's length and overflowed the integer column (issue 26 #8's pattern).
    owner, pet, capture = _captured()
    auth.login(roles=("agent",))
    response = client.post(
        f"/ccz/recolhimentos/{capture.protocol}/resgate",
        data={"claimant_cpf": owner.cpf, "food_reais": "9" * 20},
        follow_redirects=True,
    )
    assert response.status_code == 200
    assert "o máximo aceito é R$ 1.000.000,00" in response.get_data(as_text=True)
    assert db.session.scalar(select(ReclaimRecord)) is None


# -- Certidão and the public checks -------------------------------------------------------------


def test_gru_84_3_certidao_linked_from_home_menu_rules_captured_list_and_animal(client, auth, app):
    owner, pet, capture = _captured()
    for url in ("/", "/regras", "/animais-recolhidos", f"/animais-recolhidos/{capture.protocol}"):
        assert 'href="/certidoes"' in client.get(url).get_data(as_text=True), url
    auth.login(owner)
    assert 'href="/certidoes"' in client.get(f"/meus-animais/{pet.id}").get_data(as_text=True)


def test_search_for_certidao_goes_to_the_certidao_not_adoption(client, app):
    for q in ("certidão", "Certidao negativa", "certidões de captura"):
        response = client.get("/busca", query_string={"q": q})
        assert response.status_code == 302 and response.location.endswith("/certidoes"), q
    assert client.get("/busca?q=conferir código").location.endswith("/conferir")
    assert "/adocao" in client.get("/busca?q=gato").location or "ado" in (
        client.get("/busca?q=gato").location
    )


def test_gru_84_5_certidao_page_states_fee_and_where_the_exam_is(client, app):
    html = client.get("/certidoes").get_data(as_text=True)
    assert 'id="taxa-certidao"' in html and "não cobra" in html
    assert "Centro de Controle de Zoonoses de Guarulhos" in html
    assert 'action="/conferir"' in html and 'name="certidao"' in html


def _issued(requester):  # type: ignore[no-untyped-def]
    pet = factories.animal(factories.user())
    exam = local_today() + timedelta(days=1)
    while exam.weekday() >= 5:
        exam += timedelta(days=1)
    cert = services.request_certificate(
        GRU, pet.rga, requester=requester, exam_on=exam, today=local_today()
    )
    return services.issue_certificate(
        GRU, cert, confirmed=True, note="", staff=factories.user(roles=("vet",)), today=exam
    )


def test_conferir_codigo_certidao_found_unknown_and_licence_and_document_forms(client, app):
    requester = factories.user()
    cert = _issued(requester)
    db.session.commit()
    found = client.get("/conferir", query_string={"certidao": cert.code.lower()})
    assert found.status_code == 302 and found.location.endswith(f"/certidoes/{cert.code}")
    page = client.get(found.location).get_data(as_text=True)
    assert "Código conferido" in page and "verdadeira" in page
    unknown = client.get("/conferir?certidao=CNC-XXXXXXXXXX").get_data(as_text=True)
    assert "Não há certidão emitida com este código" in unknown
    html = client.get("/conferir").get_data(as_text=True)
    assert 'method="get"' in html and 'name="certidao"' in html
    if "licences.public_check" in app.view_functions:
        assert 'name="licenca"' in html
        missing = client.get("/conferir?licenca=ABCD-EFGH-JKLM").get_data(as_text=True)
        assert "Não há licença com este código" in missing
    assert 'action="/verificar-documento"' in html and 'name="number"' in html


def test_gru_84_5_certidao_result_reaches_the_requester_by_email_and_todo(client, auth, app):
    requester = factories.user()
    cert = _issued(requester)
    db.session.commit()
    [mail] = [m for m in _mails(requester.email) if "Certidão" in m.subject]
    assert cert.code in mail.body and f"/certidoes/{cert.code}" in mail.body
    auth.login(requester)
    assert f"Certidão de captura {cert.code} emitida" in client.get("/").get_data(as_text=True)
    assert isinstance(db.session.get(CaptureCertificate, cert.id).issued_on, date)


def test_capture_status_constants_cover_custody():
    from portal.blueprints.impound.capture import CUSTODY_STATUSES

    assert set(CUSTODY_STATUSES) == {
        CaptureStatus.IN_CUSTODY,
        CaptureStatus.DEFINITIVE_PENDING,
    }


# -- One query per list, not one per row -------------------------------------------------------


def _selects_from(table: str, call):  # type: ignore[no-untyped-def]
    """The SELECT statements loading rows of ``table`` while ``call()`` runs."""
    from sqlalchemy import event

    seen: list[str] = []

    def record(conn, cursor, statement, *args) -> None:  # type: ignore[no-untyped-def]
        if statement.lstrip().startswith(f"SELECT {table}."):
            seen.append(statement)

    event.listen(db.engine, "before_cursor_execute", record)
    try:
        call()
    finally:
        event.remove(db.engine, "before_cursor_execute", record)
    return seen


def test_public_list_reads_the_photos_of_every_row_in_one_query(client, app):
    for _ in range(3):
        _captured()
    db.session.expunge_all()
    html: list[str] = []
    reads = _selects_from(
        "capture_photo", lambda: html.append(client.get("/animais-recolhidos").get_data(True))
    )
    assert "Animais encontrados: 3" in html[0]
    assert len(reads) <= 1, reads


def test_my_captures_and_todo_read_animals_and_reclaims_once_not_per_capture(client, auth, app):
    owner = factories.user(full_name="Olga Dona")
    for _ in range(3):
        _captured(owner)
    auth.login(owner)
    db.session.expunge_all()
    page: list[str] = []
    animals = _selects_from(
        "animal", lambda: page.append(client.get("/meus-recolhimentos").get_data(True))
    )
    assert page[0].count(">Resgatar</a>") == 3
    assert len(animals) <= 1, animals
    db.session.expunge_all()
    reclaims = _selects_from("reclaim_record", lambda: page.append(client.get("/").get_data(True)))
    assert page[1].count("Thor foi recolhido pelo CCZ") == 3
    assert len(reclaims) <= 1, reclaims


def test_certidao_todo_reads_the_animals_of_the_certidoes_in_one_query(client, auth, app):
    requester = factories.user()
    codes = [_issued(requester).code for _ in range(3)]
    old = _issued(requester)
    old.issued_on = local_today() - timedelta(days=400)  # long past: no longer on the list
    old_code = old.code
    db.session.commit()
    auth.login(requester)
    db.session.expunge_all()
    html: list[str] = []
    animals = _selects_from("animal", lambda: html.append(client.get("/").get_data(True)))
    assert all(f"Certidão de captura {code} emitida" in html[0] for code in codes)
    assert f"Certidão de captura {old_code} emitida" not in html[0]
    assert len([s for s in animals if "WHERE animal.id = " in s]) == 0, animals


def test_gru_84_3_no_page_links_a_certidao_where_the_law_has_none(make_app):
    # Only Guarulhos has the certidão negativa de captura (GRU 84 §3); in Bom Jesus dos Perdões
    # the captured list, a capture's page and the rules page must not offer one.
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        assert not services.certificates_offered(app.extensions["portal_profile"])
        owner = factories.user()
        capture = services.record_capture(
            app.extensions["portal_profile"],
            _data(local_today(), tag_read=factories.animal(owner).rga),
            agent=factories.user(roles=("agent",)),
            today=local_today(),
        )
        db.session.commit()
        protocol = capture.protocol
    client = app.test_client()
    for url in ("/animais-recolhidos", f"/animais-recolhidos/{protocol}", "/regras"):
        html = client.get(url).get_data(as_text=True)
        assert "Animais recolhidos" in html or "Regras" in html, url
        assert 'href="/certidoes' not in html and "certidão negativa" not in html.lower(), url
