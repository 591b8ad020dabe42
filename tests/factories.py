"""Small factories and the helpers tests share: valid people with unique CPFs and e-mails, animals,
payment items, NGOs, listings, applicant documents, image and PDF bytes; Stripe webhook
deliveries, the public report form, RGA registrations and fee apps for the unit tests, the
security walkers' populated portal, and the browser tests' axe-core audit and sign-in steps.

A helper used by more than one test module lives here (or, when it is a fixture, in a conftest),
never in a test module: test modules do not import from each other."""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import io
import itertools
import json
import re
import tempfile
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

from flask import current_app, g
from PIL import Image, TiffImagePlugin
from sqlalchemy import select
from stdnum.br import cnpj as cnpj_lib
from stdnum.br import cpf as cpf_lib

from portal.blueprints.auth.services import hash_password
from portal.extensions import db
from portal.models import (
    Animal,
    ApplicantDocument,
    AuditEvent,
    DocumentKind,
    DocumentStatus,
    Listing,
    ListingState,
    Organization,
    OrganizationMember,
    OrganizationStatus,
    PaymentItem,
    User,
)
from portal.models.base import utcnow
from portal.services.identity import residence_key

PASSWORD = "senha-forte-123"
_counter = itertools.count(1)
_hash_cache: dict[tuple[str, object], str] = {}


def audit_events(action: str) -> list[AuditEvent]:
    """The audit trail's events of one action, oldest first."""
    return list(
        db.session.scalars(
            select(AuditEvent).where(AuditEvent.action == action).order_by(AuditEvent.id)
        )
    )


def make_cpf(n: int) -> str:
    """A valid CPF built from ``n`` (check digits computed by python-stdnum)."""
    base = f"{(n * 7919 + 100000000) % 1000000000:09d}"
    if len(set(base)) == 1:
        base = "123456780"
    for _ in range(2):  # the two CPF check digits (mod 11); python-stdnum validates the result
        weights = range(len(base) + 1, 1, -1)
        digit = (11 - sum(int(d) * w for d, w in zip(base, weights, strict=True)) % 11) % 11
        base += str(digit % 10)
    assert cpf_lib.is_valid(base)
    return base


def _hash(password: str) -> str:
    """One hash per password and hashing cost (an app may set its own PASSWORD_HASH_COST)."""
    key = (password, current_app.config.get("PASSWORD_HASH_COST"))
    if key not in _hash_cache:
        _hash_cache[key] = hash_password(password)
    return _hash_cache[key]


def user(
    *, roles: tuple[str, ...] = ("citizen",), password: str = PASSWORD, **fields: object
) -> User:
    n = next(_counter)
    defaults: dict[str, object] = {
        "full_name": f"Pessoa Teste {n}",
        "cpf": make_cpf(n),
        "email": f"pessoa{n}@example.com",
        "birth_date": date(1990, 1, 1),
        "phone": "11 99999-0000",
        "password_hash": _hash(password),
        "email_confirmed_at": utcnow(),
        "privacy_accepted_at": utcnow(),
        "cep": "07000000",
        "street": "Rua das Flores",
        "number": str(n),
        "district": "Centro",
        "city": "Guarulhos",
        "state": "SP",
        "housing_type": "house",
    }
    defaults.update(fields)
    person = User(**defaults)  # type: ignore[arg-type]
    for role in roles:
        person.add_role(role)
    db.session.add(person)
    db.session.flush()
    return person


def animal(
    owner: User,
    *,
    species: str = "dog",
    status: str = "active",
    birth_date: date | None = None,
    **fields: object,
):  # type: ignore[no-untyped-def]
    """An RGA registration inserted directly (no rules, no fee): for tests of other domains that
    need existing animals. The number comes from the real counter, so it is valid and unique."""
    from portal.blueprints.animals.services import issue_rga, owner_residence_key

    today = date.today()
    defaults: dict[str, object] = {
        "name": f"Animal {next(_counter)}",
        "sex": "male",
        "breed": "SRD",
        "color": "Preto",
        "size": "small",
        "registered_on": today,
        "birth_date": birth_date or today - timedelta(days=365),
    }
    defaults.update(fields)
    pet = Animal(
        rga=issue_rga(species, today),
        species=species,
        status=status,
        owner=owner,
        residence_key=owner_residence_key(owner) or f"sem-endereco-{owner.id}",
        **defaults,
    )  # type: ignore[arg-type]
    db.session.add(pet)
    db.session.flush()
    return pet


