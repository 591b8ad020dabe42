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
from decimal import ROUND_HALF_UP, Decimal
from typing import Annotated, Any, Literal

from flask import Response, g, jsonify, request, url_for
from flask_babel import gettext as _
from pydantic import BeforeValidator, Field, WithJsonSchema
from pydantic_core import PydanticCustomError
from sqlalchemy import select

from portal.access import public
from portal.blueprints.account.services import pending_suggestions
from portal.blueprints.animals import services
from portal.blueprints.animals.downloads import card_response, tag_response
from portal.blueprints.animals.rga import InvalidRgaNumber, normalise_rga
from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error, run_api_service
from portal.blueprints.api.openapi import Media, declare_endpoint
from portal.blueprints.api.payments import Fee
from portal.blueprints.api.schema import (
    Day,
    Flag,
    Kilos,
    Months,
    RequestModel,
    ResponseModel,
    Text,
    TextChoice,
    Url,
    documented_required,
    dump,
    parse,
)
from portal.blueprints.billing.services import fee_json
from portal.domain import DomainError
from portal.extensions import db, limiter
from portal.models import Animal, User
from portal.services.api_auth import api_client
from portal.services.dates import add_months
from portal.services.mail import send_email
from portal.views import problems as problems_of

_MONTH_PATTERN = r"^((?:19|20)[0-9]{2})-(0[1-9]|1[0-2])$"
_MONTH = re.compile(_MONTH_PATTERN)


# --- The bodies, as models (the rules are the services': these only read the JSON types) -------


class AnimalIn(RequestModel):
    """birth_date ou estimated_age_months é obrigatório."""

    model_config = documented_required(["name", "species", "sex", "breed", "color", "size"])

    name: Text = None
    species: TextChoice("dog", "cat") = None  # type: ignore[valid-type]
    sex: TextChoice("male", "female") = None  # type: ignore[valid-type]
    breed: Text = None
    color: Text = None
    birth_date: Day = None
    birth_date_estimated: Flag = False
    estimated_age_months: Months = Field(
        None,
        description=(
            "Sem data de nascimento: idade aproximada em meses, convertida numa data presumida."
        ),
    )
    size: TextChoice("small", "medium", "large") = None  # type: ignore[valid-type]
    weight_kg: Kilos = None
    sterilized: Flag = False
    microchip: Text = None

    def weight_grams(self) -> int | None:
        if self.weight_kg is None:
            return None
        return int((self.weight_kg * 1000).quantize(Decimal("1"), rounding=ROUND_HALF_UP))


class AddressIn(RequestModel):
    model_config = documented_required(["cep", "street", "number", "district", "city"])

    cep: Text = None
    street: Text = None
    number: Text = None
    complement: Text = None
    district: Text = None
    city: Text = None
    state: Text = None


class OwnerIn(RequestModel):
    model_config = documented_required(["name", "cpf", "email", "address"])

    name: Text = None
    cpf: Text = None
    rg: Text = None
    birth_date: Day = None
    email: Text = Field(None, json_schema_extra={"format": "email"})
    phone: Text = None
    address: AddressIn


class RabiesVaccinationIn(RequestModel):
    model_config = documented_required(["date", "vaccine", "batch", "vet_name", "vet_crmv"])

    date: Day = None
    vaccine: Text = None
    batch: Text = None
    manufacturer: Text = None
    manufactured_on: Day = None
    expires_on: Day = None
    next_due: Day = None
    establishment: Text = None
    vet_name: Text = None
    vet_crmv: Text = None


class RegistrationRequest(RequestModel):
    animal: AnimalIn
    owner: OwnerIn
    rabies_vaccination: RabiesVaccinationIn | None = None
    vaccinate_at_ccz: Flag = Field(
        False,
        description=(
            "Sem comprovante: o registro fica pendente até a vacinação antirrábica no CCZ "
            "(a regra e o seu artigo são os da lei do município, publicados em /regras)."
        ),
    )


class RegistrationCreated(ResponseModel):
    rga: str = Field(examples=["C-2026-000123-0"])
    status: Literal["active", "pending"]
    provisional: bool = Field(
        description=(
            "O número vale, mas o registro só fica definitivo quando a taxa de registro for paga "
            "(ou isenta)."
        )
    )
    late_registration: bool
    card_url: Url
    tag_url: Url
    public_url: Url
    fees: list[Fee]


