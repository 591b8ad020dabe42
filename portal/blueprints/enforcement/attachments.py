"""The documents and photos attached to a defence or an appeal: listed on the document's page for
the staff who decide it and for the addressee (issue 25: the photo was stored and never shown).
Access: staff (``files.may_see``) and the filer, plus the addressee through the file rule below."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from portal.blueprints.enforcement.addressees import is_addressee
from portal.extensions import db
from portal.models import EnforcementDocument, Petition, StoredFile

PURPOSE = "enforcement_petition"


def petition_files(doc: EnforcementDocument) -> dict[int, list[StoredFile]]:
    """Each petition's attachments, by petition id, in the order they were sent."""
    wanted = {i for p in doc.petitions for i in (p.attachment_ids or [])}
    if not wanted:
        return {}
    found = {
        f.id: f for f in db.session.scalars(select(StoredFile).where(StoredFile.id.in_(wanted)))
    }
    return {p.id: [found[i] for i in (p.attachment_ids or []) if i in found] for p in doc.petitions}


def addressee_may_see(user: Any, stored: StoredFile) -> bool:
    """File rule: the addressee of the document a petition was filed against sees its
    attachments (a representative filed them; the person they act for reads them too)."""
    if stored.purpose != PURPOSE:
        return False
    filed = db.session.scalars(select(Petition).where(Petition.filed_by_id == stored.owner_id))
    petition = next((p for p in filed if stored.id in (p.attachment_ids or [])), None)
    # a file belongs to one petition: one addressee check, not one per petition of its filer
    return petition is not None and is_addressee(petition.document, user)


def variant_of(stored: StoredFile) -> str:
    """The variant a link opens: the PDF itself, else the large picture."""
    return "original" if stored.content_type == "application/pdf" else "large"
