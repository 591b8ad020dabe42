"""The public report form: first screen, anonymity, confidential contact, photos, abuse controls,
duplicates, protocol numbers (issue 12; DOMAIN §7)."""

from __future__ import annotations

import io
import json
import re
from datetime import timedelta
from pathlib import Path

from PIL import Image
from sqlalchemy import select

from portal.blueprints.reports import services as svc
from portal.extensions import db
from portal.models import (
    AuditEvent,
    MaltreatmentReport,
    OutboxMessage,
    ReporterContact,
    ReportEvent,
    ReportPhoto,
    StoredFile,
)
from portal.models.base import utcnow
from tests import factories
from tests.factories import REPORTER, photo, submit


def _all_rows_text() -> str:
    """Every column of every row the report domain wrote, as one string."""
    parts = []
    for model in (MaltreatmentReport, ReportEvent, ReportPhoto, StoredFile, AuditEvent):
        for row in db.session.scalars(select(model)):
            parts.append(
                json.dumps(
                    {c.name: getattr(row, c.key, None) for c in model.__table__.columns},
                    default=str,
                )
            )
    return "\n".join(parts)


def test_first_screen_says_call_190_and_that_it_is_a_federal_crime(client) -> None:
    html = client.get("/denuncias/nova").get_data(as_text=True)
    assert 'href="tel:190"' in html
    assert "Lei 9.605/98, art. 32" in html
    assert html.index("190") < html.index('name="category"')  # before the form
    # Default identity: anonymous.
    assert re.search(r'<input checked[^>]*value="anonymous"', html)


def test_anonymous_report_stores_nothing_about_the_reporter(client, auth) -> None:
    person = auth.login(factories.user(full_name="Heleno Anonimato", phone="11 91234-0000"))
    response, report, code = submit(
        client,
        photos=[photo(name="heleno-casa.jpg")],
        name="Heleno Anonimato",
        email=person.email,
        phone="11 91234-0000",
    )
    assert response.status_code == 302 and report is not None and code
    assert report.identity == "anonymous"
    assert db.session.scalars(select(ReporterContact)).all() == []
    stored = db.session.scalars(select(StoredFile)).all()
    assert len(stored) == 1 and stored[0].owner_id is None and stored[0].original_name is None
    assert all(e.actor_id is None for e in db.session.scalars(select(ReportEvent)))
    assert (
        db.session.scalars(select(AuditEvent).where(AuditEvent.actor_id == person.id)).all() == []
    )
    text = _all_rows_text()
    for trace in ("Heleno", person.email, "91234", person.cpf, "127.0.0.1", "heleno-casa"):
        assert trace not in text, trace
    assert code.replace("-", "") not in text  # only the hash of the code is kept
    # Not in "Minhas denúncias" either: nothing links it to the account.
    assert report.protocol not in client.get("/denuncias/minhas").get_data(as_text=True)


def test_confidential_report_keeps_contact_apart_and_emails_the_code(client) -> None:
    response, report, code = submit(client, identity="confidential", **REPORTER)
    assert response.status_code == 302
    contact = db.session.scalars(select(ReporterContact)).one()
    assert contact.report_id == report.id and contact.name == REPORTER["name"]
    assert REPORTER["name"] not in json.dumps(
        {c.name: getattr(report, c.key) for c in MaltreatmentReport.__table__.columns}, default=str
    )
    mail = db.session.scalars(select(OutboxMessage)).one()
    assert mail.to == REPORTER["email"] and code in mail.body and report.protocol in mail.body


def test_confidential_report_needs_a_name_and_a_contact(client) -> None:
    response, report, _code = submit(client, identity="confidential", name="", email="")
    assert response.status_code == 400 and report is None
    html = response.get_data(as_text=True)
    assert "Informe seu nome" in html and "e-mail ou telefone" in html
    assert "Cachorro preso no quintal" in html  # nothing typed is lost


def test_signed_in_citizen_sees_confidential_reports_in_minhas_denuncias(client, auth) -> None:
    person = auth.login()
    html = client.get("/denuncias/nova").get_data(as_text=True)
    assert person.full_name in html  # pre-filled contact
    _r, report, _c = submit(
        client, identity="confidential", name=person.full_name, email=person.email
    )
    mine = client.get("/denuncias/minhas").get_data(as_text=True)
    assert report.protocol in mine
    page = client.get(f"/denuncias/acompanhar/{report.protocol}")
    assert page.status_code == 200 and "Recebida, aguardando análise" in page.get_data(as_text=True)


def test_photos_are_reencoded_without_exif_or_gps(client, app) -> None:
    _r, report, _c = submit(client, photos=[photo(gps=True), photo()])
    assert len(report.photos) == 2
    for item in report.photos:
        for rel in item.file.variants.values():
            data = (Path(app.config["UPLOAD_DIR"]) / rel).read_bytes()
            assert b"MarcaDoCelular" not in data
            with Image.open(io.BytesIO(data)) as image:
                exif = image.getexif()
                assert not exif.get_ifd(0x8825) and 0x010F not in exif


def test_photo_gps_places_the_pin_only_with_consent(client) -> None:
    _r, without, _c = submit(client, photos=[photo(gps=True)])
    assert without.lat is None and without.lng is None
    _r, with_consent, _c = submit(
        client, category="poisoning", photos=[photo(gps=True)], use_photo_gps="y"
    )
    assert round(with_consent.lat, 3) == -23.454 and round(with_consent.lng, 3) == -46.533


