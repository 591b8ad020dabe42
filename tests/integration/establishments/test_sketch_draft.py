"""Issue 25: the establishment's sketch (GRU 11 §1 IV) is held when the request is refused (a
field missing), shown as "Arquivo já enviado" with a box to remove it, and the next post sends the
request without a new upload."""

from __future__ import annotations

import io

from sqlalchemy import select

from portal.extensions import db
from portal.models import DraftFile, Establishment, FormDraft
from tests.integration.establishments.test_establishment_cadastro import _cnpj

FORM = {
    "legal_name": "Pet Feliz Ltda",
    "kinds": ["pet_shop"],
    "facilities": "Loja com 3 baias",
    "cep": "07000-000",
    "street": "Rua A",
    "number": "1",
    "district": "Centro",
    "vet_name": "Dr. B",
    "vet_crmv": "CRMV-SP 9",
    "vet_term_valid_until": "2040-01-01",
}


def test_gru_11_1_iv_a_refused_request_keeps_the_sketch_and_the_next_post_uses_it(
    app, client, auth
) -> None:
    owner = auth.login(roles=("citizen",))
    first = client.post(
        "/estabelecimentos/cadastro",
        data={**FORM, "cnpj": "", "sketch": (io.BytesIO(b"%PDF-1.4\n% croqui\n"), "croqui.pdf")},
        content_type="multipart/form-data",
    )
    page = first.get_data(as_text=True)
    assert first.status_code == 200 and "Pet Feliz Ltda" in page
    assert "Arquivo já enviado:" in page and "croqui.pdf" in page
    held = db.session.scalar(select(DraftFile))
    assert held is not None and f'value="{held.id}"' in page
    again = client.get("/estabelecimentos/cadastro").get_data(as_text=True)
    assert "croqui.pdf" in again  # shown on a new visit too
    second = client.post("/estabelecimentos/cadastro", data={**FORM, "cnpj": _cnpj(44555666)})
    assert second.status_code == 302, second.get_data(as_text=True)[:2000]
    place = db.session.scalar(
        select(Establishment).where(Establishment.requested_by_id == owner.id)
    )
    assert place is not None and place.sketch_id == held.stored_file_id
    assert place.sketch is not None and place.sketch.purpose == "establishment_sketch"
    assert not place.sketch.public
    assert db.session.scalar(select(FormDraft)) is None
