"""The queues' size day by day, for the coordinators' "backlog over time" chart."""

from __future__ import annotations

from datetime import date

from sqlalchemy import String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from portal.extensions import Model


class QueueSnapshot(Model):
    """How many items a queue held, and how many were past their deadline, on one day."""

    __tablename__ = "queue_snapshot"
    __table_args__ = (UniqueConstraint("day", "queue_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    day: Mapped[date] = mapped_column(index=True)
    queue_key: Mapped[str] = mapped_column(String(60))
    count: Mapped[int]
    overdue: Mapped[int]
