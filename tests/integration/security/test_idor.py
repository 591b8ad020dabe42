"""IDOR: a second citizen (and an NGO member of another organisation) walks every route that takes
an object id, RGA number or file token, with the first citizen's objects, and must get 403 or 404.

Public-by-design pages (a published adoption listing, the public RGA page, the general leaflet)
are the only exceptions, and even they must not show the owner's name or CPF.
"""

from __future__ import annotations

import pytest
from flask import g

from portal.extensions import db
from portal.services.identity import mask_cpf
from tests import factories
from tests.factories import make_org, object_urls

# Object routes open to anyone by design (listing pages and the applying form for a listing). A
# maus-tratos protocol is public by design too: Open311 answers its status and nothing else (and
# only for the categories the profile makes public: 404 otherwise, issue 26 #5), and
# the tracking pages send whoever lacks the private code back to the code form; a licence's public
# check page shows its validity and nothing about the holder. A capture of the last 30 days is on
# the public "Animais recolhidos" page by design (issue 14), without the owner or the exact place.
PUBLIC_OBJECT_ENDPOINTS = {
    "adoption.listing",
    "adoption.apply",
    "animals.public_rga",
    "open311.show_request",
    "reports.receipt",
    "reports.tracked",
    "licences.public_check",
    "impound.public_capture",
}


def _walk(client, app, world):  # type: ignore[no-untyped-def]
    leaks = []
    secrets = [world.victim_cpf, mask_cpf(world.victim_cpf), world.victim.full_name]
    for endpoint, method, url in object_urls(app, world):
        g.pop("_login_user", None)
        response = client.open(url, method=method, data={})
        body = response.get_data(as_text=True) if not response.is_streamed else ""
        shown = [s for s in secrets if s and s in body]
        if endpoint in PUBLIC_OBJECT_ENDPOINTS:
            if shown:
                leaks.append((endpoint, method, url, response.status_code, shown))
            continue
        if response.status_code not in (403, 404) or shown:
            leaks.append((endpoint, method, url, response.status_code, shown))
    return leaks


@pytest.mark.walker  # every URL: once, in the SQLite run (tests/conftest.py)
def test_second_citizen_gets_404_or_403_on_every_object_of_the_first(
    app, client, auth, world, stranger
):
    auth.login(stranger)
    leaks = _walk(client, app, world)
    assert not leaks, "\n".join(map(str, leaks))


@pytest.mark.walker  # every URL: once, in the SQLite run (tests/conftest.py)
def test_member_of_another_ngo_gets_404_or_403_on_the_demo_ngo_objects(app, client, auth, world):
    member = factories.user(roles=("citizen",))
    make_org(member, name="Outra ONG")
    db.session.commit()
    auth.login(member)
    leaks = _walk(client, app, world)
    assert not leaks, "\n".join(map(str, leaks))


def test_api_tokens_only_reach_their_own_objects(app, client, world):
    """An establishment reads only the payments and cards it created; an NGO token edits only its
    own listings; the public RGA lookup never names the owner."""
    from sqlalchemy import select

    from portal.models import Listing, PaymentItem
    from portal.services.api_auth import issue_client

    _clinic, clinic_token = issue_client("establishment", "Outra Clínica")
    _ngo, ngo_token = issue_client("ngo", "Outra ONG")
    make_org(factories.user(), name="Outra ONG").api_client_id = _ngo.id
    db.session.commit()
    clinic = {"Authorization": f"Bearer {clinic_token}"}
    ngo = {"Authorization": f"Bearer {ngo_token}"}
    for item_id in db.session.scalars(select(PaymentItem.id)).all():
        assert client.get(f"/api/v1/payments/{item_id}", headers=clinic).status_code == 404
    for rga in world.rgas:
        for doc in ("card.pdf", "tag.pdf"):
            assert (
                client.get(f"/api/v1/registrations/{rga}/{doc}", headers=clinic).status_code == 404
            )
        public = client.get(f"/api/v1/rga/{rga}").get_data(as_text=True)
        assert world.victim.full_name not in public and world.victim_cpf not in public
    listing_ids = db.session.scalars(select(Listing.id)).all()
    assert listing_ids
    for listing_id in listing_ids:
        response = client.patch(
            f"/api/v1/listings/{listing_id}", json={"name": "Roubado"}, headers=ngo
        )
        assert response.status_code in (403, 404)
    listed = client.get("/api/v1/registrations", headers=clinic).get_data(as_text=True)
    assert world.victim_cpf not in listed and world.victim.full_name not in listed
