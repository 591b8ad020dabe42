"""Public search of published listings: filters from the URL, keyset pagination.

Pages are cut with a cursor on ``(published_at, id)`` instead of OFFSET, so page 500 costs what
page 1 costs: the database walks the composite index ``(state, published_at, id)`` (or
``(state, species, published_at, id)``) from the cursor on. ``bench/adoption_search.py`` times this
with 100 000 listings.

The same :class:`SearchFilters` serve the web page and ``GET /api/v1/listings``; every filter is a
query-string parameter, so a search can be shared as a link.

The free-text box (``q``) is read the way a person writes: words that name a species ("gatos",
"cão", "cachorro"), a sex ("fêmea"), a size ("pequeno") or a puppy ("filhote") become those filters
(so "cachorro" finds dogs, not a cat whose story mentions dogs); every other word must appear in
the listing's name, colour, breed, neighbourhood or story (``Listing.search_text``). PostgreSQL
answers that with its Portuguese full-text index (stemmed prefixes: "pretos" finds "preta");
SQLite, which has no such index here, with a LIKE on a crude stem of each word.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from datetime import date, datetime

from flask_babel import gettext as _
from sqlalchemy import (
    ColumnElement,
    Select,
    and_,
    func,
    literal_column,
    select,
    tuple_,
    update,
)
from sqlalchemy.orm import selectinload

from portal.blueprints.adoption.listings import SEXES, SIZES, SPECIES, district_key
from portal.domain import DomainError
from portal.extensions import db
from portal.models import Listing, ListingState, Organization, OrganizationStatus
from portal.services.dates import add_months
from portal.services.identity import _fold as fold_words

PAGE_SIZE = 24
# Counting stops here: "more than 1 000" is as useful to a visitor as the exact number, and an
# exact count of a broad filter over 100 000 rows would cost more than the page itself.
COUNT_CAP = 1000
MAX_PAGE_SIZE = 100
MAX_AGE_YEARS = 30
SORTS = ("newest", "oldest")


class SearchError(DomainError):
    """A filter value that makes no sense; ``field`` names the parameter."""

    field: str


@dataclass(frozen=True)
class SearchFilters:
    species: str | None = None
    sex: str | None = None
    size: str | None = None
    age_min: int | None = None  # completed years
    age_max: int | None = None
    children: bool = False  # good with children
    dogs: bool = False
    cats: bool = False
    owner: str | None = None  # "ccz", "ngo" or an organisation id
    district: str | None = None
    q: str | None = None
    sort: str = "newest"

    def query_args(self, **changes: object) -> dict[str, object]:
        """The filters as URL parameters (only those set), for links that keep the search."""
        data = asdict(replace(self, **changes))  # type: ignore[arg-type]
        args: dict[str, object] = {}
        for key, value in data.items():
            if value in (None, "", False) or (key == "sort" and value == "newest"):
                continue
            args[key] = "1" if value is True else value
        return args

    @property
    def active(self) -> bool:
        return bool(self.query_args(sort="newest"))


def _int_arg(args: Mapping[str, str], name: str, lo: int, hi: int) -> int | None:
    raw = (args.get(name) or "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not lo <= int(raw) <= hi:
        raise SearchError(name, "invalid", _("Use um número de %(lo)d a %(hi)d.", lo=lo, hi=hi))
    return int(raw)


def _flag(args: Mapping[str, str], name: str) -> bool:
    return (args.get(name) or "").strip().lower() in ("1", "true", "on", "sim", "yes")


def parse_filters(args: Mapping[str, str]) -> SearchFilters:
    """Read the filters from query-string parameters. Raises SearchError for a bad value."""

    def choice(name: str, choices: Mapping[str, object] | tuple[str, ...]) -> str | None:
        raw = (args.get(name) or "").strip()
        if not raw:
            return None
        if raw not in choices:
            raise SearchError(
                name,
                "invalid_choice",
                _("Valor inválido: use %(values)s.", values=", ".join(choices)),
            )
        return raw

    owner = (args.get("owner") or "").strip() or None
    # ASCII digits only ("²".isdigit() is true) and short enough for an integer column.
    if (
        owner is not None
        and owner not in ("ccz", "ngo")
        and not (owner.isascii() and owner.isdigit() and len(owner) <= 9)
    ):
        raise SearchError("owner", "invalid_choice", _("Use ccz, ngo ou o número da ONG."))
    age_min = _int_arg(args, "age_min", 0, MAX_AGE_YEARS)
    age_max = _int_arg(args, "age_max", 0, MAX_AGE_YEARS)
    if age_min is not None and age_max is not None and age_min > age_max:
        raise SearchError(
            "age_max", "invalid", _("A idade máxima deve ser maior ou igual à mínima.")
        )
    district = (args.get("district") or "").strip()[:100] or None
    q = (args.get("q") or "").strip()[:80] or None
    return SearchFilters(
        species=choice("species", SPECIES),
        sex=choice("sex", SEXES),
        size=choice("size", SIZES),
        age_min=age_min,
        age_max=age_max,
        children=_flag(args, "children"),
        dogs=_flag(args, "dogs"),
        cats=_flag(args, "cats"),
        owner=owner,
        district=district,
        q=q,
        sort=choice("sort", SORTS) or "newest",
    )


def encode_cursor(listing: Listing) -> str:
    assert listing.published_at is not None
    raw = f"{listing.published_at.isoformat()}|{listing.id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, int]:
    """Raises SearchError for a cursor that was not made by :func:`encode_cursor`."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        stamp, _sep, ident = raw.partition("|")
        when = datetime.fromisoformat(stamp)
        if when.tzinfo is None:
            raise ValueError(stamp)
        return when, int(ident)
    except (ValueError, UnicodeDecodeError, binascii.Error) as err:
        raise SearchError(
            "cursor",
            "invalid_cursor",
            _("Cursor de paginação inválido; recomece pela primeira página."),
        ) from err


