"""Issue 8 (security 6): ``create-api-client --kind ngo --name X`` links only an approved NGO of
that name, or creates a new one; a pending or refused registration keeps its state and its
requester gets no role."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal.extensions import db
from portal.models import Organization, OrganizationStatus, User
from tests import factories
from tests.factories import make_org


def _create_client(app, name: str) -> str:  # type: ignore[no-untyped-def]
    result = app.test_cli_runner().invoke(
        args=["create-api-client", "--kind", "ngo", "--name", name]
    )
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()[-1]


@pytest.mark.parametrize("status", [OrganizationStatus.PENDING, OrganizationStatus.REFUSED])
def test_pending_or_refused_ngo_of_that_name_keeps_its_state(app, client, status) -> None:
    requester = factories.user(roles=("citizen",))
    org = make_org(requester, approved=False, name="ONG Sem Análise")
    org.status = status
    org.requested_by_id = requester.id
    db.session.commit()

    token = _create_client(app, "ong sem análise")

    db.session.expire_all()
    kept = db.session.get(Organization, org.id)
    assert kept.status == status and kept.api_client_id is None
    assert kept.reviewed_at is None
    assert not db.session.get(User, requester.id).has_role("ngo")
    # The token acts for a new, approved organisation that nobody requested.
    new = db.session.scalars(select(Organization).where(Organization.id != org.id)).one()
    assert new.status == OrganizationStatus.APPROVED and new.api_client_id is not None
    assert new.members == []
    response = client.post(
        "/api/v1/listings",
        headers={"Authorization": f"Bearer {token}"},
        json={
            "name": "Rex",
            "species": "dog",
            "sex": "male",
            "size": "large",
            "age_months": 30,
            "color": "Preto",
            "district": "Centro",
        },
    )
    assert response.status_code == 201


def test_approved_ngo_of_that_name_is_linked_not_duplicated(app) -> None:
    member = factories.user(roles=("citizen",))
    org = make_org(member, name="ONG Aprovada")
    db.session.commit()
    _create_client(app, "ONG Aprovada")
    db.session.expire_all()
    assert db.session.scalars(select(Organization)).all() == [db.session.get(Organization, org.id)]
    assert db.session.get(Organization, org.id).api_client_id is not None
