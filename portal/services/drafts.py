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

A draft belongs to one signed-in person or, for a form open to anonymous people, to one browser
session (:class:`Holder`); nothing here looks a draft or a held file up by id alone. A held file
that is replaced or removed, or left in a discarded draft, is deleted (its row now, its files on
disk once the transaction commits). Drafts nobody touched for :data:`RETENTION_DAYS` (anonymous
ones: :data:`ANONYMOUS_RETENTION_DAYS`) are purged by ``flask purge-drafts`` (daily,
docs/DEPLOY.md), with their held files.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import IO, Any, Literal, Protocol

import click
from flask.cli import with_appcontext
from sqlalchemy import event, or_, select
from sqlalchemy.orm import Session

from portal.extensions import db
from portal.models import DraftFile, FormDraft, StoredFile, User
from portal.models.base import utcnow
from portal.services.uploads import UploadError, file_path, store_document, store_image

DRAFT_PURPOSE = "draft"  # a held file's purpose until a form takes it over
# How long an untouched draft is kept: a signed-in person may come back to a long form weeks later;
# an anonymous browser's session is gone within a day or two, and its draft with it.
RETENTION_DAYS = 30
ANONYMOUS_RETENTION_DAYS = 2
Value = str | list[str]
_UNLINK = "drafts_unlink"  # session.info: files on disk to delete once the transaction commits


@dataclass(frozen=True)
class Holder:
    """Whose draft: a signed-in person (``user_id``) or an anonymous browser (``session_key``)."""

    user_id: int | None = None
    session_key: str | None = None

    def __post_init__(self) -> None:
        if (self.user_id is None) == (self.session_key is None):
            raise ValueError("a draft belongs to a person or to a session, exactly one")


def _holder(owner: User | Holder) -> Holder:
    return owner if isinstance(owner, Holder) else Holder(user_id=owner.id)


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


def find(owner: User | Holder, kind: str, key: str = "") -> FormDraft | None:
    who = _holder(owner)
    mine = (
        FormDraft.owner_id == who.user_id
        if who.user_id is not None
        else (FormDraft.session_key == who.session_key) & FormDraft.owner_id.is_(None)
    )
    return db.session.scalar(
        select(FormDraft).where(mine, FormDraft.kind == kind, FormDraft.key == key)
    )


def open_draft(owner: User | Holder, kind: str, key: str = "") -> FormDraft:
    """The person's (or the session's) draft of this form, created empty the first time."""
    draft = find(owner, kind, key)
    if draft is None:
        who = _holder(owner)
        draft = FormDraft(
            owner_id=who.user_id, session_key=who.session_key, kind=kind, key=key, data={}
        )
        db.session.add(draft)
        db.session.flush()
    return draft


def _delete_stored(stored: StoredFile) -> None:
    """Delete a held file: its row now, its files on disk after the commit (a rollback keeps
    both)."""
    if stored.purpose != DRAFT_PURPOSE:
        return  # taken over by a record: not the draft's to delete
    paths = [p for v in list(stored.variants or {}) if (p := file_path(stored, v)) is not None]
    db.session.info.setdefault(_UNLINK, []).extend(paths)
    db.session.delete(stored)


@event.listens_for(Session, "after_commit")
def _unlink_committed(session: Session) -> None:
    for path in session.info.pop(_UNLINK, []):
        Path(path).unlink(missing_ok=True)


@event.listens_for(Session, "after_rollback")
def _keep_rolled_back(session: Session) -> None:
    session.info.pop(_UNLINK, None)


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
                _delete_stored(old.stored_file)  # replaced: the old file goes
        draft.files.append(DraftFile(slot=slot, stored_file_id=stored.id, stored_file=stored))
    draft.updated_at = utcnow()  # a new file is activity too: the purge counts from here
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
            _delete_stored(f.stored_file)
            draft.updated_at = utcnow()
            db.session.flush()
            return True
    return False


_KEEP: Any = object()


def take_over(
    file: HeldFile,
    purpose: str,
    *,
    owner_id: int | None = _KEEP,
    public: bool = False,
    keep_name: bool = True,
) -> StoredFile:
    """The stored file, now the form's own (its final ``purpose``; optionally another owner, e.g.
    none for a proof served to staff only, public, or without the name the device gave it)."""
    stored = file.stored
    stored.purpose = purpose
    if owner_id is not _KEEP:
        stored.owner_id = owner_id
    stored.public = public
    if not keep_name:
        stored.original_name = None
    return stored


def discard(draft: FormDraft) -> None:
    """Drop the draft; held files no form took over are deleted (taken over ones stay with their
    new owner)."""
    # The draft's rows go first: a held file deleted while a draft row still names it breaks the
    # foreign key (PostgreSQL checks it at the autoflush the next lazy load triggers).
    held = [f.stored_file for f in list(draft.files)]
    db.session.delete(draft)
    db.session.flush()
    for stored in held:
        _delete_stored(stored)
    db.session.flush()


def purge(now: datetime | None = None) -> int:
    """Delete the drafts untouched for longer than their retention, with the files they hold;
    flush. Returns how many drafts went."""
    now = now or utcnow()
    stale = db.session.scalars(
        select(FormDraft)
        .where(
            or_(
                FormDraft.updated_at < now - timedelta(days=RETENTION_DAYS),
                FormDraft.owner_id.is_(None)
                & (FormDraft.updated_at < now - timedelta(days=ANONYMOUS_RETENTION_DAYS)),
            )
        )
        .order_by(FormDraft.id)
    ).all()
    for draft in stale:
        discard(draft)
    return len(stale)


@click.command("purge-drafts")
@with_appcontext
def purge_drafts_command() -> None:
    """Delete form drafts nobody touched for 30 days (anonymous ones: 2 days) and their files."""
    purged = purge()
    db.session.commit()
    click.echo(f"Rascunhos excluídos: {purged}.")


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
