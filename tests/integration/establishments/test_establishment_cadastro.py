"""Establishments: the cadastro requested online, inspected, approved, renewed in its window
(GRU 11 §2-3), accredited to register animals (GRU 14 §2) only while valid, and listed publicly."""

from __future__ import annotations

from datetime import date

import pytest
from stdnum.br import cnpj as cnpj_lib

from portal.blueprints.establishments import services
from portal.extensions import db
from portal.models import Establishment, MunicipalHoliday
from tests import factories


def _cnpj(n: int) -> str:
    base = f"{n:08d}0001"
    return base + cnpj_lib.calc_check_digits(base)


def _data(n: int = 1, **overrides: object) -> services.CadastroData:
    fields: dict[str, object] = dict(
        cnpj=_cnpj(11222333 + n),
        legal_name=f"Clínica Vet {n} Ltda",
        trade_name=f"Vet {n}",
        kinds=["clinic"],
        facilities="Consultório, canil de internação com 4 baias.",
        cep="07000-000",
        street="Rua das Flores",
        number=str(100 + n),
        complement=None,
        district="Centro",
        phone="11 4444-0000",
        email=f"vet{n}@example.com",
        opening_hours="seg a sex, 8h às 18h",
        vet_name="Dra. Ana Lima",
        vet_crmv="CRMV-SP 1234",
        vet_term_valid_until=date(2040, 6, 30),
    )
    fields.update(overrides)
    return services.CadastroData(**fields)  # type: ignore[arg-type]


