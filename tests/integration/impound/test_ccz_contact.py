"""Issue 25: the CCZ's address and hours shown to citizens (reclaim, certidão exam, the "Onde fica
o CCZ" page, e-mails and the to-do list) are the city's confirmed data, from the deployment's CCZ_*
settings or the profile's [ccz] table; without them no page or e-mail shows an invented address."""

from __future__ import annotations

from sqlalchemy import select

from portal.blueprints.impound import services
from portal.extensions import db
from portal.models import OutboxMessage
from portal.services import ccz
from portal.services.clock import local_today
from tests import factories
from tests.integration.impound.test_handover_fixes import GRU, _captured

ADDRESS = "Rua Doutor Exemplo, 100"
HOURS = "Segunda a sexta, das 7h às 17h"


def _paid_mail(owner):
    from portal.blueprints.billing.services import mark_paid_at_counter

    capture = _captured(owner)[2]
    reclaim = services.start_reclaim(
        GRU, capture, claimant=owner, channel="online", started_by=owner, today=local_today()
    )
    staff = factories.user(roles=("agent",))
    assert reclaim.payment_item is not None
    mark_paid_at_counter(
        reclaim.payment_item, receipt_number="R-1", paid_on=local_today(), actor=staff
    )
    db.session.commit()
    return db.session.scalars(
        select(OutboxMessage).where(
            OutboxMessage.to == owner.email, OutboxMessage.subject.startswith("Resgate pago")
        )
    ).one()


def test_without_confirmed_data_nothing_invented_is_shown(client, auth, app) -> None:
    assert ccz.contact() is None
    owner = factories.user(full_name="Olga Dona")
    mail = _paid_mail(owner)
    assert "Confirme com a Prefeitura o endereço e o horário do CCZ" in mail.body
    auth.login(owner)
    home = client.get("/").text
    assert "confirme o endereço e o horário com a Prefeitura" in home
    for url in ("/onde-fica-o-ccz", "/certidoes", "/animais-recolhidos"):
        page = client.get(url).text
        assert "confirme com a Prefeitura antes de ir" in page, url
        assert "Atendimento:" not in page, url


def test_the_deployments_ccz_settings_reach_pages_mail_and_to_do(make_app) -> None:
    app = make_app(CCZ_ADDRESS=ADDRESS, CCZ_HOURS=HOURS, CCZ_PHONE="(11) 2400-0000")
    with app.app_context(), app.test_request_context():
        found = ccz.contact()
        assert found is not None and found.address == ADDRESS and found.hours == HOURS
        assert found.name == "Centro de Controle de Zoonoses de Guarulhos"
        assert found.district == "Guarulhos/SP"
        owner = factories.user(full_name="Olga Dona")
        mail = _paid_mail(owner)
        assert ADDRESS in mail.body and HOURS in mail.body and "(11) 2400-0000" in mail.body
        client = app.test_client()
        from tests.conftest import AuthActions

        AuthActions(client).login(owner)
        assert f"no CCZ ({ADDRESS}; {HOURS})" in client.get("/").text
        for url in ("/onde-fica-o-ccz", "/certidoes", "/animais-recolhidos"):
            page = client.get(url).text
            assert ADDRESS in page and HOURS in page, url
            assert "confirme com a Prefeitura" not in page, url


def test_only_address_without_hours_is_not_enough(make_app) -> None:
    app = make_app(CCZ_ADDRESS=ADDRESS)
    with app.app_context(), app.test_request_context():
        assert ccz.contact() is None  # half an answer would send people at the wrong time
