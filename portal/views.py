"""The view pattern every domain repeats, written once: call the service; on a
:class:`~portal.domain.DomainError` roll back and show it; otherwise commit and confirm.

::

    done = run_service(
        lambda: services.refuse(licence, staff, form.reason.data, today=today),
        form=form,
        success=_("Pedido recusado."),
    )
    if done.ok:
        return redirect(url_for(...))
    return render_template(...)  # the form keeps what was typed, with the messages

A problem with a field goes next to that field on ``form`` (``fallback`` names the field that takes
the problems the form has no field for); the others become flash messages (``error_category``,
"danger" unless the page says "warning"), or go into ``errors`` (the dict a template lists above
the form) when the view passes one. An API view runs its service through the twin of this runner,
:func:`portal.blueprints.api.errors.run_api_service`, which answers :func:`api_errors` in
``{"errors": [{"field", "code", "message"}]}``; ``on_conflict`` answers a race on a unique key.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from flask import current_app, flash, render_template, request
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from portal.domain import DomainError
from portal.extensions import db

T = TypeVar("T")


def problems(err: DomainError) -> list[DomainError]:
    """Every problem an error carries. A domain that reports several at once keeps them in
    ``errors`` (DomainErrors, or ``(field, code, message)`` tuples); otherwise the error itself."""
    gathered = getattr(err, "errors", None)
    if not gathered:
        return [err]
    return [item if isinstance(item, DomainError) else DomainError(*item) for item in gathered]


def show_error(
    err: DomainError,
    form: Any = None,
    errors: dict[str, list[str]] | None = None,
    fallback: str | None = None,
    category: str = "danger",
) -> None:
    """Each problem next to its field on ``form`` (or next to the ``fallback`` field when the form
    has none of that name); the rest in ``errors`` or as flash messages of ``category``."""
    for problem in problems(err):
        if form is not None and fallback is not None and problem.field not in form._fields:
            problem = DomainError(fallback, problem.code, problem.message)
        if form is not None and problem.show_on(form):
            continue
        if errors is not None:
            errors.setdefault(problem.field or "", []).append(problem.message)
        else:
            flash(problem.message, category)


def api_errors(err: DomainError) -> list[dict[str, Any]]:
    """The API's ``errors`` list for a domain error."""
    return [problem.as_api() for problem in problems(err)]


@dataclass
class Outcome(Generic[T]):
    """What :func:`run_service` did: the service's return value, or the error it raised."""

    value: T | None = None
    error: DomainError | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def run_service(
    call: Callable[[], T],
    *,
    form: Any = None,
    errors: dict[str, list[str]] | None = None,
    fallback: str | None = None,
    success: str | Callable[[T], str] | None = None,
    show: bool = True,
    error_category: str = "danger",
    success_category: str = "success",
    before_rollback: Callable[[], object] | None = None,
    on_conflict: Callable[[], T] | None = None,
) -> Outcome[T]:
    """Run ``call``; commit and flash ``success`` (a text, or a function of the result) as
    ``success_category``, or on a DomainError roll back and show it, flashed as ``error_category``
    when no field takes it (unless ``show`` is False: the view shows it itself).
    ``before_rollback`` runs first on an error, e.g. to delete the files the call already stored
    while their rows still name them.
    ``on_conflict`` answers a unique key that a concurrent request took first (an IntegrityError
    while the call writes): after the rollback its value is the outcome's, or the DomainError it
    raises is shown like the call's own.

    Only domain errors (and, with ``on_conflict``, that race) are caught: anything else is a bug
    and reaches the error handler."""
    try:
        value = call()
        if on_conflict is not None:
            db.session.flush()  # the unique keys are checked here, inside the race's handler
    except DomainError as err:
        return _refused(err, before_rollback, show, form, errors, fallback, error_category)
    except IntegrityError:
        if on_conflict is None:
            raise
        db.session.rollback()
        try:
            value = on_conflict()
        except DomainError as err:
            return _refused(err, None, show, form, errors, fallback, error_category)
    db.session.commit()
    if success is not None:
        flash(success(value) if callable(success) else success, success_category)
    return Outcome(value=value)


def _refused(
    err: DomainError,
    before_rollback: Callable[[], object] | None,
    show: bool,
    form: Any,
    errors: dict[str, list[str]] | None,
    fallback: str | None,
    category: str,
) -> Outcome[Any]:
    if before_rollback is not None:
        before_rollback()
    db.session.rollback()
    if show:
        show_error(err, form, errors, fallback, category)
    return Outcome(error=err)


MAX_PAGE = 100_000  # a page past this is a typo or a probe: an OFFSET that big fails on PostgreSQL


def requested_page(args: Any = None) -> int:
    """The ``?page=`` of a paginated list: 1 when absent or not a number, at most MAX_PAGE."""
    source = request.args if args is None else args
    return min(max(source.get("page", 1, type=int) or 1, 1), MAX_PAGE)


def cpf_query_page(status: int = 200) -> Response:
    """The page for a CPF typed where an RGA number is expected (the header search on the home
    page, the RGA lookup of animals): shared here so that neither domain imports the other."""
    response = current_app.make_response((render_template("main/cpf_query.html"), status))
    # The page's own URL may hold the CPF: keep it out of the Referer of its assets and links.
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["Cache-Control"] = "no-store"
    return response