class PublicRga(ResponseModel):
    rga: str
    name: str
    species: Literal["dog", "cat"]
    status: Literal["active", "pending", "closed"]
    provisional: bool = Field(
        description=(
            "Número emitido, registro ainda não conferido pelo CCZ (taxa ou comprovante de "
            "vacinação)."
        )
    )
    photo_url: Url | None
    public_url: Url


class MonthlyReportRow(ResponseModel):
    rga: str
    registered_on: date
    status: str
    late_registration: bool
    species: str
    name: str
    sex: str
    breed: str | None
    color: str | None
    birth_date: date
    birth_date_estimated: bool
    size: str | None
    microchip: str | None
    owner_name: str
    owner_cpf: str = Field(description="Mascarado: ***.982.247-**")
    rabies_vaccination_date: date | None


class MonthlyReport(ResponseModel):
    month: str = Field(examples=["2026-03"])
    count: int
    registrations: list[MonthlyReportRow]


def _year_month(value: Any) -> tuple[int, int]:
    if not value:
        raise PydanticCustomError("required", _("Informe o mês: month=AAAA-MM."))
    match = _MONTH.match(str(value).strip())
    if not match or not 1 <= int(match[2]) <= 12:
        raise PydanticCustomError("invalid", _("Mês inválido: use AAAA-MM, ex.: 2026-03."))
    return int(match[1]), int(match[2])


class MonthlyReportQuery(RequestModel):
    model_config = documented_required(["month"])

    month: Annotated[
        tuple[int, int],
        BeforeValidator(_year_month),
        WithJsonSchema({"type": "string", "pattern": _MONTH_PATTERN, "examples": ["2026-03"]}),
    ] = Field(None, validate_default=True)  # absent: answered by the validator as "required"
    format: TextChoice("json", "csv") = None  # type: ignore[valid-type]


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ApiError(
            [
                error(
                    None,
                    "invalid_json",
                    _("O corpo deve ser um objeto JSON (Content-Type: application/json)."),
                )
            ],
            400,
        )
    return body


def _parse(
    body: dict[str, Any], today: date
) -> tuple[
    list[dict[str, Any]],
    services.AnimalData,
    services.OwnerData,
    services.VaccinationData | None,
    bool,
]:
    """The body as the services' value objects, and the problems of its JSON types."""
    req, problems = parse(RegistrationRequest, body)
    if req is None:  # every field is optional to the model: not expected, but never a 500
        raise ApiError(problems)
    animal, owner, vacc = req.animal, req.owner, req.rabies_vaccination
    birth, estimated = animal.birth_date, animal.birth_date_estimated
    if birth is None and animal.estimated_age_months is not None:
        birth, estimated = add_months(today, -animal.estimated_age_months), True  # BJP 3 a
    data = services.AnimalData(
        name=animal.name or "",
        species=animal.species or "",
        sex=animal.sex or "",
        birth_date=birth,
        birth_date_estimated=estimated,
        breed=animal.breed,
        color=animal.color,
        size=animal.size,
        weight_grams=animal.weight_grams(),
        sterilized=animal.sterilized,
        microchip=animal.microchip,
    )
    person = services.OwnerData(
        name=owner.name or "",
        cpf=owner.cpf or "",
        email=owner.email or "",
        rg=owner.rg,
        birth_date=owner.birth_date,
        phone=owner.phone,
        address=owner.address.model_dump(include=set(AddressIn.model_fields)),
    )
    vaccination = None
    if vacc is not None:
        vaccination = services.VaccinationData(
            applied_on=vacc.date,
            vaccine_name=vacc.vaccine or "",
            batch=vacc.batch or "",
            vet_name=vacc.vet_name or "",
            vet_crmv=vacc.vet_crmv or "",
            manufacturer=vacc.manufacturer,
            manufactured_on=vacc.manufactured_on,
            expires_on=vacc.expires_on,
            next_due_on=vacc.next_due,
            establishment=vacc.establishment or g.api_client.name,
        )
    return problems, data, person, vaccination, req.vaccinate_at_ccz


