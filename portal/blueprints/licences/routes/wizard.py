"""The citizen's licence request (GRU 37 §1 I; BJP 17 §3-4; CAB 31 §2), or its renewal, in four
steps: the animals at the residence (and the new ones registered inside the request), the housing
and care, the documents, then a review that sends it.

Each step is saved on the server as the person's draft (``portal.services.drafts``): what was typed
and every file uploaded, shown back with its name (and a thumbnail for an image) and a button to
remove it. Going back, a refusal at any step or at the end, or coming back another day loses
nothing. What the portal knows is filled in: the residence's registered animals (every owner at
the address), the address itself, the number asked for (the animals listed), and on a renewal the
current licence's number and description. Only the review's "Enviar o pedido" calls the service;
its refusals are listed with a link to the step that fixes each one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from flask import abort, flash, redirect, render_template, url_for
from flask import request as http
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from werkzeug.datastructures import MultiDict

from portal.access import signed_in
from portal.blueprints.animals import services as animals
from portal.blueprints.files import file_url
from portal.blueprints.licences import bp
from portal.blueprints.licences.common import document_name, rule_of
from portal.blueprints.licences.forms import NEW_ANIMAL_SLOTS, AnimalsStep, HousingStep
from portal.blueprints.licences.household import residence_animals
from portal.blueprints.licences.progress import decision_target_days
from portal.blueprints.licences.requests import (
    ListedAnimal,
    RequestData,
    request_licence,
    request_problems,
)
from portal.blueprints.licences.todo import DRAFT_KIND
from portal.extensions import db
from portal.forms import EmptyForm
from portal.models import Animal, ExcessLicence, FormDraft, User
from portal.profiles.schema import LicenceRule, Profile
from portal.services import drafts
from portal.services.clock import current_profile, local_today
from portal.services.ids import query_id
from portal.services.money import format_brl
from portal.views import run_service

STEPS = ("animais", "alojamento", "documentos", "revisao")
STEP_LABELS = {
    "animais": _l("Animais da residência"),
    "alojamento": _l("Alojamento e cuidados"),
    "documentos": _l("Documentos"),
    "revisao": _l("Revisão e envio"),
}
# The animals domain's field names -> the new-animal block's fields (errors go next to them).
_BLOCK_FIELDS = {
    "animal.name": "name",
    "animal.species": "species",
    "animal.sex": "sex",
    "animal.breed": "breed",
    "animal.color": "color",
    "animal.size": "size",
    "animal.birth_date": "birth_date",
    "rabies_vaccination.date": "vaccinated_on",
    "rabies_vaccination.vaccine": "vaccine_name",
    "rabies_vaccination.batch": "batch",
    "rabies_vaccination.vet_name": "vet_name",
    "rabies_vaccination.vet_crmv": "vet_crmv",
}
Errors = dict[str, list[str]]


@dataclass
class Ctx:
    """What every step reads: the person, the law, the residence and the draft."""

    user: User
    profile: Profile
    rule: LicenceRule
    today: date
    renews: ExcessLicence | None
    key: str | None  # the residence; None when the address is incomplete
    at_home: list[Animal]
    draft: FormDraft | None

    @property
    def draft_key(self) -> str:
        return f"renova-{self.renews.id}" if self.renews else ""

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.draft.data or {}) if self.draft else {}

    @property
    def closed(self) -> bool:  # BJP 17 §6: first requests closed; renewals still accepted
        until = self.rule.requests_accepted_until
        return self.renews is None and until is not None and self.today > until

    def url(self, step: str, **extra: Any) -> str:
        renova = self.renews.id if self.renews else None
        return url_for("licences.request", step=step, renova=renova, **extra)

    def draft_for_writing(self) -> FormDraft:
        if self.draft is None:
            self.draft = drafts.open_draft(self.user, DRAFT_KIND, self.draft_key)
        return self.draft


def _ctx() -> Ctx:
    profile, today = current_profile(), local_today()
    rule = rule_of(profile)
    user = current_user._get_current_object()
    renews = None
    if (renews_id := http.args.get("renova", type=query_id)) is not None:
        renews = db.session.get(ExcessLicence, renews_id)
        if renews is None or renews.holder_id != user.id:
            abort(404)
    key = animals.owner_residence_key(user)
    at_home = residence_animals(key) if key else []
    draft_key = f"renova-{renews.id}" if renews else ""
    draft = drafts.find(user, DRAFT_KIND, draft_key)
    return Ctx(user, profile, rule, today, renews, key, at_home, draft)


def _formdata(values: dict[str, Any]) -> MultiDict[str, str]:
    pairs = [(k, x) for k, v in values.items() for x in (v if isinstance(v, list) else [v])]
    return MultiDict(pairs)


def _posted(*prefixes: str) -> dict[str, str | list[str]]:
    """The step's typed values as posted (the buttons, named ``_…``, and the token left out)."""
    out: dict[str, str | list[str]] = {}
    for name in http.form:
        if name.startswith(prefixes):
            values = http.form.getlist(name)
            out[name] = values if len(values) > 1 else values[0]
    return out


