"""The euthanasia of an animal where it is, when it cannot be brought to the CCZ.

GRU 90: "Na apreensão ou captura cujo transporte do animal de grande porte seja inviável, poderá o
mesmo, a juízo da autoridade sanitária, ser submetido à eutanásia no local onde estiver." CAB 9 §ú
(run over or immovable, the owner absent, suffering) and CABO 11 (apprehension impracticable, an
auto de constatação with two witnesses) are the same act with their own conditions, which the
profile's ``impound.on_site_euthanasia`` holds and :mod:`.on_site_rules` checks (Lei 14.228/2021
art. 2º above all three for dogs and cats). The animal never reaches the CCZ, so there is no
capture: the agent or the vet records the act, with the vet's laudo (text, CRMV and the signed
file) where it is asked. None: the law has no such act, and the page does not exist.

CAB 9 caput makes the assessment itself a duty ("será avaliado"), whatever follows it: where the
profile lists ``assessment_outcomes``, the same page records an assessment that ended otherwise
(the animal taken to the CCZ, or left with its owner, who was there) with its outcome. Each record
has a PDF with a check code (:mod:`.on_site_document`); the owner, when the animal's RGA or
microchip was read, reads it too.

Service (:func:`record_on_site_euthanasia`) and the staff page ``/ccz/eutanasia-no-local``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import date

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import func, select

from portal.access import roles_required
from portal.blueprints.files import file_url
from portal.blueprints.impound import bp
from portal.domain import DomainError
from portal.extensions import db
from portal.kept_uploads import Slot, keep
from portal.models import Animal, OnSiteEuthanasia, User
from portal.profiles.schema import OnSiteEuthanasiaRule, Profile
from portal.services import audit, drafts
from portal.services.clock import current_profile, local_today
from portal.services.mail import send_email
from portal.views import run_service

from . import on_site_rules as rules
from .capture import lookup_animal
from .destinations import LAUDO_FILE_PURPOSE, Upload, _store_laudo
from .forms import OnSiteEuthanasiaForm
from .labels import FEDERAL_EUTHANASIA, FEDERAL_SPECIES, size_label

RECENT = 50  # records listed on the page
ON_SITE_DRAFT = "on_site_euthanasia"  # the draft that holds the laudo across a refused post
EUTHANASIA = "euthanasia"  # the outcome of the act itself; CAB 9 lists the others
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed
# A dog's or a cat's record cites the federal article first: it is what allowed the act.
FEDERAL_LAUDO_WITH = rules.FEDERAL_LAUDO + "; %s"


@dataclass
class OnSiteData:
    species: str
    size: str  # the agent's weight class; the legal class comes from the profile
    description: str
    place: str
    district: str
    performed_on: date
    transport_impossible: str  # why the animal could not be brought (the rule's ``ground``)
    vet_report: str
    vet_crmv: str
    laudo_file: Upload | None
    owner_name: str | None = None
    assessment: str = ""  # CAB 9: what the agent or the vet found there
    confirmations: tuple[str, ...] = ()  # CAB 9 §ú
    witnesses: list[tuple[str, str]] = field(default_factory=list)  # CABO 11: (name, document)
    federal_ground: str | None = None  # Lei 14.228/2021 art. 2º, for a dog or a cat
    outcome: str = EUTHANASIA  # CAB 9: what came of the assessment
    tag_read: str = ""  # the animal's RGA or microchip, when it has one: its owner is known


def offered(profile: Profile) -> bool:
    """Whether the city's law has the act (GRU 90; CAB 9 §ú; CABO 11)."""
    return profile.impound.on_site_euthanasia is not None


def _check_animal(profile: Profile, rule: OnSiteEuthanasiaRule, data: OnSiteData) -> None:
    if data.species in FEDERAL_SPECIES:
        if not rules.reaches_dogs_and_cats(profile, rule):
            # GRU 90 reaches large animals only, and a dog or a cat is small (GRU 10 XV);
            # Lei 14.228/2021, art. 2º: a dog's or a cat's life ends only by its euthanasia
            raise DomainError(
                "species",
                "federal_species",
                _(
                    "Cães e gatos não podem ter eutanásia no local: só com laudo de doença grave "
                    "incurável, pelo procedimento da %(law)s.",
                    law=FEDERAL_EUTHANASIA,
                ),
            )
        rules.check_federal_ground(data.species, data.federal_ground)  # Lei 14.228/2021 art. 2º
    if profile.impound.legal_size(data.species, data.size) not in rule.sizes:
        raise DomainError(
            "size",
            "not_large",
            _(
                "A eutanásia no local só é prevista para animal de %(sizes)s cujo transporte "
                "seja inviável (%(article)s). Recolha o animal e registre a captura.",
                sizes=f" {_('ou')} ".join(size_label(s) for s in rule.sizes),
                article=rule.article,
            ),
        )


