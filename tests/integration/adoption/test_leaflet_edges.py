"""Edges of the adopter's educational leaflet (VV 28 §3 I-V; portal/blueprints/adoption/leaflet.py).

VV 28 §3: "O adotante deverá receber folheto educativo contendo obrigatoriamente: I - dados sobre
a responsabilidade do ato da adoção; II - noções de posse e guarda responsável, cuidados básicos
[...] conseqüências do abandono [...] leis de proteção aos animais [...]; III - calendário de
vacinação e esterilização; IV - informações sobre a importância da esterilização já realizada;
V - endereço(s) municipal(ais) para denúncias em casos de maus-tratos." Only Vila Velha's law asks
for it; the other four profiles hand it out as the programme's own guidance and cite no article.

The personalised calendar: the rabies booster is due one calendar year after the last dose (VV 52
"revacinação anual"; DOMAIN §10: a yearly term is the same date next year, from 29 Feb it is
28 Feb, never 365 days); deworming "a cada 3 a 6 meses" is the programme's guidance, the leaflet
suggesting the next one 90 days (about 3 months) after the last. The animal's objects are built in
memory (no database rows): the leaflet only reads them.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from portal.blueprints.adoption import leaflet
from portal.models import AdoptionApplication, Listing, User
from tests.factories import pdf_page_lines, profile_app

MM = 72 / 25.4  # points in one millimetre (1 in = 25.4 mm = 72 pt)

# README.md of the laws: profile key -> (municipality, law title).
PROFILES = {
    "guarulhos": ("Guarulhos", "Lei 6.033/2004"),
    "bjp": ("Bom Jesus dos Perdões", "Lei 1.989/2009"),
    "vilavelha": ("Vila Velha", "Lei 4.726/2008"),
    "cabo": ("Cabo de Santo Agostinho", "Lei 1.794/1997"),
    "cabeceira": ("Cabeceira Grande", "Lei 328/2010"),
}
KEYS = ["responsibility", "care", "abandonment", "calendar", "sterilization", "report"]
TITLES = [
    "A responsabilidade de adotar",
    "Guarda responsável e cuidados básicos",
    "Abandono: consequências e penalidades",
    "Calendário de vacinação e esterilização",
    "Por que a esterilização importa",
    "Onde denunciar maus-tratos",
]
# VV 28 §3: I responsibility; II care, abandonment (both in item II); III calendar; IV the
# sterilisation already done; V where to report.
VV_ARTICLES = [
    "VV 28 §3 I",
    "VV 28 §3 II",
    "VV 28 §3 II",
    "VV 28 §3 III",
    "VV 28 §3 IV",
    "VV 28 §3 V",
]
DOG = "Cães:"
CAT = "Gatos:"
COMMON = ("Vacina antirrábica:", "Vermifugação:", "Esterilização (castração):")


def _listing(**fields: Any) -> Listing:
    values: dict[str, Any] = {
        "name": "Paçoca",
        "species": "dog",
        "vaccinated_on": None,
        "dewormed_on": None,
        "sterilized": False,
        "sterilized_on": None,
    }
    values.update(fields)
    return Listing(**values)


def _application(listing: Listing | None = None, **fields: Any) -> AdoptionApplication:
    values: dict[str, Any] = {
        "listing": listing or _listing(),
        "applicant": User(full_name="Maria Souza"),
        "submitted_at": datetime(2026, 5, 4, 15, 0, tzinfo=UTC),
        "completed_at": None,
        "rga_number": None,
    }
    values.update(fields)
    return AdoptionApplication(**values)


def _personal(items: list[str]) -> list[str]:
    """The calendar's lines about this animal (after the species and the three common lines)."""
    return [item for item in items if item.startswith("Paçoca")]


# -- LeafletSection and the date format -------------------------------------------------------


