"""The adoption domain's errors: a :class:`portal.domain.DomainError` with the field, a stable
code and a Portuguese message (views show it next to the field or as a flash; the API answers
``{"errors": [{"field", "code", "message"}]}``)."""

from __future__ import annotations

from portal.domain import DomainError


class AdoptionError(DomainError):
    """A rule refused the action. ``field`` names the input it concerns (None: the whole form)."""


class InvalidData(AdoptionError):
    """Several field errors at once: ``errors`` is a list of (field, code, message); the first
    one is also the error's own field, code and message."""

    def __init__(self, errors: list[tuple[str, str, str]]) -> None:
        super().__init__(*errors[0])
        self.errors = errors

    def as_api_list(self) -> list[dict[str, str | None]]:
        return [{"field": f, "code": c, "message": m} for f, c, m in self.errors]