def _check(profile: Profile, data: OnSiteData, actor: User, today: date) -> list[dict[str, str]]:
    """Every condition of the city's law; the witnesses cleaned (CABO 11)."""
    rule = profile.impound.on_site_euthanasia
    assert rule is not None
    rules.check_judge(rule, actor)  # GRU 90; CAB 9; CABO 11 "a juízo do Agente Sanitário"
    _check_animal(profile, rule, data)
    if data.performed_on > today:
        raise DomainError("performed_on", "future", _("A data não pode ser futura."))
    needs_laudo = rules.laudo_needed(rule, data.species)
    required = [
        ("description", _("Descreva o animal.")),
        ("place", _("Informe o local.")),
        ("district", _("Informe o bairro.")),
        (
            "transport_impossible",
            _(
                "Explique: %(q)s (%(a)s).",
                q=rules.ground_question(rule).lower(),
                a=rule.cite("ground"),
            ),
        ),
    ]
    if needs_laudo:
        required += [
            ("vet_report", _("Escreva o laudo do médico veterinário.")),
            ("vet_crmv", _("Informe o CRMV do veterinário.")),
        ]
    else:  # CAB 9: the assessment of the agent or the vet is the record's ground
        required.append(("assessment", _("Descreva a avaliação do animal feita no local.")))
    for name, message in required:
        if not str(getattr(data, name) or "").strip():
            raise DomainError(name, "required", message)
    if needs_laudo and data.laudo_file is None:
        raise DomainError(
            "laudo_file",
            "required",
            _("Anexe o laudo assinado pelo médico veterinário (PDF ou foto)."),
        )
    rules.check_confirmations(rule, data.confirmations)  # CAB 9 §ú
    return rules.clean_witnesses(rule, data.witnesses, actor)  # CABO 11


def _check_assessment(
    rule: OnSiteEuthanasiaRule, data: OnSiteData, actor: User, today: date
) -> None:
    """CAB 9 caput: an assessment that did not end in euthanasia; the animal's state and what
    the agent or the vet found are the record, with its outcome. None of §ú's conditions, no
    laudo and no witnesses: nobody's life ended."""
    if data.outcome not in rule.assessment_outcomes:
        raise DomainError(
            "outcome",
            "not_provided",
            _("A lei deste município prevê aqui só a eutanásia no local (%(a)s).", a=rule.article),
        )
    rules.check_judge(rule, actor)  # CAB 9: "pelo agente sanitário ou médico veterinário"
    if data.performed_on > today:
        raise DomainError("performed_on", "future", _("A data não pode ser futura."))
    required = [
        ("description", _("Descreva o animal.")),
        ("place", _("Informe o local.")),
        ("district", _("Informe o bairro.")),
        (
            "transport_impossible",
            _("Explique: %(q)s (%(a)s).", q=rules.ground_question(rule).lower(), a=rule.article),
        ),
        ("assessment", _("Descreva a avaliação do animal feita no local.")),
    ]
    if data.outcome == "left_with_owner" and not (data.tag_read or "").strip():
        required.append(("owner_name", _("Informe o proprietário que ficou com o animal.")))
    for name, message in required:
        if not str(getattr(data, name) or "").strip():
            raise DomainError(name, "required", message)


def _animal(tag: str) -> Animal | None:
    """The registered animal whose RGA or microchip was read; refused when none has it."""
    tag = tag.strip()
    if not tag:
        return None
    found = lookup_animal(None, tag) if tag.isdigit() else lookup_animal(tag, None)
    if found is None:
        raise DomainError(
            "tag_read",
            "not_found",
            _("Nenhum animal registrado com este RGA ou microchip. Confira ou deixe em branco."),
        )
    return found


def _number(year: int, prefix: str = "EUT") -> str:
    count = db.session.scalar(
        select(func.count())
        .select_from(OnSiteEuthanasia)
        .where(OnSiteEuthanasia.number.like(f"{prefix}-{year}-%"))
    )
    return f"{prefix}-{year}-{(count or 0) + 1:05d}"


def _check_code() -> str:
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(10))
        taken = select(OnSiteEuthanasia.id).where(OnSiteEuthanasia.check_code == code)
        if db.session.scalar(taken) is None:
            return code


