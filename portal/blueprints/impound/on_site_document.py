"""The document of a record made where the animal was (:mod:`.on_site`), as a PDF.

CABO 11 calls it an "auto de constatação", lavrado by the agent and witnessed by at least two
people; GRU 90 and CAB 9 §ú a record of the act; CAB 9 caput a record of the assessment (the
animal taken to the CCZ, or left with its owner). The PDF names the agent, the witnesses (a CPF
masked), the place, the day, the animal and the article, with room for the signatures, a check
code and a QR code to its public check page, which shows only what the paper shows without a
person on it (number, day, district, animal, article). Staff download it from the on-site page;
the owner, known by the animal's RGA or microchip, from "Meus animais recolhidos", like the other
impound documents (signed in, their own only). Those pages are ``staff.on_site_document`` and
``routes.on_site_document``.
"""

from __future__ import annotations

import io

from flask import Response, abort
from flask_babel import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas
from sqlalchemy import select

from portal.extensions import db
from portal.models import OnSiteEuthanasia, User
from portal.profiles.schema import Profile
from portal.services.clock import current_profile
from portal.services.pdf import BLUE, a4_check_footer, a4_header
from portal.urls import absolute_url

from . import on_site_rules as rules
from .labels import size_label, species_label

BOTTOM = 58 * mm  # the check footer (QR code, address) sits below this line
VALUE_X = 48 * mm  # where the values start, right of the longest label


def document_title(record: OnSiteEuthanasia) -> str:
    """CABO 11's "auto de constatação"; a record of the act or of the assessment elsewhere."""
    if record.outcome != "euthanasia":
        return _("Registro de avaliação do animal no local")  # CAB 9 caput
    if record.witnesses:
        return _("Auto de constatação")  # CABO 11
    return _("Registro de eutanásia no local")


def check_url(record: OnSiteEuthanasia) -> str:
    return absolute_url("impound.on_site_check", code=record.check_code)


def owner_pdf_url(record: OnSiteEuthanasia) -> str:
    return absolute_url("impound.my_on_site_pdf", number=record.number)


def records_of_owner(user: User) -> list[OnSiteEuthanasia]:
    """The records about a person's animals, newest first (the owner's page lists them)."""
    return list(
        db.session.scalars(
            select(OnSiteEuthanasia)
            .where(OnSiteEuthanasia.owner_id == user.id)
            .order_by(OnSiteEuthanasia.performed_on.desc(), OnSiteEuthanasia.id.desc())
        )
    )


def _judge_label(role: str | None) -> str:
    return {"agent": _("agente sanitário"), "vet": _("médico veterinário")}.get(role or "", "")


def _facts(record: OnSiteEuthanasia) -> list[tuple[str, str]]:
    """The document's lines as (label, value), in the order a reader checks them."""
    animal = f"{species_label(record.species or 'other')} – {record.description}"
    animal += f" ({size_label(record.size)})"
    if record.animal is not None:
        animal += " · " + _("RGA %(rga)s", rga=record.animal.rga)
    rows = [
        (_("Data"), record.performed_on.strftime("%d/%m/%Y")),
        (_("Local"), f"{record.place}, {record.district}"),
        (_("Animal"), animal),
        (_("Proprietário"), record.owner_name or _("não identificado")),
        (_("Por que não foi recolhido"), record.transport_impossible),
    ]
    if record.assessment:
        rows.append((_("Avaliação no local"), record.assessment))
    rows.append((_("Resultado"), rules.outcome_label(record.outcome)))
    for code in record.confirmations or []:
        rows.append((_("Condição confirmada"), rules.confirmation_label(code)))  # CAB 9 §ú
    if record.vet_report:
        laudo = _("%(text)s (%(crmv)s)", text=record.vet_report, crmv=record.vet_crmv or "")
        if record.federal_ground:
            laudo += " – " + _("atesta: %(g)s", g=rules.federal_ground_label(record.federal_ground))
        rows.append((_("Laudo veterinário"), laudo))
    for n, witness in enumerate(record.witnesses or [], start=1):  # CABO 11
        shown = rules.shown_document(witness["document"])  # a CPF masked (LGPD)
        rows.append((_("Testemunha %(n)d", n=n), f"{witness['name']} – {shown}"))
    agent = record.recorded_by.full_name if record.recorded_by else "—"
    rows.append((_("Lavrado por"), f"{agent}, {_judge_label(record.judged_by_role)}"))
    rows.append((_("Dispositivo legal"), record.article))
    return rows