def rabies_vaccinated(pet: Animal, applied_on: date, next_due_on: date) -> Animal:
    """``pet`` with a rabies vaccination on its RGA (what a release or a licence checks)."""
    from portal.models import Vaccination

    pet.vaccinations.append(
        Vaccination(
            vaccine_name="Rabisin",
            batch="L1",
            vet_name="Dra. Ana",
            vet_crmv="CRMV-SP 1",
            applied_on=applied_on,
            next_due_on=next_due_on,
        )
    )
    return pet


# -- files ---------------------------------------------------------------------------------------


def png_bytes() -> io.BytesIO:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 120, 40)).save(buffer, "PNG")
    buffer.seek(0)
    return buffer


def pdf_text(data: bytes) -> str:
    """The text drawn in a PDF (reportlab writes page streams ASCII85 + Flate encoded)."""
    chunks = []
    for raw in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        raw = raw.strip()
        for decode in (
            lambda b: zlib.decompress(base64.a85decode(b, adobe=True)),
            zlib.decompress,
            lambda b: b,
        ):
            try:
                chunks.append(decode(raw))
                break
            except (ValueError, zlib.error):
                continue
    return b"\n".join(chunks).decode("latin-1")


# -- billing -------------------------------------------------------------------------------------


def make_item(
    payer: User | None,
    *,
    amount_cents: int = 2500,
    kind: str = "registration",
    description: str = "Registro do animal Rex (RGA)",
    **extra: Any,
) -> PaymentItem:
    """A committed payment item with a one-line breakdown (GRU 22 I registration fee)."""
    from portal.blueprints.billing.services import create_payment_item

    item = create_payment_item(
        kind=kind,
        amount_cents=amount_cents,
        description=description,
        payer=payer,
        breakdown=[
            {
                "label": "Registro do animal (RGA)",
                "amount_cents": amount_cents,
                "article": "GRU 22 I",
                "kind": "fee",
            }
        ],
        **extra,
    )
    db.session.commit()
    return item


def switch_user(
    auth: Any, user: User | None = None, *, roles: tuple[str, ...] = ("citizen",)
) -> User:
    """Log out and in as someone else (``auth`` is the conftest's AuthActions). The test's app
    context is shared by its requests, so Flask-Login's per-context cache of the current user is
    dropped too."""
    auth.logout()
    g.pop("_login_user", None)
    return auth.login(user, roles=roles)


def password_login(client: Any, person: User, *, remember: bool = False) -> Any:
    """The password step of ``person``'s sign-in (``factories.PASSWORD``); it must redirect."""
    data = {"email": person.email, "password": PASSWORD}
    if remember:
        data["remember"] = "y"
    response = client.post("/conta/entrar", data=data)
    assert response.status_code == 302
    return response


def enrolled_staff(roles: tuple[str, ...] = ("admin",)) -> tuple[User, str]:
    """A staff member whose authenticator is enrolled (with the code of 30 s ago, so the current
    one is still unused), committed; returns the person and the TOTP secret."""
    import pyotp

    from portal.services import twofactor

    person = user(roles=roles)
    db.session.flush()
    record = twofactor.start_enrolment(person)
    earlier = pyotp.TOTP(record.secret).at(datetime.now(UTC) - timedelta(seconds=30))
    assert twofactor.confirm_enrolment(person, earlier) is not None
    db.session.commit()
    return person, record.secret


# -- adoption: real JPEG files, NGOs, listings with photos, eligible adopters ---------------------

_cnpj_counter = iter(range(1, 10**6))


def make_cnpj() -> str:
    base = f"{next(_cnpj_counter):08d}0001"
    return base + cnpj_lib.calc_check_digits(base)


def jpeg_bytes(
    size: tuple[int, int] = (640, 480),
    color: tuple[int, int, int] = (200, 120, 40),
    *,
    gps: bool = False,
    orientation: int | None = None,
    fmt: str = "JPEG",
    noise: bool = False,
) -> bytes:
    """A real image. With ``gps``, EXIF carries a GPS position and a camera model; with
    ``orientation`` the EXIF Orientation tag is set (6 = rotate 90° clockwise to display).

    The same arguments give the same bytes, so they are made once per process (``make_listing``
    asks for one per photo); only ``noise`` images are random and always new."""
    if noise:
        return _image_bytes(size, color, gps, orientation, fmt, noise=True)
    return _cached_image_bytes(size, color, gps, orientation, fmt)


@functools.cache
def _cached_image_bytes(
    size: tuple[int, int],
    color: tuple[int, int, int],
    gps: bool,
    orientation: int | None,
    fmt: str,
) -> bytes:
    return _image_bytes(size, color, gps, orientation, fmt, noise=False)


