"""Pydantic building blocks for ``/api/v1`` bodies, and their errors in the API's shape.

Request models derive from :class:`RequestModel`; a field whose value is wrong raises a
:class:`~pydantic_core.PydanticCustomError` whose *type* is the API error code the endpoint has
always answered (``invalid``, ``required``...) and whose message is the Portuguese text, so
:func:`parse` turns pydantic's errors into ``{"field", "code", "message"}`` without a table per
endpoint. Pydantic's own error types (a missing object, a list where an object goes) are mapped
once in :data:`_BUILTIN`. Response models derive from :class:`ResponseModel`. The same models make
the OpenAPI document (:mod:`portal.blueprints.api.openapi`), so it cannot drift from the code.

The rules themselves (a CPF's check digits, the household limit, the vaccine's validity) stay in
the domain services; the models only say what type each JSON value has.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, TypeVar

from flask import current_app
from flask_babel import gettext as _
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    WithJsonSchema,
    model_validator,
)
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import PydanticCustomError

from portal.blueprints.api.errors import error

M = TypeVar("M", bound=BaseModel)


class RequestModel(BaseModel):
    """A JSON object sent to the API. Unknown keys are ignored; ``null`` means "not sent"."""

    model_config = ConfigDict(extra="ignore")

    @model_validator(mode="before")
    @classmethod
    def _null_is_absent(cls, data: Any) -> Any:
        if isinstance(data, dict):
            return {key: value for key, value in data.items() if value is not None}
        return data


def documented_required(fields: list[str]) -> ConfigDict:
    """A request model's config whose document lists ``fields`` as required, while the model
    itself lets them be absent: the service answers a missing one with its own code/message."""
    return ConfigDict(extra="ignore", json_schema_extra={"required": list[Any](fields)})


class ResponseModel(BaseModel):
    """A JSON object the API answers. Extra keys pass through untouched (never lose a field)."""

    model_config = ConfigDict(extra="allow")


def dump(model: type[BaseModel], data: Any) -> Any:
    """``data`` (a dict or a model) as JSON-ready values, checked against the response model.

    A body that does not match its model fails the tests; in production the client still gets
    the body (a documentation drift must not become a 500) and the mismatch is logged.
    """
    if isinstance(data, model):
        return data.model_dump(mode="json")
    try:
        return model.model_validate(data).model_dump(mode="json")
    except ValidationError as exc:
        if current_app.testing:
            raise
        current_app.logger.warning(
            "API response does not match %s: %s",
            model.__name__,
            exc.errors(include_url=False, include_input=False),
        )
        return data


# --- Field types that answer the API's historical codes and messages -------------------------


def _invalid(message: str) -> PydanticCustomError:
    return PydanticCustomError("invalid", message)


def _text(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise _invalid(_("Deve ser um texto."))
    return str(value)  # a number sent for a text (a house number, a CEP) is read as its digits


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _invalid(_("Deve ser true ou false."))
    return value


def _day(value: Any) -> date | None:
    if value == "":
        return None
    if not isinstance(value, str):
        raise _invalid(_("Data no formato AAAA-MM-DD."))
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise _invalid(_("Data inválida: use o formato AAAA-MM-DD.")) from None


def _months(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 360:
        raise _invalid(_("Idade em meses: um número inteiro de 0 a 360."))
    return value


def _kilos(value: Any) -> Decimal | None:
    if value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise _invalid(_("Peso em quilos, por exemplo 12.5."))
    try:
        kg = Decimal(str(value).replace(",", "."))
        # 1e308 would overflow a later quantize (a 500); no dog or cat weighs a tonne
        if not kg.is_finite() or not -1000 <= kg <= 1000:
            raise InvalidOperation
    except InvalidOperation:
        raise _invalid(_("Peso em quilos, por exemplo 12.5.")) from None
    return kg


DateTime = Annotated[str, Field(json_schema_extra={"format": "date-time"})]  # as isoformat() made
Url = Annotated[str, Field(json_schema_extra={"format": "uri"})]  # absolute, never rewritten
# JSON null means "not sent", so the documented type is the value's own (no "or null")
Text = Annotated[str | None, BeforeValidator(_text), WithJsonSchema({"type": "string"})]


def TextChoice(*values: str) -> Any:  # noqa: N802 - used like a type
    """A text whose documented values are ``values`` (the service says which are valid)."""
    return Annotated[
        str | None, BeforeValidator(_text), WithJsonSchema({"type": "string", "enum": list(values)})
    ]


Flag = Annotated[bool, BeforeValidator(_flag), WithJsonSchema({"type": "boolean"})]
Day = Annotated[
    date | None, BeforeValidator(_day), WithJsonSchema({"type": "string", "format": "date"})
]
Months = Annotated[
    int | None,
    BeforeValidator(_months),
    WithJsonSchema({"type": "integer", "minimum": 0, "maximum": 360}),
]
Kilos = Annotated[Decimal | None, BeforeValidator(_kilos), WithJsonSchema({"type": "number"})]


# No text the API reads may hold a NUL character (PostgreSQL cannot store it): the server answers
# 400 for one anywhere in a body, so a request schema says so for every string, every property
# name and whatever an object carries besides its properties (issue 26 #12).
NO_NUL = "^[^\\u0000]*$"
ANY_JSON_WITHOUT_NUL = "AnyJsonWithoutNul"


def without_nul(schema: Any) -> Any:
    """One schema node of a request with the no-NUL rule (changed in place and returned)."""
    if not isinstance(schema, dict):
        return schema
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if (
        "string" in kinds
        and not {"pattern", "enum", "const"} & schema.keys()
        and schema.get("format") != "binary"
    ):
        schema["pattern"] = NO_NUL
    if "object" in kinds and "properties" in schema:
        schema.setdefault("propertyNames", {"pattern": NO_NUL})
        schema.setdefault(
            "additionalProperties", {"$ref": f"#/components/schemas/{ANY_JSON_WITHOUT_NUL}"}
        )
    return schema


class DocumentSchema(GenerateJsonSchema):
    """JSON Schema for the OpenAPI document: an absent optional field is simply absent, so
    ``"default": null`` is not written (it would contradict an ``enum``). The document adds the
    no-NUL rule to the request models' schemas (:func:`without_nul`)."""

    def default_schema(self, schema: Any) -> JsonSchemaValue:
        json_schema = super().default_schema(schema)
        if json_schema.get("default", ...) is None:
            json_schema.pop("default")
        return json_schema


