"""Demo data for ``make run``: the demo NGO with published animals and a few CCZ animals.

Idempotent: the NGO is found by CNPJ and each animal by name and owner, so running the seeder again
adds nothing. Photos are drawn with Pillow (no files in the repository, no network).
"""

from __future__ import annotations

import io
import random
from datetime import date, timedelta

from PIL import Image, ImageDraw
from sqlalchemy import select
from stdnum.br import cnpj as cnpj_lib

from portal.blueprints.adoption.listings import change_state, create_listing, listing_data
from portal.blueprints.adoption.photos import add_photo
from portal.extensions import db
from portal.models import (
    Listing,
    ListingState,
    Organization,
    OrganizationMember,
    OrganizationStatus,
    User,
)
from portal.models.base import utcnow
from portal.services.clock import local_today

DEMO_NGO_EMAIL = "ong@demo.ccz"
DEMO_CNPJ_BASE = "112223330001"
DEMO_CNPJ = DEMO_CNPJ_BASE + cnpj_lib.calc_check_digits(DEMO_CNPJ_BASE)

NGO_ANIMALS = [
    # name, species, sex, age (months), size, colour, good with (children, dogs, cats), district,
    # story, drawing colour
    (
        "Paçoca",
        "dog",
        "female",
        30,
        "medium",
        "Caramelo",
        (True, True, False),
        "Centro",
        "Resgatada da rua, carinhosa e brincalhona. Adora passear de coleira.",
        (196, 140, 70),
    ),
    (
        "Bolinha",
        "cat",
        "male",
        8,
        "small",
        "Preto e branco",
        (True, False, True),
        "Vila Galvão",
        "Filhote curioso que ronrona no colo. Já usa a caixa de areia.",
        (40, 40, 40),
    ),
    (
        "Trovão",
        "dog",
        "male",
        72,
        "large",
        "Preto",
        (False, True, False),
        "Bonsucesso",
        "Cão adulto e calmo, ótimo guardião. Prefere casa com quintal.",
        (30, 30, 35),
    ),
    (
        "Mel",
        "cat",
        "female",
        24,
        "small",
        "Tricolor",
        (True, True, True),
        "Jardim Tranquilidade",
        "Gata tranquila que convive com cães e gatos. Esperando há bastante tempo.",
        (220, 170, 90),
    ),
]
CCZ_ANIMALS = [
    (
        "Pipoca",
        "dog",
        "female",
        12,
        "small",
        "Branca",
        (True, True, True),
        "Pimentas",
        "Recolhida pelo CCZ, muito sociável. Vacinada e castrada.",
        (235, 235, 225),
    ),
    (
        "Tigrão",
        "cat",
        "male",
        48,
        "small",
        "Tigrado",
        (False, False, True),
        "Cumbica",
        "Gato adulto independente, ideal para apartamento.",
        (150, 110, 60),
    ),
]

WAITING_DAYS = [12, 3, 6, 40, 9, 15]  # days since publication, by seed: Mel waits the longest


def demo_photo(species: str, rgb: tuple[int, int, int], seed: int) -> bytes:
    """A friendly drawing of a dog or cat face as a JPEG."""
    rnd = random.Random(seed)
    background = tuple(rnd.randint(170, 235) for _ in range(3))
    img = Image.new("RGB", (800, 600), background)
    draw = ImageDraw.Draw(img)
    cx, cy, r = 400, 320, 170
    if species == "cat":  # pointed ears
        draw.polygon([(cx - 150, cy - 90), (cx - 120, cy - 250), (cx - 30, cy - 150)], fill=rgb)
        draw.polygon([(cx + 150, cy - 90), (cx + 120, cy - 250), (cx + 30, cy - 150)], fill=rgb)
    else:  # floppy ears
        ear = tuple(max(c - 40, 0) for c in rgb)
        draw.ellipse([cx - 230, cy - 120, cx - 110, cy + 80], fill=ear)
        draw.ellipse([cx + 110, cy - 120, cx + 230, cy + 80], fill=ear)
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=rgb)
    eye = (255, 255, 255) if sum(rgb) < 200 else (30, 30, 30)
    for dx in (-60, 60):
        draw.ellipse([cx + dx - 18, cy - 50, cx + dx + 18, cy - 14], fill=eye)
    draw.ellipse([cx - 26, cy + 10, cx + 26, cy + 44], fill=(60, 30, 30))
    draw.arc([cx - 50, cy + 30, cx + 50, cy + 90], start=20, end=160, fill=(60, 30, 30), width=6)
    out = io.BytesIO()
    img.save(out, "JPEG", quality=85)
    return out.getvalue()