# Folded words (no accents, lower case) that stand for a filter rather than for text to find.
_SPECIES_WORDS = {
    "dog": (
        "cao",
        "caes",
        "caozinho",
        "caezinhos",
        "cachorro",
        "cachorros",
        "cachorrinho",
        "cachorrinhos",
        "cachorra",
        "cachorras",
        "cachorrinha",
        "cadela",
        "cadelas",
        "cadelinha",
        "canino",
        "caninos",
        "cachorrao",
    ),
    "cat": (
        "gato",
        "gatos",
        "gatinho",
        "gatinhos",
        "gata",
        "gatas",
        "gatinha",
        "gatinhas",
        "felino",
        "felinos",
        "felina",
        "felinas",
        "bichano",
        "bichanos",
    ),
}
_SEX_WORDS = {
    "male": ("macho", "machos", "machinho"),
    "female": (
        "femea",
        "femeas",
        "femeazinha",
        "cadela",
        "cadelas",
        "cadelinha",
        "gata",
        "gatas",
        "gatinha",
        "gatinhas",
        "cachorra",
        "cachorras",
        "cachorrinha",
    ),
}
_SIZE_WORDS = {
    "small": ("pequeno", "pequena", "pequenos", "pequenas", "mini"),
    "medium": ("medio", "media", "medios", "medias"),
    "large": ("grande", "grandes", "grandao", "grandona"),
}
_PUPPY_WORDS = ("filhote", "filhotes", "filhotinho", "filhotinhos", "filhotinha", "bebe", "bebes")
# Words that carry no meaning in a search ("gato de porte pequeno").
_STOP_WORDS = frozenset(
    (
        "a",
        "as",
        "o",
        "os",
        "um",
        "uma",
        "uns",
        "umas",
        "de",
        "da",
        "das",
        "do",
        "dos",
        "e",
        "em",
        "na",
        "nas",
        "no",
        "nos",
        "com",
        "para",
        "pra",
        "por",
        "que",
        "porte",
        "ou",
        "adocao",
        "adotar",
        "animal",
        "animais",
    )
)


