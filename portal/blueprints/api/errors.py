"""The API's error shape, and its twin of :func:`portal.views.run_service`, in one place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import jsonify

from portal.domain import DomainError
from portal.views import api_errors, run_service

T = TypeVar("T")


class ApiError(DomainError):
    """Raise from an API view (or a validator it calls) to answer with field errors.

    A DomainError, so that one raised inside :func:`run_api_service` rolls back what the call
    wrote before the answer (an owner record made while checking a registration's body)."""

    def __init__(self, errors: list[dict[str, Any]], status: int = 422) -> None:
        first = errors[0] if errors else error(None, "invalid", "")
        super().__init__(first["field"], first["code"], first["message"])
        self.errors = errors
        self.status = status


def error(field: str | None, code: str, message: str) -> dict[str, Any]:
    return {"field": field, "code": code, "message": message}


def error_response(errors: list[dict[str, Any]], status: int = 422):
    return jsonify(errors=errors), status


def run_api_service(
    call: Callable[[], T],
    *,
    errors: Callable[[DomainError], list[dict[str, Any]]] = api_errors,
    status: int = 422,
    on_conflict: Callable[[], T] | None = None,
) -> T:
    """Every API view's service-runner: :func:`portal.views.run_service` without flashes. Run
    ``call`` and commit, returning its value; or on a DomainError roll back and raise the
    :class:`ApiError` that answers ``{"errors": [...]}`` (``errors`` turns the domain error into
    that list, with ``status``; an ApiError raised by the call is answered as it is).
    ``on_conflict`` answers a concurrent request's unique key, as in ``run_service``."""
    done = run_service(call, show=False, on_conflict=on_conflict)
    if done.error is None:
        return cast(T, done.value)
    if isinstance(done.error, ApiError):
        raise done.error
    raise ApiError(errors(done.error), status) from done.error