def record_on_site_euthanasia(
    profile: Profile, data: OnSiteData, *, actor: User, today: date
) -> OnSiteEuthanasia:
    """Record the act with what the city's law asks (the vet's laudo, the assessment, the
    conditions confirmed, the witnesses); refused with a message beside the field at fault."""
    rule = profile.impound.on_site_euthanasia
    if rule is None:
        raise DomainError(
            None, "not_provided", _("A lei deste município não prevê a eutanásia no local.")
        )
    if data.outcome != EUTHANASIA:  # CAB 9 caput: the assessment alone
        return _record_assessment(profile, rule, data, actor=actor, today=today)
    witnesses = _check(profile, data, actor, today)
    animal = _animal(data.tag_read)
    laudo = _store_laudo(data.laudo_file) if data.laudo_file is not None else None
    federal = data.species in FEDERAL_SPECIES
    record = OnSiteEuthanasia(
        number=_number(data.performed_on.year),
        check_code=_check_code(),
        outcome=EUTHANASIA,
        animal_id=animal.id if animal is not None else None,
        owner_id=animal.owner_id if animal is not None else None,
        species=data.species,
        description=data.description.strip(),
        size=profile.impound.legal_size(data.species, data.size),
        place=data.place.strip(),
        district=data.district.strip(),
        performed_on=data.performed_on,
        transport_impossible=data.transport_impossible.strip(),
        assessment=data.assessment.strip() or None,
        judged_by_role=next(r for r in rule.judged_by if actor.has_role(r)),
        confirmations=[c for c in rule.confirmations if c in data.confirmations] or None,
        witnesses=witnesses or None,
        federal_ground=data.federal_ground if federal else None,
        vet_report=data.vet_report.strip() or None,
        vet_crmv=data.vet_crmv.strip() or None,
        laudo_file_id=laudo.id if laudo is not None else None,
        article=FEDERAL_LAUDO_WITH % rule.article if federal else rule.article,
        owner_name=_owner_name(data, animal),
        recorded_by_id=actor.id,
    )
    return _saved(record, "impound.on_site_euthanasia", actor)


def _owner_name(data: OnSiteData, animal: Animal | None) -> str | None:
    typed = (data.owner_name or "").strip()
    return typed or (animal.owner.full_name if animal is not None else None)


def _record_assessment(
    profile: Profile, rule: OnSiteEuthanasiaRule, data: OnSiteData, *, actor: User, today: date
) -> OnSiteEuthanasia:
    _check_assessment(rule, data, actor, today)
    animal = _animal(data.tag_read)
    record = OnSiteEuthanasia(
        number=_number(data.performed_on.year, "AVL"),
        check_code=_check_code(),
        outcome=data.outcome,
        animal_id=animal.id if animal is not None else None,
        owner_id=animal.owner_id if animal is not None else None,
        species=data.species,
        description=data.description.strip(),
        size=profile.impound.legal_size(data.species, data.size),
        place=data.place.strip(),
        district=data.district.strip(),
        performed_on=data.performed_on,
        transport_impossible=data.transport_impossible.strip(),
        assessment=data.assessment.strip(),
        judged_by_role=next(r for r in rule.judged_by if actor.has_role(r)),
        article=rule.cite("assessment_outcomes"),  # CAB 9 caput
        owner_name=_owner_name(data, animal),
        recorded_by_id=actor.id,
    )
    return _saved(record, "impound.on_site_assessment", actor)


def _saved(record: OnSiteEuthanasia, action: str, actor: User) -> OnSiteEuthanasia:
    db.session.add(record)
    db.session.flush()
    audit.record(
        action,
        record,
        detail={"number": record.number, "article": record.article, "outcome": record.outcome},
        actor_id=actor.id,
    )
    _tell_owner(record)
    return record


def _tell_owner(record: OnSiteEuthanasia) -> None:
    """The owner, known by the animal's RGA or microchip, learns of it by e-mail, with the link
    to the record's document."""
    from .on_site_document import document_title, owner_pdf_url

    owner = record.owner
    if owner is None or not owner.email:
        return
    send_email(
        owner.email,
        _("%(doc)s nº %(n)s – seu animal", doc=document_title(record), n=record.number),
        _(
            "Olá, %(name)s.\n\nO CCZ registrou em %(day)s o atendimento do seu animal (%(animal)s) "
            "em %(place)s, %(district)s: %(outcome)s (%(article)s).\n\nLeia o documento: %(url)s\n",
            name=owner.full_name,
            day=record.performed_on.strftime("%d/%m/%Y"),
            animal=record.description,
            place=record.place,
            district=record.district,
            outcome=rules.outcome_label(record.outcome),
            article=record.article,
            url=owner_pdf_url(record),
        ),
    )