def test_at_most_six_photos(client) -> None:
    response, report, _c = submit(client, photos=[photo() for _ in range(7)])
    assert response.status_code == 400 and report is None
    assert "no máximo 6 fotos" in response.get_data(as_text=True)


def test_a_file_that_is_not_an_image_is_refused_next_to_the_field(client) -> None:
    response, report, _c = submit(client, photos=[(io.BytesIO(b"not an image"), "x.jpg")])
    assert response.status_code == 400 and report is None
    assert db.session.scalars(select(MaltreatmentReport)).all() == []


def test_text_size_limit(client) -> None:
    response, report, _c = submit(client, description="x" * 4001)
    assert response.status_code == 400 and report is None


def test_where_is_required_address_or_point(client) -> None:
    response, report, _c = submit(client, street="", number="", cep="")
    assert response.status_code == 400 and "Diga onde" in response.get_data(as_text=True)
    response, report, _c = submit(client, street="", number="", cep="", lat="-23.45", lng="-46.53")
    assert report is not None and report.lat == -23.45


def test_honeypot_stores_nothing(client) -> None:
    response, report, _c = submit(client, website="http://spam.example")
    assert response.status_code == 400 and report is None
    assert db.session.scalars(select(MaltreatmentReport)).all() == []


def test_rate_limit_per_ip(make_app) -> None:
    app = make_app(REPORT_RATE_LIMIT="2/hour")
    with app.app_context():
        client = app.test_client()
        assert submit(client)[0].status_code == 302
        assert submit(client, category="poisoning")[0].status_code == 302
        assert submit(client, category="fights")[0].status_code == 429


def test_protocol_numbers_count_up_per_year(client) -> None:
    _r, first, _c = submit(client)
    _r, second, _c = submit(client, category="poisoning")
    year = first.created_at.year
    assert first.protocol == f"DEN-{year}-000001" and second.protocol == f"DEN-{year}-000002"


# -- duplicates: the staff's to see and merge, never the reporter's (issue 26) --------------------


def test_same_address_typed_differently_is_a_new_report_the_staff_see_as_duplicate(
    client,
) -> None:
    _r, first, _c = submit(client)
    response, second, _c = submit(client, street="R. das Flores", number="nº 10", cep="07000000")
    assert response.status_code == 302 and second is not None
    assert second.state == "triage" and second.merged_into_id is None
    page = client.get(f"/denuncias/acompanhar/{second.protocol}").get_data(as_text=True)
    assert first.protocol not in page
    assert svc.possible_duplicates(second) == [first]
    assert svc.possible_duplicates(first) == [second]


def test_a_posted_join_protocol_joins_nothing(client) -> None:
    _r, first, _c = submit(client)
    _r, other, _c = submit(
        client,
        join_protocol=first.protocol,
        description="Vi de novo hoje: o cachorro continua sem água.",
    )
    assert other.state == "triage" and other.merged_into_id is None


def test_within_50_metres_is_a_duplicate_but_100_metres_is_not(client) -> None:
    _r, first, _c = submit(client, street="", number="", cep="", lat="-23.450000", lng="-46.530000")
    _r, near, _c = submit(client, street="", number="", cep="", lat="-23.450300", lng="-46.530000")
    assert svc.possible_duplicates(near) == [first]  # ~33 m
    _r, far, _c = submit(
        client, street="", number="", cep="", lat="-23.451000", lng="-46.530000"
    )  # ~111 m
    assert far is not None and far.state == "triage"
    assert svc.possible_duplicates(far) == []  # ~78 m from near, ~111 m from first


def test_other_category_or_older_than_30_days_is_not_a_duplicate(client) -> None:
    _r, first, _c = submit(client)
    _r, other, _c = submit(client, category="poisoning")
    assert svc.possible_duplicates(other) == []
    first.created_at = utcnow() - timedelta(days=31)
    db.session.commit()
    _r, again, _c = submit(client)
    assert svc.possible_duplicates(again) == []


def test_an_address_at_every_limit_is_stored_and_still_matched(client) -> None:
    """Issue 26 #7: street, number and complement at their limits made a duplicate key longer
    than its column (PostgreSQL: StringDataRightTruncation, a 500)."""
    place = {"street": "R" * 200, "number": "9" * 20, "complement": "C" * 100}
    response, first, _c = submit(client, **place)
    assert response.status_code == 302 and first is not None
    assert len(first.residence_key) <= 200
    _r, second, _c = submit(client, **place)
    assert svc.possible_duplicates(second) == [first]


def test_the_service_refuses_what_the_form_would(app) -> None:
    """The same limits for every entry (web form, Open311, clinic API): intake.validate."""
    profile = svc.current_profile()
    today = svc.local_today()
    for name, limit in svc.TEXT_LIMITS.items():
        data = svc.ReportData(
            category="no_shelter",
            description="Cachorro preso no quintal sem água.",
            street="Rua das Flores",
            identity="confidential",
            name="Ana",
            email="ana@example.com",
        )
        setattr(data, name, "x" * (limit + 1))
        fields = [field for field, _code, _m in svc.validate(profile, data, today)]
        assert name in fields, name