def _ensure_organization(user: User) -> Organization:
    org = db.session.scalar(select(Organization).where(Organization.cnpj == DEMO_CNPJ))
    if org is None:
        org = Organization(
            legal_name="Associação Patas Amigas de Proteção Animal",
            trade_name="ONG Patas Amigas",
            cnpj=DEMO_CNPJ,
            responsible_name=user.full_name,
            email=user.email,
            phone="11 98888-0000",
            cep="07010000",
            street="Rua dos Protetores",
            number="100",
            district="Centro",
            city="Guarulhos",
            state="SP",
            status=OrganizationStatus.APPROVED,
            requested_by_id=user.id,
            reviewed_at=utcnow(),
        )
        db.session.add(org)
    if all(m.user_id != user.id for m in org.members):
        org.members.append(OrganizationMember(user_id=user.id))
    user.add_role("ngo")
    db.session.flush()
    return org


def _ensure_listing(
    org: Organization | None, author: User | None, spec: tuple, seed: int, on: date
) -> None:
    name, species, sex, months, size, color, (kids, dogs, cats), district, story, rgb = spec
    exists = db.session.scalar(
        select(Listing.id).where(
            Listing.name == name,
            Listing.organization_id == org.id if org else Listing.organization_id.is_(None),
        )
    )
    if exists is not None:
        return
    data = listing_data(
        {
            "name": name,
            "species": species,
            "sex": sex,
            "age_months": months,
            "size": size,
            "color": color,
            "district": district,
            "story": story,
            "temperament": [
                t
                for t, flag in (
                    ("good_with_children", kids),
                    ("good_with_dogs", dogs),
                    ("good_with_cats", cats),
                )
                if flag
            ],
            "vaccinated": True,
            "vaccinated_on": (on - timedelta(days=30)).isoformat(),
            "dewormed": True,
            "dewormed_on": (on - timedelta(days=20)).isoformat(),
            "sterilized": months >= 6,
            "held_since": (on - timedelta(days=10 + seed)).isoformat() if org is None else None,
        },
        on,
    )
    listing = create_listing(org, author, data)
    for i in range(2 if seed % 2 == 0 else 1):
        add_photo(
            listing,
            io.BytesIO(demo_photo(species, rgb, seed * 10 + i)),
            f"{name.lower()}-{i + 1}.jpg",
            author.id if author else None,
        )
    change_state(listing, ListingState.PUBLISHED, author)
    # Spread the publication dates so "oldest waiting" shows a different order from "newest".
    listing.published_at = utcnow() - timedelta(days=WAITING_DAYS[seed % len(WAITING_DAYS)])
    db.session.flush()


def seed_adoption_demo() -> None:
    """The demo NGO (ong@demo.ccz) with its animals, and a couple of CCZ animals."""
    from portal.blueprints.auth.services import find_by_email

    user = find_by_email(DEMO_NGO_EMAIL)
    if user is None:
        return
    org = _ensure_organization(user)
    on = local_today()
    for seed, spec in enumerate(NGO_ANIMALS):
        _ensure_listing(org, user, spec, seed, on)
    staff = find_by_email("agente@demo.ccz")
    for seed, spec in enumerate(CCZ_ANIMALS, start=len(NGO_ANIMALS)):
        _ensure_listing(None, staff, spec, seed, on)
    db.session.flush()