def recent() -> list[OnSiteEuthanasia]:
    return list(
        db.session.scalars(
            select(OnSiteEuthanasia).order_by(OnSiteEuthanasia.id.desc()).limit(RECENT)
        )
    )


# -- The staff page -----------------------------------------------------------------------------


def _page(form: OnSiteEuthanasiaForm, status: int = 200, kept: list[drafts.HeldFile] | None = None):
    profile = current_profile()
    rule = profile.impound.on_site_euthanasia
    assert rule is not None  # the routes answer 404 first
    form.transport_impossible.label.text = rules.ground_question(rule)
    if kept is None:  # the laudo a refused post left in this person's draft
        kept = drafts.held(drafts.find(current_user, ON_SITE_DRAFT)).get("laudo_file", [])
    return render_template(
        "impound/on_site.html",
        form=form,
        kept=kept,
        records=recent(),
        rule=rule,
        may_record=any(current_user.has_role(r) for r in rule.judged_by),
        article=rule.article,
        sizes=[size_label(s) for s in rule.sizes],
        dogs_and_cats=rules.reaches_dogs_and_cats(profile, rule),
        document_name=rules.document_name(rule),
        confirmation_label=rules.confirmation_label,
        federal_ground_label=rules.federal_ground_label,
        shown_document=rules.shown_document,
        outcome_label=rules.outcome_label,
        file_url=file_url,
    ), status


def _data_from(form: OnSiteEuthanasiaForm, held: list[drafts.HeldFile]) -> OnSiteData:
    confirmed = tuple(c for c in ("owner_absent", "suffering", "staff_safe") if form[c].data)
    return OnSiteData(
        species=form.species.data,
        size=form.size.data,
        description=form.description.data or "",
        place=form.place.data or "",
        district=form.district.data or "",
        performed_on=form.performed_on.data,
        transport_impossible=form.transport_impossible.data or "",
        vet_report=form.vet_report.data or "",
        vet_crmv=form.vet_crmv.data or "",
        laudo_file=held[-1].stored if held else None,
        owner_name=form.owner_name.data,
        assessment=form.assessment.data or "",
        confirmations=confirmed,
        witnesses=[
            (form[f"witness_{n}_name"].data or "", form[f"witness_{n}_document"].data or "")
            for n in range(1, rules.WITNESS_SLOTS + 1)
        ],
        federal_ground=form.federal_ground.data or None,
        outcome=form.outcome.data or EUTHANASIA,
        tag_read=form.tag_read.data or "",
    )


@bp.get("/ccz/eutanasia-no-local")
@roles_required("agent", "vet", "coordinator")
def staff_on_site():
    """GRU 90; CAB 9 §ú; CABO 11: the form and the acts recorded."""
    if not offered(current_profile()):
        abort(404)
    form = OnSiteEuthanasiaForm(performed_on=local_today(), outcome=EUTHANASIA)
    return _page(form)


@bp.post("/ccz/eutanasia-no-local")
@roles_required("agent", "vet")
def staff_on_site_record():
    profile = current_profile()
    if not offered(profile):
        abort(404)
    form = OnSiteEuthanasiaForm()
    # issue 25: the signed laudo is held as soon as it arrives; a refusal of any field keeps it
    kept = keep(ON_SITE_DRAFT, "", [Slot("laudo_file")])
    valid = form.validate_on_submit()
    if kept.show_refused(form) or not valid:
        return _page(form, 422, kept.files("laudo_file"))
    data = _data_from(form, kept.files("laudo_file"))

    def record() -> OnSiteEuthanasia:
        made = record_on_site_euthanasia(profile, data, actor=current_user, today=local_today())
        kept.discard()  # the laudo is the record's now; the draft goes in the same commit
        return made

    done = run_service(record, form=form)
    if done.value is None:
        return _page(form, 422, kept.files("laudo_file"))
    return _recorded(done.value)


def _recorded(made: OnSiteEuthanasia):
    """The act's number confirmed, and where the agent goes next."""
    if made.outcome == "taken_to_ccz":  # CAB 9: the animal in custody needs its capture
        flash(
            _("Avaliação registrada: nº %(n)s. Registre agora a captura.", n=made.number),
            "success",
        )
        return redirect(url_for("impound.staff_new"))
    if made.outcome != EUTHANASIA:
        flash(_("Avaliação registrada: nº %(n)s.", n=made.number), "success")
    else:
        flash(_("Eutanásia no local registrada: nº %(n)s.", n=made.number), "success")
    return redirect(url_for("impound.staff_on_site"))


__all__ = ["LAUDO_FILE_PURPOSE", "OnSiteData", "offered", "record_on_site_euthanasia"]
