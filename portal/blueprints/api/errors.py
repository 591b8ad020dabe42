"""The API's error shape, in one place."""

from __future__ import annotations

from typing import Any

from flask import jsonify


class ApiError(Exception):
    """Raise from an API view (or a validator it calls) to answer with field errors."""

    def __init__(self, errors: list[dict[str, Any]], status: int = 422) -> None:
        super().__init__(errors)
        self.errors = errors
        self.status = status


def error(field: str | None, code: str, message: str) -> dict[str, Any]:
    return {"field": field, "code": code, "message": message}


def error_response(errors: list[dict[str, Any]], status: int = 422):
    return jsonify(errors=errors), status
