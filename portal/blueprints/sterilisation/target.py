"""The programme's yearly target (VV 10 §1): "nos três primeiros anos deverão ser esterilizados no
mínimo 10% (dez por cento), a cada ano [...] tendo como base o total dos cães e gatos estimados no
Município".

The law gives the share; the estimate is the CCZ's, one per year, kept here by the staff (with its
source). The target is the share of the estimate rounded up ("no mínimo": 10 % of 1,005 animals is
101 castrations); the progress counts the programme's castrations of that calendar year. The law
does not say when the intensive programme began, and after its third year asks for "porcentagem
suficiente" with no number (VV 10 §2): the portal shows the share as the reference every year and
says so on the rules page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.sterilisation.services import SterilisationError, year_count
from portal.extensions import db
from portal.models import SterilisationEstimate, User
from portal.profiles.schema import Profile
from portal.services import audit

MAX_ESTIMATE = 10_000_000  # more dogs and cats than any Brazilian city has: a typo
FIRST_YEAR = 2000  # estimates before the portal's laws (2004-2010) serve no target


@dataclass(frozen=True)
class YearProgress:
    """One year of the programme against its target."""

    year: int
    done: int
    estimate: SterilisationEstimate | None
    percent: int
    article: str

    @property
    def target(self) -> int | None:
        """At least ``percent`` of the estimate, rounded up; None without an estimate."""
        if self.estimate is None:
            return None
        return -(-self.estimate.dogs_and_cats * self.percent // 100)

    @property
    def reached(self) -> bool:
        return self.target is not None and self.done >= self.target

    @property
    def missing(self) -> int:
        return max((self.target or 0) - self.done, 0)


def applies(profile: Profile) -> bool:
    """True where the law sets a yearly share (VV 10 §1)."""
    rule = profile.sterilisation
    return rule is not None and rule.annual_target_percent is not None


def estimate_for(year: int) -> SterilisationEstimate | None:
    return db.session.scalar(
        select(SterilisationEstimate).where(SterilisationEstimate.year == year)
    )


def progress(profile: Profile, year: int) -> YearProgress | None:
    """The year's castrations against its target; None where the law sets no target."""
    rule = profile.sterilisation
    if rule is None or rule.annual_target_percent is None:
        return None
    return YearProgress(
        year=year,
        done=year_count(year),
        estimate=estimate_for(year),
        percent=rule.annual_target_percent,
        article=rule.cite("annual_target_percent"),
    )


def history(profile: Profile, today: date) -> list[YearProgress]:
    """This year and every year with an estimate, newest first."""
    years = set(db.session.scalars(select(SterilisationEstimate.year))) | {today.year}
    found = [progress(profile, year) for year in sorted(years, reverse=True)]
    return [p for p in found if p is not None]


def save_estimate(
    profile: Profile,
    *,
    year: int | None,
    dogs_and_cats: int | None,
    source: str,
    staff: User,
    today: date,
) -> SterilisationEstimate:
    """Record (or correct) the estimate of dogs and cats for ``year``. Raises SterilisationError."""
    if not applies(profile):
        raise SterilisationError(
            None, "no_target", _("A lei deste município não fixa meta anual de castrações.")
        )
    if year is None or not FIRST_YEAR <= year <= today.year + 1:
        raise SterilisationError(
            "year",
            "invalid_year",
            _("Informe um ano de %(first)d a %(last)d.", first=FIRST_YEAR, last=today.year + 1),
        )
    if dogs_and_cats is None or not 1 <= dogs_and_cats <= MAX_ESTIMATE:
        raise SterilisationError(
            "dogs_and_cats",
            "invalid_estimate",
            _("Informe a estimativa de cães e gatos, de 1 a 10.000.000."),
        )
    if not source.strip():
        raise SterilisationError(
            "source",
            "required",
            _("Informe a fonte da estimativa (censo animal, proporção por habitantes…)."),
        )
    estimate = estimate_for(year)
    previous = estimate.dogs_and_cats if estimate is not None else None
    if estimate is None:
        estimate = SterilisationEstimate(year=year, dogs_and_cats=dogs_and_cats, source="")
        db.session.add(estimate)
    estimate.dogs_and_cats = dogs_and_cats
    estimate.source = source.strip()[:300]
    estimate.set_by_id = staff.id
    estimate.updated_at = datetime.now(UTC)
    db.session.flush()
    audit.record(
        "sterilisation.estimate_set",
        estimate,
        detail={"year": year, "dogs_and_cats": dogs_and_cats, "previous": previous},
        actor_id=staff.id,
    )
    return estimate
