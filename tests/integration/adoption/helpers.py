"""Builders for adoption tests: real JPEG files, NGOs, listings with photos, eligible adopters."""

from __future__ import annotations

import io
from datetime import date, timedelta

from PIL import Image
from stdnum.br import cnpj as cnpj_lib

from portal.blueprints.adoption import services as svc
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
    User,
)
from portal.models.base import utcnow
from portal.services.identity import residence_key
from tests import factories

_cnpj_counter = iter(range(1, 10**6))


def make_cnpj() -> str:
    base = f"{next(_cnpj_counter):08d}0001"
    return base + cnpj_lib.calc_check_digits(base)


def jpeg_bytes(size: tuple[int, int] = (640, 480), color: tuple[int, int, int] = (200, 120, 40),
               *, gps: bool = False, orientation: int | None = None,
               fmt: str = "JPEG", noise: bool = False) -> bytes:
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


def make_org(*members: User, approved: bool = True, name: str | None = None,
             email: str = "ong@example.org") -> Organization:
    n = next(_cnpj_counter)
    org = Organization(legal_name=name or f"ONG Teste {n}", cnpj=make_cnpj(),
                       responsible_name="Responsável", email=email,
                       status=OrganizationStatus.APPROVED if approved
                       else OrganizationStatus.PENDING)
    for member in members:
        org.members.append(OrganizationMember(user_id=member.id))
        if approved:
            member.add_role("ngo")
    db.session.add(org)
    db.session.flush()
    return org


def ngo_user(org_name: str | None = None) -> tuple[User, Organization]:
    user = factories.user(roles=("citizen",))
    return user, make_org(user, name=org_name)


LISTING_DEFAULTS = {
    "name": "Paçoca", "species": "dog", "sex": "female", "age_months": 24, "size": "medium",
    "color": "Caramelo", "district": "Centro", "story": "Carinhosa.",
    "vaccinated": True, "dewormed": True, "sterilized": True,
}


def make_listing(org: Organization | None = None, *, state: str = ListingState.PUBLISHED,
                 photos: int = 1, author: User | None = None, on: date | None = None,
                 **fields: object) -> Listing:
    on = on or date.today()
    data = svc.listing_data({**LISTING_DEFAULTS, **fields}, on)
    listing = svc.create_listing(org, author, data)
    for i in range(photos):
        svc.add_photo(listing, io.BytesIO(jpeg_bytes(color=(40 * i % 255, 90, 160))),
                      f"foto{i}.jpg", author.id if author else None)
    if state != ListingState.DRAFT:
        svc.change_state(listing, ListingState.PUBLISHED, author)
        if state != ListingState.PUBLISHED:
            listing.state = state
    db.session.flush()
    return listing


def add_document(person: User, kind: str, *, status: str = DocumentStatus.ACCEPTED,
                 issued_on: date | None = None, on: date | None = None,
                 pdf: bool = True) -> ApplicantDocument:
    on = on or date.today()
    if kind == DocumentKind.PROOF_OF_ADDRESS and issued_on is None:
        issued_on = on - timedelta(days=10)
    data = b"%PDF-1.4\n% comprovante de teste\n" if pdf else jpeg_bytes()
    doc = svc.upload_document(person, kind, io.BytesIO(data), f"{kind}.pdf", issued_on,
                              max(on, issued_on or on))
    doc.status = status
    if status == DocumentStatus.REFUSED:
        doc.refusal_reason = "Ilegível."
    db.session.flush()
    return doc


def eligible_person(**fields: object) -> User:
    """An adult citizen with a complete address and the three proofs accepted."""
    person = factories.user(**fields)
    for kind in (DocumentKind.IDENTITY, DocumentKind.PROOF_OF_ADDRESS,
                 DocumentKind.PROOF_OF_INCOME):
        add_document(person, kind)
    return person


def fill_household(person: User, count: int, *, on: date | None = None) -> None:
    """Put ``count`` adult registered dogs at the person's residence (for the household limit)."""
    on = on or date.today()
    owner = factories.user(cep=person.cep, street=person.street, number=person.number,
                           complement=person.complement)
    key = residence_key(person.cep, person.street, person.number, person.complement)
    for i in range(count):
        db.session.add(Animal(
            rga=f"C-2026-{900000 + owner.id * 10 + i:06d}-0", species="dog", name=f"Cão {i}",
            sex="male", birth_date=on - timedelta(days=800), size="medium",
            registered_on=on, owner=owner, residence_key=key, activated_at=utcnow()))
    db.session.flush()
