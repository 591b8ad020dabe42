"""Public pages that belong to no single domain."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, jsonify, redirect, render_template, request, url_for
from flask_babel import lazy_gettext as _l
from flask_login import current_user

from portal.access import local_target, public
from portal.blueprints.animals.rga import InvalidRgaNumber, normalise_rga, parse_rga
from portal.blueprints.animals.rga import compact as compact_rga
from portal.blueprints.impound.certificates import certificates_offered
from portal.blueprints.main import bp
from portal.profiles.summary import rule_sections
from portal.services.clock import current_profile
from portal.services.identity import looks_like_cpf
from portal.services.todo import citizen_todo
from portal.views import cpf_query_page

# (endpoint, title, text). Entries whose endpoint no blueprint provides yet are left out.
HOME_CARDS = [
    (
        "animals.register",
        _l("Cadastrar meu animal (RGA)"),
        _l("Registre seu cão ou gato e receba o número do RGA, a carteirinha e a plaqueta."),
    ),
    (
        "animals.my_animals",
        _l("Meus animais"),
        _l("Carteirinha, vacinas, transferência, segunda via e comunicação de óbito."),
    ),
    (
        "billing.my_payments",
        _l("Pagar taxas"),
        _l("Imprima a guia e pague no balcão do CCZ; peça isenção."),
    ),
    (
        "adoption.search",
        _l("Adotar um animal"),
        _l("Cães e gatos do CCZ e de ONGs esperando uma família."),
    ),
    (
        "licences.request",
        _l("Licença para mais animais"),
        _l("Peça a licença especial quando a casa passar do limite de animais."),
    ),
    (
        "reports.new",
        _l("Denunciar maus-tratos"),
        _l("Denúncia com fotos, anônima se quiser, com número de protocolo para acompanhar."),
    ),
    (
        "impound.public_list",
        _l("Animais recolhidos"),
        _l("Seu animal sumiu? Veja os animais recolhidos pelo CCZ, o prazo e como resgatar."),
    ),
    (
        "impound.certificates",
        _l("Certidão negativa de captura"),
        _l("Antes de comprar ou adotar, saiba quantas vezes o animal foi capturado pelo CCZ."),
    ),
    (
        "impound.checks",
        _l("Conferir um documento"),
        _l("Confira pelo código uma certidão, uma licença ou um documento de fiscalização."),
    ),
    (
        "main.rules",
        _l("Regras do município"),
        _l("O que a lei municipal exige, em linguagem simples, com os artigos."),
    ),
]

# Card, boleto and PIX are offered only when Stripe is configured (pages offer what the
# deployment accepts); without it the guia at the counter is the only way.
ONLINE_PAYMENT_TEXT = _l("Pague com cartão, boleto, PIX ou guia no balcão; peça isenção.")


@bp.get("/")
@public
def home():
    cards = [
        {
            "title": title,
            "text": ONLINE_PAYMENT_TEXT
            if endpoint == "billing.my_payments" and current_app.config.get("STRIPE_SECRET_KEY")
            else text,
            "url": url_for(endpoint),
        }
        for endpoint, title, text in HOME_CARDS
        if endpoint in current_app.view_functions and _offered(endpoint)
    ]
    # A signed-in citizen sees what is left to do (each domain contributes its items)
    todo = citizen_todo(current_user._get_current_object()) if current_user.is_authenticated else []
    return render_template("main/home.html", home_cards=cards, todo=todo)


def _offered(endpoint: str) -> bool:
    """The certidão negativa de captura exists only where the law has it (GRU 84 §3)."""
    if endpoint != "impound.certificates":
        return True
    from portal.blueprints.impound.services import certificates_offered

    return certificates_offered(current_profile())


@bp.get("/busca")
@public
def search():
    """The header search box: an RGA number goes to its public page, anything else to adoption."""
    q = (request.args.get("q") or "").strip()
    if looks_like_cpf(q):
        # Someone typed a CPF (valid or not): answer here, never pass it on to another URL (or
        # the access logs behind it), and never echo it.
        return cpf_query_page()
    if q and _looks_like_rga(q) and "animals.public_rga" in current_app.view_functions:
        return redirect(url_for("animals.public_rga", number=_rga_for_url(q)))
    page = _page_for_words(q)
    if page is not None:
        return redirect(url_for(page))
    if "adoption.search" in current_app.view_functions:
        return redirect(url_for("adoption.search", q=q or None))
    return redirect(url_for("main.home"))


# Words that name a service page rather than an animal to adopt (issue 25: "certidão" landed on
# the adoption search). Matched on the start of each word, accents ignored; first match wins.
PAGE_WORDS = (
    (("certid", "negativa"), "impound.certificates"),
    (("conferir", "verificar", "autentic", "validar"), "impound.checks"),
    (("recolhid", "resgat", "apreendid", "capturad", "canil"), "impound.public_list"),
    (("endereco", "horario", "atendimento"), "impound.ccz_place"),
)


def _page_for_words(q: str) -> str | None:
    """The page a search for service words means, when that page exists."""
    import unicodedata

    plain = unicodedata.normalize("NFKD", q.lower()).encode("ascii", "ignore").decode()
    words = plain.split()
    for stems, endpoint in PAGE_WORDS:
        if endpoint in current_app.view_functions and any(w.startswith(stems) for w in words):
            return endpoint
    return None


def _looks_like_rga(q: str) -> bool:
    """An RGA number as people type it ("C-2026-000123-7", "g 2026 000045 3"), valid or with a
    wrong check digit (its page then says so), or a bare number with no words. "gato 2 anos" is a
    search, not a number."""
    try:
        parse_rga(q)
        return True
    except InvalidRgaNumber as err:
        if err.reason == "check_digit":
            return True
    digits = sum(ch.isdigit() for ch in q)
    return digits >= 6 and not any(ch.isalpha() for ch in q)


def _rga_for_url(q: str) -> str:
    try:
        return normalise_rga(q)
    except InvalidRgaNumber:
        return compact_rga(q)


@bp.get("/regras")
@public
def rules():
    profile = current_profile()
    return render_template(
        "main/rules.html",
        sections=rule_sections(profile),
        certificates=certificates_offered(profile),  # GRU 84 §3: only where the law has it
    )


@bp.get("/healthz")
@public
def healthz():
    from portal import database_problem, upload_dir_problem

    profile = current_profile().key
    # An unwritable UPLOAD_DIR fails every photo and document: the instance is not healthy.
    uploads = "unwritable" if upload_dir_problem(current_app.config["UPLOAD_DIR"]) else "ok"
    if database_problem():
        return jsonify(status="error", db="unreachable", uploads=uploads, profile=profile), 503
    if uploads != "ok":
        current_app.logger.error("Health check: UPLOAD_DIR is not writable")
        return jsonify(status="error", db="ok", uploads=uploads, profile=profile), 503
    return jsonify(status="ok", db="ok", uploads=uploads, profile=profile)


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
