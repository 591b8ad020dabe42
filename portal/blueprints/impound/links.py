"""The captures shown on other domains' pages, given to them through the wiring hooks
``captures_for_report`` and ``captures_of_animal`` (so that reports and animals never import the
impound domain, and their templates get the rows from their own views)."""

from __future__ import annotations

from flask import url_for

from portal.blueprints.impound.capture import captures_of_animal
from portal.blueprints.impound.from_report import captures_for_report
from portal.blueprints.impound.labels import status_label
from portal.models import Animal, Capture, MaltreatmentReport
from portal.wiring import CaptureLink


def _links(captures: list[Capture], endpoint: str) -> list[CaptureLink]:
    return [
        CaptureLink(
            c.protocol,
            url_for(endpoint, protocol=c.protocol),
            status_label(c.status),
            c.captured_on,
            c.deadline_on if c.reclaimable else None,
        )
        for c in captures
    ]


def report_capture_links(report: MaltreatmentReport) -> list[CaptureLink]:
    """Staff reading a report: each capture recorded from it, linked to its staff page."""
    return _links(captures_for_report(report), "impound.staff_capture")


def animal_capture_links(animal: Animal) -> list[CaptureLink]:
    """The owner's animal page: its captures while it was theirs, linked to the reclaim page."""
    return _links(captures_of_animal(animal), "impound.my_capture")
