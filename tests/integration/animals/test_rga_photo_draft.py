"""Issue 25: the RGA wizard's photo is held in the person's form draft: private until the animal is
registered, shown back as "Arquivo já enviado", kept when the review sends the person back to fix
a field, used by the next "Confirmar" without a new upload, replaced and deleted when another is
sent, and thrown away (with its file) by "Recomeçar"."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from portal.extensions import db
from portal.models import Animal, DraftFile, FormDraft, StoredFile
from tests import factories
from tests.integration.animals.conftest import png_bytes


def _first(statement: Any) -> Any:
    """The first row (typed loosely: the test reads its attributes)."""
    return db.session.scalar(statement)


def _get(model: Any, ident: int) -> Any:
    return db.session.get(model, ident)


def _photo_post(client, name: str = "bolinha.png"):  # type: ignore[no-untyped-def]
    return client.post(
        "/animais/cadastrar/foto",
        data={"photo": (png_bytes(), name)},
        content_type="multipart/form-data",
    )


def test_photo_is_kept_when_the_review_sends_back_and_used_without_a_new_upload(
    client, auth, walk_wizard, animal_form
) -> None:
    auth.login()
    walk_wizard(animal=animal_form(microchip="985112000000777"), confirm=False)
    assert _photo_post(client).status_code == 302
    held = _first(select(DraftFile).where(DraftFile.slot == "photo"))
    assert held is not None and held.stored_file.public is False  # not public before the RGA
    page = client.get("/animais/cadastrar/foto").get_data(as_text=True)
    assert "Arquivo já enviado:" in page and "bolinha.png" in page
    # meanwhile, the microchip is registered for another animal: the review refuses it
    _register_other(factories.user())
    back = client.post("/animais/cadastrar/revisao")
    assert back.status_code == 302 and back.headers["Location"].endswith("/animais/cadastrar")
    step = client.get("/animais/cadastrar").get_data(as_text=True)
    assert "microchip já está registrado" in step and 'value="Bolinha"' in step
    assert "bolinha.png" in client.get("/animais/cadastrar/foto").get_data(as_text=True)
    client.post("/animais/cadastrar", data=animal_form(microchip=""))
    done = client.post("/animais/cadastrar/revisao")
    assert done.status_code == 302
    animal = db.session.scalars(select(Animal).where(Animal.name == "Bolinha")).one()
    assert animal.photo_id == held.stored_file_id
    stored = _get(StoredFile, held.stored_file_id)
    assert stored.public is True and stored.purpose == "animal_photo"
    assert _first(select(FormDraft)) is None


def test_a_new_photo_replaces_the_held_one_and_restart_deletes_it(
    client, auth, walk_wizard
) -> None:
    auth.login()
    walk_wizard(confirm=False)
    _photo_post(client, "primeira.png")
    first = _first(select(DraftFile).where(DraftFile.slot == "photo")).stored_file_id
    _photo_post(client, "segunda.png")
    db.session.expire_all()
    assert _get(StoredFile, first) is None
    second = _first(select(DraftFile).where(DraftFile.slot == "photo")).stored_file_id
    client.post("/animais/cadastrar/recomecar", data={"confirmar": "1"})
    db.session.expire_all()
    assert _get(StoredFile, second) is None
    assert _first(select(FormDraft)) is None


def _register_other(owner) -> None:  # type: ignore[no-untyped-def]
    factories.animal(owner, microchip="985112000000777")
    db.session.commit()
