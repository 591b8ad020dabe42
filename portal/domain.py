"""The one error every domain rule raises: which input it concerns, a stable code, a message.

Views show ``message`` next to ``field`` (or as a flash when ``field`` is None); the API answers
``{"errors": [{"field", "code", "message"}]}`` with the same three values (``as_api``)."""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    def __init__(self, field: str | None, code: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.code = code
        self.message = message

    def as_api(self) -> dict[str, Any]:
        return {"field": self.field, "code": self.code, "message": self.message}

    def show_on(self, form: Any) -> bool:
        """Attach the message to the form's field; False when the form has no such field."""
        if self.field and self.field in getattr(form, "_fields", {}):
            form[self.field].errors = [*form[self.field].errors, self.message]
            return True
        return False