@bp.route("/licencas/pedido", methods=["GET", "POST"], defaults={"step": "animais"})
@bp.route("/licencas/pedido/<step>", methods=["GET", "POST"])
@signed_in
def request(step: str):  # noqa: A001  (the endpoint name other pages link to: licences.request)
    if step not in STEPS:
        abort(404)
    ctx = _ctx()
    if ctx.closed or ctx.key is None:
        return _page(ctx, step, errors={})
    return _STEP_VIEWS[step](ctx)


def _page(ctx: Ctx, step: str, errors: Errors, **extra: Any) -> str:
    done = set(ctx.values.get("_done") or [])
    return render_template(
        "licences/request.html",
        ctx=ctx,
        step=step,
        steps=[(s, STEP_LABELS[s], s in done) for s in STEPS],
        errors=errors,
        rule=ctx.rule,
        household=ctx.profile.household,
        renews=ctx.renews,
        document=document_name(ctx.profile),
        address_ok=ctx.key is not None,
        closed=ctx.closed,
        held=drafts.held(ctx.draft),
        thumb=lambda stored: file_url(stored, "thumbnail"),
        remove_url=lambda f: url_for(
            "licences.remove_draft_file",
            file_id=f.id,
            renova=ctx.renews.id if ctx.renews else None,
            voltar=step,
        ),
        **extra,
    )


def _finish_step(ctx: Ctx, step: str, nxt: str):
    draft = ctx.draft_for_writing()
    done = sorted({*(draft.data or {}).get("_done", []), step})
    drafts.save_values(draft, {"_done": done}, step=nxt)
    db.session.commit()
    return redirect(ctx.url(nxt))


# -- step 1: the animals ---------------------------------------------------------------------


def _new_count(ctx: Ctx, form: AnimalsStep) -> int:
    """Blocks shown: as many as asked for with "Registrar mais um", at least the ones used."""
    if ctx.renews is not None:
        return 0  # GRU 37 §1 V: a renewal covers the licence's animals, no new ones
    used = [i for i, b in enumerate(form.new_blocks(), start=1) if b.form.is_used()]
    asked = int(ctx.values.get("new_count") or 0)
    return min(NEW_ANIMAL_SLOTS, max([asked, *used]))


def _animals_step(ctx: Ctx):
    if http.method == "GET":
        form = AnimalsStep(formdata=_formdata(ctx.values) if ctx.values else None)
        return _animals_page(ctx, form, {})
    form = AnimalsStep()
    draft = ctx.draft_for_writing()
    values: dict[str, str | list[str]] = {**_posted("confirm-", "new_")}
    count = _new_count(ctx, form)
    if http.form.get("_action") == "add_new" and ctx.renews is None:
        values["new_count"] = str(min(NEW_ANIMAL_SLOTS, count + 1))
    drafts.save_values(draft, values, owned=("confirm-", "new_"), step="animais")
    db.session.commit()
    if http.form.get("_action") == "add_new":
        return redirect(ctx.url("animais", _anchor=f"new-{count}"))
    errors = _check_animals(ctx, form) if form.validate() else _field_errors(form)
    if errors:
        return _animals_page(ctx, form, errors)
    return _finish_step(ctx, "animais", "alojamento")


