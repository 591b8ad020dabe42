"""Issue 25: the VV 23 II laudo the person sends is held when the post is refused (a note too
long), shown as "Arquivo já enviado" with a box to remove it, and the next post files it without a
new upload."""

from __future__ import annotations

import io
from datetime import UTC, datetime, time

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import duties, services
from portal.blueprints.enforcement.services import Addressee
from portal.extensions import db
from portal.models import DraftFile, FormDraft, RemedyFiling, StoredFile
from portal.services.clock import local_today
from tests import factories
from tests.conftest import AuthActions

PDF = b"%PDF-1.4\n%laudo\n"


@pytest.fixture
def duty(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        agent = factories.user(roles=("agent",))
        who = factories.user(full_name="Rui Autuado")
        doc = services.issue_document(
            profile,
            kind="preliminary",
            agent=agent,
            addressee=Addressee(who.full_name, who.cpf),
            fact="Animal sem abrigo",
            place="Rua A, 10",
            occurred_at=datetime.combine(local_today(), time(9), tzinfo=UTC),
            legal_provision="VV 3 IX d",
            agent_title="Agente sanitário",
            required_action="Corrigir",
            comply_term="d7",
        )
        duties.apply_on_issue(profile, doc, laudo_every_days=5)
        services.record_service(
            profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
        )
        db.session.commit()
        client = app.test_client()
        AuthActions(client).login(who)
        yield client, doc


def test_a_refused_laudo_post_keeps_the_file_and_the_next_post_files_it(duty) -> None:
    client, doc = duty
    url = f"/minhas-notificacoes/{doc.id}/laudo"
    first = client.post(
        url,
        data={"laudo": (io.BytesIO(PDF), "laudo-maio.pdf"), "note": "x" * 1001},
        content_type="multipart/form-data",
    )
    page = first.get_data(as_text=True)
    assert first.status_code == 200
    assert "Arquivo já enviado:" in page and "laudo-maio.pdf" in page
    held = db.session.scalar(select(DraftFile))
    assert held is not None and f'name="_remover_arquivo" value="{held.id}"' in page
    # the duties page, opened again, still shows it
    again = client.get(f"/minhas-notificacoes/{doc.id}/deveres").get_data(as_text=True)
    assert "laudo-maio.pdf" in again
    second = client.post(url, data={"note": "Animal saudável"}, content_type="multipart/form-data")
    assert second.status_code == 302
    filing = db.session.scalar(select(RemedyFiling).where(RemedyFiling.document_id == doc.id))
    assert filing is not None and filing.file_id == held.stored_file_id
    stored = db.session.get(StoredFile, filing.file_id)
    assert stored is not None and stored.purpose == "enforcement_laudo"
    assert db.session.scalar(select(FormDraft)) is None


def test_removing_the_kept_laudo_asks_for_it_again(duty) -> None:
    client, doc = duty
    url = f"/minhas-notificacoes/{doc.id}/laudo"
    client.post(
        url,
        data={"laudo": (io.BytesIO(PDF), "laudo.pdf"), "note": "x" * 1001},
        content_type="multipart/form-data",
    )
    held = db.session.scalar(select(DraftFile))
    assert held is not None
    page = client.post(url, data={"note": "ok", "_remover_arquivo": str(held.id)})
    assert page.status_code == 200 and "Anexe o laudo" in page.get_data(as_text=True)
    assert db.session.scalar(select(RemedyFiling)) is None