def _lookup(table: Mapping[str, tuple[str, ...]]) -> dict[str, str]:
    return {word: value for value, words in table.items() for word in words}


_SPECIES_BY_WORD = _lookup(_SPECIES_WORDS)
_SEX_BY_WORD = _lookup(_SEX_WORDS)
_SIZE_BY_WORD = _lookup(_SIZE_WORDS)


@dataclass(frozen=True)
class ParsedQuery:
    """What the free-text box asked for: filters recognised in it and the words left to find."""

    species: str | None = None
    sex: str | None = None
    size: str | None = None
    puppy: bool = False
    words: tuple[str, ...] = ()


def parse_query(q: str | None) -> ParsedQuery:
    """Split a typed query into recognised filters and the (folded) words to look for."""
    species = sex = size = None
    puppy = False
    words: list[str] = []
    for word in fold_words(q or "").split():
        known = False
        if word in _SPECIES_BY_WORD:
            species, known = _SPECIES_BY_WORD[word], True
        if word in _SEX_BY_WORD:
            sex, known = _SEX_BY_WORD[word], True
        if word in _SIZE_BY_WORD:
            size, known = _SIZE_BY_WORD[word], True
        if word in _PUPPY_WORDS:
            puppy = known = True
        if not known and word not in _STOP_WORDS and word not in words:
            words.append(word)
    return ParsedQuery(species=species, sex=sex, size=size, puppy=puppy, words=tuple(words[:8]))


def _sqlite_stem(word: str) -> str:
    """A crude Portuguese stem for LIKE: "pretos", "preta" and "preto" all become "pret"."""
    stem = word[:-1] if len(word) > 3 and word.endswith("s") else word
    if len(stem) > 3 and stem[-1] in "aeo":
        stem = stem[:-1]
    return stem


def _text_condition(words: tuple[str, ...]) -> ColumnElement[bool]:
    """Every word must be found in the listing's folded text (prefix match, plurals tolerated)."""
    if db.session.get_bind().dialect.name == "postgresql":
        config: ColumnElement[str] = literal_column("'portuguese'::regconfig")
        # Folded words are [a-z0-9]+ only, so joining them cannot inject tsquery syntax.
        query = " & ".join(f"{word}:*" for word in words)
        # Same expression as the GIN index ix_listing_search_fts, so the planner can use it.
        return func.to_tsvector(config, Listing.search_text).bool_op("@@")(
            func.to_tsquery(config, query)
        )
    return and_(*(Listing.search_text.like(f"%{_sqlite_stem(word)}%") for word in words))


def _filtered(filters: SearchFilters, on: date) -> Select:
    stmt = select(Listing).where(Listing.state == ListingState.PUBLISHED)
    if filters.species:
        stmt = stmt.where(Listing.species == filters.species)
    if filters.sex:
        stmt = stmt.where(Listing.sex == filters.sex)
    if filters.size:
        stmt = stmt.where(Listing.size == filters.size)
    if filters.age_min is not None:  # at least N completed years: born on or before on - N years
        stmt = stmt.where(Listing.birth_date <= add_months(on, -12 * filters.age_min))
    if filters.age_max is not None:  # at most N completed years: born after on - (N + 1) years
        stmt = stmt.where(Listing.birth_date > add_months(on, -12 * (filters.age_max + 1)))
    if filters.children:
        stmt = stmt.where(Listing.good_with_children.is_(True))
    if filters.dogs:
        stmt = stmt.where(Listing.good_with_dogs.is_(True))
    if filters.cats:
        stmt = stmt.where(Listing.good_with_cats.is_(True))
    if filters.owner == "ccz":
        stmt = stmt.where(Listing.organization_id.is_(None))
    elif filters.owner == "ngo":
        stmt = stmt.where(Listing.organization_id.is_not(None))
    elif filters.owner:
        stmt = stmt.where(Listing.organization_id == int(filters.owner))
    if filters.district:
        stmt = stmt.where(Listing.district_key == district_key(filters.district))
    if filters.q:
        parsed = parse_query(filters.q)
        if parsed.species:
            stmt = stmt.where(Listing.species == parsed.species)
        if parsed.sex:
            stmt = stmt.where(Listing.sex == parsed.sex)
        if parsed.size:
            stmt = stmt.where(Listing.size == parsed.size)
        if parsed.puppy:  # under one year old
            stmt = stmt.where(Listing.birth_date > add_months(on, -12))
        if parsed.words:
            stmt = stmt.where(_text_condition(parsed.words))
    return stmt


