"""The staff workspace's queues: each domain declares what needs doing; the workspace shows it.

A :class:`Queue` is a declaration — its title, the roles that work it, the rows in it (a
``select``), when each row is due and where a person acts on it. From it the workspace makes a
card on the staff home ("Painel do CCZ": count, oldest item's age, how many are past their
deadline), a list with filters, sort by deadline, keyset pagination and a CSV export, and bulk
actions where the domain offers one. A domain adds a queue by declaring it in its own
``declare_queues(registry)``; ``create_app`` wires those functions explicitly
(``portal.blueprints.workspace.init_workspace``), so no queue appears by import side effect.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import click
from flask import Flask, current_app
from flask_babel import lazy_gettext as _l
from sqlalchemy import Date, Select, and_, case, func, or_, select
from sqlalchemy.sql.elements import ColumnElement

from portal.extensions import db
from portal.services.relative_days import days_between

PAGE_SIZE = 50


@dataclass(frozen=True)
class Column:
    """One column of the queue's list and CSV: a label and how to read it off a row."""

    label: Any
    value: Callable[[Any], Any]


@dataclass(frozen=True)
class Filter:
    """A choice that narrows the list (query-string ``name``); ``apply`` adds the condition."""

    name: str
    label: Any
    choices: Callable[[], Sequence[tuple[str, Any]]]
    apply: Callable[[Select[Any], str], Select[Any]]


@dataclass(frozen=True)
class BulkAction:
    """An action staff may run on many selected rows at once (e.g. second copies).

    ``run(rows, actor)`` does the work through the domain's services and returns how many rows it
    changed; the workspace commits once and tells the person."""

    label: Any
    run: Callable[[list[Any], Any], int]
    roles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Queue:
    """What a domain declares to put a list of work in front of staff.

    * ``rows``: the ``select`` of the queue's entities (joins and conditions included).
    * ``since``: a non-null column: when the item entered the queue (its age).
    * ``order``: a non-null column to sort by, most urgent first (the deadline where there is one).
    * ``overdue``: a condition true for the rows past their deadline (computed at call time, so it
      may read today's date); ``None`` where the work has no deadline.
    * ``due``: the deadline of one row, shown in the list.
    * ``link``: where a person acts on one row.
    """

    key: str
    title: Any
    roles: tuple[str, ...]
    entity: Any  # the mapped class; its ``id`` breaks ties in the sort
    rows: Callable[[], Select[Any]]
    since: Any
    order: Any
    link: Callable[[Any], str]
    columns: tuple[Column, ...]
    overdue: Callable[[], ColumnElement[bool]] | None = None
    due: Callable[[Any], date | datetime | None] | None = None
    filters: tuple[Filter, ...] = ()
    bulk: BulkAction | None = None
    description: Any = None
    personal_data: bool = True  # listing it is a view of personal data: audited
    # Roles that act on the rows (empty: every role in ``roles``). The others may open the list
    # but get no tile on the Painel, only ``acted_by_note`` in one line (issue 25: an agent saw a
    # triage queue they could not act on, with no reason).
    acted_by: tuple[str, ...] = ()
    acted_by_note: Any = None

    def acts(self, user: Any) -> bool:
        return not self.acted_by or user.has_role(*self.acted_by)


def my_id() -> int | None:
    """The signed-in person's id, for a "my ..." queue's ``rows``; None outside a request (the
    nightly snapshot), where such a queue is empty."""
    from flask_login import current_user

    return getattr(current_user, "id", None) if current_user else None


@dataclass
class QueueStats:
    queue: Queue
    count: int
    oldest: datetime | date | None
    overdue: int

    @property
    def oldest_days(self) -> int | None:
        """Local calendar days since the oldest item (the rule the Painel shows as "há 3 dias")."""
        return None if self.oldest is None else days_between(self.oldest)


@dataclass(frozen=True)
class SearchHit:
    """One result of the staff search: how a person names the thing, a detail and where it is."""

    label: str
    detail: str = ""
    url: str | None = None


@dataclass(frozen=True)
class SearchProvider:
    """A kind of thing the staff search finds (people, animals, organisations, protocols).

    ``search(term)`` returns the hits for the typed term, or an empty list when the term is not of
    a shape it searches (an RGA provider ignores an e-mail)."""

    kind: str
    title: Any
    roles: tuple[str, ...]
    search: Callable[[str], list[SearchHit]]


@dataclass(frozen=True)
class Period:
    """The dashboard's filter: an inclusive range of local dates and an optional district."""

    start: date
    end: date
    district: str | None = None


