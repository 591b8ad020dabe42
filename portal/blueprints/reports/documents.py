"""The letter forwarding a maus-tratos report to the police, as PDF (reportlab).

Maus-tratos is a federal crime (Lei 9.605/98, art. 32); when the CCZ triages a report as
a crime it sends the facts to the police. The letter carries the facts, the place and the photos'
count, never the reporter: the police may ask the CCZ for the contact through official channels.
Always in Portuguese: it is an official document.
"""

from __future__ import annotations

import io
from datetime import date
from xml.sax.saxutils import escape

from flask_babel import force_locale
from flask_babel import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer

from portal.blueprints.reports.common import FEDERAL_CRIME
from portal.blueprints.reports.labels import SPECIES_LABELS, category_label
from portal.models import MaltreatmentReport
from portal.profiles.schema import Profile


def police_letter_pdf(report: MaltreatmentReport, profile: Profile, today: date) -> bytes:
    """The forwarding letter. Contains no data about the reporter (test: the identity test)."""
    buffer = io.BytesIO()
    with force_locale("pt_BR"):
        styles = getSampleStyleSheet()
        doc = SimpleDocTemplate(
            buffer,
            pagesize=A4,
            leftMargin=20 * mm,
            rightMargin=20 * mm,
            topMargin=20 * mm,
            bottomMargin=20 * mm,
            title=_("Ofício de encaminhamento %(p)s", p=report.protocol),
            author=_("Centro de Controle de Zoonoses de %(city)s", city=profile.municipality),
        )
        category = profile.reports.category(report.category)
        where = report.address_line or ""
        if report.reference:
            where = f"{where} ({report.reference})" if where else report.reference
        if report.lat is not None and report.lng is not None:
            where += f" – {report.lat:.6f}, {report.lng:.6f}"
        animals = ""
        if report.species:
            animals = str(SPECIES_LABELS.get(report.species, report.species))
            if report.animal_count:
                animals += f" ({report.animal_count})"

        def p(text: str, style: str = "BodyText") -> Paragraph:
            return Paragraph(escape(text).replace("\n", "<br/>"), styles[style])

        story = [
            p(
                _(
                    "Centro de Controle de Zoonoses de %(city)s/%(uf)s",
                    city=profile.municipality,
                    uf=profile.state,
                ),
                "Heading3",
            ),
            p(_("Ofício de encaminhamento – denúncia %(p)s", p=report.protocol), "Heading2"),
            p(_("%(city)s, %(day)s.", city=profile.municipality, day=today.strftime("%d/%m/%Y"))),
            Spacer(1, 4 * mm),
            p(_("À Autoridade Policial,")),
            p(
                _(
                    "Encaminhamos a denúncia abaixo, recebida por este Centro de Controle de "
                    "Zoonoses, por descrever fato que pode constituir crime de maus-tratos a "
                    "animais (%(law)s), para as providências cabíveis.",
                    law=FEDERAL_CRIME,
                )
            ),
            Spacer(1, 4 * mm),
            p(_("Protocolo: %(p)s", p=report.protocol)),
            p(_("Recebida em: %(day)s", day=report.created_at.strftime("%d/%m/%Y"))),
            p(
                _(
                    "Conduta: %(label)s (%(article)s, %(law)s)",
                    label=category_label(profile, report.category),
                    article=category.article if category else "",
                    law=profile.law_title,
                )
            ),
            p(_("Local: %(where)s", where=where or _("não informado"))),
        ]
        if report.seen_on:
            story.append(
                p(_("Data em que foi visto: %(day)s", day=report.seen_on.strftime("%d/%m/%Y")))
            )
        if animals:
            story.append(p(_("Animais: %(a)s", a=animals)))
        story += [
            p(_("Fotos recebidas: %(n)d (disponíveis no CCZ)", n=len(report.photos))),
            Spacer(1, 2 * mm),
            p(_("Relato:"), "Heading4"),
            p(report.description),
            Spacer(1, 4 * mm),
            p(_("A identidade de quem denunciou é protegida e não consta deste ofício.")),
            Spacer(1, 10 * mm),
            p(_("Centro de Controle de Zoonoses de %(city)s", city=profile.municipality)),
        ]
        doc.build(story)
    return buffer.getvalue()
