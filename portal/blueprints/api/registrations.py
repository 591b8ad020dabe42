"""RGA through the API: accredited establishments register animals on their clients' behalf and
fetch their monthly report (BJP 2, 9; GRU 14 §1-2, 20); anyone verifies a number.

* ``POST /registrations`` (establishment token): 201 with the number, status, card URL and fees;
  422 ``{"errors": [{"field", "code", "message"}]}`` for any invalid input or refused rule; 400 for
  a body that is not a JSON object; 401 without a valid token. Never a 500 for bad input.
* ``GET /registrations?month=YYYY-MM`` (token): the establishment's own registrations of that
  month, JSON or CSV (``format=csv`` or ``Accept: text/csv``).
* ``GET /registrations/{rga}/card.pdf`` and ``/tag.pdf`` (token): the documents of a registration
  the establishment made, to print for the owner.
* ``GET /rga/{number}`` (public): the same public data as the web page; 400 for a mistyped number
  (check digit), 404 for an unknown one.

The rules are the RGA domain's services, exactly as the web wizard calls them.
"""

from __future__ import annotations

import re
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any

from flask import Response, g, jsonify, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal.access import public
from portal.blueprints.account.services import pending_suggestions
from portal.blueprints.animals import services
from portal.blueprints.animals.rga import InvalidRgaNumber, normalise_rga
from portal.blueprints.animals.routes import card_response, tag_response
from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error
from portal.blueprints.api.openapi import register_paths
from portal.blueprints.billing.services import fee_json
from portal.extensions import db, limiter
from portal.models import Animal
from portal.services import audit
from portal.services.api_auth import api_client
from portal.services.dates import add_months
from portal.services.mail import send_email

_MONTH = re.compile(r"^(\d{4})-(\d{2})$")