def test_vv_28_par3_section_defaults_are_empty_and_not_shared() -> None:
    first, second = leaflet.LeafletSection("T"), leaflet.LeafletSection("U")
    assert (first.paragraphs, first.items, first.article, first.key) == ([], [], "", "")
    first.items.append("x")
    assert second.items == [] and second.paragraphs == []


@pytest.mark.parametrize(
    ("day", "text"),
    [
        (date(2027, 1, 5), "05/01/2027"),  # day and month zero-padded, four-digit year
        (date(2028, 2, 29), "29/02/2028"),
        (date(2026, 12, 31), "31/12/2026"),
    ],
)
def test_dates_are_printed_dd_mm_yyyy(day: date, text: str) -> None:
    assert leaflet._fmt(day) == text


# -- III: the personalised calendar ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("vaccinated_on", "booster"),
    [
        # VV 52 annual revaccination = the same date next year (DOMAIN §10).
        (date(2026, 5, 10), "10/05/2027"),
        # From 29 Feb 2024: 2025 has no 29 Feb, so 28 Feb 2025 (DOMAIN §10).
        (date(2024, 2, 29), "28/02/2025"),
        # Across the year end: 31 Dec 2026 -> 31 Dec 2027.
        (date(2026, 12, 31), "31/12/2027"),
        # A calendar year, not 365 days: 01/03/2027 + 365 d would be 29/02/2028 (leap year).
        (date(2027, 3, 1), "01/03/2028"),
    ],
    ids=["plain", "from-29-feb", "year-end", "not-365-days"],
)
def test_vv_28_par3_iii_rabies_booster_one_calendar_year_after_the_last_dose(
    app, vaccinated_on: date, booster: str
) -> None:
    # VV 28 §3 III; VV 52 "revacinação anual"
    with app.test_request_context():
        items = leaflet._calendar(_listing(vaccinated_on=vaccinated_on))
    assert _personal(items) == [
        f"Paçoca: vacinado em {leaflet._fmt(vaccinated_on)}; próxima dose antirrábica até "
        f"{booster}."
    ]


def test_vv_28_par3_iii_booster_follows_the_citys_revaccination_interval(make_app) -> None:
    # The leaflet's next rabies dose is the one the RGA uses (animals.validation.next_rabies_due):
    # a city whose programme revaccinates every 6 months gets 10/05/2026 + 6 months = 10/11/2026.
    app = make_app(PORTAL_PROFILE="guarulhos")
    profile = app.extensions["portal_profile"]
    app.extensions["portal_profile"] = profile.model_copy(
        update={"programme": profile.programme.model_copy(update={"revaccination_months": 6})}
    )
    with app.app_context(), app.test_request_context():
        items = leaflet._calendar(_listing(vaccinated_on=date(2026, 5, 10)))
    assert _personal(items) == [
        "Paçoca: vacinado em 10/05/2026; próxima dose antirrábica até 10/11/2026."
    ]


@pytest.mark.parametrize(
    ("dewormed_on", "next_day"),
    [
        # 15/11/2026 + 90 d: +15 -> 30/11, +46 -> 31/12, +77 -> 31/01/2027, +90 -> 13/02/2027.
        (date(2026, 11, 15), "13/02/2027"),
        # 01/01/2028 + 90 d: +30 -> 31/01, +59 -> 29/02 (leap), +90 -> 31/03/2028.
        (date(2028, 1, 1), "31/03/2028"),
    ],
    ids=["year-end", "leap-february"],
)
def test_vv_28_par3_iii_next_deworming_90_days_after_the_last(
    app, dewormed_on: date, next_day: str
) -> None:
    # VV 28 §3 III; the programme's "a cada 3 a 6 meses": the earliest, 90 days
    with app.test_request_context():
        items = leaflet._calendar(_listing(dewormed_on=dewormed_on))
    assert _personal(items) == [
        f"Paçoca: vermifugado em {leaflet._fmt(dewormed_on)}; próxima vermifugação por volta "
        f"de {next_day}."
    ]


