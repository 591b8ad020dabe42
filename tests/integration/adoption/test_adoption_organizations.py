"""NGO registration and approval, the NGO API-client hook, bars by CPF, demo data and LGPD."""

from __future__ import annotations

import json

from sqlalchemy import func, select

from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption.demo import DEMO_CNPJ
from portal.extensions import db
from portal.models import (
    ApiClient,
    AuditEvent,
    Listing,
    Organization,
    OutboxMessage,
    PersonBar,
    User,
)
from tests import factories
from tests.factories import eligible_person, make_cnpj, make_listing, ngo_user

ORG_FORM = {
    "legal_name": "Associação Bicho Feliz",
    "trade_name": "Bicho Feliz",
    "responsible_name": "Carla Souza",
    "email": "contato@bichofeliz.org",
    "phone": "11 3333-4444",
    "cep": "07010-000",
    "street": "Rua A",
    "number": "10",
    "district": "Centro",
    "city": "Guarulhos",
    "state": "SP",
}


def test_citizen_asks_to_register_an_ngo_with_a_valid_cnpj(client, auth, app) -> None:
    user = auth.login()
    response = client.post("/adocao/ong/cadastro", data={**ORG_FORM, "cnpj": "11.222.333/0001-00"})
    assert response.status_code == 200
    assert "CNPJ inválido" in response.get_data(as_text=True)
    assert 'value="Associação Bicho Feliz"' in response.get_data(as_text=True)
    cnpj = make_cnpj()
    response = client.post("/adocao/ong/cadastro", data={**ORG_FORM, "cnpj": cnpj})
    assert response.status_code == 302
    org = db.session.scalars(select(Organization)).one()
    assert org.status == "pending" and org.cnpj == cnpj and org.members[0].user_id == user.id
    assert not db.session.get(User, user.id).has_role("ngo")
    response = client.post("/adocao/ong/cadastro", data={**ORG_FORM, "cnpj": cnpj})
    assert "Já existe uma entidade cadastrada com este CNPJ" in response.get_data(as_text=True)
    assert "aguardando análise do CCZ" in response.get_data(as_text=True)


def test_staff_approve_an_ngo_and_its_members_get_the_ngo_role(client, auth, app) -> None:
    requester = factories.user()
    _r, org = ngo_user()
    org.status = "pending"
    org.members[0].user = requester
    db.session.commit()
    auth.login(roles=("coordinator",))
    html = client.get("/adocao/gestao/ongs").get_data(as_text=True)
    assert org.legal_name in html and "Aprovar" in html
    response = client.post(f"/adocao/gestao/ongs/{org.id}/aprovar")
    assert response.status_code == 302
    db.session.expire_all()
    assert db.session.get(Organization, org.id).status == "approved"
    assert db.session.get(User, requester.id).has_role("ngo")
    assert (
        db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == requester.email))
        .all()[-1]
        .subject
        == "ONG aprovada no portal do CCZ"
    )


def test_staff_refuse_an_ngo_with_a_reason(client, auth, app) -> None:
    _user, org = ngo_user()
    org.status = "pending"
    org.requested_by_id = org.members[0].user_id
    db.session.commit()
    auth.login(roles=("agent",))
    client.post(f"/adocao/gestao/ongs/{org.id}/recusar", data={"reason": ""})
    db.session.expire_all()
    assert db.session.get(Organization, org.id).status == "pending"
    client.post(f"/adocao/gestao/ongs/{org.id}/recusar", data={"reason": "CNPJ inativo."})
    db.session.expire_all()
    assert db.session.get(Organization, org.id).status == "refused"


def test_ngo_pages_are_staff_only(client, auth, app) -> None:
    auth.login(roles=("citizen", "ngo"))
    assert client.get("/adocao/gestao/ongs").status_code == 403
    assert client.get("/adocao/gestao/impedimentos").status_code == 403


def test_ngo_member_without_approval_is_told_so(client, auth, app) -> None:
    auth.login(roles=("citizen", "ngo"))
    html = client.get("/adocao/gestao").get_data(as_text=True)
    assert "ainda não está ligada a uma ONG aprovada" in html
    assert client.get("/adocao/gestao/novo").status_code == 302


