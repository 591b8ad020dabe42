"""Issue 25: a new listing refused for another field (the district missing) keeps its photos in
the person's draft, shown back with a thumbnail and a box to remove each, and the next post
creates the listing with them without a new upload."""

from __future__ import annotations

import io

from sqlalchemy import select

from portal.extensions import db
from portal.models import DraftFile, FormDraft, Listing
from tests.factories import jpeg_bytes, ngo_user

FORM = {
    "name": "Biscoito",
    "species": "dog",
    "sex": "male",
    "size": "small",
    "color": "Branco e marrom",
    "age_years": "2",
    "story": "Muito dócil.",
}


def test_a_refused_listing_keeps_its_photos_and_the_next_post_uses_them(client, auth) -> None:
    user, org = ngo_user()
    db.session.commit()
    auth.login(user)
    first = client.post(
        "/adocao/gestao/novo",
        data={**FORM, "owner": str(org.id), "photos": [(io.BytesIO(jpeg_bytes()), "capa.jpg")]},
        content_type="multipart/form-data",
    )
    html = first.get_data(as_text=True)
    assert first.status_code == 400 and db.session.scalar(select(Listing)) is None
    assert "Arquivo já enviado:" in html and "capa.jpg" in html and "/thumbnail" in html
    held = db.session.scalar(select(DraftFile))
    assert held is not None and f'value="{held.id}"' in html
    second = client.post(
        "/adocao/gestao/novo", data={**FORM, "owner": str(org.id), "district": "Centro"}
    )
    assert second.status_code == 302
    listing = db.session.scalars(select(Listing)).one()
    assert [p.stored_file_id for p in listing.photos] == [held.stored_file_id]
    assert listing.photos[0].stored_file.public  # a listing photo is public, as before
    assert db.session.scalar(select(FormDraft)) is None
