"""Issue 25: the impound forms with files keep them across a refused post (held in the person's
draft, shown as "Arquivo já enviado" with a box to remove it) and the next post uses them without a
new upload: the GRU 90 on-site euthanasia laudo and the capture photos."""

from __future__ import annotations

import io

from sqlalchemy import select

from portal.extensions import db
from portal.models import DraftFile, FormDraft, OnSiteEuthanasia, StoredFile

PDF = b"%PDF-1.4\n%laudo\n"

ON_SITE = {
    "species": "other",
    "size": "large",
    "description": "Boi malhado",
    "place": "Rua das Flores, 1",
    "district": "Centro",
    "transport_impossible": "Atolado e com fratura",
    "vet_report": "Fratura exposta de fêmur, sofrimento intenso e irreversível.",
    "vet_crmv": "CRMV-SP 9",
}


def test_gru_90_a_refused_on_site_record_keeps_the_laudo_and_the_next_post_uses_it(
    client, auth
) -> None:
    auth.login(roles=("vet",))
    first = client.post(
        "/ccz/eutanasia-no-local",
        data={**ON_SITE, "performed_on": "", "laudo_file": (io.BytesIO(PDF), "laudo-boi.pdf")},
        content_type="multipart/form-data",
    )
    assert first.status_code == 422
    assert "Arquivo já enviado:" in first.text and "laudo-boi.pdf" in first.text
    assert "Anexe o laudo assinado" not in first.text
    held = db.session.scalar(select(DraftFile))
    assert held is not None and f'value="{held.id}"' in first.text
    assert "laudo-boi.pdf" in client.get("/ccz/eutanasia-no-local").text  # shown on a new visit
    second = client.post("/ccz/eutanasia-no-local", data={**ON_SITE, "performed_on": "2026-03-02"})
    assert second.status_code == 302
    record = db.session.scalar(select(OnSiteEuthanasia))
    assert record is not None and record.laudo_file_id == held.stored_file_id
    stored = db.session.get(StoredFile, record.laudo_file_id)
    assert stored is not None and stored.purpose == "impound_laudo" and stored.owner_id is None
    assert db.session.scalar(select(FormDraft)) is None


def test_gru_90_removing_the_kept_laudo_asks_for_it_again(client, auth) -> None:
    auth.login(roles=("vet",))
    client.post(
        "/ccz/eutanasia-no-local",
        data={**ON_SITE, "performed_on": "", "laudo_file": (io.BytesIO(PDF), "l.pdf")},
        content_type="multipart/form-data",
    )
    held = db.session.scalar(select(DraftFile))
    assert held is not None
    again = client.post(
        "/ccz/eutanasia-no-local",
        data={**ON_SITE, "performed_on": "2026-03-02", "_remover_arquivo": str(held.id)},
    )
    assert again.status_code == 422 and "Anexe o laudo assinado" in again.text
    assert db.session.scalar(select(OnSiteEuthanasia)) is None


def test_a_refused_capture_keeps_its_photos_and_the_next_post_uses_them(client, auth) -> None:
    from datetime import timedelta

    from portal.models import Capture
    from portal.services.clock import local_today
    from tests import factories
    from tests.integration.impound.test_impound_pages import _capture_form

    auth.login(roles=("agent",))
    day = local_today() - timedelta(days=1)
    first = client.post(
        "/ccz/recolhimentos/novo",
        data=_capture_form(day, place="", photos=[(factories.png_bytes(), "cao-rua.png")]),
        content_type="multipart/form-data",
    )
    assert first.status_code == 200 and db.session.scalar(select(Capture)) is None
    assert "Arquivo já enviado:" in first.text and "cao-rua.png" in first.text
    held = db.session.scalar(select(DraftFile))
    assert held is not None and f'value="{held.id}"' in first.text
    assert "/thumbnail" in first.text  # the agent sees the photo itself
    second = client.post("/ccz/recolhimentos/novo", data=_capture_form(day))
    assert second.status_code == 302
    capture = db.session.scalar(select(Capture))
    assert capture is not None and [p.stored_file_id for p in capture.photos] == [
        held.stored_file_id
    ]
    stored = db.session.get(StoredFile, held.stored_file_id)
    assert stored is not None and stored.purpose == "capture" and stored.public
    assert db.session.scalar(select(FormDraft)) is None


def test_lei_14228_a_refused_euthanasia_laudo_keeps_its_file_on_the_capture_page(
    client, auth
) -> None:
    from portal.models import EuthanasiaProposal
    from tests import factories
    from tests.integration.impound.test_impound_links import _late_capture

    factories.ngo_user()
    capture = _late_capture()
    db.session.commit()
    auth.login(roles=("vet",))
    url = f"/ccz/recolhimentos/{capture.protocol}/laudo"
    first = client.post(
        url,
        data={"vet_report": "Neoplasia metastática", "laudo_file": (io.BytesIO(PDF), "l.pdf")},
        content_type="multipart/form-data",
    )
    assert first.status_code == 422 and db.session.scalar(select(EuthanasiaProposal)) is None
    page = first.text  # the capture's page again: the text as typed, the file held
    held = db.session.scalar(select(DraftFile))
    assert held is not None and "Arquivo já enviado:" in page and f'value="{held.id}"' in page
    assert "Neoplasia metastática</textarea>" in page
    again = client.get(f"/ccz/recolhimentos/{capture.protocol}").text
    assert "Arquivo já enviado:" in again and f'value="{held.id}"' in again
    second = client.post(url, data={"vet_report": "Neoplasia metastática", "vet_crmv": "CRMV 5"})
    assert second.status_code == 302
    proposal = db.session.scalar(select(EuthanasiaProposal))
    assert proposal is not None and proposal.laudo_file_id == held.stored_file_id
    assert db.session.get(StoredFile, held.stored_file_id).purpose == "euthanasia_laudo"  # type: ignore[union-attr]
    assert db.session.scalar(select(FormDraft)) is None


def test_gru_88_ii_a_refused_destination_keeps_its_laudo_and_the_next_post_uses_it(
    client, auth
) -> None:
    from datetime import date

    from portal.models import DestinationDecision
    from tests.integration.impound.test_destination_edges import GRU, LAUDO, _horse

    capture = _horse(GRU, date(2026, 3, 2), condition="serious")
    db.session.commit()
    auth.login(roles=("vet",))
    url = f"/ccz/recolhimentos/{capture.protocol}/destinacao"
    form = {
        "destination": "euthanasia",
        "vet_report": LAUDO,
        "vet_crmv": "CRMV-SP 9",
        "incurable": "y",
    }
    first = client.post(
        url,
        data={**form, "reason": "", "laudo_file": (io.BytesIO(PDF), "laudo-cavalo.pdf")},
        content_type="multipart/form-data",
    )
    assert first.status_code == 422
    assert "Arquivo já enviado:" in first.text and "laudo-cavalo.pdf" in first.text
    held = db.session.scalar(select(DraftFile))
    assert held is not None
    second = client.post(url, data={**form, "reason": "Fratura sem tratamento possível"})
    assert second.status_code == 302, second.text[:500]
    decision = db.session.scalar(select(DestinationDecision))
    assert decision is not None and decision.laudo_file_id == held.stored_file_id
    assert decision.laudo_file is not None and decision.laudo_file.purpose == "impound_laudo"
    assert db.session.scalar(select(FormDraft)) is None
