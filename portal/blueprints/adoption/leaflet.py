"""The adopter's educational leaflet (VV 28 §3), as page sections and as a PDF.

VV 28 §3 lists what it must contain: I the responsibility of adopting; II responsible ownership,
basic care, the consequences of abandonment for the animal and for public health, and the laws
protecting animals with the penalties for abandonment; III the vaccination and sterilisation
calendar; IV why the sterilisation already done matters; V where to report maus-tratos. The portal
hands it to every adopter, whatever the municipality, personalised with the animal's
dates when an adoption is given. Its sections come from the profile (``programme.leaflet_sections``)
and cite the law only where the profile gives the item (``adoption.leaflet``).
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field, replace
from datetime import date, timedelta

from flask import current_app
from flask_babel import gettext as _

from portal.blueprints.animals.validation import next_rabies_due
from portal.models import AdoptionApplication, Listing
from portal.services.clock import current_profile, local_date


@dataclass
class LeafletSection:
    title: str
    paragraphs: list[str] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    article: str = ""  # the law's item, e.g. "VV 28 §3 I" (shown where the law requires it)
    # The profile's name of the section (``LeafletSectionKey``); "report": where to report
    # maus-tratos (the page adds the portal's form link).
    key: str = ""


def _fmt(day: date) -> str:
    return day.strftime("%d/%m/%Y")


def leaflet_intro(application: AdoptionApplication) -> str:
    """The leaflet's first line: the animal, the adopter, the day (local) and the RGA."""
    return _(
        "%(animal)s – adotado(a) por %(person)s em %(day)s. RGA: %(rga)s",
        animal=application.listing.name,
        person=application.applicant.full_name,
        day=_fmt(local_date(application.completed_at or application.submitted_at)),
        rga=application.rga_number or "—",
    )


def _calendar(listing: Listing | None) -> list[str]:
    species = listing.species if listing else None
    items = []
    if species in (None, "dog"):
        items.append(
            _(
                "Cães: vacina múltipla (V8 ou V10) a partir de 45 dias de vida, em 3 doses "
                "com 21 a 30 dias de intervalo, e reforço anual."
            )
        )
    if species in (None, "cat"):
        items.append(
            _(
                "Gatos: vacina múltipla (V3, V4 ou V5) a partir de 60 dias de vida, em 2 a "
                "3 doses com 21 a 30 dias de intervalo, e reforço anual."
            )
        )
    items += [
        _(
            "Vacina antirrábica: a partir dos 3 meses de idade e reforço todo ano; a campanha "
            "municipal de vacinação é gratuita."
        ),
        _("Vermifugação: a cada 3 a 6 meses, conforme orientação do médico veterinário."),
        _("Esterilização (castração): a partir dos 6 meses de idade, ou conforme o veterinário."),
    ]
    if listing is not None:
        if listing.vaccinated_on:
            items.append(
                _(
                    "%(name)s: vacinado em %(day)s; próxima dose antirrábica até %(next)s.",
                    name=listing.name,
                    day=_fmt(listing.vaccinated_on),
                    # the one rule of the next dose: the law's interval (BJP 13; VV 52)
                    next=_fmt(next_rabies_due(listing.vaccinated_on)),
                )
            )
        if listing.dewormed_on:
            items.append(
                _(
                    "%(name)s: vermifugado em %(day)s; próxima vermifugação por volta de %(next)s.",
                    name=listing.name,
                    day=_fmt(listing.dewormed_on),
                    next=_fmt(listing.dewormed_on + timedelta(days=90)),
                )
            )
        if listing.sterilized:
            items.append(
                _(
                    "%(name)s já é esterilizado%(when)s.",
                    name=listing.name,
                    when=(
                        " " + _("desde %(day)s", day=_fmt(listing.sterilized_on))
                        if listing.sterilized_on
                        else ""
                    ),
                )
            )
    return items