@dataclass
class ChartData:
    """A table: one row per category (e.g. a month), one value per series (e.g. a species)."""

    series: list[Any]
    rows: list[tuple[str, list[int]]]
    unit: str = "count"  # "count", "cents" or "days"

    @property
    def maximum(self) -> int:
        return max((v for _label, values in self.rows for v in values), default=0)

    def bars(self, width: int = 640, height: int = 200) -> list[dict[str, Any]]:
        """Geometry of a grouped bar chart drawn on the server (no script, no CDN): one group
        per row, one bar per series, heights scaled to the largest value."""
        if not self.rows or not self.series:
            return []
        top = self.maximum or 1
        group = width / len(self.rows)
        bar = max(group * 0.8 / len(self.series), 1.0)
        shapes = []
        for i, (label, values) in enumerate(self.rows):
            for j, value in enumerate(values):
                h = round(height * value / top, 1)
                shapes.append(
                    {
                        "x": round(i * group + group * 0.1 + j * bar, 1),
                        "y": round(height - h, 1),
                        "w": round(bar, 1),
                        "h": h,
                        "series": j,
                        "label": label,
                        "value": value,
                    }
                )
        return shapes


@dataclass(frozen=True)
class Chart:
    """A coordinator's chart: ``compute(period)`` gives its table; the page draws it as SVG,
    shows the table and offers it as CSV."""

    key: str
    title: Any
    roles: tuple[str, ...]
    compute: Callable[[Period], ChartData]


@dataclass
class QueueRegistry:
    """What the domains add to the workspace: queues, search providers and charts."""

    queues: dict[str, Queue] = field(default_factory=dict)
    searches: dict[str, SearchProvider] = field(default_factory=dict)
    charts: dict[str, Chart] = field(default_factory=dict)

    def declare_chart(self, chart: Chart) -> None:
        if chart.key in self.charts:
            raise ValueError(f"chart {chart.key!r} declared twice")
        self.charts[chart.key] = chart

    def charts_for(self, user: Any) -> list[Chart]:
        return [c for c in self.charts.values() if user.has_role(*c.roles)]

    def declare(self, queue: Queue) -> None:
        if queue.key in self.queues:
            raise ValueError(f"queue {queue.key!r} declared twice")
        self.queues[queue.key] = queue

    def declare_search(self, provider: SearchProvider) -> None:
        if provider.kind in self.searches:
            raise ValueError(f"search {provider.kind!r} declared twice")
        self.searches[provider.kind] = provider

    def searches_for(self, user: Any) -> list[SearchProvider]:
        return [p for p in self.searches.values() if user.has_role(*p.roles)]

    def get(self, key: str) -> Queue | None:
        return self.queues.get(key)

    def for_user(self, user: Any) -> list[Queue]:
        return [q for q in self.queues.values() if user.has_role(*q.roles)]


def init_registry(app: Flask, declarers: Sequence[Callable[[QueueRegistry], None]]) -> None:
    registry = QueueRegistry()
    for declare in declarers:
        declare(registry)
    registry.declare_chart(
        Chart(
            "filas-ao-longo-do-tempo",
            _l("Filas do CCZ ao longo do tempo"),
            ("coordinator", "admin"),
            backlog,
        )
    )
    app.extensions["workspace_queues"] = registry
    app.cli.add_command(snapshot_queues_command)


def registry() -> QueueRegistry:
    return current_app.extensions["workspace_queues"]


SEARCH_LIMIT = 20


def search_everything(user: Any, term: str) -> list[tuple[SearchProvider, list[SearchHit]]]:
    """The staff search: every provider the person may use, each with its hits (grouped by kind)."""
    term = " ".join(term.split())
    groups = []
    for provider in registry().searches_for(user):
        hits = provider.search(term)[:SEARCH_LIMIT]
        if hits:
            groups.append((provider, hits))
    return groups


def stats(queue: Queue) -> QueueStats:
    """Count, oldest item and overdue count of one queue, in one query."""
    overdue = (
        func.coalesce(func.sum(case((queue.overdue(), 1), else_=0)), 0)
        if queue.overdue is not None
        else None
    )
    columns: list[Any] = [func.count(), func.min(queue.since)]
    if overdue is not None:
        columns.append(overdue)
    row = db.session.execute(
        queue.rows().order_by(None).with_only_columns(*columns, maintain_column_froms=True)
    ).one()
    return QueueStats(queue, int(row[0] or 0), row[1], int(row[2]) if overdue is not None else 0)


def apply_filters(queue: Queue, query: Select[Any], args: dict[str, str]) -> Select[Any]:
    for flt in queue.filters:
        value = (args.get(flt.name) or "").strip()
        if value and value in {choice for choice, _label in flt.choices()}:
            query = flt.apply(query, value)
    if args.get("atrasados") == "1" and queue.overdue is not None:
        query = query.where(queue.overdue())
    return query