def test_create_api_client_for_an_ngo_creates_an_approved_organisation(app) -> None:
    result = app.test_cli_runner().invoke(
        args=["create-api-client", "--kind", "ngo", "--name", "ONG Nova Esperança"]
    )
    assert result.exit_code == 0, result.output
    token = result.output.strip().splitlines()[-1]
    assert token.startswith("ccz_")
    org = db.session.scalars(select(Organization)).one()
    assert org.legal_name == "ONG Nova Esperança" and org.status == "approved"
    assert org.api_client.kind == "ngo"


def test_create_api_client_links_an_existing_ngo_by_name(app, client) -> None:
    _user, org = ngo_user("ONG Já Cadastrada")
    db.session.commit()
    result = app.test_cli_runner().invoke(
        args=["create-api-client", "--kind", "ngo", "--name", "ong já cadastrada"]
    )
    assert result.exit_code == 0, result.output
    token = result.output.strip().splitlines()[-1]
    db.session.expire_all()
    assert db.session.scalar(select(func.count(Organization.id))) == 1
    assert db.session.get(Organization, org.id).api_client_id == db.session.scalar(
        select(ApiClient.id)
    )
    response = client.post(
        "/api/v1/listings",
        headers={"Authorization": f"Bearer {token}"},
        json={
            "name": "Rex",
            "species": "dog",
            "sex": "male",
            "size": "large",
            "age_months": 30,
            "color": "Preto",
            "district": "Centro",
        },
    )
    assert response.status_code == 201
    assert db.session.get(Listing, response.get_json()["id"]).organization_id == org.id


def test_bars_are_recorded_and_looked_up_by_cpf_in_post_bodies_only(client, auth, app) -> None:
    staff = auth.login(roles=("agent",))
    listing = make_listing(None, name="Rex")
    db.session.commit()
    cpf = factories.make_cpf(9090)
    response = client.post(
        "/adocao/gestao/impedimentos",
        data={
            "novo-cpf": cpf,
            "novo-kind": "caused_definitive_apprehension",
            "novo-reason": "Processo.",
        },
    )
    assert response.status_code == 400
    assert "GRU 88 §4" in response.get_data(as_text=True)
    response = client.post(
        "/adocao/gestao/impedimentos",
        data={
            "novo-cpf": cpf,
            "novo-kind": "caused_definitive_apprehension",
            "novo-listing_id": str(listing.id),
            "novo-reason": "Processo 12/2026.",
            "novo-person_name": "Fulano",
        },
    )
    assert response.status_code == 302 and cpf not in response.headers["Location"]
    bar = db.session.scalars(select(PersonBar)).one()
    assert bar.cpf == cpf and bar.listing_id == listing.id and bar.recorded_by_id == staff.id
    html = client.post("/adocao/gestao/impedimentos", data={"busca-cpf": cpf}).get_data(
        as_text=True
    )
    assert "Processo 12/2026." in html and f"***.{cpf[3:6]}.{cpf[6:9]}-**" in html
    assert (
        db.session.scalar(
            select(func.count(AuditEvent.id)).where(
                AuditEvent.action.in_(["adoption.bar_recorded", "adoption.bars_viewed"])
            )
        )
        == 2
    )
    client.post(f"/adocao/gestao/impedimentos/{bar.id}/cancelar", data={"reason": "Engano."})
    db.session.expire_all()
    assert db.session.get(PersonBar, bar.id).revoked_at is not None


def test_bad_cpf_is_explained_next_to_the_field(client, auth, app) -> None:
    auth.login(roles=("agent",))
    html = client.post(
        "/adocao/gestao/impedimentos",
        data={
            "novo-cpf": "123.456.789-00",
            "novo-kind": "commitment_never_keep",
            "novo-reason": "Termo.",
        },
    ).get_data(as_text=True)
    assert "CPF inválido" in html
    html = client.post("/adocao/gestao/impedimentos", data={"busca-cpf": "123"}).get_data(
        as_text=True
    )
    assert "CPF inválido" in html