class _Page:
    """A4 lines that wrap and move to a new page above the check footer."""

    def __init__(self, canvas: Canvas, title: str, subtitle: str) -> None:
        self.c, self.title, self.subtitle = canvas, title, subtitle
        self.width, self.height = A4
        self.x = 20 * mm
        self._start()

    def _start(self) -> None:
        a4_header(self.c, self.title, self.subtitle)
        self.c.setFillColor(colors.black)
        self.y = self.height - 40 * mm

    def row(self, label: str, value: str) -> None:
        width = self.width - 2 * self.x - VALUE_X
        parts = simpleSplit(value, "Helvetica", 10, width) or [""]
        if self.y - 5 * mm * len(parts) < BOTTOM:
            self.c.showPage()
            self._start()
        self.c.setFont("Helvetica-Bold", 9.5)
        self.c.drawString(self.x, self.y, f"{label}:")
        self.c.setFont("Helvetica", 10)
        for part in parts:
            self.c.drawString(self.x + VALUE_X, self.y, part)
            self.y -= 5 * mm
        self.y -= 1.5 * mm

    def signatures(self, names: list[str]) -> None:
        """A line to sign above each name: the agent's and each witness's (CABO 11)."""
        for name in names:
            if self.y - 14 * mm < BOTTOM:
                self.c.showPage()
                self._start()
            self.y -= 9 * mm
            self.c.line(self.x, self.y, self.x + 90 * mm, self.y)
            self.c.setFont("Helvetica", 8.5)
            self.c.drawString(self.x, self.y - 4 * mm, name)
            self.y -= 5 * mm


def record_pdf(record: OnSiteEuthanasia, profile: Profile) -> bytes:
    """The record's A4 document, with its check code and QR code."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    title = document_title(record)
    canvas.setTitle(f"{title} {record.number}")
    canvas.setAuthor(_("Centro de Controle de Zoonoses de %(city)s", city=profile.municipality))
    page = _Page(
        canvas,
        f"{title} nº {record.number}",
        _(
            "CCZ – Prefeitura de %(city)s/%(uf)s · %(law)s, %(article)s",
            city=profile.municipality,
            uf=profile.state,
            law=profile.law_title,
            article=record.article,
        ),
    )
    canvas.setFillColor(BLUE)
    canvas.setFont("Helvetica-Bold", 12)
    canvas.drawString(page.x, page.y, _("Código de conferência %(code)s", code=record.check_code))
    canvas.setFillColor(colors.black)
    page.y -= 9 * mm
    for label, value in _facts(record):
        page.row(label, value)
    if record.witnesses:  # CABO 11: lavrado by the agent, signed by the witnesses
        agent = record.recorded_by.full_name if record.recorded_by else ""
        page.signatures(
            [_("%(name)s (agente sanitário)", name=agent)]
            + [_("%(name)s (testemunha)", name=w["name"]) for w in record.witnesses]
        )
    a4_check_footer(
        canvas, check_url(record), _("Confira este documento pelo código ao lado ou em:")
    )
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def pdf_response(record: OnSiteEuthanasia) -> Response:
    """The record's document, shown in the browser (the pages of staff and of the owner)."""
    return Response(
        record_pdf(record, current_profile()),
        mimetype="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{record.number}.pdf"'},
    )


def record_by_number(number: str) -> OnSiteEuthanasia:
    """The record with a check code of that number; 404 otherwise."""
    found = db.session.scalar(select(OnSiteEuthanasia).where(OnSiteEuthanasia.number == number))
    if found is None or found.check_code is None:
        abort(404)
    return found
