"""Issue 25: the licence forms with files keep them across a refused post (held in the person's
draft, shown as "Arquivo já enviado" with a box to remove each) and the next post uses them without
a new upload: the citizen's answer to the CCZ's question and the agent's inspection."""

from __future__ import annotations

import io

from sqlalchemy import select

from portal.blueprints.licences import services
from portal.extensions import db
from portal.models import DraftFile, FormDraft, LicenceStatus
from portal.services.clock import local_today
from tests import factories
from tests.integration.licences.test_licence_decision_edges import _agent, _asked

PDF = b"%PDF-1.4\n% canil\n"


def test_a_refused_answer_keeps_its_document_and_the_next_post_uses_it(gru, client, auth) -> None:
    owner, licence = _asked(gru, pets=6)
    services.ask_info(licence, _agent(), "Envie a foto do canil.")
    db.session.commit()
    auth.login(owner)
    url = f"/licencas/minhas/{licence.id}/resposta"
    first = client.post(
        url,
        data={"answer": "", "files": [(io.BytesIO(PDF), "canil.pdf")]},
        content_type="multipart/form-data",
    )
    page = first.get_data(as_text=True)
    assert first.status_code == 400 and "Arquivo já enviado:" in page and "canil.pdf" in page
    held = db.session.scalar(select(DraftFile))
    assert held is not None and f'value="{held.id}"' in page
    again = client.get(f"/licencas/minhas/{licence.id}").get_data(as_text=True)
    assert "canil.pdf" in again  # still there on the next visit
    second = client.post(url, data={"answer": "Segue a foto do canil."})
    assert second.status_code == 302
    db.session.refresh(licence)
    assert licence.status == LicenceStatus.REQUESTED
    assert [f.stored_file_id for f in licence.files if f.kind == "answer"] == [held.stored_file_id]
    assert db.session.scalar(select(FormDraft)) is None


def test_a_refused_inspection_keeps_its_photo_and_typed_findings(gru, client, auth) -> None:
    _owner, licence = _asked(gru, pets=6)
    agent = _agent()
    db.session.commit()
    auth.login(agent)
    url = f"/ccz/licencas/{licence.id}/vistoria"
    first = client.post(
        url,
        data={
            "inspected_on": "",
            "findings": "Quintal amplo e limpo.",
            "photos": [(factories.png_bytes(), "quintal.png")],
        },
        content_type="multipart/form-data",
    )
    page = first.get_data(as_text=True)
    assert first.status_code == 400 and "Quintal amplo e limpo." in page  # typed text kept
    assert "Arquivo já enviado:" in page and "quintal.png" in page
    held = db.session.scalar(select(DraftFile))
    assert held is not None and f'value="{held.id}"' in page
    second = client.post(
        url,
        data={
            "inspected_on": local_today().isoformat(),
            "findings": "Quintal amplo e limpo.",
        },
    )
    assert second.status_code == 302
    db.session.refresh(licence)
    shots = [f.stored_file_id for f in licence.files if f.kind == "inspection"]
    assert shots == [held.stored_file_id]
    assert db.session.scalar(select(FormDraft)) is None