def _animals_page(ctx: Ctx, form: AnimalsStep, errors: Errors) -> str:
    values = ctx.values
    return _page(
        ctx,
        "animais",
        errors,
        form=form,
        new_count=_new_count(ctx, form),
        confirmed={k.removeprefix("confirm-") for k in values if k.startswith("confirm-")},
        on_record={
            a.id: animals.current_vaccination(a, ctx.today) is not None for a in ctx.at_home
        },
        counted={
            a.id: animals.counts_for_household(a.birth_date, ctx.today, ctx.profile)
            for a in ctx.at_home
        },
    )


def _field_errors(form: Any) -> Errors:
    """Every WTForms error of the form (and its blocks), by the input's id."""
    out: Errors = {}
    for field in form:
        if field.type == "FormField":
            out.update(_field_errors(field.form))
        elif field.errors and field.type != "CSRFTokenField":
            out[field.id] = list(field.errors)
    if form.errors.get("csrf_token"):
        out[""] = [_("A sessão expirou; envie a etapa de novo.")]
    return out


def _check_animals(ctx: Ctx, form: AnimalsStep) -> Errors:
    """Each registered animal confirmed (GRU 37 §1 I: the RGA of all) and each new animal
    complete, as the animals domain will check it when the request is sent."""
    errors: Errors = {}
    for a in ctx.at_home:
        if http.form.get(f"confirm-{a.id}") != "1":
            errors[f"animal-{a.id}"] = [
                _(
                    "Confirme que %(name)s (RGA %(rga)s) vive na residência. Se o animal morreu "
                    'ou foi doado, comunique isso em "Meus animais" antes de pedir a licença.',
                    name=a.name,
                    rga=a.rga,
                )
            ]
    for block in form.new_blocks() if ctx.renews is None else []:
        new = block.form.new_animal()
        if new is None:
            continue
        found = animals.validate_animal_data(new.data)
        if new.vaccination is not None:
            found += animals.validate_vaccination(
                new.vaccination,
                birth_date=new.data.birth_date,
                today=ctx.today,
            )
        for problem in found:
            target = block.form[_BLOCK_FIELDS.get(problem.field or "", "name")]
            target.errors = [*target.errors, problem.message]
            errors.setdefault(target.id, []).append(problem.message)
    return errors


# -- step 2: housing and care ----------------------------------------------------------------


def _new_names(ctx: Ctx) -> list[tuple[int, str]]:
    """The new-animal blocks used in the draft: (slot number, name)."""
    if ctx.renews is not None:
        return []
    values = ctx.values
    return [
        (i, str(values[f"new_{i}-name"]).strip())
        for i in range(1, NEW_ANIMAL_SLOTS + 1)
        if str(values.get(f"new_{i}-name") or "").strip()
    ]


def _housing_step(ctx: Ctx):
    if http.method == "GET":
        return _page(ctx, "alojamento", {}, form=_marked(ctx, _housing_form(ctx)))
    form = HousingStep()
    draft = ctx.draft_for_writing()
    owned = ("housing_description", "animals_requested")
    drafts.save_values(draft, _posted(*owned), owned=owned, step="alojamento")
    photos = [f for f in http.files.getlist("photos") if f and f.filename]
    refused = drafts.hold(draft, "photos", photos, accept="image", replace=False)
    db.session.commit()
    errors = _field_errors(form) if not form.validate() else {}
    if refused:
        errors.setdefault("photos", []).extend(refused)
    if not errors:
        data = RequestData(
            animals_requested=form.animals_requested.data,
            housing_description=form.housing_description.data or "",
        )
        total = len(ctx.at_home) + len(_new_names(ctx))
        description = " ".join((data.housing_description or "").split())
        for problem in request_problems(ctx.profile, data, description, total):
            problem.show_on(form)
            errors.setdefault(problem.field or "", []).append(problem.message)
    if errors:
        return _page(ctx, "alojamento", errors, form=_marked(ctx, form))
    return _finish_step(ctx, "alojamento", "documentos")


def _marked(ctx: Ctx, form: HousingStep) -> HousingStep:
    """GRU 37 §1 I; BJP 17 §4: the description is required where the law asks for it (or for an
    inspection): its mark says so, like the service's check."""
    rule = ctx.rule
    if "housing_description" in rule.requires or "inspection" in rule.requires:
        form.housing_description.flags.required = True
    return form


