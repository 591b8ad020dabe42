"""Issue 25: form drafts and the files they hold belong to one person (or one anonymous session):
another citizen cannot open, remove or attach them by id; replaced files are deleted; drafts
nobody came back to are purged (``flask purge-drafts``) with their files."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

from sqlalchemy import select

from portal.extensions import db
from portal.models import ApplicantDocument, DraftFile, FormDraft, StoredFile
from portal.models.base import utcnow
from portal.services import drafts
from portal.services.uploads import file_path
from tests.factories import switch_user


def _first(statement: Any) -> Any:
    """The first row (typed loosely: the test reads its attributes)."""
    return db.session.scalar(statement)


def _get(model: Any, ident: int) -> Any:
    return db.session.get(model, ident)


PDF = b"%PDF-1.4 comprovante"


def _hold_adoption_document(client, name: str):  # type: ignore[no-untyped-def]
    return client.post(
        "/adocao/meus-documentos",
        data={"kind": "proof_of_address", "file": (io.BytesIO(PDF), name)},
        content_type="multipart/form-data",
    )


def test_another_citizen_cannot_read_remove_or_attach_a_held_file(client, auth) -> None:
    auth.login()
    _hold_adoption_document(client, "luz-da-ana.pdf")
    held = _first(select(DraftFile))
    token, held_id = held.stored_file.token, held.id
    opened = client.get(f"/arquivos/{token}/original")
    assert opened.status_code == 200  # its owner opens it
    opened.close()

    intruder = switch_user(auth)
    assert client.get(f"/arquivos/{token}/original").status_code == 404
    page = client.get("/adocao/meus-documentos").get_data(as_text=True)
    assert "luz-da-ana.pdf" not in page
    recent = (utcnow().date() - timedelta(days=3)).isoformat()
    answer = client.post(
        "/adocao/meus-documentos",
        data={"kind": "proof_of_address", "issued_on": recent, "_remover_arquivo": str(held_id)},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 200 and "Escolha o arquivo." in answer.get_data(as_text=True)
    assert _get(DraftFile, held_id) is not None  # not removed
    mine = select(ApplicantDocument).where(ApplicantDocument.person_id == intruder.id)
    assert _first(mine) is None  # nor attached to the intruder's document
    assert drafts.find(intruder, "adoption_document") is None


def test_purge_deletes_stale_drafts_and_their_files(app, client, auth) -> None:
    owner = auth.login()
    _hold_adoption_document(client, "velho.pdf")
    draft = _first(select(FormDraft))
    stored = draft.files[0].stored_file
    stored_id, path = stored.id, file_path(stored, "original")
    anonymous = drafts.open_draft(drafts.Holder(session_key="x" * 20), "report")
    fresh_enough = drafts.open_draft(owner, "exemption_request", "1")
    now = utcnow()
    draft.updated_at = now - timedelta(days=drafts.RETENTION_DAYS + 1)
    anonymous.updated_at = now - timedelta(days=drafts.ANONYMOUS_RETENTION_DAYS + 1)
    fresh_enough.updated_at = now - timedelta(days=drafts.ANONYMOUS_RETENTION_DAYS + 1)
    db.session.commit()
    result = app.test_cli_runner().invoke(args=["purge-drafts"])
    assert result.exit_code == 0 and "Rascunhos excluídos: 2." in result.output
    db.session.expire_all()
    left = db.session.scalars(select(FormDraft)).all()
    assert [d.kind for d in left] == ["exemption_request"]  # a person's draft waits 30 days
    assert _get(StoredFile, stored_id) is None
    assert path is not None and not path.exists()
