"""The establishment's own pages (request, follow, renew, close) and the public list of
accredited establishments ("Onde registrar meu animal")."""

from __future__ import annotations

from collections.abc import Callable

from flask import abort, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import public, signed_in
from portal.blueprints.establishments import bp, services
from portal.blueprints.establishments.forms import CadastroForm
from portal.extensions import db
from portal.forms import EmptyForm, choices
from portal.kept_uploads import Kept, Slot, keep
from portal.models import Establishment, StoredFile
from portal.services.clock import current_profile, local_today
from portal.views import run_service

SKETCH_PURPOSE = "establishment_sketch"  # GRU 11 §1 IV
SKETCH_DRAFT = "establishment_sketch"  # the person's draft that holds it across a refused post


def _rule():
    rule = current_profile().establishments
    if rule is None:
        abort(404)
    return rule


def _form(obj: Establishment | None = None) -> CadastroForm:
    form = CadastroForm(obj=obj)
    form.kinds.choices = choices((k, services.kind_label(k)) for k in _rule().kinds)
    return form


def _data(form: CadastroForm) -> services.CadastroData:
    return services.CadastroData(
        cnpj=form.cnpj.data,
        legal_name=form.legal_name.data.strip(),
        trade_name=(form.trade_name.data or "").strip() or None,
        kinds=list(form.kinds.data),
        facilities=form.facilities.data.strip(),
        cep=form.cep.data,
        street=form.street.data.strip(),
        number=form.number.data.strip(),
        complement=(form.complement.data or "").strip() or None,
        district=form.district.data.strip(),
        phone=(form.phone.data or "").strip() or None,
        email=(form.email.data or "").strip().lower() or None,
        opening_hours=(form.opening_hours.data or "").strip() or None,
        vet_name=(form.vet_name.data or "").strip() or None,
        vet_crmv=(form.vet_crmv.data or "").strip() or None,
        vet_term_valid_until=form.vet_term_valid_until.data,
    )


def _kept_sketch(key: str) -> Kept:
    """issue 25: the sketch is held in the person's draft as soon as it arrives (re-encoded and
    private: owner and staff see it); a refusal of any other field keeps it."""
    return keep(SKETCH_DRAFT, key, [Slot("sketch")])


def _save(
    form: CadastroForm, kept: Kept, call: Callable[[StoredFile | None], object], success: str
) -> bool:
    """Run the service with the held sketch; commit and confirm, or on a refused rule roll back
    and show the message next to its field (nothing typed or sent is lost)."""

    def run() -> None:
        held = kept.take("sketch", SKETCH_PURPOSE)
        call(held[-1] if held else None)
        kept.discard()  # the sketch is the establishment's now; the draft goes in this commit

    return run_service(run, form=form, success=success).ok


def _own(establishment_id: int) -> Establishment:
    establishment = db.session.get(Establishment, establishment_id)
    if establishment is None or establishment.requested_by_id != current_user.id:
        abort(404)
    return establishment


@bp.route("/estabelecimentos/cadastro", methods=["GET", "POST"])
@signed_in
def request_cadastro():
    rule = _rule()
    form = _form()
    kept = _kept_sketch("")
    valid = form.validate_on_submit()
    if (
        not kept.show_refused(form)
        and valid
        and _save(
            form,
            kept,
            lambda sketch: services.request_cadastro(
                current_user._get_current_object(),
                _data(form),
                profile=current_profile(),
                today=local_today(),
                sketch=sketch,
            ),
            _("Pedido de cadastro enviado. O CCZ vai analisar e agendar a vistoria."),
        )
    ):
        return redirect(url_for("establishments.mine"))
    return render_template(
        "establishments/request.html", form=form, rule=rule, kept=kept.files("sketch")
    )


@bp.route("/estabelecimentos/<int:establishment_id>/editar", methods=["GET", "POST"])
@signed_in
def edit(establishment_id: int):
    establishment = _own(establishment_id)
    form = _form(establishment)
    kept = _kept_sketch(str(establishment.id))
    valid = form.validate_on_submit()
    if (
        not kept.show_refused(form)
        and valid
        and _save(
            form,
            kept,
            lambda sketch: services.update_data(
                establishment,
                current_user._get_current_object(),
                _data(form),
                profile=current_profile(),
                today=local_today(),
                sketch=sketch,
            ),
            _("Dados atualizados e comunicados ao CCZ."),
        )
    ):
        return redirect(url_for("establishments.mine"))
    return render_template(
        "establishments/request.html",
        form=form,
        rule=_rule(),
        establishment=establishment,
        kept=kept.files("sketch"),
    )


@bp.get("/estabelecimentos/meus")
@signed_in
def mine():
    rule = _rule()
    today = local_today()
    found = db.session.scalars(
        select(Establishment)
        .where(Establishment.requested_by_id == current_user.id)
        .order_by(Establishment.id)
    ).all()
    rows = [
        (e, services.status_label(e, today), services.renewal_window(e, current_profile()))
        for e in found
    ]
    return render_template(
        "establishments/mine.html",
        rows=rows,
        today=today,
        rule=rule,
        form=EmptyForm(),
        kind_label=services.kind_label,
    )


@bp.post("/estabelecimentos/<int:establishment_id>/renovar")
@signed_in
def renew(establishment_id: int):
    establishment = _own(establishment_id)
    if EmptyForm().validate_on_submit():
        run_service(
            lambda: services.request_renewal(
                establishment,
                current_user._get_current_object(),
                profile=current_profile(),
                today=local_today(),
            ),
            success=_("Renovação pedida. O CCZ vai analisar."),
        )
    return redirect(url_for("establishments.mine"))


@bp.get("/onde-registrar")
@public
def where_to_register():
    """Accredited establishments by district, with address and hours; no person's data."""
    rule = current_profile().establishments
    if rule is None or not rule.accreditation:
        abort(404)
    by_district: dict[str, list[Establishment]] = {}
    for establishment in services.accredited_establishments(local_today()):
        by_district.setdefault(establishment.district, []).append(establishment)
    return render_template(
        "establishments/where.html", by_district=by_district, kind_label=services.kind_label
    )


@bp.post("/estabelecimentos/<int:establishment_id>/baixa")
@signed_in
def close(establishment_id: int):
    """GRU 11 §5: the establishment asks for the baixa when it closes."""
    establishment = _own(establishment_id)
    if EmptyForm().validate_on_submit():
        run_service(
            lambda: services.close(
                establishment,
                current_user._get_current_object(),
                _("Encerramento das atividades informado pelo estabelecimento."),
            ),
            success=_("Cadastro encerrado (baixa)."),
        )
    return redirect(url_for("establishments.mine"))