def _housing_form(ctx: Ctx) -> HousingStep:
    """The draft's values; else what the portal knows: the animals listed, or the licence
    renewed."""
    if "animals_requested" in ctx.values or "housing_description" in ctx.values:
        return HousingStep(formdata=_formdata(ctx.values))
    form = HousingStep(formdata=None)
    if ctx.renews is not None:
        form.animals_requested.data = ctx.renews.max_animals
        form.housing_description.data = ctx.renews.housing_description
    else:
        form.animals_requested.data = len(ctx.at_home) + len(_new_names(ctx)) or None
    return form


# -- step 3: documents -----------------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    """One document input: the held file goes under ``name``."""

    name: str
    label: str
    required: bool
    note: str | None = None


def _slots(ctx: Ctx) -> list[tuple[str, list[Slot]]]:
    """The documents the law asks for, by animal (GRU 37 §1 I; BJP 17 §4)."""
    needs_rabies = "rabies_proofs" in ctx.rule.requires
    needs_sterilisation = "sterilisation_proofs" in ctx.rule.requires
    out: list[tuple[str, list[Slot]]] = []
    for a in ctx.at_home:
        slots = []
        if needs_rabies:
            on_record = animals.current_vaccination(a, ctx.today) is not None
            label = _("Comprovante de vacinação antirrábica de %(name)s", name=a.name)
            note = _("Vacinação antirrábica em dia no registro: não é preciso enviar.")
            slots.append(Slot(f"rabies-{a.id}", label, not on_record, note if on_record else None))
        if needs_sterilisation:
            label = _("Comprovante de esterilização de %(name)s", name=a.name)
            slots.append(Slot(f"sterilisation-{a.id}", label, True))
        out.append((f"{a.name} · RGA {a.rga}", slots))
    for i, name in _new_names(ctx):
        if needs_sterilisation:
            label = _("Comprovante de esterilização de %(name)s", name=name)
            slot = Slot(f"new_{i}-sterilisation_proof", label, True)
            out.append((_("%(name)s (animal novo)", name=name), [slot]))
    return out


def _documents_step(ctx: Ctx):
    slots = [s for _animal, group in _slots(ctx) for s in group]
    errors: Errors = {}
    if http.method == "POST":
        draft = ctx.draft_for_writing()
        for slot in slots:
            sent = [f for f in http.files.getlist(slot.name) if f and f.filename]
            if refused := drafts.hold(draft, slot.name, sent[:1], accept="document"):
                errors[slot.name] = refused
        drafts.save_values(draft, {}, step="documentos")
        db.session.commit()
        held = drafts.held(draft)
        for slot in slots:
            if slot.required and slot.name not in held and slot.name not in errors:
                errors[slot.name] = [
                    _(
                        "Envie este documento: %(what)s (%(article)s).",
                        what=slot.label,
                        article=ctx.rule.cite("requires"),
                    )
                ]
        if not errors:
            return _finish_step(ctx, "documentos", "revisao")
    return _page(ctx, "documentos", errors, groups=_slots(ctx), form=EmptyForm())


# -- step 4: review and send -----------------------------------------------------------------


def _proof(held: dict[str, list[drafts.HeldFile]], slot: str, purpose: str):
    files = held.get(slot)
    return drafts.take_over(files[-1], purpose) if files else None


def _request_data(ctx: Ctx) -> tuple[RequestData, list[int]]:
    """The request as the service takes it, from the draft; and the slot of each new animal."""
    values, held = ctx.values, drafts.held(ctx.draft)
    listed = [
        ListedAnimal(
            animal_id=a.id,
            confirmed=values.get(f"confirm-{a.id}") == "1",
            rabies_proof=_proof(held, f"rabies-{a.id}", "licence_proof"),
            sterilisation_proof=_proof(held, f"sterilisation-{a.id}", "licence_proof"),
        )
        for a in ctx.at_home
    ]
    blocks = AnimalsStep(formdata=_formdata(values), meta={"csrf": False})
    new, slots = [], []
    for i, block in enumerate(blocks.new_blocks(), start=1):
        if ctx.renews is None and block.form.is_used():
            proof = _proof(held, f"new_{i}-sterilisation_proof", "licence_proof")
            new.append(block.form.new_animal(proof))
            slots.append(i)
    housing = HousingStep(formdata=_formdata(values), meta={"csrf": False})
    photos = [drafts.take_over(f, "licence_photo") for f in held.get("photos", [])]
    data = RequestData(
        animals_requested=housing.animals_requested.data or 0,
        housing_description=housing.housing_description.data or "",
        listed=listed,
        new=[n for n in new if n is not None],
        photos=photos,  # type: ignore[arg-type]
    )
    return data, slots


