"""Issue 25: a refused defence or appeal keeps the documents already sent (held in the person's
draft of the petition), shown as "Arquivo já enviado"; the next post files them without a new
upload. (Enforcement fixtures come from test_enforcement.)"""

from __future__ import annotations

import io
from typing import Any

from sqlalchemy import select

from portal.extensions import db
from portal.models import DraftFile, FormDraft, StoredFile
from tests.integration.enforcement import test_enforcement


def _first(statement: Any) -> Any:
    """The first row (typed loosely: the test reads its attributes)."""
    return db.session.scalar(statement)


def _get(model: Any, ident: int) -> Any:
    return db.session.get(model, ident)


profile, people = test_enforcement.profile, test_enforcement.people  # its fixtures

PDF = b"%PDF-1.4 prova"


def test_refused_petition_keeps_the_attachments_and_files_them_later(
    client, auth, profile, people
) -> None:
    agent, _boss, _director, citizen = people
    doc, _day = test_enforcement._served(profile, agent, citizen)
    db.session.commit()
    auth.login(citizen)
    url = f"/minhas-notificacoes/{doc.id}/peticao"
    first = client.post(
        url,
        data={"text": "", "attachments": (io.BytesIO(PDF), "prova.pdf")},
        content_type="multipart/form-data",
    )
    page = first.get_data(as_text=True)
    assert first.status_code == 200 and "Escreva as suas razões." in page
    assert "Arquivo já enviado:" in page and "prova.pdf" in page
    held = _first(select(DraftFile))
    assert held is not None and held.slot == "attachments"

    second = client.post(
        url, data={"text": "Não houve infração"}, content_type="multipart/form-data"
    )
    assert second.status_code == 302
    db.session.refresh(doc)
    petition = doc.petitions[0]
    assert petition.attachment_ids == [held.stored_file_id]
    stored = _get(StoredFile, held.stored_file_id)
    assert stored.purpose == "enforcement_petition" and stored.owner_id == citizen.id
    assert _first(select(FormDraft)) is None