def leaflet_sections(application: AdoptionApplication | None = None) -> list[LeafletSection]:
    """The leaflet's content, translated at call time; personalised when given an adoption."""
    profile = current_profile()
    # The profile lists the sections (``programme.leaflet_sections``) and, where its law
    # requires the leaflet, the item each one answers (``adoption.leaflet``: VV 28 §3 I-V).
    cited = profile.adoption.leaflet
    listing = application.listing if application else None
    animal = listing.name if listing else _("seu animal")
    sections = [
        LeafletSection(
            _("A responsabilidade de adotar"),
            [
                _(
                    "Adotar é assumir, por toda a vida de %(animal)s (cães e gatos vivem de 10 a "
                    "20 anos), a responsabilidade pela saúde, pelo bem-estar e pelos atos dele.",
                    animal=animal,
                ),
                _(
                    "O animal foi entregue vacinado, vermifugado, esterilizado e registrado (RGA) "
                    "em seu nome. Mantenha o registro atualizado: mudança de endereço, "
                    "transferência ou óbito devem ser comunicados ao CCZ."
                ),
            ],
            key="responsibility",
        ),
        LeafletSection(
            _("Guarda responsável e cuidados básicos"),
            [],
            [
                _("Abrigo protegido do sol, da chuva e do frio, com espaço para se movimentar."),
                _("Água limpa sempre e alimentação adequada à espécie e à idade."),
                _("Higiene do local, passeios com coleira e guia, e a plaqueta do RGA na coleira."),
                _(
                    "Consultas ao médico veterinário e cuidado imediato quando estiver doente ou "
                    "ferido."
                ),
                _(
                    "Nunca deixe o animal solto na rua: ele pode ser atropelado, se perder, "
                    "transmitir doenças ou ser apreendido pelo CCZ."
                ),
            ],
            key="care",
        ),
        LeafletSection(
            _("Abandono: consequências e penalidades"),
            [
                _(
                    "O animal abandonado sofre com fome, doenças, atropelamentos e maus-tratos, e "
                    "se reproduz sem controle, aumentando a população de animais de rua."
                ),
                _(
                    "Para a saúde pública, animais abandonados espalham zoonoses como raiva, "
                    "leishmaniose, esporotricose e verminoses."
                ),
                _(
                    "Abandonar ou maltratar animais é crime (Lei Federal 9.605/1998, art. 32): "
                    "para cães e gatos, a pena é de reclusão de 2 a 5 anos, multa e proibição da "
                    "guarda (Lei 14.064/2020). A %(law)s também prevê multas e a perda da posse "
                    "do animal.",
                    law=profile.law_title,
                ),
            ],
            key="abandonment",
        ),
        LeafletSection(
            _("Calendário de vacinação e esterilização"),
            [],
            _calendar(listing),
            key="calendar",
        ),
        LeafletSection(
            _("Por que a esterilização importa"),
            [
                _(
                    "A esterilização já feita evita crias indesejadas que acabariam abandonadas, "
                    "reduz fugas, brigas e marcação de território e previne doenças como tumores "
                    "de mama, infecções do útero e problemas de próstata."
                ),
            ],
            key="sterilization",
        ),
        LeafletSection(
            _("Onde denunciar maus-tratos"),
            [],
            [
                # The portal's own form is named only once it exists (nothing promised that does
                # not).
                _(
                    "Centro de Controle de Zoonoses de %(city)s, pessoalmente ou pelo portal "
                    '("Denunciar maus-tratos"), com fotos e, se quiser, sem se identificar.',
                    city=profile.municipality,
                )
                if "reports.new" in current_app.view_functions
                else _(
                    "Centro de Controle de Zoonoses de %(city)s, pessoalmente.",
                    city=profile.municipality,
                ),
                _("Em flagrante de agressão: Polícia Militar, telefone 190."),
                _("Delegacia de Polícia (crime da Lei 9.605/1998) ou o Ministério Público."),
            ],
            key="report",
        ),
    ]
    by_key = {section.key: section for section in sections}
    return [
        replace(by_key[key], article=cited.get(key, ""))
        for key in profile.programme.leaflet_sections
    ]


def cites_own_law() -> bool:
    """Whether the profile's law requires the leaflet (``adoption.leaflet_required``: VV 28 §3):
    only then is it "required by law" and its sections cited; elsewhere it is the adoption
    programme's own guidance and cites no other city's law."""
    return current_profile().adoption.leaflet_required


def leaflet_footer() -> str:
    """The leaflet's last line: on what authority it is handed out, for this portal's profile."""
    profile = current_profile()
    if cites_own_law():
        return _(
            "Conteúdo exigido pela %(law)s, art. %(article)s, entregue a todo adotante pelo "
            "programa de adoção.",
            law=profile.law_title,
            # "VV 28 §3" -> "28 §3": the article without the law key
            article=profile.adoption.cite("leaflet_required").split(" ", 1)[-1],
        )
    return _(
        "Orientações do programa de adoção do CCZ de %(city)s, entregues a todo adotante.",
        city=profile.municipality,
    )


def leaflet_pdf(application: AdoptionApplication | None = None) -> bytes:
    """The leaflet as an A4 PDF (reportlab)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import getSampleStyleSheet
    from reportlab.lib.units import mm
    from reportlab.platypus import (
        KeepTogether,
        ListFlowable,
        ListItem,
        Paragraph,
        SimpleDocTemplate,
        Spacer,
    )

    profile = current_profile()
    buffer = io.BytesIO()
    title = _("Folheto do adotante")
    doc = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=16 * mm,
        bottomMargin=16 * mm,
        title=title,
        author=_("CCZ de %(city)s", city=profile.municipality),
    )
    styles = getSampleStyleSheet()
    story: list = [
        Paragraph(
            _("Centro de Controle de Zoonoses de %(city)s", city=profile.municipality),
            styles["Heading3"],
        ),
        Paragraph(title, styles["Title"]),
    ]
    if application is not None:
        story.append(Paragraph(_escape(leaflet_intro(application)), styles["Normal"]))
    for section in leaflet_sections(application):
        # Each section is kept on one page: a heading never ends a page alone ("Onde denunciar
        # maus-tratos" at the foot of page 1, its list on page 2).
        block: list = [Spacer(1, 4 * mm), Paragraph(_escape(section.title), styles["Heading2"])]
        for paragraph in section.paragraphs:
            block.append(Paragraph(_escape(paragraph), styles["BodyText"]))
        if section.items:
            block.append(
                ListFlowable(
                    [
                        ListItem(Paragraph(_escape(item), styles["BodyText"]))
                        for item in section.items
                    ],
                    bulletType="bullet",
                    start="•",
                    leftIndent=12,
                )
            )
        story.append(KeepTogether(block))
    story.append(Spacer(1, 6 * mm))
    story.append(Paragraph(_escape(leaflet_footer()), styles["Italic"]))
    doc.build(story)
    return buffer.getvalue()


def _escape(text: str) -> str:
    """reportlab paragraphs read a little XML: escape what a person typed."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