def _step_of(field: str | None, code: str) -> str:
    """Where a refusal of the service is fixed."""
    if field in ("housing_description", "animals_requested", "photos"):
        return "alojamento"
    if field and field.startswith(("animal-", "new-")):
        return "documentos" if code.endswith("_proof") else "animais"
    return "revisao"


def _review_step(ctx: Ctx):
    form = EmptyForm()
    errors: Errors = {}
    if http.method == "POST" and form.validate_on_submit() and ctx.draft is not None:
        data, slots = _request_data(ctx)
        draft = ctx.draft
        done = run_service(
            lambda: _send(ctx, data, draft),
            show=False,
            success=lambda licence: _(
                "Pedido nº %(id)d enviado. O CCZ vai analisar os documentos e agendar a vistoria.",
                id=licence.id,
            ),
        )
        if done.value is not None:
            return redirect(url_for("licences.detail", licence_id=done.value.id))
        assert done.error is not None
        errors = _review_errors(ctx, done.error, slots)
    return _page(ctx, "revisao", errors, form=form, **_summary(ctx))


def _send(ctx: Ctx, data: RequestData, draft: FormDraft) -> ExcessLicence:
    licence = request_licence(
        ctx.user, data, profile=ctx.profile, today=ctx.today, renews=ctx.renews
    )
    drafts.discard(draft)  # in the same commit: a refusal keeps the draft as it was
    return licence


def _review_errors(ctx: Ctx, error: Exception, slots: list[int]) -> Errors:
    """Each refusal, keyed by a link to the step (and the field) that fixes it."""
    from portal.views import problems

    out: Errors = {}
    for problem in problems(error):  # type: ignore[arg-type]
        field = problem.field
        if field and field.startswith("new-"):
            index = int(field.removeprefix("new-"))
            field = f"new-{slots[index] - 1}" if index < len(slots) else field
        step = _step_of(problem.field, problem.code)
        anchor = field if step != "revisao" else None
        out.setdefault(ctx.url(step, _anchor=anchor) if anchor else ctx.url(step), []).append(
            problem.message
        )
    return out


def _summary(ctx: Ctx) -> dict[str, Any]:
    """What the review shows: what is sent, what happens next, by when, who, and what is paid."""
    values = ctx.values
    new = _new_names(ctx)
    price = ctx.profile.prices.get("registration")
    fee_each = price.amount_cents if price is not None and ctx.profile.registration.fee else 0
    licence_price = ctx.profile.prices.get("licence")
    target_days = decision_target_days()
    return {
        "confirmed_animals": [a for a in ctx.at_home if values.get(f"confirm-{a.id}") == "1"],
        "new_names": [name for _i, name in new],
        "description": values.get("housing_description") or "",
        "asked": values.get("animals_requested") or "",
        "target_days": target_days,
        "due": ctx.today + timedelta(days=target_days),
        "fee_each": format_brl(fee_each) if fee_each else None,
        "fee_total": format_brl(fee_each * len(new)) if fee_each and new else None,
        "fee_article": price.article if price is not None else None,
        "licence_price": format_brl(licence_price.amount_cents) if licence_price else None,
    }


_STEP_VIEWS: dict[str, Callable[[Ctx], Any]] = {
    "animais": _animals_step,
    "alojamento": _housing_step,
    "documentos": _documents_step,
    "revisao": _review_step,
}


@bp.post("/licencas/pedido/arquivo/<int:file_id>/remover")
@signed_in
def remove_draft_file(file_id: int):
    """Remove one file the draft holds (the button next to it, on the step that holds it)."""
    ctx = _ctx()
    asked = http.args.get("voltar") or ""
    back = asked if asked in STEPS else "documentos"
    if ctx.draft is None or file_id not in {f.id for f in ctx.draft.files}:
        abort(404)  # only a file of the person's own draft
    if EmptyForm().validate_on_submit() and drafts.remove(ctx.draft, file_id):
        db.session.commit()
        flash(_("Arquivo removido do rascunho."), "success")
    return redirect(ctx.url(back))