def test_vv_28_par3_iv_sterilised_animal_with_and_without_its_date(app) -> None:
    # VV 28 §3 IV: the sterilisation already done, with its day when the listing has it
    with app.test_request_context():
        dated = leaflet._calendar(_listing(sterilized=True, sterilized_on=date(2026, 3, 5)))
        undated = leaflet._calendar(_listing(sterilized=True))
        not_done = leaflet._calendar(_listing(sterilized=False, sterilized_on=date(2026, 3, 5)))
    assert _personal(dated) == ["Paçoca já é esterilizado desde 05/03/2026."]
    assert _personal(undated) == ["Paçoca já é esterilizado."]
    assert _personal(not_done) == []


def test_vv_28_par3_iii_all_three_dates_in_order(app) -> None:
    # VV 28 §3 III: vaccination, deworming, then sterilisation; the common lines come first
    listing = _listing(
        species="cat",
        vaccinated_on=date(2026, 12, 20),
        dewormed_on=date(2026, 12, 20),
        sterilized=True,
        sterilized_on=date(2026, 12, 1),
    )
    with app.test_request_context():
        items = leaflet._calendar(listing)
    assert len(items) == 7
    assert items[0].startswith(CAT)
    assert [items[i].split(" ", 1)[0] for i in (1, 2)] == ["Vacina", "Vermifugação:"]
    assert items[3].startswith(COMMON[2])
    assert items[4:] == [
        # 20/12/2026 + 1 year = 20/12/2027; 20/12/2026 + 90 d: +11 -> 31/12, +42 -> 31/01,
        # +70 -> 28/02, +90 -> 20/03/2027.
        "Paçoca: vacinado em 20/12/2026; próxima dose antirrábica até 20/12/2027.",
        "Paçoca: vermifugado em 20/12/2026; próxima vermifugação por volta de 20/03/2027.",
        "Paçoca já é esterilizado desde 01/12/2026.",
    ]


@pytest.mark.parametrize(
    ("species", "first"),
    [(None, [DOG, CAT]), ("dog", [DOG]), ("cat", [CAT])],
    ids=["no-listing", "dog", "cat"],
)
def test_vv_28_par3_iii_species_lines_and_no_dates(app, species: str | None, first) -> None:
    # VV 28 §3 III: the general leaflet (no listing) lists both species; an adoption only its own.
    # An animal with no dates and not sterilised gets no personal line.
    listing = None if species is None else _listing(species=species, vaccinated=True)
    with app.test_request_context():
        items = leaflet._calendar(listing)
    assert len(items) == len(first) + 3
    assert [item.split(" ", 1)[0] for item in items[: len(first)]] == first
    assert all(items[len(first) + i].startswith(prefix) for i, prefix in enumerate(COMMON))
    assert _personal(items) == []


# -- the intro -------------------------------------------------------------------------------------


def test_vv_28_par3_intro_uses_the_hand_over_day_and_the_rga(app) -> None:
    # Completed 22:30 on 31/12/2026 in São Paulo = 01:30 UTC on 01/01/2027 (across the year end);
    # the hand-over day wins over the day of the application.
    application = _application(
        completed_at=datetime(2027, 1, 1, 1, 30, tzinfo=UTC), rga_number="C-2026-000001-0"
    )
    with app.test_request_context():
        assert leaflet.leaflet_intro(application) == (
            "Paçoca – adotado(a) por Maria Souza em 31/12/2026. RGA: C-2026-000001-0"
        )


def test_vv_28_par3_intro_without_hand_over_uses_the_application_day_and_a_dash(app) -> None:
    # Not completed: the application's day; 01/03/2028 01:00 UTC is 22:00 on 29/02/2028 local.
    # No RGA yet: a dash.
    application = _application(submitted_at=datetime(2028, 3, 1, 1, 0, tzinfo=UTC))
    with app.test_request_context():
        assert leaflet.leaflet_intro(application) == (
            "Paçoca – adotado(a) por Maria Souza em 29/02/2028. RGA: —"
        )