def _as_api_errors(err: DomainError) -> list[dict[str, Any]]:
    out = []
    for item in problems_of(err):
        entry = item.as_api()
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
    animal, fees = run_api_service(
        lambda: _register(body), errors=_as_api_errors, on_conflict=_microchip_taken
    )
    return _created(animal, fees)


def _register(body: dict[str, Any]) -> tuple[Animal, list[dict[str, Any]]]:
    """The checked body registered, with its fees, and the owner told."""
    profile = services.current_profile()
    today = services.local_today(profile)
    data, owner, vaccination, at_ccz = _validated_request(body, today)
    client = g.api_client
    animal = services.register_animal(
        services.RegistrationRequest(
            owner=owner,
            data=data,
            vaccination=vaccination,
            vaccinate_at_ccz=at_ccz,
            registered_by=client.user,
            api_client=client,
            profile=profile,
            today=today,
        )
    )
    fees = [fee_json(item) for item in services.fees_of(animal)]
    _notify_owner(animal, client.name)
    return animal, fees


def _microchip_taken() -> tuple[Animal, list[dict[str, Any]]]:
    """A concurrent registration took the microchip first (the unique index caught it)."""
    raise services.duplicate_microchip_error()


def _validated_request(
    body: dict[str, Any], today: date
) -> tuple[services.AnimalData, User, services.VaccinationData | None, bool]:
    """The request's value objects and its owner (found or created), or every problem of the
    body at once as an :class:`ApiError` (the same checks as the portal's wizard)."""
    problems, data, person, vaccination, at_ccz = _parse(body, today)
    known = {p["field"] for p in problems}
    problems += [e.as_dict() for e in services.validate_animal_data(data) if e.field not in known]
    if vaccination is not None:
        problems += [
            e.as_dict()
            for e in services.validate_vaccination(
                vaccination, birth_date=data.birth_date, today=today
            )
            if e.field not in known
        ]
    try:
        owner = services.find_or_create_owner(person, g.api_client)
    except services.AnimalError as err:
        problems += [e for e in _as_api_errors(err) if e["field"] not in known]
        owner = None
    if problems or owner is None:
        raise ApiError(problems)  # inside run_api_service: the owner record is rolled back
    return data, owner, vaccination, at_ccz


def _created(animal: Animal, fees: list[dict[str, Any]]) -> Response:
    response = jsonify(
        dump(
            RegistrationCreated,
            dict(
                rga=animal.rga,
                status=animal.status,
                provisional=animal.provisional,
                late_registration=animal.late_registration,
                card_url=services.absolute_url("api.registration_card", rga=animal.rga),
                tag_url=services.absolute_url("api.registration_tag", rga=animal.rga),
                public_url=services.absolute_url("animals.public_rga", number=animal.rga),
                fees=fees,
            ),
        )
    )
    response.status_code = 201
    response.headers["Location"] = url_for("api.rga_lookup", number=animal.rga)
    return response


def _notify_owner(animal: Animal, establishment: str) -> None:
    owner = animal.owner
    if not owner.email:
        return
    if owner.has_account:
        tail = _('Os documentos estão em "Meus animais" no portal.')
    else:
        tail = _(
            "Para ver os documentos e acompanhar o registro, crie sua conta no portal com "
            "seu CPF e este e-mail: %(link)s",
            link=services.absolute_url("auth.signup"),
        )
    pending = (
        _("O registro fica pendente até a vacinação antirrábica no CCZ.")
        if animal.status == "pending"
        else ""
    )
    if owner.has_account and pending_suggestions(owner):
        # The establishment sent other contact data: nothing changed, the owner decides.
        tail += " " + _(
            "O estabelecimento informou dados de contato diferentes dos seus; nada "
            'foi alterado. Confira em "Minha conta" para aceitar ou descartar.'
        )
    send_email(
        owner.email,
        _("Animal registrado: RGA %(rga)s", rga=animal.rga),
        _(
            "Olá, %(name)s.\n\n%(place)s registrou %(animal)s no Registro Geral do Animal com "
            "o número %(rga)s. %(pending)s\n\n%(tail)s",
            name=owner.full_name,
            place=establishment,
            animal=animal.name,
            rga=animal.rga,
            pending=pending,
            tail=tail,
        ),
    )