class _Reader:
    """Reads typed values out of the JSON body, collecting every problem with its path."""

    def __init__(self) -> None:
        self.problems: list[dict[str, Any]] = []

    def bad(self, path: str, code: str, message: str) -> None:
        self.problems.append(error(path, code, message))

    def obj(self, parent: dict[str, Any], key: str, path: str, *,
            required: bool) -> dict[str, Any] | None:
        value = parent.get(key)
        if value is None:
            if required:
                self.bad(path, "required", _("Objeto obrigatório."))
            return None
        if not isinstance(value, dict):
            self.bad(path, "invalid", _("Deve ser um objeto JSON."))
            return None
        return value

    def text(self, parent: dict[str, Any], key: str, path: str) -> str | None:
        value = parent.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int):
            self.bad(path, "invalid", _("Deve ser um texto."))
            return None
        return str(value)

    def flag(self, parent: dict[str, Any], key: str, path: str) -> bool:
        value = parent.get(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            self.bad(path, "invalid", _("Deve ser true ou false."))
            return False
        return value

    def day(self, parent: dict[str, Any], key: str, path: str) -> date | None:
        value = parent.get(key)
        if value is None or value == "":
            return None
        if not isinstance(value, str):
            self.bad(path, "invalid", _("Data no formato AAAA-MM-DD."))
            return None
        try:
            return date.fromisoformat(value)
        except ValueError:
            self.bad(path, "invalid", _("Data inválida: use o formato AAAA-MM-DD."))
            return None

    def months(self, parent: dict[str, Any], key: str, path: str) -> int | None:
        value = parent.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 360:
            self.bad(path, "invalid", _("Idade em meses: um número inteiro de 0 a 360."))
            return None
        return value

    def grams(self, parent: dict[str, Any], key: str, path: str) -> int | None:
        value = parent.get(key)
        if value is None or value == "":
            return None
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            self.bad(path, "invalid", _("Peso em quilos, por exemplo 12.5."))
            return None
        try:
            kg = Decimal(str(value).replace(",", "."))
            # 1e308 would overflow the quantize below (a 500); no dog or cat weighs a tonne
            if not kg.is_finite() or not -1000 <= kg <= 1000:
                raise InvalidOperation
        except InvalidOperation:
            self.bad(path, "invalid", _("Peso em quilos, por exemplo 12.5."))
            return None
        return int((kg * 1000).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ApiError([error(None, "invalid_json", _(
            "O corpo deve ser um objeto JSON (Content-Type: application/json)."))], 400)
    return body


def _parse(body: dict[str, Any], today: date) -> tuple[
        _Reader, services.AnimalData, services.OwnerData, services.VaccinationData | None, bool]:
    r = _Reader()
    animal = r.obj(body, "animal", "animal", required=True) or {}
    owner = r.obj(body, "owner", "owner", required=True) or {}
    address = r.obj(owner, "address", "owner.address", required=True) or {}
    vacc = r.obj(body, "rabies_vaccination", "rabies_vaccination", required=False)
    birth = r.day(animal, "birth_date", "animal.birth_date")
    estimated = r.flag(animal, "birth_date_estimated", "animal.birth_date_estimated")
    age = r.months(animal, "estimated_age_months", "animal.estimated_age_months")
    if birth is None and age is not None:
        birth, estimated = add_months(today, -age), True  # idade presumida (BJP 3 a)
    data = services.AnimalData(
        name=r.text(animal, "name", "animal.name") or "",
        species=r.text(animal, "species", "animal.species") or "",
        sex=r.text(animal, "sex", "animal.sex") or "",
        birth_date=birth, birth_date_estimated=estimated,
        breed=r.text(animal, "breed", "animal.breed"),
        color=r.text(animal, "color", "animal.color"),
        size=r.text(animal, "size", "animal.size"),
        weight_grams=r.grams(animal, "weight_kg", "animal.weight_kg"),
        sterilized=r.flag(animal, "sterilized", "animal.sterilized"),
        microchip=r.text(animal, "microchip", "animal.microchip"))
    person = services.OwnerData(
        name=r.text(owner, "name", "owner.name") or "",
        cpf=r.text(owner, "cpf", "owner.cpf") or "",
        email=r.text(owner, "email", "owner.email") or "",
        rg=r.text(owner, "rg", "owner.rg"),
        birth_date=r.day(owner, "birth_date", "owner.birth_date"),
        phone=r.text(owner, "phone", "owner.phone"),
        address={key: r.text(address, key, f"owner.address.{key}") for key in (
            "cep", "street", "number", "complement", "district", "city", "state")})
    vaccination = None
    if vacc is not None:
        p = "rabies_vaccination"
        vaccination = services.VaccinationData(
            applied_on=r.day(vacc, "date", f"{p}.date"),
            vaccine_name=r.text(vacc, "vaccine", f"{p}.vaccine") or "",
            batch=r.text(vacc, "batch", f"{p}.batch") or "",
            vet_name=r.text(vacc, "vet_name", f"{p}.vet_name") or "",
            vet_crmv=r.text(vacc, "vet_crmv", f"{p}.vet_crmv") or "",
            manufacturer=r.text(vacc, "manufacturer", f"{p}.manufacturer"),
            manufactured_on=r.day(vacc, "manufactured_on", f"{p}.manufactured_on"),
            expires_on=r.day(vacc, "expires_on", f"{p}.expires_on"),
            next_due_on=r.day(vacc, "next_due", f"{p}.next_due"),
            establishment=r.text(vacc, "establishment", f"{p}.establishment")
            or g.api_client.name)
    at_ccz = r.flag(body, "vaccinate_at_ccz", "vaccinate_at_ccz")
    return r, data, person, vaccination, at_ccz


def _as_api_errors(err: services.AnimalError) -> list[dict[str, Any]]:
    out = []
    for item in err.errors:
        entry = item.as_dict()
        if isinstance(item, services.HouseholdLimitExceeded):
            entry["article"] = item.article
            if item.licence_url:
                entry["licence_url"] = item.licence_url
        out.append(entry)
    return out


@bp.post("/registrations")
@api_client("establishment")
def create_registration():
    """Register an animal for an owner (created as a citizen record when unknown)."""
    body = _body()
    profile = services.current_profile()
    today = services.local_today(profile)
    reader, data, person, vaccination, at_ccz = _parse(body, today)
    problems = list(reader.problems)
    known = {p["field"] for p in problems}
    problems += [e.as_dict() for e in services.validate_animal_data(data) if e.field not in known]
    if vaccination is not None:
        problems += [e.as_dict() for e in services.validate_vaccination(
            vaccination, birth_date=data.birth_date, today=today) if e.field not in known]
    try:
        owner = services.find_or_create_owner(person, g.api_client)
    except services.AnimalError as err:
        problems += [e for e in _as_api_errors(err) if e["field"] not in known]
        owner = None
    if problems or owner is None:
        db.session.rollback()
        raise ApiError(problems)
    client = g.api_client
    try:
        animal = services.register_animal(
            owner=owner, data=data, vaccination=vaccination, vaccinate_at_ccz=at_ccz,
            registered_by=client.user, api_client=client, profile=profile, today=today)
        audit.record("animal.registered_by_api", animal,
                     detail={"rga": animal.rga, "api_client_id": client.id})
        fees = [fee_json(item) for item in services.fees_of(animal)]
        _notify_owner(animal, client.name)
        db.session.commit()
    except services.AnimalError as err:
        db.session.rollback()
        raise ApiError(_as_api_errors(err)) from None
    except IntegrityError:
        db.session.rollback()  # a concurrent registration took the microchip first
        raise ApiError([error("animal.microchip", "duplicate_microchip",
                              _("Este microchip já está registrado em outro animal."))]) from None
    response = jsonify(
        rga=animal.rga, status=animal.status, provisional=animal.provisional,
        late_registration=animal.late_registration,
        card_url=services.absolute_url("api.registration_card", rga=animal.rga),
        tag_url=services.absolute_url("api.registration_tag", rga=animal.rga),
        public_url=services.absolute_url("animals.public_rga", number=animal.rga), fees=fees)
    response.status_code = 201
    response.headers["Location"] = url_for("api.rga_lookup", number=animal.rga)
    return response


def _notify_owner(animal: Animal, establishment: str) -> None:
    owner = animal.owner
    if not owner.email:
        return
    if owner.has_account:
        tail = _("Os documentos estão em \"Meus animais\" no portal.")
    else:
        tail = _("Para ver os documentos e acompanhar o registro, crie sua conta no portal com "
                 "seu CPF e este e-mail: %(link)s", link=services.absolute_url("auth.signup"))
    pending = _("O registro fica pendente até a vacinação antirrábica no CCZ.") \
        if animal.status == "pending" else ""
    if owner.has_account and pending_suggestions(owner):
        # The establishment sent other contact data: nothing changed, the owner decides.
        tail += " " + _("O estabelecimento informou dados de contato diferentes dos seus; nada "
                        "foi alterado. Confira em \"Minha conta\" para aceitar ou descartar.")
    send_email(owner.email, _("Animal registrado: RGA %(rga)s", rga=animal.rga), _(
        "Olá, %(name)s.\n\n%(place)s registrou %(animal)s no Registro Geral do Animal com o número "
        "%(rga)s. %(pending)s\n\n%(tail)s", name=owner.full_name, place=establishment,
        animal=animal.name, rga=animal.rga, pending=pending, tail=tail))


def _month(arg: str | None) -> tuple[int, int]:
    if not arg:
        raise ApiError([error("month", "required", _("Informe o mês: month=AAAA-MM."))])
    match = _MONTH.match(arg.strip())
    if not match or not 1 <= int(match[2]) <= 12:
        raise ApiError([error("month", "invalid", _("Mês inválido: use AAAA-MM, ex.: 2026-03."))])
    return int(match[1]), int(match[2])


def _wants_csv() -> bool:
    if (request.args.get("format") or "").lower() == "csv":
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/csv"])
    return best == "text/csv" and request.accept_mimetypes["text/csv"] > request.accept_mimetypes[
        "application/json"]


@bp.get("/registrations")
@api_client("establishment")
def list_registrations():
    """The establishment's own registrations of a month: the monthly report (BJP 9; GRU 20)."""
    year, month = _month(request.args.get("month"))
    profile = services.current_profile()
    rows = [services.report_row(a) for a in services.registrations_of_month(
        g.api_client, year, month, profile)]
    db.session.commit()  # last_used_at of the client
    label = f"{year:04d}-{month:02d}"
    if _wants_csv():
        return Response(services.report_csv(rows), content_type="text/csv; charset=utf-8",
                        headers={"Content-Disposition":
                                 f"attachment; filename=registros-rga-{label}.csv"})
    return jsonify(month=label, count=len(rows), registrations=rows)


def _own_registration(rga: str) -> Animal:
    try:
        number = normalise_rga(rga)
    except InvalidRgaNumber as err:
        raise ApiError([error("rga", "invalid", services.rga_error_message(err))], 400) from None
    animal = db.session.scalar(select(Animal).where(Animal.rga == number))
    if animal is None or animal.api_client_id != g.api_client.id:
        raise ApiError([error("rga", "not_found", _("Registro não encontrado."))], 404)
    return animal


@bp.get("/registrations/<rga>/card.pdf")
@api_client("establishment")
def registration_card(rga: str):
    """The card of a registration this establishment made (to print for the owner)."""
    animal = _own_registration(rga)
    db.session.commit()
    return card_response(animal)


@bp.get("/registrations/<rga>/tag.pdf")
@api_client("establishment")
def registration_tag(rga: str):
    animal = _own_registration(rga)
    db.session.commit()
    return tag_response(animal)


@bp.get("/rga/<number>")
@public
@limiter.limit("120/minute")
def rga_lookup(number: str):
    """Public verification of a number: name, species, photo, status. No owner data."""
    try:
        animal = services.find_by_rga(number)
    except InvalidRgaNumber as err:
        raise ApiError([error("number", "invalid", services.rga_error_message(err))], 400) from None
    if animal is None:
        raise ApiError([error("number", "not_found",
                              _("Nenhum animal registrado com este número."))], 404)
    return jsonify(services.public_data(animal))


# ---------------------------------------------------------------------------------------------
# OpenAPI
# ---------------------------------------------------------------------------------------------

_ERR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_DATE = {"type": "string", "format": "date"}


def _resp(description: str, schema: str | None = None) -> dict[str, Any]:
    if schema is None:
        return {"description": description, "content": _ERR}
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


_PDF = {"description": "PDF", "content": {"application/pdf": {"schema": {"type": "string",
                                                                          "format": "binary"}}}}

register_paths(
    {
        "/registrations": {
            "post": {
                "operationId": "createRegistration",
                "summary": "Registrar um cão ou gato (RGA) para um proprietário",
                "description": "Estabelecimento credenciado (BJP 2; GRU 14 §1-2). Proprietário "
                               "desconhecido é criado e pode assumir o cadastro pelo CPF e e-mail. "
                               "Códigos de erro 422: invalid_cpf, household_limit, age, "
                               "missing_vaccination, duplicate_microchip, required, invalid.",
                "security": [{"bearer": []}],
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/RegistrationRequest"}}}},
                "responses": {
                    "201": _resp("Registrado", "RegistrationCreated"),
                    "400": _resp("Corpo não é um objeto JSON"),
                    "401": _resp("Token ausente ou inválido"),
                    "422": _resp("Dados inválidos ou regra não atendida"),
                },
            },
            "get": {
                "operationId": "listRegistrations",
                "summary": "Relatório mensal dos registros do estabelecimento (BJP 9; GRU 20)",
                "security": [{"bearer": []}],
                "parameters": [
                    {"name": "month", "in": "query", "required": True,
                     "schema": {"type": "string", "pattern": r"^\d{4}-\d{2}$"},
                     "example": "2026-03"},
                    {"name": "format", "in": "query", "required": False,
                     "schema": {"type": "string", "enum": ["json", "csv"]}},
                ],
                "responses": {
                    "200": {"description": "Registros do mês", "content": {
                        "application/json": {"schema": {
                            "$ref": "#/components/schemas/MonthlyReport"}},
                        "text/csv": {"schema": {"type": "string"}}}},
                    "401": _resp("Token ausente ou inválido"),
                    "422": _resp("Mês ausente ou inválido"),
                },
            },
        },
        "/registrations/{rga}/card.pdf": {
            "get": {
                "operationId": "registrationCard",
                "summary": "Carteira do RGA (85,6 × 54 mm) de um registro do estabelecimento",
                "security": [{"bearer": []}],
                "parameters": [{"name": "rga", "in": "path", "required": True,
                                "schema": {"type": "string"}}],
                "responses": {"200": _PDF, "400": _resp("Número mal digitado"),
                              "401": _resp("Token ausente ou inválido"),
                              "404": _resp("Registro não encontrado")},
            },
        },
        "/registrations/{rga}/tag.pdf": {
            "get": {
                "operationId": "registrationTag",
                "summary": "Plaqueta com o número do RGA",
                "security": [{"bearer": []}],
                "parameters": [{"name": "rga", "in": "path", "required": True,
                                "schema": {"type": "string"}}],
                "responses": {"200": _PDF, "400": _resp("Número mal digitado"),
                              "401": _resp("Token ausente ou inválido"),
                              "404": _resp("Registro não encontrado")},
            },
        },
        "/rga/{number}": {
            "get": {
                "operationId": "rgaLookup",
                "summary": "Consulta pública de um RGA (sem dados do proprietário)",
                "parameters": [{"name": "number", "in": "path", "required": True,
                                "schema": {"type": "string"}, "example": "C-2026-000123-0"}],
                "responses": {"200": _resp("Registro", "PublicRga"),
                              "400": _resp("Número mal digitado (dígito verificador)"),
                              "404": _resp("Número não registrado")},
            },
        },
    },
    schemas={
        "RegistrationRequest": {
            "type": "object", "required": ["animal", "owner"],
            "properties": {
                "animal": {"type": "object",
                           "required": ["name", "species", "sex", "breed", "color", "size"],
                           "description": "birth_date ou estimated_age_months é obrigatório.",
                           "properties": {
                               "name": {"type": "string"},
                               "species": {"type": "string", "enum": ["dog", "cat"]},
                               "sex": {"type": "string", "enum": ["male", "female"]},
                               "breed": {"type": "string"}, "color": {"type": "string"},
                               "birth_date": _DATE, "birth_date_estimated": {"type": "boolean"},
                               "estimated_age_months": {
                                   "type": "integer", "minimum": 0, "maximum": 360,
                                   "description": "Sem data de nascimento: idade aproximada em "
                                                  "meses, convertida numa data presumida."},
                               "size": {"type": "string", "enum": ["small", "medium", "large"]},
                               "weight_kg": {"type": "number"},
                               "sterilized": {"type": "boolean"},
                               "microchip": {"type": "string"}}},
                "owner": {"type": "object", "required": ["name", "cpf", "email", "address"],
                          "properties": {
                              "name": {"type": "string"}, "cpf": {"type": "string"},
                              "rg": {"type": "string"}, "birth_date": _DATE,
                              "email": {"type": "string", "format": "email"},
                              "phone": {"type": "string"},
                              "address": {"type": "object",
                                          "required": ["cep", "street", "number", "district",
                                                       "city"],
                                          "properties": {k: {"type": "string"} for k in (
                                              "cep", "street", "number", "complement",
                                              "district", "city", "state")}}}},
                "rabies_vaccination": {"type": "object",
                                       "required": ["date", "vaccine", "batch", "vet_name",
                                                    "vet_crmv"],
                                       "properties": {
                                           "date": _DATE, "vaccine": {"type": "string"},
                                           "batch": {"type": "string"},
                                           "manufacturer": {"type": "string"},
                                           "manufactured_on": _DATE, "expires_on": _DATE,
                                           "next_due": _DATE,
                                           "establishment": {"type": "string"},
                                           "vet_name": {"type": "string"},
                                           "vet_crmv": {"type": "string"}}},
                "vaccinate_at_ccz": {"type": "boolean", "description":
                                     "Sem comprovante: o registro fica pendente até a vacinação "
                                     "no CCZ (BJP 6 §ú)."},
            },
        },
        "RegistrationCreated": {
            "type": "object", "required": ["rga", "status", "card_url", "fees"],
            "properties": {
                "rga": {"type": "string", "example": "C-2026-000123-0"},
                "status": {"type": "string", "enum": ["active", "pending"]},
                "provisional": {"type": "boolean", "description":
                                "O número vale, mas o registro só fica definitivo quando a taxa "
                                "de registro for paga (ou isenta)."},
                "late_registration": {"type": "boolean"},
                "card_url": {"type": "string", "format": "uri"},
                "tag_url": {"type": "string", "format": "uri"},
                "public_url": {"type": "string", "format": "uri"},
                "fees": {"type": "array", "items": {"$ref": "#/components/schemas/Fee"}},
            },
        },
        "Fee": {
            "type": "object",
            "properties": {"id": {"type": "integer"}, "kind": {"type": "string"},
                           "amount_cents": {"type": "integer"}, "status": {"type": "string"},
                           "pay_url": {"type": "string", "format": "uri"}},
        },
        "PublicRga": {
            "type": "object", "required": ["rga", "name", "species", "status"],
            "properties": {"rga": {"type": "string"}, "name": {"type": "string"},
                           "species": {"type": "string", "enum": ["dog", "cat"]},
                           "status": {"type": "string", "enum": ["active", "pending", "closed"]},
                           "provisional": {"type": "boolean", "description":
                                           "Número emitido, registro ainda não conferido pelo "
                                           "CCZ (taxa ou comprovante de vacinação)."},
                           "photo_url": {"type": ["string", "null"], "format": "uri"},
                           "public_url": {"type": "string", "format": "uri"}},
        },
        "MonthlyReport": {
            "type": "object",
            "properties": {"month": {"type": "string"}, "count": {"type": "integer"},
                           "registrations": {"type": "array", "items": {"type": "object"}}},
        },
    },
)