def test_vv_28_par3_intro_in_the_profiles_time_zone(make_app) -> None:
    # Cabo runs on America/Recife (UTC-3): 02:59 UTC on 01/01/2027 is 23:59 on 31/12/2026.
    application = _application(
        completed_at=datetime(2027, 1, 1, 2, 59, tzinfo=UTC),
        submitted_at=datetime(2026, 12, 1, 12, 0, tzinfo=UTC),
        rga_number="C-2026-000002-8",
    )
    with profile_app(make_app, "cabo"):
        assert leaflet.leaflet_intro(application).endswith(" em 31/12/2026. RGA: C-2026-000002-8")


# -- I-V: the sections from the profile ------------------------------------------------------------


@pytest.mark.parametrize("key", list(PROFILES))
def test_vv_28_par3_sections_per_profile(make_app, key: str) -> None:
    # VV 28 §3 I-V: six sections everywhere; only Vila Velha's law gives them an article
    city, law = PROFILES[key]
    with profile_app(make_app, key):
        sections = leaflet.leaflet_sections()
    assert [s.key for s in sections] == KEYS
    assert [s.title for s in sections] == TITLES
    assert [s.article for s in sections] == (VV_ARTICLES if key == "vilavelha" else [""] * 6)
    assert [(len(s.paragraphs), len(s.items)) for s in sections] == [
        (2, 0),
        (0, 5),
        (3, 0),
        (0, 5),  # no animal: dogs, cats and the three common lines
        (1, 0),
        (0, 3),
    ]
    # I: the general leaflet speaks of "seu animal".
    assert "por toda a vida de seu animal (" in sections[0].paragraphs[0]
    # II: the penalties of the city's own law.
    assert f"A {law} também prevê multas" in sections[2].paragraphs[2]
    # V: the city's own CCZ, with the portal's report form (installed in every profile).
    report = sections[5].items[0]
    assert report.startswith(f"Centro de Controle de Zoonoses de {city}, pessoalmente ou pelo ")
    assert 'pelo portal ("Denunciar maus-tratos")' in report
    assert sections[5].items[1].endswith("telefone 190.")


def test_vv_28_par3_v_without_the_report_form_only_the_ccz_in_person(app) -> None:
    # VV 28 §3 V: nothing promised that does not exist
    del app.view_functions["reports.new"]
    with app.test_request_context():
        report = leaflet.leaflet_sections()[-1]
    assert report.key == "report"
    assert report.items[0] == "Centro de Controle de Zoonoses de Guarulhos, pessoalmente."
    assert len(report.items) == 3


def test_vv_28_par3_personalised_sections_name_the_animal(make_app) -> None:
    # VV 28 §3 I and III with an adoption: the animal's name and its own dates
    application = _application(
        _listing(species="cat", vaccinated_on=date(2024, 2, 29), sterilized=True)
    )
    with profile_app(make_app, "vilavelha"):
        sections = leaflet.leaflet_sections(application)
    assert "por toda a vida de Paçoca (" in sections[0].paragraphs[0]
    calendar = sections[3]
    assert calendar.key == "calendar" and calendar.article == "VV 28 §3 III"
    assert calendar.items[0].startswith(CAT) and len(calendar.items) == 6
    assert calendar.items[4:] == [
        "Paçoca: vacinado em 29/02/2024; próxima dose antirrábica até 28/02/2025.",
        "Paçoca já é esterilizado.",
    ]


