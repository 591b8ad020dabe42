"""Drafts of forms kept on the server, with the files they hold ("draft uploads").

A long or stepped form saves what was typed (:func:`save_values`) and holds each upload as soon as
it arrives (:func:`hold`): the file is validated and stored at once (private to its owner), shown
back to the person with its name and, for an image, a thumbnail (:func:`held`), and can be removed
(:func:`remove`). A refusal of the form, a step back or a closed tab loses nothing. When the form is
finally accepted the domain takes each file over (:func:`take_over`, which gives the stored file
its final purpose) and drops the draft (:func:`discard`), in the same transaction as the record it
creates, so a refusal at that moment rolls back to the draft as it was.

Any form can use it: pick a ``kind`` (the form's name) and, where one person may have several
drafts of the same form, a ``key``. Drafts are the person's own unsent work, not a record of the
CCZ: saving one is not audited (the request made from it is).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Literal, Protocol

from sqlalchemy import select

from portal.extensions import db
from portal.models import DraftFile, FormDraft, StoredFile, User
from portal.services.uploads import UploadError, store_document, store_image

DRAFT_PURPOSE = "draft"  # a held file's purpose until a form takes it over
Value = str | list[str]


class IncomingFile(Protocol):
    """What a form hands over: the stream and the name the person's device gave it."""

    stream: IO[bytes]
    filename: str | None


@dataclass(frozen=True)
class HeldFile:
    """A file the draft holds, as the page shows it."""

    id: int
    slot: str
    name: str
    is_image: bool
    stored: StoredFile


def find(owner: User, kind: str, key: str = "") -> FormDraft | None:
    return db.session.scalar(
        select(FormDraft).where(
            FormDraft.owner_id == owner.id, FormDraft.kind == kind, FormDraft.key == key
        )
    )


def open_draft(owner: User, kind: str, key: str = "") -> FormDraft:
    """The person's draft of this form, created empty the first time."""
    draft = find(owner, kind, key)
    if draft is None:
        draft = FormDraft(owner_id=owner.id, kind=kind, key=key, data={})
        db.session.add(draft)
        db.session.flush()
    return draft


def save_values(
    draft: FormDraft,
    values: Mapping[str, Value],
    *,
    owned: Iterable[str] = (),
    step: str | None = None,
) -> None:
    """Keep ``values`` in the draft. ``owned`` are the prefixes of the names this post speaks for:
    their old values are dropped first, so an unticked box or an emptied field stays so."""
    prefixes = tuple(owned)
    data = {
        k: v for k, v in (draft.data or {}).items() if not (prefixes and k.startswith(prefixes))
    }
    data.update(values)
    draft.data = data  # a new dict: the JSON column sees the change
    if step is not None:
        draft.step = step
    db.session.flush()


def hold(
    draft: FormDraft,
    slot: str,
    files: Sequence[IncomingFile],
    *,
    accept: Literal["document", "image"] = "document",
    replace: bool = True,
) -> list[str]:
    """Validate and store each file under ``slot``; the messages of the files refused (the others
    are kept). ``replace``: the slot holds one file, a new one takes the place of the old."""
    problems: list[str] = []
    for incoming in files:
        try:
            if accept == "image":
                stored = store_image(
                    incoming.stream,
                    purpose=DRAFT_PURPOSE,
                    owner_id=draft.owner_id,
                    public=False,
                    filename=incoming.filename,
                )
            else:
                stored = store_document(
                    incoming.stream,
                    purpose=DRAFT_PURPOSE,
                    owner_id=draft.owner_id,
                    filename=incoming.filename,
                )
        except UploadError as err:
            problems.append(f"{incoming.filename or ''}: {err.message}".lstrip(": "))
            continue
        if replace:
            for old in [f for f in draft.files if f.slot == slot]:
                draft.files.remove(old)
        draft.files.append(DraftFile(slot=slot, stored_file_id=stored.id, stored_file=stored))
    db.session.flush()
    return problems


def held(draft: FormDraft | None) -> dict[str, list[HeldFile]]:
    """The files the draft holds, by slot, in the order they came."""
    out: dict[str, list[HeldFile]] = {}
    for f in draft.files if draft is not None else []:
        stored = f.stored_file
        out.setdefault(f.slot, []).append(
            HeldFile(
                id=f.id,
                slot=f.slot,
                name=stored.original_name or stored.token[:8],
                is_image="thumbnail" in (stored.variants or {}),
                stored=stored,
            )
        )
    return out


def remove(draft: FormDraft, file_id: int) -> bool:
    """Drop one held file; False when the draft holds no such file."""
    for f in draft.files:
        if f.id == file_id:
            draft.files.remove(f)
            db.session.flush()
            return True
    return False


def take_over(file: HeldFile, purpose: str) -> StoredFile:
    """The stored file, now the form's own (its final ``purpose``)."""
    file.stored.purpose = purpose
    return file.stored


def discard(draft: FormDraft) -> None:
    """Drop the draft and its held files' links (files taken over stay with their new owner)."""
    db.session.delete(draft)
    db.session.flush()


def export_drafts(owner: User) -> list[dict[str, object]]:
    """LGPD access right: the person's unsent drafts, what they typed and the files they hold."""
    found = db.session.scalars(
        select(FormDraft).where(FormDraft.owner_id == owner.id).order_by(FormDraft.id)
    )
    return [
        {
            "formulario": draft.kind,
            "chave": draft.key,
            "etapa": draft.step,
            "valores": dict(draft.data or {}),
            "arquivos": [
                {"campo": f.slot, "nome": f.name} for files in held(draft).values() for f in files
            ],
            "criado_em": draft.created_at,
            "atualizado_em": draft.updated_at,
        }
        for draft in found
    ]