@pytest.fixture
def profile(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


def _sketch(owner):  # type: ignore[no-untyped-def]
    import io

    from portal.services.uploads import store_document

    return store_document(
        io.BytesIO(b"%PDF-1.4\n% croqui\n"),
        purpose="establishment_sketch",
        owner_id=owner.id,
        filename="croqui.pdf",
    )


def _request(owner, profile, on: date, data=None):  # type: ignore[no-untyped-def]
    return services.request_cadastro(
        owner, data or _data(), profile=profile, today=on, sketch=_sketch(owner)
    )


def _approved(profile, on: date, n: int = 1) -> Establishment:  # type: ignore[no-untyped-def]
    owner, agent, coord = (
        factories.user(),
        factories.user(roles=("agent",)),
        factories.user(roles=("coordinator",)),
    )
    e = _request(owner, profile, on, _data(n))
    services.record_inspection(
        e, agent, inspected_on=on, findings="Tudo em ordem.", satisfactory=True, today=on
    )
    services.approve(e, coord, profile=profile, today=on)
    return e


def test_gru_11_1_cnpj_and_responsible_vet_are_checked(app, profile) -> None:
    owner = factories.user()
    with pytest.raises(services.EstablishmentError) as err:
        services.request_cadastro(
            owner, _data(cnpj="11.111.111/0001-00"), profile=profile, today=date(2026, 12, 1)
        )
    assert (err.value.field, err.value.code) == ("cnpj", "invalid_cnpj")
    with pytest.raises(services.EstablishmentError) as err:
        services.request_cadastro(
            owner, _data(vet_crmv=None), profile=profile, today=date(2026, 12, 1)
        )
    assert err.value.code == "vet_required"


def test_gru_13_1_an_expired_term_of_technical_responsibility_is_refused(app, profile) -> None:
    with pytest.raises(services.EstablishmentError) as err:
        services.request_cadastro(
            factories.user(),
            _data(vet_term_valid_until=date(2026, 11, 30)),
            profile=profile,
            today=date(2026, 12, 1),
        )
    assert err.value.code == "vet_term_expired"


def test_gru_11_1_iv_the_sketch_of_the_housing_is_required(app, profile) -> None:
    with pytest.raises(services.EstablishmentError) as err:
        services.request_cadastro(
            factories.user(), _data(), profile=profile, today=date(2026, 12, 1)
        )
    assert (err.value.field, err.value.code) == ("sketch", "sketch_required")
    owner = factories.user()
    assert _request(owner, profile, date(2026, 12, 1)).sketch is not None


def test_approval_needs_a_satisfactory_inspection_where_the_profile_asks(app, profile) -> None:
    e = _request(factories.user(), profile, date(2026, 12, 1))
    coord = factories.user(roles=("coordinator",))
    with pytest.raises(services.EstablishmentError) as err:
        services.approve(e, coord, profile=profile, today=date(2026, 12, 1))
    assert err.value.code == "inspection_required"


def test_gru_11_2_first_term_is_one_year_from_approval_leap_day(app, profile) -> None:
    e = _approved(profile, date(2028, 2, 29))
    # Código Civil art. 132 §3 (issue 27 #8): no 29 Feb in 2029, the year ends on 1 March
    assert (e.valid_from, e.valid_until) == (date(2028, 2, 29), date(2029, 3, 1))
    assert services.is_valid(e, date(2029, 3, 1))
    assert not services.is_valid(e, date(2029, 3, 2))


def test_gru_11_3_renewal_window_is_the_60_days_before_expiry(app, profile) -> None:
    e = _approved(profile, date(2026, 3, 10))  # valid until Wednesday 2027-03-10
    window = services.renewal_window(e, profile)
    assert (window.opens, window.closes) == (date(2027, 1, 9), date(2027, 3, 10))
    with pytest.raises(services.EstablishmentError) as err:
        services.request_renewal(e, e.requested_by, profile=profile, today=date(2027, 1, 8))
    assert err.value.code == "renewal_too_early"
    services.request_renewal(e, e.requested_by, profile=profile, today=date(2027, 1, 9))
    assert e.renewal_requested_on == date(2027, 1, 9)


def test_gru_114_window_ending_on_a_weekend_closes_on_the_next_business_day(app, profile) -> None:
    e = _approved(profile, date(2026, 3, 13))  # expires Saturday 2027-03-13
    assert services.renewal_window(e, profile).closes == date(2027, 3, 15)
    services.request_renewal(e, e.requested_by, profile=profile, today=date(2027, 3, 15))
    other = _approved(profile, date(2026, 3, 13), n=2)
    with pytest.raises(services.EstablishmentError) as err:
        services.request_renewal(
            other, other.requested_by, profile=profile, today=date(2027, 3, 16)
        )
    assert err.value.code == "renewal_too_late"


def test_gru_114_window_ending_on_a_state_or_municipal_holiday_moves(app, profile) -> None:
    e = _approved(profile, date(2026, 7, 9))  # 2027-07-09, a Friday: SP state holiday
    assert services.renewal_window(e, profile).closes == date(2027, 7, 12)
    db.session.add(MunicipalHoliday(day=date(2027, 7, 12), name="Feriado municipal de teste"))
    db.session.flush()
    assert services.renewal_window(e, profile).closes == date(2027, 7, 13)


def test_gru_11_3_renewal_takes_effect_the_day_after_the_old_term_even_if_decided_late(
    app, profile
) -> None:
    e = _approved(profile, date(2026, 3, 10))
    services.request_renewal(e, e.requested_by, profile=profile, today=date(2027, 2, 1))
    coord = factories.user(roles=("coordinator",))
    services.approve_renewal(e, coord, profile=profile)
    # the new term runs 2027-03-11 .. 2028-03-10, right after the first: one validity since 2026
    assert (e.valid_from, e.valid_until) == (date(2026, 3, 10), date(2028, 3, 10))
    assert e.events[-1].detail["valid_from"] == "2027-03-11"


def test_accredited_token_works_only_while_the_cadastro_is_valid(app, client, profile) -> None:
    from portal.services.clock import local_today

    today = local_today()
    e = _approved(profile, today)
    coord = factories.user(roles=("coordinator",))
    token = services.accredit(e, coord, profile=profile, today=today)
    db.session.commit()
    headers = {"Authorization": f"Bearer {token}"}
    month = today.strftime("%Y-%m")
    assert client.get(f"/api/v1/registrations?month={month}", headers=headers).status_code == 200
    e.valid_from, e.valid_until = date(2020, 1, 1), date(2021, 1, 1)  # the cadastro expired
    db.session.commit()
    response = client.get(f"/api/v1/registrations?month={month}", headers=headers)
    assert response.status_code == 403
    assert response.get_json()["errors"][0]["code"] == "establishment_not_accredited"


def test_only_a_valid_cadastro_can_be_accredited(app, profile) -> None:
    e = _request(factories.user(), profile, date(2026, 12, 1))
    with pytest.raises(services.EstablishmentError) as err:
        services.accredit(
            e, factories.user(roles=("coordinator",)), profile=profile, today=date(2026, 12, 1)
        )
    assert err.value.code == "cadastro_not_valid"


def test_public_page_lists_accredited_establishments_by_district_without_personal_data(
    app, client, profile
) -> None:
    from portal.services.clock import local_today

    e = _approved(profile, local_today())
    services.accredit(
        e, factories.user(roles=("coordinator",)), profile=profile, today=local_today()
    )
    not_accredited = _approved(profile, local_today(), n=2)
    db.session.commit()
    html = client.get("/onde-registrar").get_data(as_text=True)
    assert "Vet 1" in html and "Centro" in html and "seg a sex" in html
    assert not_accredited.display_name not in html
    assert "Dra. Ana Lima" not in html and e.cnpj not in html


def test_the_page_does_not_exist_where_the_law_has_no_accreditation(make_app) -> None:
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        assert app.test_client().get("/onde-registrar").status_code == 404


def test_web_request_keeps_what_was_typed_on_error(app, client, auth) -> None:
    auth.login(roles=("citizen",))
    response = client.post(
        "/estabelecimentos/cadastro",
        data={
            "cnpj": "11.111.111/0001-00",
            "legal_name": "Pet Feliz Ltda",
            "kinds": ["pet_shop"],
            "facilities": "Loja",
            "cep": "07000000",
            "street": "Rua A",
            "number": "1",
            "district": "Centro",
            "vet_name": "Dr. B",
            "vet_crmv": "CRMV-SP 9",
            "vet_term_valid_until": "2030-01-01",
        },
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "CNPJ inválido" in html and 'value="Pet Feliz Ltda"' in html


def test_staff_queue_shows_expiring_and_expired_cadastros(app, profile) -> None:
    from portal.services.clock import local_today
    from portal.workspace import registry, stats

    today = local_today()
    soon = _approved(profile, today)
    soon.valid_until = date.fromordinal(today.toordinal() + 30)
    expired = _approved(profile, today, n=2)
    expired.valid_until = date.fromordinal(today.toordinal() - 1)
    _approved(profile, today, n=3)  # a year to go: not in the queue
    db.session.commit()
    card = stats(registry().get("estabelecimentos-vencendo"))
    assert (card.count, card.overdue) == (2, 1)


def test_rules_page_explains_the_cadastro_where_the_law_has_one(app, client, make_app) -> None:
    html = client.get("/regras").get_data(as_text=True)
    assert "Estabelecimentos que lidam com animais" in html and "60 dias" in html
    # CABO 34 (issue 27 #4): the yearly laudo of businesses that sell live animals
    other = make_app(PORTAL_PROFILE="cabo")
    with other.app_context():
        html = other.test_client().get("/regras").get_data(as_text=True)
        assert "Estabelecimentos que lidam com animais" in html and "CABO 34" in html
        assert "laudo do órgão sanitário" in html


def test_web_request_with_the_sketch_reaches_the_staff_file(app, client, auth) -> None:
    import io

    from sqlalchemy import select

    owner = auth.login(roles=("citizen",))
    response = client.post(
        "/estabelecimentos/cadastro",
        data={
            "cnpj": _cnpj(44555666),
            "legal_name": "Pet Feliz Ltda",
            "kinds": ["pet_shop"],
            "facilities": "Loja com 3 baias",
            "cep": "07000-000",
            "street": "Rua A",
            "number": "1",
            "district": "Centro",
            "vet_name": "Dr. B",
            "vet_crmv": "CRMV-SP 9",
            "vet_term_valid_until": "2040-01-01",
            "sketch": (io.BytesIO(b"%PDF-1.4\n% croqui\n"), "croqui.pdf"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    place = db.session.scalar(
        select(Establishment).where(Establishment.requested_by_id == owner.id)
    )
    assert place.sketch is not None and place.sketch.public is False
    auth.logout()
    auth.login(roles=("agent",))
    html = client.get(f"/ccz/estabelecimentos/{place.id}").get_data(as_text=True)
    assert "Ver o croqui" in html


def test_gru_12_notices_addressed_to_the_cnpj_are_in_the_establishment_file(
    app, client, auth, profile
) -> None:
    from datetime import UTC, datetime

    from portal.blueprints.enforcement import services as enforcement
    from portal.models.enforcement import EnforcementKind

    place = _approved(profile, date(2026, 11, 2))
    agent = factories.user(roles=("agent",))
    doc = enforcement.issue_document(
        profile,
        kind=EnforcementKind.PRELIMINARY,
        agent=agent,
        addressee=enforcement.Addressee(name=place.legal_name, cnpj=place.cnpj),
        fact="Alojamento sem limpeza.",
        place=place.address_line,
        occurred_at=datetime(2026, 11, 30, 10, 0, tzinfo=UTC),
        legal_provision="GRU 10 IV c",
        agent_title="Agente sanitário",
        required_action="Limpar os alojamentos.",
        comply_term="d10",
    )
    db.session.commit()
    auth.login(agent)
    html = client.get(f"/ccz/estabelecimentos/{place.id}").get_data(as_text=True)
    assert doc.number in html and "Notificações e autos" in html