def _image_bytes(
    size: tuple[int, int],
    color: tuple[int, int, int],
    gps: bool,
    orientation: int | None,
    fmt: str,
    *,
    noise: bool,
) -> bytes:
    image = Image.effect_noise(size, 80).convert("RGB") if noise else Image.new("RGB", size, color)
    # A marker in the top-left corner, to see where it ends up after the orientation is applied
    # (one paste: a putpixel loop here was a third of the adoption tests' time).
    image.paste((255, 0, 0), (0, 0, size[0] // 4, size[1] // 4))
    exif = Image.Exif()
    if gps:
        exif[0x0110] = "Camera Secreta"  # Model
        exif[0x8825] = {1: "S", 2: (23.0, 27.0, 30.0), 3: "W", 4: (46.0, 31.0, 59.0)}  # GPSInfo
    if orientation is not None:
        exif[0x0112] = orientation
    out = io.BytesIO()
    if fmt == "JPEG":
        image.save(out, "JPEG", exif=exif.tobytes(), quality=90)
    else:
        image.save(out, fmt)
    return out.getvalue()


def make_org(
    *members: User, approved: bool = True, name: str | None = None, email: str = "ong@example.org"
) -> Organization:
    n = next(_cnpj_counter)
    org = Organization(
        legal_name=name or f"ONG Teste {n}",
        cnpj=make_cnpj(),
        responsible_name="Responsável",
        email=email,
        status=OrganizationStatus.APPROVED if approved else OrganizationStatus.PENDING,
    )
    for member in members:
        org.members.append(OrganizationMember(user_id=member.id))
        if approved:
            member.add_role("ngo")
    db.session.add(org)
    db.session.flush()
    return org


def ngo_user(org_name: str | None = None) -> tuple[User, Organization]:
    person = user(roles=("citizen",))
    return person, make_org(person, name=org_name)


LISTING_DEFAULTS = {
    "name": "Paçoca",
    "species": "dog",
    "sex": "female",
    "age_months": 24,
    "size": "medium",
    "color": "Caramelo",
    "district": "Centro",
    "story": "Carinhosa.",
    "vaccinated": True,
    "dewormed": True,
    "sterilized": True,
}


def make_listing(
    org: Organization | None = None,
    *,
    state: str = ListingState.PUBLISHED,
    photos: int = 1,
    author: User | None = None,
    on: date | None = None,
    **fields: object,
) -> Listing:
    from portal.blueprints.adoption import services as svc

    on = on or date.today()
    data = svc.listing_data({**LISTING_DEFAULTS, **fields}, on)
    listing = svc.create_listing(org, author, data)
    for i in range(photos):
        svc.add_photo(
            listing,
            io.BytesIO(jpeg_bytes(color=(40 * i % 255, 90, 160))),
            f"foto{i}.jpg",
            author.id if author else None,
        )
    if state != ListingState.DRAFT:
        svc.change_state(listing, ListingState.PUBLISHED, author)
        if state != ListingState.PUBLISHED:
            listing.state = state
    db.session.flush()
    return listing


def add_document(
    person: User,
    kind: str,
    *,
    status: str = DocumentStatus.ACCEPTED,
    issued_on: date | None = None,
    on: date | None = None,
    pdf: bool = True,
) -> ApplicantDocument:
    from portal.blueprints.adoption import services as svc

    on = on or date.today()
    if kind == DocumentKind.PROOF_OF_ADDRESS and issued_on is None:
        issued_on = on - timedelta(days=10)
    data = b"%PDF-1.4\n% comprovante de teste\n" if pdf else jpeg_bytes()
    doc = svc.upload_document(
        person, kind, io.BytesIO(data), f"{kind}.pdf", issued_on, max(on, issued_on or on)
    )
    doc.status = status
    if status == DocumentStatus.REFUSED:
        doc.refusal_reason = "Ilegível."
    db.session.flush()
    return doc


def eligible_person(**fields: Any) -> User:
    """An adult citizen with a complete address and the three proofs accepted."""
    person = user(**fields)
    for kind in (
        DocumentKind.IDENTITY,
        DocumentKind.PROOF_OF_ADDRESS,
        DocumentKind.PROOF_OF_INCOME,
    ):
        add_document(person, kind)
    return person


def fill_household(person: User, count: int, *, on: date | None = None) -> None:
    """Put ``count`` adult registered dogs at the person's residence (for the household limit)."""
    on = on or date.today()
    owner = user(
        cep=person.cep, street=person.street, number=person.number, complement=person.complement
    )
    key = residence_key(person.cep, person.street, person.number, person.complement)
    for i in range(count):
        db.session.add(
            Animal(
                rga=f"C-2026-{900000 + owner.id * 10 + i:06d}-0",
                species="dog",
                name=f"Cão {i}",
                sex="male",
                birth_date=on - timedelta(days=800),
                size="medium",
                registered_on=on,
                owner=owner,
                residence_key=key,
                activated_at=utcnow(),
            )
        )
    db.session.flush()


# -- billing: Stripe webhook deliveries -----------------------------------------------------------

WEBHOOK_SECRET = "whsec_test_portal_ccz"
STRIPE_SECRET_KEY = "sk_test_portal_ccz"
_event_ids = itertools.count(1)


def sign(payload: str, *, secret: str = WEBHOOK_SECRET, timestamp: int | None = None) -> str:
    """The Stripe-Signature header for ``payload``: t=timestamp, v1=HMAC-SHA256("t.payload")."""
    ts = int(time.time()) if timestamp is None else timestamp
    digest = hmac.new(secret.encode(), f"{ts}.{payload}".encode(), hashlib.sha256).hexdigest()
    return f"t={ts},v1={digest}"


def session_event(
    event_type: str,
    item: PaymentItem,
    *,
    event_id: str | None = None,
    payment_status: str = "paid",
    amount: int | None = None,
    currency: str = "brl",
    session_id: str = "cs_test_webhook",
    payment_intent: str | None = "pi_test_webhook",
    created: int | None = None,
) -> dict[str, Any]:
    """A Stripe event whose object is a Checkout session for ``item``."""
    status = "expired" if event_type == "checkout.session.expired" else "complete"
    return {
        "id": event_id or f"evt_test_{next(_event_ids):06d}",
        "object": "event",
        "api_version": "2024-06-20",
        "type": event_type,
        "created": created or int(time.time()),
        "livemode": False,
        "data": {
            "object": {
                "id": session_id,
                "object": "checkout.session",
                "mode": "payment",
                "amount_total": item.amount_cents if amount is None else amount,
                "currency": currency,
                "client_reference_id": str(item.id),
                "metadata": {"payment_id": str(item.id)},
                "payment_status": payment_status,
                "payment_intent": payment_intent,
                "status": status,
            }
        },
    }


def deliver(
    client: Any,
    event: dict[str, Any],
    *,
    secret: str = WEBHOOK_SECRET,
    timestamp: int | None = None,
    body: str | None = None,
):  # type: ignore[no-untyped-def]
    """POST the event as Stripe would; ``body`` replaces the payload after signing (tampering)."""
    payload = json.dumps(event)
    header = sign(payload, secret=secret, timestamp=timestamp)
    return client.post(
        "/payments/stripe/webhook",
        data=body if body is not None else payload,
        headers={"Stripe-Signature": header, "Content-Type": "application/json"},
    )


# -- maus-tratos reports: the public form -------------------------------------------------------

# Somebody the tests look for in every output that must not name the reporter.
REPORTER = {
    "name": "Genoveva Quitéria Sigilosa",
    "email": "genoveva.sigilosa@example.com",
    "phone": "11 98765-4321",
}


def report_form_data(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "category": "no_shelter",
        "description": "Cachorro preso no quintal, sem água e sem sombra há dias.",
        "cep": "07000-000",
        "street": "Rua das Flores",
        "number": "10",
        "district": "Centro",
        "species": "dog",
        "animal_count": "1",
        "identity": "anonymous",
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def report_jpeg_bytes(gps: bool = False, size: tuple[int, int] = (60, 40)) -> bytes:
    """A small JPEG with EXIF camera data and, optionally, a GPS point (Guarulhos)."""
    image = Image.new("RGB", size, (120, 60, 30))
    exif = Image.Exif()
    exif[0x010F] = "MarcaDoCelular"
    if gps:
        r = TiffImagePlugin.IFDRational
        exif.get_ifd(0x8825).update(
            {1: "S", 2: (r(23), r(27), r(1368, 100)), 3: "W", 4: (r(46), r(32), r(0))}
        )
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif)
    return buffer.getvalue()


def photo(gps: bool = False, name: str = "foto.jpg") -> tuple[io.BytesIO, str]:
    return io.BytesIO(report_jpeg_bytes(gps)), name


def submit(client: Any, **overrides: Any):  # type: ignore[no-untyped-def]
    """Post the public report form; return (response, report or None, tracking code or None)."""
    from portal.models import MaltreatmentReport

    response = client.post(
        "/denuncias/nova", data=report_form_data(**overrides), content_type="multipart/form-data"
    )
    if response.status_code != 302:
        return response, None, None
    protocol = response.headers["Location"].rsplit("/", 1)[-1]
    receipt = client.get(response.headers["Location"]).get_data(as_text=True)
    match = re.search(r'id="codigo">([^<]+)<', receipt)
    report = db.session.scalar(
        select(MaltreatmentReport).where(MaltreatmentReport.protocol == protocol)
    )
    return response, report, match.group(1) if match else None


def inspect_report(report: Any, agent: Any, outcome: str = "nothing_found") -> None:
    """The assigned ``agent`` records today's inspection of ``report``: no findings, no photos."""
    from portal.blueprints.reports import services as reports

    today = reports.local_today()
    reports.record_inspection(
        reports.current_profile(),
        report,
        agent,
        visited_on=today,
        findings={},
        notes=None,
        people_present=None,
        outcome=outcome,
        photos=[],
        today=today,
    )


# -- RGA rule tests: a fixed day, registrations with defaults, an app on another profile ----------

RGA_TODAY = date(2026, 3, 16)


@contextmanager
def profile_app(make_app: Any, key: str) -> Iterator[Any]:
    """The profile ``key`` of a new app, inside its app and request contexts."""
    app = make_app(PORTAL_PROFILE=key)
    with app.app_context(), app.test_request_context():
        yield app.extensions["portal_profile"]


def rga_data(**fields: Any):  # type: ignore[no-untyped-def]
    from portal.blueprints.animals import services

    defaults: dict[str, Any] = dict(
        name="Rex",
        species="dog",
        sex="male",
        birth_date=RGA_TODAY - timedelta(days=120),
        breed="SRD",
        color="Caramelo",
        size="medium",
    )
    defaults.update(fields)
    return services.AnimalData(**defaults)


def rga_vaccine(**fields: Any):  # type: ignore[no-untyped-def]
    from portal.blueprints.animals import services

    defaults: dict[str, Any] = dict(
        applied_on=RGA_TODAY - timedelta(days=10),
        vaccine_name="Rabisin",
        batch="L1",
        vet_name="Dra. Ana",
        vet_crmv="crmv sp 1234",
    )
    defaults.update(fields)
    return services.VaccinationData(**defaults)


def rga_register(
    owner: User,
    prof: Any,
    *,
    today: date = RGA_TODAY,
    vaccination: Any = "default",
    at_ccz: bool = False,
    client: Any = None,
    **fields: Any,
) -> Animal:
    """A registration through the real service, with the defaults above; ``fields`` are the
    animal's (:func:`rga_data`)."""
    return registered_animal(
        owner,
        prof,
        data=rga_data(**fields),
        vaccination=rga_vaccine() if vaccination == "default" else vaccination,
        vaccinate_at_ccz=at_ccz,
        registered_by=None if client else owner,
        api_client=client,
        today=today,
    )


def registered_animal(owner: User, prof: Any, **request: Any) -> Animal:
    """An animal registered the way the wizard, the API and the demo seeder register one: a
    ``RegistrationRequest`` by ``owner`` for a current-vaccinated dog (:func:`rga_data`,
    :func:`rga_vaccine`) on RGA_TODAY; ``request`` replaces any of its fields (``data``,
    ``vaccination``, ``today``, ``registered_by``, ``charge_fee``, ``guard_resubmission``...)."""
    from portal.blueprints.animals import services

    fields: dict[str, Any] = dict(
        owner=owner,
        data=rga_data(),
        vaccination=rga_vaccine(),
        vaccinate_at_ccz=False,
        registered_by=owner,
        api_client=None,
        profile=prof,
        today=RGA_TODAY,
    )
    fields.update(request)
    return services.register_animal(services.RegistrationRequest(**fields))


# -- fee tests: one app per profile, built once per test process ----------------------------------
# The fee service only reads the database (unit values, price overrides, municipal holidays) and
# these tests only flush what they seed and roll it back, so they do not need a new app per test.
# The mutation run (bench/mutation.py) repeats them for every mutant.

# Values in force from 2026-01-01 (the shipped example values of the profiles).
UNIT_VALUES = {"UFG": 480, "UFM": 5000, "MW": 162100, "UFIR": 106}
_FEE_APPS: dict[tuple[str, str], Any] = {}


def fee_app(key: str) -> Any:
    from portal import create_app
    from portal.config import TestingConfig

    # keyed by the database too: under mutmut each mutant's process has its own (tests/conftest.py)
    cache_key = (key, TestingConfig.SQLALCHEMY_DATABASE_URI)
    if cache_key not in _FEE_APPS:
        config = TestingConfig()
        config.PORTAL_PROFILE = key  # type: ignore[attr-defined]
        config.UPLOAD_DIR = tempfile.mkdtemp(prefix="ccz-uploads-")  # type: ignore[attr-defined]
        _FEE_APPS[cache_key] = create_app(config)
    return _FEE_APPS[cache_key]


def fee_profiles() -> Iterator[Any]:
    """Generator behind the ``profile_of`` fixture (tests/unit/conftest.py): push a profile's app,
    seed the unit values, and roll everything back afterwards (nothing is ever committed)."""
    from portal.models import UnitValue

    contexts = []

    def use(key: str) -> Any:
        app = fee_app(key)
        ctx = app.app_context()
        ctx.push()
        contexts.append(ctx)
        for unit, cents in UNIT_VALUES.items():
            db.session.add(UnitValue(unit=unit, value_cents=cents, effective_from=date(2026, 1, 1)))
        db.session.flush()
        return app.extensions["portal_profile"]

    try:
        yield use
    finally:
        for ctx in reversed(contexts):
            db.session.rollback()
            ctx.pop()


# -- security walkers: a populated portal and every object URL in it ------------------------------


@dataclass
class World:
    victim: User
    victim_cpf: str
    rgas: list[str]
    private_files: list[Any]
    max_id: int
    ids: list[int]  # every primary key in use: PostgreSQL sequences do not restart between tests
    extra: dict = field(default_factory=dict)


def build_world(app: Any) -> World:
    """The demo data plus, for the demo citizen, one of every private object (transfer, second
    copy, exemption request, adoption application, applicant documents, a paid item with its
    receipt); the demo neighbour is the second citizen."""
    from portal.models import (
        AdoptionApplication,
        DocumentCopyRequest,
        ExemptionRequest,
        OwnershipTransfer,
        StoredFile,
    )
    from portal.services.uploads import store_document

    result = app.test_cli_runner().invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    victim = db.session.scalar(select(User).where(User.email == "cidada@demo.ccz"))
    neighbour = db.session.scalar(select(User).where(User.email == "vizinho@demo.ccz"))
    assert victim is not None and neighbour is not None
    animals = db.session.scalars(select(Animal).where(Animal.owner_id == victim.id)).all()
    thor = animals[0]
    db.session.add(
        OwnershipTransfer(animal_id=thor.id, from_owner_id=victim.id, to_owner_id=neighbour.id)
    )
    db.session.add(
        DocumentCopyRequest(
            animal_id=thor.id,
            kind="card",
            requested_on=date.today(),
            requested_by_id=victim.id,
            valid_until=date.today(),
        )
    )
    item = db.session.scalars(select(PaymentItem).where(PaymentItem.payer_id == victim.id)).first()
    assert item is not None
    proof = store_document(
        io.BytesIO(b"%PDF-1.4\n/JS (app.alert(1))\n"),
        purpose="exemption_proof",
        owner_id=None,
        filename="prova.pdf",
    )
    db.session.add(
        ExemptionRequest(
            item_id=item.id,
            requester_id=victim.id,
            code="x",
            label="Isenção",
            article="GRU 23",
            proof_file_id=proof.id,
        )
    )
    paid = make_item(victim)
    paid.status = "paid"
    listing = db.session.scalars(select(Listing)).first()
    assert listing is not None
    db.session.add(
        AdoptionApplication(
            listing_id=listing.id, applicant_id=victim.id, answers={}, eligibility=[]
        )
    )
    add_document(victim, "identity")
    add_document(victim, "proof_of_address")
    db.session.commit()
    files = db.session.scalars(select(StoredFile).where(StoredFile.public.is_(False))).all()
    ids: set[int] = set()
    for table in db.metadata.sorted_tables:
        if "id" in table.c:
            ids.update(db.session.scalars(select(table.c.id)).all())
    return World(
        victim=victim,
        victim_cpf=victim.cpf,
        rgas=[a.rga for a in animals if a.rga],
        private_files=list(files),
        max_id=max(ids, default=0),
        ids=sorted(ids),
    )


ESTABLISHMENT_ACTIONS = ["aprovar", "recusar", "renovar", "credenciar", "descredenciar", "baixa"]


def named_argument_values(app: Any, rule: Any, arg: str) -> list[str] | None:
    """Real values for the string arguments of the newer domains' routes (queue and chart keys,
    a report protocol, an establishment action), or None for an argument this does not know."""
    from portal.models import MaltreatmentReport

    registry = app.extensions["workspace_queues"]
    if arg == "key":
        return list(registry.queues) if "/filas/" in rule.rule else list(registry.charts)
    if arg == "action":
        return ESTABLISHMENT_ACTIONS
    if arg == "protocol" and ("recolhimentos" in rule.rule or "recolhidos" in rule.rule):
        from portal.models import Capture

        return list(db.session.scalars(select(Capture.protocol))) or ["CAP-2026-000001"]
    if arg == "code" and rule.rule.startswith(("/certidoes/", "/api/v1/certificates/")):
        from portal.models import CaptureCertificate

        return list(db.session.scalars(select(CaptureCertificate.code))) or ["CNC-NAOEXISTE"]
    if arg == "code" and rule.rule.startswith("/conferir/no-local/"):
        from portal.models import OnSiteEuthanasia

        codes = db.session.scalars(select(OnSiteEuthanasia.check_code))
        return [c for c in codes if c] or ["NAOEXISTE"]
    if arg == "protocol":
        return list(db.session.scalars(select(MaltreatmentReport.protocol))) or ["DEN-2026-000001"]
    if arg == "code" and rule.rule.startswith("/licencas/"):
        from portal.models.licence import ExcessLicence

        return list(db.session.scalars(select(ExcessLicence.code))) or ["nao-existe"]
    return None


# Routes the object walkers leave out: no object behind them, or a signed token instead of an id.
OBJECT_URL_SKIP = {
    "static",
    "auth.confirm_email",
    "auth.reset_password",
    "auth.claim_account",
    "main.set_language",
    "animals.register",
    "licences.request",  # its argument is the step of the citizen's own draft, not an object
}


def object_urls(app: Any, world: World) -> list[tuple[str, str, str]]:
    """(endpoint, method, url) for every route with arguments, filled with the victim's values."""
    from itertools import product

    from werkzeug.routing import IntegerConverter

    ids = world.ids
    out = []
    for rule in app.url_map.iter_rules():
        if not rule.arguments or rule.endpoint in OBJECT_URL_SKIP or rule.rule.startswith("/api/"):
            continue
        values: dict[str, list] = {}
        for arg in rule.arguments:
            conv = isinstance(rule._converters.get(arg), IntegerConverter)
            if conv:
                values[arg] = list(ids) if len(rule.arguments) == 1 else list(range(1, 8))
            elif arg == "rga":
                values[arg] = world.rgas
            elif arg == "token":
                values[arg] = [f.token for f in world.private_files]
            elif arg == "variant":
                values[arg] = ["original", "medium"]
            elif arg == "number":
                values[arg] = world.rgas
            elif (named := named_argument_values(app, rule, arg)) is not None:
                values[arg] = named
            else:
                raise AssertionError(f"unknown argument {arg} in {rule.rule}")
        for combo in product(*values.values()):
            kwargs = dict(zip(values.keys(), combo, strict=True))
            if rule.endpoint == "files.serve":
                stored = next(f for f in world.private_files if f.token == kwargs["token"])
                if kwargs["variant"] not in stored.variants:
                    kwargs["variant"] = next(iter(stored.variants))
            url = rule.build(kwargs, append_unknown=False)[1]
            for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                out.append((rule.endpoint, method, url))
    return sorted(set(out))


# -- browser tests: axe-core, the live server, signing up and in by the Portuguese labels ---------

AXE_JS = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"
BROWSER_PASSWORD = "gato-e-cachorro-2024"


class LiveServer:
    """The portal served from a thread (tests/browser/conftest.py's ``live_server``)."""

    def __init__(self, app: Any, url: str) -> None:
        self.app = app
        self.url = url


def page_width(page: Any) -> int:
    """The page's scroll width once its document has loaded (a sideways-scroll check).

    Waiting for the load state first: right after a click that navigates, the old document may
    already be gone and the new one not yet parsed (``documentElement`` is null for a moment).
    """
    page.wait_for_load_state("load")
    page.wait_for_function("document.documentElement !== null && document.body !== null")
    return int(page.evaluate("document.documentElement.scrollWidth"))


def run_axe(page: Any) -> list[dict]:
    """axe-core's WCAG 2.1 A/AA violations on the current page.

    axe is evaluated through the DevTools protocol rather than added as a <script> tag: the
    portal's Content-Security-Policy (``script-src 'self'``) rightly blocks inline scripts, and the
    audit must run against the page exactly as served, CSP included.
    """
    if not page.evaluate("typeof axe !== 'undefined'"):  # once per document, not per audit
        page.evaluate(_axe_source())
    result = page.evaluate(
        """async () => await axe.run(document, {runOnly: {type: 'tag',
             values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})"""
    )
    return [
        {"id": v["id"], "help": v["help"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in result["violations"]
    ]


@functools.cache
def _axe_source() -> str:
    import pytest

    if not AXE_JS.exists():
        pytest.fail(f"{AXE_JS} is missing: run `make assets` (npm ci) first", pytrace=False)
    return AXE_JS.read_text(encoding="utf-8")


def password_field(page: Any) -> Any:
    # A password input has no ARIA role to look it up by name; its label reads "Senha *".
    return page.get_by_label(re.compile("^Senha"))


def fill_signup(page: Any, *, cpf: str, email: str, name: str = "Maria da Silva Souza") -> None:
    """Fill the sign-up form the way a person does: by the Portuguese labels."""
    from playwright.sync_api import expect

    page.get_by_role("textbox", name="Nome completo").fill(name)
    page.get_by_role("textbox", name="CPF", exact=True).fill(
        f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}"
    )
    page.get_by_label("Data de nascimento").fill("1985-03-21")
    page.get_by_role("textbox", name="E-mail").fill(email)
    page.get_by_role("textbox", name="Telefone").fill("(11) 98765-4321")
    password_field(page).fill(BROWSER_PASSWORD)
    page.get_by_label(re.compile("^Repita a senha")).fill(BROWSER_PASSWORD)
    # gov.br DS draws the box on the label (the input itself is transparent): click what shows.
    page.get_by_text("Li e aceito o aviso de privacidade (LGPD)").click()
    expect(
        page.get_by_role("checkbox", name="Li e aceito o aviso de privacidade (LGPD)")
    ).to_be_checked()


def log_in(page: Any, base: str, email: str, password: str = BROWSER_PASSWORD) -> None:
    page.goto(base + "/conta/entrar")
    page.get_by_role("textbox", name="E-mail").fill(email)
    password_field(page).fill(password)
    page.get_by_role("main").get_by_role("button", name="Entrar").click()


def pdf_page_lines(data: bytes) -> list[list[str]]:
    """The text lines reportlab drew on each page of a PDF, in drawing order (no poppler needed):
    the strings shown by each page's Tj operators. Streams without text (images) are skipped."""
    pages = []
    for raw in re.findall(rb"stream\r?\n(.*?)endstream", data, re.S):
        raw = raw.strip()
        try:
            content = zlib.decompress(base64.a85decode(raw, adobe=True))
        except (ValueError, zlib.error):
            try:
                content = zlib.decompress(raw)
            except zlib.error:
                content = raw
        if b"BT" not in content or b"Tj" not in content:
            continue
        lines = []
        for shown in re.findall(rb"\(((?:\\.|[^\\)])*)\)\s*Tj", content, re.S):
            text = re.sub(
                rb"\\([0-7]{1,3}|.)",
                lambda m: bytes([int(m.group(1), 8)]) if m.group(1).isdigit() else m.group(1),
                shown,
            )
            lines.append(text.decode("latin-1").strip())
        pages.append([line for line in lines if line])
    return pages


def follow_mailed_link(page: Any, base: str, email: str, path: str) -> None:
    """Open the dev mailbox and follow the newest link to ``path`` sent to ``email``."""
    from playwright.sync_api import expect

    page.goto(base + "/dev/caixa-de-email")
    mail = page.locator("article.portal-mail", has_text=email).first
    expect(mail).to_be_visible()
    link = mail.locator(f"a[href*='{path}']").first
    assert (link.get_attribute("href") or "").startswith(base + path)
    link.click()


def sign_up_and_activate(page: Any, base: str, *, cpf: str, email: str) -> None:
    """Sign-up as a new person goes through: the form, the mailed link, then the password."""
    from playwright.sync_api import expect

    page.goto(base + "/conta/cadastro")
    fill_signup(page, cpf=cpf, email=email)
    page.get_by_role("button", name="Criar conta").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Confira seu e-mail")
    follow_mailed_link(page, base, email, "/conta/confirmar/")
    expect(page.locator("#mensagens")).to_contain_text("E-mail confirmado.")
    log_in(page, base, email)
    expect(page.locator("#mensagens")).to_contain_text("Bem-vindo(a)")