def encode_cursor(queue: Queue, row: Any) -> str:
    value = getattr(row, queue.order.key)
    stamp = value.isoformat() if isinstance(value, date | datetime) else str(value)
    return f"{stamp}~{row.id}"


def _decode_value(queue: Queue, text: str) -> Any:
    if isinstance(queue.order.type, Date):
        return date.fromisoformat(text)
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return text


def page(queue: Queue, args: dict[str, str]) -> tuple[list[Any], str | None]:
    """One page of the filtered queue, most urgent first, after the ``apos`` cursor (keyset
    pagination: a deep page costs what the first one does)."""
    query = apply_filters(queue, queue.rows(), args)
    entity_id = queue.entity.id
    cursor = args.get("apos") or ""
    if "~" in cursor:
        stamp, _sep, last_id = cursor.rpartition("~")
        try:
            value, last = _decode_value(queue, stamp), int(last_id)
        except ValueError:
            value, last = None, 0
        if value is not None:
            query = query.where(
                or_(queue.order > value, and_(queue.order == value, entity_id > last))
            )
    rows = list(db.session.scalars(query.order_by(queue.order, entity_id).limit(PAGE_SIZE + 1)))
    following = encode_cursor(queue, rows[PAGE_SIZE - 1]) if len(rows) > PAGE_SIZE else None
    return rows[:PAGE_SIZE], following


def all_rows(queue: Queue, args: dict[str, str]) -> Iterator[Any]:
    """Every row of the filtered queue (for the CSV), fetched in chunks."""
    query = apply_filters(queue, queue.rows(), args).order_by(queue.order, queue.entity.id)
    result = db.session.scalars(query.execution_options(yield_per=500))
    try:
        yield from result
    finally:  # an export abandoned half-way must not leave a server-side cursor open
        result.close()


def selected_rows(queue: Queue, ids: Sequence[int]) -> list[Any]:
    """The rows with these ids that are still in the queue (a row may have left it meanwhile)."""
    if not ids:
        return []
    return list(db.session.scalars(queue.rows().where(queue.entity.id.in_(list(ids)))))


def months(period: Period) -> list[str]:
    """Every "AAAA-MM" from the period's first month to its last."""
    labels, year, month = [], period.start.year, period.start.month
    while (year, month) <= (period.end.year, period.end.month):
        labels.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return labels


def month_key(day: date | datetime) -> str:
    return f"{day.year:04d}-{day.month:02d}"


def monthly(
    period: Period,
    series: Sequence[tuple[str, Any]],
    counts: dict[tuple[str, str], int],
    unit: str = "count",
) -> ChartData:
    """A month-by-series table from ``{(month, series key): value}`` and ``(key, label)`` pairs,
    with zeros where nothing happened (an empty month is a fact too)."""
    return ChartData(
        [label for _key, label in series],
        [(m, [counts.get((m, key), 0) for key, _label in series]) for m in months(period)],
        unit,
    )


def snapshot_queues(day: date) -> int:
    """Record every queue's size for ``day`` (once a day; a second run that day updates it)."""
    from portal.models import QueueSnapshot

    written = 0
    for queue in registry().queues.values():
        numbers = stats(queue)
        row = db.session.scalar(
            select(QueueSnapshot).where(
                QueueSnapshot.day == day, QueueSnapshot.queue_key == queue.key
            )
        )
        if row is None:
            row = QueueSnapshot(day=day, queue_key=queue.key)
            db.session.add(row)
        row.count, row.overdue = numbers.count, numbers.overdue
        written += 1
    db.session.commit()
    return written


def backlog(period: Period) -> ChartData:
    """All queues together, day by day: items waiting and items past their deadline."""
    from portal.models import QueueSnapshot

    totals: dict[date, list[int]] = {}
    for day, count, overdue in db.session.execute(
        select(QueueSnapshot.day, QueueSnapshot.count, QueueSnapshot.overdue).where(
            QueueSnapshot.day >= period.start, QueueSnapshot.day <= period.end
        )
    ):
        pair = totals.setdefault(day, [0, 0])
        pair[0] += count
        pair[1] += overdue
    return ChartData(
        [_l("Itens nas filas"), _l("Com prazo vencido")],
        [(d.strftime("%d/%m/%Y"), totals[d]) for d in sorted(totals)],
    )


@click.command("snapshot-queues")
def snapshot_queues_command() -> None:
    """Record today's size of every staff queue (run daily, e.g. right after run-reminders)."""
    from portal.services.clock import local_today

    click.echo(f"{snapshot_queues(local_today())} filas registradas")
