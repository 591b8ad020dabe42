"""Demo data for impound (``flask seed-demo``): animals in custody so ``make run`` shows the kennel
list, the owner's capture and the public "Animais recolhidos" page.

* Thor, the demo citizen's dog, caught yesterday with his RGA tag: reclaimable online.
* An untagged dog caught 20 days ago: its deadline has passed (staff decide the destination).
* An untagged cat caught two days ago, with a photo, on the public page.

Safe to run again: each capture is found by its demo note and skipped when present.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime, time, timedelta

from sqlalchemy import select

from portal.extensions import db
from portal.models import Animal, Capture, User

from .capture import CaptureData, record_capture

DEMO_NOTE = "Demonstração {n}"


def _photo(color: tuple[int, int, int]) -> io.BytesIO:
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (480, 360), color).save(buffer, "JPEG")
    buffer.seek(0)
    return buffer


def _specs(thor: Animal | None) -> list[dict[str, object]]:
    specs: list[dict[str, object]] = [
        {
            "n": 2,
            "days_ago": 20,
            "species": "dog",
            "size": "medium",
            "color": "Preto com manchas brancas",
            "place": "Praça Getúlio Vargas, em frente ao coreto",
            "district": "Centro",
        },
        {
            "n": 3,
            "days_ago": 2,
            "species": "cat",
            "size": "small",
            "color": "Cinza rajado",
            "place": "Rua Sete de Setembro, 300",
            "district": "Vila Galvão",
            "photo": (120, 120, 130),
        },
    ]
    if thor is not None:
        specs.insert(
            0,
            {
                "n": 1,
                "days_ago": 1,
                "species": "dog",
                "size": thor.size or "medium",
                "color": thor.color or "Caramelo",
                "place": "Avenida Paulo Faccini, 1000",
                "district": "Macedo",
                "tag_read": thor.rga,
                "photo": (196, 150, 90),
            },
        )
    return specs


def seed_impound_demo() -> None:
    """Three captures in custody (see the module docstring); skipped when already there."""
    from portal.services.clock import current_profile, local_today, tz

    agent = db.session.scalar(select(User).where(User.email == "agente@demo.ccz"))
    if agent is None:
        return
    citizen = db.session.scalar(select(User).where(User.email == "cidada@demo.ccz"))
    thor = (
        db.session.scalar(
            select(Animal).where(Animal.owner_id == citizen.id, Animal.name == "Thor")
        )
        if citizen
        else None
    )
    profile = current_profile()
    today = local_today()
    for spec in _specs(thor):
        note = DEMO_NOTE.format(n=spec["n"])
        if db.session.scalar(select(Capture.id).where(Capture.condition_note == note)):
            continue
        day = today - timedelta(days=int(spec["days_ago"]))  # type: ignore[call-overload]
        local = datetime.combine(day, time(9, 30), tzinfo=tz())
        photo = spec.get("photo")
        data = CaptureData(
            species=str(spec["species"]),
            size=str(spec["size"]),
            sex="male",
            color=str(spec["color"]),
            place=str(spec["place"]),
            district=str(spec["district"]),
            captured_at=local.astimezone(UTC),
            captured_on=day,
            reason="loose",
            condition="good",
            tag_read=str(spec["tag_read"]) if spec.get("tag_read") else None,
            condition_note=note,
            photos=[(_photo(photo), "demo.jpg")] if photo else [],  # type: ignore[arg-type]
        )
        record_capture(profile, data, agent=agent, today=today)
    db.session.flush()