def _month() -> tuple[int, int]:
    query, problems = parse(MonthlyReportQuery, {"month": request.args.get("month")})
    if query is None or problems:
        raise ApiError(problems)
    return query.month


def _wants_csv() -> bool:
    if (request.args.get("format") or "").lower() == "csv":
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/csv"])
    return (
        best == "text/csv"
        and request.accept_mimetypes["text/csv"] > request.accept_mimetypes["application/json"]
    )


@bp.get("/registrations")
@api_client("establishment")
def list_registrations():
    """The establishment's own registrations of a month: the monthly report (BJP 9; GRU 20)."""
    year, month = _month()
    profile = services.current_profile()
    rows = [
        services.report_row(a)
        for a in services.registrations_of_month(g.api_client, year, month, profile)
    ]
    db.session.commit()  # last_used_at of the client
    label = f"{year:04d}-{month:02d}"
    if _wants_csv():
        return Response(
            services.report_csv(rows),
            content_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f"attachment; filename=registros-rga-{label}.csv"},
        )
    return jsonify(dump(MonthlyReport, {"month": label, "count": len(rows), "registrations": rows}))


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
        raise ApiError(
            [error("number", "not_found", _("Nenhum animal registrado com este número."))], 404
        )
    return jsonify(dump(PublicRga, services.public_data(animal)))


# ---------------------------------------------------------------------------------------------
# OpenAPI: the operations above, described by the same models
# ---------------------------------------------------------------------------------------------

_PDF = Media("PDF", {"application/pdf": {"schema": {"type": "string", "format": "binary"}}})

declare_endpoint(
    "/registrations",
    "post",
    operation_id="createRegistration",
    auth="bearer",
    summary="Registrar um cão ou gato (RGA) para um proprietário",
    description="Estabelecimento credenciado (BJP 2; GRU 14 §1-2). Proprietário desconhecido é "
    "criado e pode assumir o cadastro pelo CPF e e-mail. Códigos de erro 422: "
    "invalid_cpf, household_limit, age, missing_vaccination, duplicate_microchip, "
    "required, invalid.",
    request=RegistrationRequest,
    responses={
        201: (RegistrationCreated, "Registrado"),
        400: "Corpo não é um objeto JSON",
        401: "Token ausente ou inválido",
        422: "Dados inválidos ou regra não atendida",
    },
)
declare_endpoint(
    "/registrations",
    "get",
    operation_id="listRegistrations",
    auth="bearer",
    summary="Relatório mensal dos registros do estabelecimento (BJP 9; GRU 20)",
    query=MonthlyReportQuery,
    responses={
        200: Media(
            "Registros do mês", {"text/csv": {"schema": {"type": "string"}}}, model=MonthlyReport
        ),
        401: "Token ausente ou inválido",
        422: "Mês ausente ou inválido",
    },
)
# Issue 26 #12: a wrong check digit (Damm) is a 400, a valid number never issued a 404.
_RGA_PARAM = {
    "type": "string",
    "format": "rga",
    "pattern": r"^[CG]-[0-9]{4}-[0-9]{6,9}-[0-9]$",
    "description": "C (cão) ou G (gato), ano, sequência e dígito verificador (Damm)",
    "examples": ["C-2026-000123-0"],
}
for _doc, _summary, _op in (
    (
        "card.pdf",
        "Carteira do RGA (85,6 × 54 mm) de um registro do estabelecimento",
        "registrationCard",
    ),
    ("tag.pdf", "Plaqueta com o número do RGA", "registrationTag"),
):
    declare_endpoint(
        f"/registrations/{{rga}}/{_doc}",
        "get",
        operation_id=_op,
        auth="bearer",
        summary=_summary,
        path_params={"rga": _RGA_PARAM},
        responses={
            200: _PDF,
            400: "Número mal digitado",
            401: "Token ausente ou inválido",
            404: "Registro não encontrado",
        },
    )
declare_endpoint(
    "/rga/{number}",
    "get",
    operation_id="rgaLookup",
    auth="public",
    summary="Consulta pública de um RGA (sem dados do proprietário)",
    path_params={"number": _RGA_PARAM},
    responses={
        200: (PublicRga, "Registro"),
        400: "Número mal digitado (dígito verificador)",
        404: "Número não registrado",
    },
)
