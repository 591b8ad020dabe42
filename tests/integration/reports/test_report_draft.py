"""Issue 25: a refused maus-tratos report keeps the photos already sent, for anonymous reporters
too: held in a draft keyed to the browser's session (never seen by another session), shown as
"Arquivo já enviado", used by the next post without a new upload; and the reporter's consent to
read a photo's location survives the photo being cleaned on arrival."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from portal.extensions import db
from portal.models import DraftFile, FormDraft, StoredFile
from tests.factories import photo, report_form_data, submit


def _first(statement: Any) -> Any:
    """The first row (typed loosely: the test reads its attributes)."""
    return db.session.scalar(statement)


def _get(model: Any, ident: int) -> Any:
    return db.session.get(model, ident)


def _post(client, **overrides):  # type: ignore[no-untyped-def]
    return client.post(
        "/denuncias/nova",
        data=report_form_data(**overrides),
        content_type="multipart/form-data",
    )


def test_anonymous_refused_report_keeps_its_photo_for_the_next_post(client, app) -> None:
    first = _post(client, description="", photos=[photo(name="quintal.jpg")])
    page = first.get_data(as_text=True)
    assert first.status_code == 400
    assert "Arquivo já enviado:" in page and "quintal.jpg" in page
    assert "Rua das Flores" in page  # typed values kept
    draft = _first(select(FormDraft))
    assert draft.owner_id is None and draft.session_key  # the session's, nobody's account
    held = _first(select(DraftFile))
    assert held.stored_file.owner_id is None and held.stored_file.public is False
    # another browser never sees it, nor can remove it by its id
    other = app.test_client()
    assert "quintal.jpg" not in other.get("/denuncias/nova").get_data(as_text=True)
    _post(other, description="", _remover_arquivo=str(held.id))
    assert _get(DraftFile, held.id) is not None
    assert other.get(f"/arquivos/{held.stored_file.token}/thumbnail").status_code == 404

    response, report, code = submit(client)  # no photo sent this time
    assert response.status_code == 302 and code
    assert [p.file_id for p in report.photos] == [held.stored_file_id]
    stored = _get(StoredFile, held.stored_file_id)
    assert stored.purpose != "draft"
    assert stored.original_name is None and stored.owner_id is None  # nothing to identify them
    assert _first(select(FormDraft)) is None  # the draft went with the report


def test_photo_gps_consent_survives_the_refusal(client) -> None:
    first = _post(
        client,
        description="",
        street="",
        number="",
        cep="",
        district="",
        photos=[photo(gps=True)],
        use_photo_gps="y",
    )
    assert first.status_code == 400
    held = _first(select(DraftFile))
    assert held is not None
    response, report, _code = submit(
        client, street="", number="", cep="", district="", use_photo_gps="y"
    )
    assert response.status_code == 302
    assert report.lat is not None and report.lng is not None  # placed from the first photo


def test_removing_a_kept_photo(client) -> None:
    _post(client, description="", photos=[photo(name="a.jpg"), photo(name="b.jpg")])
    first, second = db.session.scalars(select(DraftFile).order_by(DraftFile.id)).all()
    page = _post(client, description="", _remover_arquivo=str(first.id)).get_data(as_text=True)
    assert "a.jpg" not in page and "b.jpg" in page
    assert _get(StoredFile, first.stored_file_id) is None
