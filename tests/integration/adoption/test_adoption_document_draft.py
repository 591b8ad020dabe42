"""Issue 25: a refused adoption document keeps the file already sent (held in a draft), shown as
"Arquivo já enviado" with a box to remove it; the next post needs no new upload."""

from __future__ import annotations

import io
import re
from datetime import date, timedelta
from typing import Any

from sqlalchemy import select

from portal.extensions import db
from portal.models import ApplicantDocument, DraftFile, FormDraft
from tests import factories


def _first(statement: Any) -> Any:
    """The first row (typed loosely: the test reads its attributes)."""
    return db.session.scalar(statement)


def _get(model: Any, ident: int) -> Any:
    return db.session.get(model, ident)


PDF = b"%PDF-1.4 comprovante"


def test_refused_document_keeps_the_file_and_the_second_post_needs_no_upload(client, auth) -> None:
    person = factories.user()
    db.session.commit()
    auth.login(person)
    first = client.post(
        "/adocao/meus-documentos",
        data={"kind": "proof_of_address", "file": (io.BytesIO(PDF), "luz.pdf")},
        content_type="multipart/form-data",
    )
    page = first.get_data(as_text=True)
    assert first.status_code == 200 and "Informe a data de emissão" in page
    assert "Arquivo já enviado:" in page and "luz.pdf" in page
    assert re.search(
        r'<option selected value="proof_of_address"|value="proof_of_address" selected', page
    )
    held = _first(select(DraftFile))
    assert held is not None and held.stored_file.purpose == "draft"

    recent = (date.today() - timedelta(days=5)).isoformat()
    second = client.post(
        "/adocao/meus-documentos",
        data={"kind": "proof_of_address", "issued_on": recent},
        content_type="multipart/form-data",
    )
    assert second.status_code == 302
    doc = db.session.scalars(select(ApplicantDocument)).one()
    assert doc.stored_file_id == held.stored_file_id
    assert doc.stored_file.purpose != "draft"
    assert doc.stored_file.owner_id == person.id and not doc.stored_file.public
    assert _first(select(FormDraft)) is None


def test_a_new_file_replaces_the_kept_one_and_deletes_it(client, auth, app) -> None:
    from portal.models import StoredFile
    from portal.services.uploads import file_path

    person = factories.user()
    db.session.commit()
    auth.login(person)
    client.post(
        "/adocao/meus-documentos",
        data={"kind": "proof_of_address", "file": (io.BytesIO(PDF), "velha.pdf")},
        content_type="multipart/form-data",
    )
    old = _first(select(DraftFile)).stored_file
    old_id, old_path = old.id, file_path(old, "original")
    assert old_path is not None and old_path.exists()
    page = client.post(
        "/adocao/meus-documentos",
        data={"kind": "proof_of_address", "file": (io.BytesIO(PDF), "nova.pdf")},
        content_type="multipart/form-data",
    ).get_data(as_text=True)
    assert "nova.pdf" in page and "velha.pdf" not in page
    db.session.expire_all()
    assert _get(StoredFile, old_id) is None
    assert not old_path.exists()  # the replaced file is gone from the disk too