def test_vv_28_par3_order_and_articles_follow_the_profile(make_app) -> None:
    # VV 28 §3: the profile lists the sections (programme.leaflet_sections) and the item of each
    # (adoption.leaflet); a section the profile does not cite carries no article.
    app = make_app(PORTAL_PROFILE="vilavelha")
    profile = app.extensions["portal_profile"]
    cited = {k: v for k, v in profile.adoption.leaflet.items() if k != "care"}
    app.extensions["portal_profile"] = profile.model_copy(
        update={
            "programme": profile.programme.model_copy(
                update={"leaflet_sections": ["report", "care", "calendar", "responsibility"]}
            ),
            "adoption": profile.adoption.model_copy(update={"leaflet": cited}),
        }
    )
    with app.app_context(), app.test_request_context():
        sections = leaflet.leaflet_sections()
    assert [(s.key, s.article) for s in sections] == [
        ("report", "VV 28 §3 V"),
        ("care", ""),
        ("calendar", "VV 28 §3 III"),
        ("responsibility", "VV 28 §3 I"),
    ]
    assert sections[0].title == TITLES[5] and sections[3].title == TITLES[0]


# -- the footer and whether the law is cited -------------------------------------------------------


@pytest.mark.parametrize("key", list(PROFILES))
def test_vv_28_par3_cites_own_law_and_footer_per_profile(make_app, key: str) -> None:
    # VV 28 §3: required by Vila Velha's law (its Lei 4.726/2008, art. 28 §3); elsewhere the CCZ
    # programme's own guidance, citing no other city's law.
    city, law = PROFILES[key]
    with profile_app(make_app, key):
        cites, footer = leaflet.cites_own_law(), leaflet.leaflet_footer()
    if key == "vilavelha":
        assert cites is True
        assert footer == (
            f"Conteúdo exigido pela {law}, art. 28 §3, entregue a todo adotante pelo programa "
            "de adoção."
        )
    else:
        assert cites is False
        assert footer == (
            f"Orientações do programa de adoção do CCZ de {city}, entregues a todo adotante."
        )


# -- the PDF ---------------------------------------------------------------------------------------


def test_escape_what_reportlab_would_read_as_markup() -> None:
    # "&" first, so that an escaped "<" is not escaped twice; a typed "&lt;" stays visible.
    assert leaflet._escape("Tom & <Jerry> &lt;") == "Tom &amp; &lt;Jerry&gt; &amp;lt;"
    assert leaflet._escape("sem nada") == "sem nada"


def _describe(flowable: Any) -> Any:
    from reportlab.platypus import KeepTogether, ListFlowable, ListItem, Paragraph, Spacer

    if isinstance(flowable, Paragraph):
        return ("P", flowable.style.name, flowable.text)
    if isinstance(flowable, Spacer):
        return ("S", flowable.width, round(flowable.height, 4))
    if isinstance(flowable, KeepTogether):
        return ("K", [_describe(f) for f in flowable._content])
    if isinstance(flowable, ListFlowable):
        return (
            "L",
            flowable._bulletType,
            flowable._start,
            flowable._leftIndent,
            [_describe(f) for f in flowable._flowables],
        )
    if isinstance(flowable, ListItem):
        return ("I", [_describe(f) for f in flowable._flowables])
    return ("?", type(flowable).__name__)


@pytest.fixture
def built(monkeypatch) -> dict[str, Any]:
    """What leaflet_pdf gives reportlab: the document's settings and its story, described."""
    import reportlab.platypus

    seen: dict[str, Any] = {}
    original = reportlab.platypus.SimpleDocTemplate

    class Spy(original):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            seen["kwargs"] = kwargs
            super().__init__(*args, **kwargs)

        def build(self, flowables: list, *args: Any, **kwargs: Any) -> Any:
            seen["story"] = [_describe(f) for f in flowables]  # reportlab consumes the list
            return super().build(flowables, *args, **kwargs)

    monkeypatch.setattr(reportlab.platypus, "SimpleDocTemplate", Spy)
    return seen