# --- Pydantic errors → the API's errors ------------------------------------------------------

# pydantic's own error types, met on the objects of a body (the fields use the types above);
# messages are functions so they are translated at answer time
_BUILTIN: dict[str, tuple[str, Callable[[], str]]] = {
    "missing": ("required", lambda: _("Objeto obrigatório.")),
    "model_type": ("invalid", lambda: _("Deve ser um objeto JSON.")),
    "model_attributes_type": ("invalid", lambda: _("Deve ser um objeto JSON.")),
    "dict_type": ("invalid", lambda: _("Deve ser um objeto JSON.")),
}
_CUSTOM_CODES = {"invalid", "required"}


def api_error(detail: dict[str, Any]) -> dict[str, Any]:
    """One pydantic error as ``{"field", "code", "message"}`` (field = the dotted JSON path)."""
    field = ".".join(str(part) for part in detail["loc"]) or None
    kind = detail["type"]
    if kind in _BUILTIN:
        code, message = _BUILTIN[kind]
        return error(field, code, message())
    if kind in _CUSTOM_CODES:  # raised by the field types above: code and message are ours
        return error(field, kind, detail["msg"])
    return error(field, "invalid", _("Valor inválido."))  # any other type mismatch


def _prune(model: type[BaseModel], data: dict[str, Any], loc: tuple[Any, ...]) -> None:
    """Take the value at ``loc`` out of ``data`` so the rest can still be read: a required object
    becomes ``{}`` (its own fields are then reported by the service), anything else is dropped."""
    target: Any = data
    current: type[BaseModel] | None = model
    for part in loc[:-1]:
        if not isinstance(target, dict) or not isinstance(target.get(part), dict):
            return
        target = target[part]
        info = current.model_fields.get(str(part)) if current is not None else None
        current = _model_of(info.annotation) if info is not None else None
    if not isinstance(target, dict):
        return
    leaf = loc[-1]
    info = current.model_fields.get(str(leaf)) if current is not None else None
    if info is not None and info.is_required() and _model_of(info.annotation) is not None:
        target[leaf] = {}
    else:
        target.pop(leaf, None)


def _model_of(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in getattr(annotation, "__args__", ()):  # Optional[Model]
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg
    return None


def parse(model: type[M], data: dict[str, Any]) -> tuple[M | None, list[dict[str, Any]]]:
    """Read ``data`` with ``model``, reporting every wrong value and still returning the rest.

    Each wrong value is reported once and left out, so the services can check the other fields
    in the same answer (the API always reports every problem of a body at once). ``None`` (with
    the problems) when the body cannot be read even without them (a required value is missing).
    """
    problems: list[dict[str, Any]] = []
    seen: set[tuple[Any, ...]] = set()
    body = copy.deepcopy(data)
    while True:
        try:
            return model.model_validate(body), problems
        except ValidationError as exc:
            details = [d for d in exc.errors(include_url=False) if tuple(d["loc"]) not in seen]
            if not details:
                return None, problems  # leaving the bad values out did not help
            for detail in details:
                seen.add(tuple(detail["loc"]))
                problems.append(api_error(dict(detail)))
                _prune(model, body, tuple(detail["loc"]))


# --- Shared response bodies -------------------------------------------------------------------


class ErrorItem(BaseModel):
    field: str | None
    code: str
    message: str


class Error(BaseModel):
    """Every 4xx answer of the API."""

    errors: list[ErrorItem]