def test_demo_seeder_is_idempotent(app) -> None:
    runner = app.test_cli_runner()
    assert runner.invoke(args=["seed-demo"]).exit_code == 0
    org = db.session.scalars(select(Organization).where(Organization.cnpj == DEMO_CNPJ)).one()
    member = org.members[0].user
    assert member.email == "ong@demo.ccz" and member.has_role("ngo") and org.is_approved
    listings = db.session.scalars(select(Listing)).all()
    ngo_listings = [item for item in listings if item.organization_id == org.id]
    ccz_listings = [item for item in listings if item.organization_id is None]
    assert len(ngo_listings) >= 3 and len(ccz_listings) >= 2
    assert all(item.state == "published" and item.photos for item in listings)
    result = runner.invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    assert db.session.scalar(select(func.count(Listing.id))) == len(listings)
    assert db.session.scalar(select(func.count(Organization.id))) == 1


def test_lgpd_download_includes_applications_and_documents(client, auth, app) -> None:
    reviewer, org = ngo_user()
    listing = make_listing(org, name="Luna")
    person = eligible_person()
    apps.submit_application(
        app.extensions["portal_profile"],
        person,
        listing,
        apps.Answers(home_type="house", other_animals="none", caretaker="Eu", holidays="Avó"),
        True,
        __import__("datetime").date.today(),
    )
    db.session.commit()
    auth.login(person)
    data = json.loads(client.get("/minha-conta/meus-dados.json").get_data(as_text=True))
    section = data["adocao"]
    assert section["pedidos"][0]["animal"] == "Luna"
    assert section["pedidos"][0]["termo"]["versao"] == "2026.1"
    assert {d["tipo"] for d in section["documentos"]} == {
        "identity",
        "proof_of_address",
        "proof_of_income",
    }


def test_staff_link_another_account_to_an_ngo(client, auth, app) -> None:
    result = app.test_cli_runner().invoke(
        args=["create-api-client", "--kind", "ngo", "--name", "ONG Só API"]
    )
    assert result.exit_code == 0
    volunteer = factories.user()
    org = db.session.scalars(select(Organization)).one()
    db.session.commit()
    auth.login(roles=("coordinator",))
    response = client.post(
        f"/adocao/gestao/ongs/{org.id}/membros", data={"email": "ninguem@example.com"}
    )
    assert response.status_code == 302
    assert db.session.get(Organization, org.id).members == []
    client.post(f"/adocao/gestao/ongs/{org.id}/membros", data={"email": volunteer.email})
    db.session.expire_all()
    assert [m.user_id for m in db.session.get(Organization, org.id).members] == [volunteer.id]
    assert db.session.get(User, volunteer.id).has_role("ngo")


def test_gru_88_par4_bar_can_name_the_animal_by_its_rga(client, auth, app) -> None:
    from datetime import date, timedelta

    from portal.models import Animal
    from portal.models.base import utcnow

    owner = factories.user()
    animal = Animal(
        rga="C-2026-000042-3",
        species="dog",
        name="Rex",
        sex="male",
        birth_date=date.today() - timedelta(days=700),
        size="large",
        registered_on=date.today(),
        owner=owner,
        residence_key="x",
        activated_at=utcnow(),
    )
    db.session.add(animal)
    db.session.commit()
    auth.login(roles=("agent",))
    cpf = factories.make_cpf(5151)
    response = client.post(
        "/adocao/gestao/impedimentos",
        data={
            "novo-cpf": cpf,
            "novo-kind": "caused_definitive_apprehension",
            "novo-rga": "C-2026-000042-9",
            "novo-reason": "Auto 7/2026.",
        },
    )
    assert response.status_code == 400
    assert "RGA" in response.get_data(as_text=True)
    from portal.blueprints.animals.rga import format_rga

    number = format_rga("dog", 2026, 42)
    animal.rga = number
    db.session.commit()
    response = client.post(
        "/adocao/gestao/impedimentos",
        data={
            "novo-cpf": cpf,
            "novo-kind": "caused_definitive_apprehension",
            "novo-rga": number,
            "novo-reason": "Auto 7/2026.",
        },
    )
    assert response.status_code == 302
    assert db.session.scalars(select(PersonBar)).one().animal_id == animal.id
