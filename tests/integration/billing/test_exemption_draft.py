"""Issue 25: a refused exemption request keeps the proof already sent (held in a draft), shows it
as "Arquivo já enviado", and the next post succeeds without sending it again."""

from __future__ import annotations

import io
from typing import Any

from sqlalchemy import select

from portal.extensions import db
from portal.models import DraftFile, ExemptionRequest, FormDraft, StoredFile
from tests.factories import make_item


def _first(statement: Any) -> Any:
    """The first row (typed loosely: the test reads its attributes)."""
    return db.session.scalar(statement)


def _get(model: Any, ident: int) -> Any:
    return db.session.get(model, ident)


PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n"


def _post(client, item, **extra):  # type: ignore[no-untyped-def]
    form = {"code": "unemployed_3_months", "statement": "Desempregada desde janeiro.", **extra}
    return client.post(
        f"/pagamentos/{item.id}/isencao", data=form, content_type="multipart/form-data"
    )


def test_refused_exemption_keeps_the_proof_and_the_second_post_needs_no_upload(
    client, auth
) -> None:
    payer = auth.login()
    item = make_item(payer)
    first = _post(client, item, proof=(io.BytesIO(PDF), "carteira.pdf"))  # no declaration
    assert first.status_code == 200
    page = first.get_data(as_text=True)
    assert "Confirme a declaração." in page
    assert "Desempregada desde janeiro." in page  # typed text kept
    assert "Arquivo já enviado:" in page and "carteira.pdf" in page
    assert "Envie o comprovante." not in page
    held = _first(select(DraftFile))
    assert held is not None and held.stored_file.purpose == "draft"
    assert held.stored_file.owner_id == payer.id and held.stored_file.public is False
    # the same page, opened again, still shows it
    assert "carteira.pdf" in client.get(f"/pagamentos/{item.id}/isencao").get_data(as_text=True)

    second = _post(client, item, truthful="y")  # no file this time
    assert second.status_code == 302
    req = _first(select(ExemptionRequest))
    proof = _get(StoredFile, req.proof_file_id)
    assert proof.id == held.stored_file_id and proof.purpose == "exemption_proof"
    assert proof.owner_id is None  # staff only, as before
    assert _first(select(FormDraft)) is None  # the draft is gone


def test_removing_the_kept_proof_asks_for_it_again(client, auth) -> None:
    payer = auth.login()
    item = make_item(payer)
    _post(client, item, proof=(io.BytesIO(PDF), "carteira.pdf"))
    held = _first(select(DraftFile))
    stored_id = held.stored_file_id
    page = _post(client, item, truthful="y", _remover_arquivo=str(held.id))
    assert page.status_code == 200
    assert "Envie o comprovante." in page.get_data(as_text=True)
    assert _get(StoredFile, stored_id) is None  # the removed file is deleted
    assert _first(select(ExemptionRequest)) is None