@dataclass
class Page:
    items: list[Listing]
    next_cursor: str | None
    total: int | None = None  # at most COUNT_CAP + 1: "more than COUNT_CAP"

    @property
    def total_capped(self) -> bool:
        return self.total is not None and self.total > COUNT_CAP


def search_listings(
    filters: SearchFilters,
    on: date,
    cursor: str | None = None,
    limit: int = PAGE_SIZE,
    with_total: bool = False,
) -> Page:
    """One page of published listings. Raises SearchError for a bad cursor."""
    limit = max(1, min(limit, MAX_PAGE_SIZE))
    stmt = _filtered(filters, on)
    total = None
    if with_total:
        capped = stmt.with_only_columns(Listing.id).limit(COUNT_CAP + 1).subquery()
        total = db.session.scalar(select(func.count()).select_from(capped))
    key = tuple_(Listing.published_at, Listing.id)
    if cursor:
        when, ident = decode_cursor(cursor)
        stmt = stmt.where(
            key > tuple_(when, ident) if filters.sort == "oldest" else key < tuple_(when, ident)
        )
    if filters.sort == "oldest":
        stmt = stmt.order_by(Listing.published_at.asc(), Listing.id.asc())
    else:
        stmt = stmt.order_by(Listing.published_at.desc(), Listing.id.desc())
    stmt = stmt.options(selectinload(Listing.organization)).limit(limit + 1)
    rows = list(db.session.scalars(stmt))
    next_cursor = encode_cursor(rows[limit - 1]) if len(rows) > limit else None
    return Page(items=rows[:limit], next_cursor=next_cursor, total=total)


def owner_choices() -> list[tuple[str, str]]:
    """The "who offers it" filter: CCZ, any NGO, then each approved NGO."""
    choices = [("ccz", _("CCZ")), ("ngo", _("Qualquer ONG"))]
    for org in db.session.scalars(
        select(Organization)
        .where(Organization.status == OrganizationStatus.APPROVED)
        .order_by(Organization.legal_name)
    ):
        choices.append((str(org.id), org.display_name))
    return choices


def known_districts(limit: int = 300) -> list[str]:
    """Neighbourhoods with published animals, for the filter's suggestions."""
    rows = db.session.execute(
        select(Listing.district_key, func.min(Listing.district))
        .where(Listing.state == ListingState.PUBLISHED)
        .group_by(Listing.district_key)
        .order_by(Listing.district_key)
        .limit(limit)
    )
    return [name for _key, name in rows]


def refresh_search_text(batch: int = 1000) -> int:
    """Recompute ``Listing.search_text`` for every listing (after a deployment adds the column,
    or changes how text is folded). Returns how many listings were updated; flushes only."""
    from portal.models.adoption import listing_search_text

    count = 0
    last_id = 0
    while True:
        rows = db.session.execute(
            select(
                Listing.id,
                Listing.name,
                Listing.color,
                Listing.breed,
                Listing.district,
                Listing.story,
            )
            .where(Listing.id > last_id)
            .order_by(Listing.id)
            .limit(batch)
        ).all()
        if not rows:
            return count
        for ident, name, color, breed, district, story in rows:
            db.session.execute(
                update(Listing)
                .where(Listing.id == ident)
                .values(search_text=listing_search_text(name, color, breed, district, story))
            )
            count += 1
        last_id = rows[-1][0]
        db.session.flush()
