"""One-page forms that keep their uploads when the form is refused (issue 25).

Before, a refusal of any field (a missing date, an unticked declaration) answered the page again
with the typed values but without the files: the browser cannot put a file back in an input, so
the person had to find and send it again, and nothing said so. Now every file a post brings is
validated and held at once in the person's draft of that form (``portal.services.drafts``), the
page shows it back as "Arquivo já enviado: nome" with a box to remove it (choosing another file
replaces it), and the next post that is accepted uses it without a new upload.

Whose draft: the signed-in person's; for an anonymous person (a maus-tratos report), the browser
session's, through a random token kept in the signed session cookie: another session never finds
it, and a held file of an anonymous draft has no owner, so it is served to nobody but staff.

The view calls :func:`keep` before validating (on a POST it holds the files and commits, so a
refusal further down loses nothing), then :meth:`Kept.take` and :meth:`Kept.discard` in the same
transaction as the record the form creates.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from flask import request, session
from flask_login import current_user
from wtforms.validators import DataRequired, InputRequired

from portal.extensions import db
from portal.models import FormDraft, StoredFile
from portal.services import drafts

SESSION_TOKEN = "draft_session"  # the anonymous browser's key to its drafts
REMOVE_FIELD = "_remover_arquivo"  # a ticked box per held file: remove it


@dataclass(frozen=True)
class Slot:
    """One file input of the form: its ``name``, what it accepts, one file or several."""

    name: str
    accept: Literal["document", "image"] = "document"
    many: bool = False


def holder(*, create: bool = True) -> drafts.Holder | None:
    """The signed-in person, or this browser's session (its token made the first time a file is
    held: a visit alone sets no cookie); None for a browser without one when ``create`` is off."""
    if current_user.is_authenticated:
        return drafts.Holder(user_id=current_user.id)
    token = session.get(SESSION_TOKEN)
    if not isinstance(token, str) or not token:
        if not create:
            return None
        token = secrets.token_urlsafe(32)
        session[SESSION_TOKEN] = token
    return drafts.Holder(session_key=token)


@dataclass
class Kept:
    """The form's draft (None until a file was held) and the files refused in this post."""

    draft: FormDraft | None
    refused: dict[str, list[str]] = field(default_factory=dict)

    def files(self, slot: str) -> list[drafts.HeldFile]:
        return drafts.held(self.draft).get(slot, [])

    def all(self) -> dict[str, list[drafts.HeldFile]]:
        return drafts.held(self.draft)

    def take(self, slot: str, purpose: str, **how: Any) -> list[StoredFile]:
        """The slot's held files, now the record's own (see :func:`drafts.take_over`)."""
        return [drafts.take_over(f, purpose, **how) for f in self.files(slot)]

    def discard(self) -> None:
        """The form was accepted: drop the draft (call after :meth:`take`, before the commit)."""
        if self.draft is not None:
            drafts.discard(self.draft)
            self.draft = None

    def show_refused(self, form: Any) -> bool:
        """Put each refused file's message next to its input; True when there was one."""
        for slot, messages in self.refused.items():
            if slot in form:
                form[slot].errors = [*form[slot].errors, *messages]
        return bool(self.refused)

    def relax(self, form: Any) -> None:
        """A slot that already holds a file needs no new one: its "required" no longer applies."""
        for slot in drafts.held(self.draft):
            if slot in form:
                target = form[slot]
                target.validators = [
                    v
                    for v in target.validators
                    if not isinstance(v, (DataRequired, InputRequired))
                    and type(v).__name__ != "FileRequired"
                ]
                target.flags.required = False


def _new_holder() -> drafts.Holder:
    made = holder()
    assert made is not None  # create=True always gives one
    return made


def keep(
    kind: str, key: str, slots: list[Slot], *, values: Mapping[str, drafts.Value] | None = None
) -> Kept:
    """The person's held files for this form; on a POST, first hold the files it brings and remove
    the ones ticked, and commit (a refusal of the form, later, keeps them). ``values``: what the
    draft must remember about the files (e.g. a point read from a photo before it was cleaned)."""
    known = holder(create=False)
    draft = drafts.find(known, kind, key) if known is not None else None
    if request.method != "POST":
        return Kept(draft)
    refused: dict[str, list[str]] = {}
    removed = {int(v) for v in request.form.getlist(REMOVE_FIELD) if v.isdigit()}
    if draft is not None and removed:
        for file_id in removed:  # only ids of this draft's own files are found
            drafts.remove(draft, file_id)
    for slot in slots:
        sent = [f for f in request.files.getlist(slot.name) if f and f.filename]
        if not sent:
            continue
        draft = draft or drafts.open_draft(known or _new_holder(), kind, key)
        problems = drafts.hold(
            draft,
            slot.name,
            sent if slot.many else sent[:1],
            accept=slot.accept,
            replace=not slot.many,
        )
        if problems:
            refused[slot.name] = problems
    if draft is not None and values:
        drafts.save_values(draft, values)
    db.session.commit()
    return Kept(draft, refused)
