"""Small factories and the helpers tests share: valid people with unique CPFs and e-mails, animals,
payment items, NGOs, listings, applicant documents, image and PDF bytes.

A helper used by more than one test module lives here, not in a conftest or a test module."""

from __future__ import annotations

import base64
import io
import itertools
import re
import zlib
from datetime import date, timedelta
from typing import Any

from flask import g
from PIL import Image
from stdnum.br import cnpj as cnpj_lib
from stdnum.br import cpf as cpf_lib

from portal.blueprints.auth.services import hash_password
from portal.extensions import db
from portal.models import (
    Animal,
    ApplicantDocument,
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
_hash_cache: dict[str, str] = {}


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
    if password not in _hash_cache:
        _hash_cache[password] = hash_password(password)
    return _hash_cache[password]


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
    ``orientation`` the EXIF Orientation tag is set (6 = rotate 90° clockwise to display)."""
    image = Image.effect_noise(size, 80).convert("RGB") if noise else Image.new("RGB", size, color)
    # A marker in the top-left corner, to see where it ends up after the orientation is applied.
    for x in range(size[0] // 4):
        for y in range(size[1] // 4):
            image.putpixel((x, y), (255, 0, 0))
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


def eligible_person(**fields: object) -> User:
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