def _expected_blocks(sections: list[leaflet.LeafletSection]) -> list[Any]:
    blocks = []
    for s in sections:
        heading = ("P", "Heading2", leaflet._escape(s.title))
        content: list[Any] = [("S", 1, round(4 * MM, 4)), heading]
        content += [("P", "BodyText", leaflet._escape(p)) for p in s.paragraphs]
        if s.items:
            items = [("I", [("P", "BodyText", leaflet._escape(i))]) for i in s.items]
            content.append(("L", "bullet", "•", 12, items))
        blocks.append(("K", content))
    return blocks


def test_vv_28_par3_pdf_of_an_adoption_carries_intro_sections_and_footer(make_app, built) -> None:
    # VV 28 §3 I-V as an A4 PDF: the CCZ, the title, the intro, every section, the footer
    application = _application(
        _listing(name="Tom & <Jerry>", species="cat", vaccinated_on=date(2024, 2, 29)),
        completed_at=datetime(2027, 1, 1, 1, 30, tzinfo=UTC),
        rga_number="C-2026-000001-0",
    )
    with profile_app(make_app, "vilavelha"):
        data = leaflet.leaflet_pdf(application)
        sections = leaflet.leaflet_sections(application)
        intro = leaflet.leaflet_intro(application)
        footer = leaflet.leaflet_footer()
    assert data.startswith(b"%PDF")
    kwargs = built["kwargs"]
    # A4 = 210 x 297 mm; 18 mm side margins, 16 mm top and bottom.
    assert kwargs["pagesize"] == pytest.approx((210 * MM, 297 * MM))
    assert [kwargs[k] for k in ("leftMargin", "rightMargin", "topMargin", "bottomMargin")] == (
        pytest.approx([18 * MM, 18 * MM, 16 * MM, 16 * MM])
    )
    assert kwargs["title"] == "Folheto do adotante"
    assert kwargs["author"] == "CCZ de Vila Velha"
    assert b"/Author (CCZ de Vila Velha)" in data and b"/Title (Folheto do adotante)" in data
    assert intro.startswith("Tom & <Jerry> – adotado(a) por Maria Souza em 31/12/2026.")
    assert built["story"] == [
        ("P", "Heading3", "Centro de Controle de Zoonoses de Vila Velha"),
        ("P", "Title", "Folheto do adotante"),
        ("P", "Normal", leaflet._escape(intro)),
        *_expected_blocks(sections),
        ("S", 1, round(6 * MM, 4)),
        ("P", "Italic", footer),
    ]
    # The text drawn: the escaped name comes back as typed, the dates and the footer are there.
    lines = [line for page in pdf_page_lines(data) for line in page]
    text = "".join(lines)
    assert lines[:2] == ["Centro de Controle de Zoonoses de Vila Velha", "Folheto do adotante"]
    assert "Tom & <Jerry>" in text and "&amp;" not in text and "&lt;" not in text
    assert "vacinado em 29/02/2024; próxima dose antirrábica até 28/02/2025." in text
    assert set(TITLES) <= set(lines)
    assert lines[-1] == footer


def test_pdf_of_the_general_leaflet_has_no_intro(make_app, built) -> None:
    # The general leaflet (no adoption): no intro line, both species, the programme's footer
    with profile_app(make_app, "guarulhos"):
        data = leaflet.leaflet_pdf()
        sections = leaflet.leaflet_sections()
    assert data.startswith(b"%PDF")
    assert built["kwargs"]["author"] == "CCZ de Guarulhos"
    footer = "Orientações do programa de adoção do CCZ de Guarulhos, entregues a todo adotante."
    assert built["story"] == [
        ("P", "Heading3", "Centro de Controle de Zoonoses de Guarulhos"),
        ("P", "Title", "Folheto do adotante"),
        *_expected_blocks(sections),
        ("S", 1, round(6 * MM, 4)),
        ("P", "Italic", footer),
    ]
    lines = [line for page in pdf_page_lines(data) for line in page]
    assert lines[2] == TITLES[0] and lines[-1] == footer
