"""Public pages that belong to no single domain."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, jsonify, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _l
from sqlalchemy import text

from portal.access import local_target, public
from portal.blueprints.main import bp
from portal.extensions import db
from portal.profiles.summary import rule_sections
from portal.services.identity import clean_cpf

# (endpoint, title, text). Entries whose endpoint no blueprint provides yet are left out.
HOME_CARDS = [
    ("animals.register", _l("Cadastrar meu animal (RGA)"),
     _l("Registre seu cão ou gato e receba o número do RGA, a carteirinha e a plaqueta.")),
    ("animals.my_animals", _l("Meus animais"),
     _l("Carteirinha, vacinas, transferência, segunda via e comunicação de óbito.")),
    ("billing.my_payments", _l("Pagar taxas"),
     _l("Pague com cartão, boleto, PIX ou guia no balcão; peça isenção.")),
    ("adoption.search", _l("Adotar um animal"),
     _l("Cães e gatos do CCZ e de ONGs esperando uma família.")),
    ("licences.request", _l("Licença para mais animais"),
     _l("Peça a licença especial quando a casa passar do limite de animais.")),
    ("reports.new", _l("Denunciar maus-tratos"),
     _l("Denúncia com fotos, anônima se quiser, com número de protocolo para acompanhar.")),
    ("main.rules", _l("Regras do município"),
     _l("O que a lei municipal exige, em linguagem simples, com os artigos.")),
]


@bp.get("/")
@public
def home():
    cards = [{"title": title, "text": text, "url": url_for(endpoint)}
             for endpoint, title, text in HOME_CARDS if endpoint in current_app.view_functions]
    return render_template("main/home.html", home_cards=cards)


@bp.get("/busca")
@public
def search():
    """The header search box: an RGA number goes to its public page, anything else to adoption."""
    q = (request.args.get("q") or "").strip()
    if q and clean_cpf(q):
        # Someone typed a CPF: never pass it on to another URL (or the access logs behind it).
        return redirect(url_for("animals.public_lookup")
                        if "animals.public_lookup" in current_app.view_functions
                        else url_for("main.home"))
    if q and any(ch.isdigit() for ch in q) and "animals.public_rga" in current_app.view_functions:
        return redirect(url_for("animals.public_rga", number=q.replace(" ", "").upper()))
    if "adoption.search" in current_app.view_functions:
        return redirect(url_for("adoption.search", q=q or None))
    return redirect(url_for("main.home"))


@bp.get("/regras")
@public
def rules():
    profile = current_app.extensions["portal_profile"]
    return render_template("main/rules.html", sections=rule_sections(profile))


@bp.get("/healthz")
@public
def healthz():
    profile = current_app.extensions["portal_profile"].key
    try:
        db.session.execute(text("SELECT 1"))
    except Exception:  # noqa: BLE001 - any database failure means "not healthy"
        db.session.rollback()
        current_app.logger.exception("Health check: database unreachable")
        return jsonify(status="error", db="unreachable", profile=profile), 503
    return jsonify(status="ok", db="ok", profile=profile)


def _back() -> str:
    """Where to return after a toggle: the referring page on this site, else home."""
    target = request.referrer or ""
    parts = urlsplit(target)
    if parts.netloc and parts.netloc != request.host:
        return url_for("main.home")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return local_target(path) or url_for("main.home")


@bp.get("/contraste")
@public
def toggle_contrast():
    """High-contrast mode as a cookie, so it works without JavaScript."""
    response = redirect(_back())
    on = request.cookies.get("contraste") != "1"
    response.set_cookie("contraste", "1" if on else "0", max_age=365 * 86400, samesite="Lax")
    return response


@bp.get("/idioma/<lang>")
@public
def set_language(lang: str):
    from flask import session

    if lang in current_app.config["LANGUAGES"]:
        session["lang"] = lang
    return redirect(_back())


@bp.get("/acessibilidade")
@public
def accessibility():
    return render_template("main/accessibility.html")


@bp.get("/privacidade")
@public
def privacy():
    return render_template("main/privacy.html")
