"""Adoption listings API: NGOs publish animals with their own token; anyone searches.

* ``POST /listings`` (token ``ngo``) → 201 ``{"id", "state": "draft"}``
* ``POST /listings/<id>/photos`` multipart ``photo`` (token) → 201 ``{"photo": {...urls}}``
* ``PATCH /listings/<id>`` (token) ``{"state": ...}`` and/or fields → 200 the listing
* ``GET /listings?species=&size=&sex=&cursor=`` (public) → ``{"items": [...], "next": cursor|null}``
* ``GET /listings/<id>`` (public) → one published listing

Rules come from ``portal.blueprints.adoption.services`` (the same the web forms call). Another NGO's
listing answers 404, never 403. Every error is ``{"errors": [{"field", "code", "message"}]}``.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from flask import g, jsonify, request, url_for
from flask_babel import gettext as _
from flask_limiter.util import get_remote_address
from pydantic import BaseModel, Field

from portal.access import public
from portal.blueprints.adoption import services as svc
from portal.blueprints.adoption.search import (
    MAX_AGE_YEARS,
    MAX_PAGE_SIZE,
    PAGE_SIZE,
    SearchError,
    parse_filters,
    search_listings,
)
from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error, run_api_service
from portal.blueprints.api.openapi import declare_endpoint
from portal.blueprints.api.schema import DateTime, RequestModel, ResponseModel, Url, dump
from portal.blueprints.files import file_url
from portal.extensions import db, limiter
from portal.models import Listing, ListingState, Organization
from portal.models import ListingPhoto as ListingPhotoRow
from portal.services.api_auth import api_client
from portal.urls import absolute_url, public_base_url

# --- The bodies, as models. The listing's fields are checked by ``svc.listing_data``: the web
# form and the API share that service (its codes: required, invalid_choice, too_old, future...).

Species = Literal["dog", "cat"]
Sex = Literal["male", "female"]
Size = Literal["small", "medium", "large"]
Temperament = Literal["good_with_children", "good_with_dogs", "good_with_cats"]


class ListingInput(RequestModel):
    name: str = Field(max_length=80)
    species: Species
    sex: Sex
    birth_date: date | None = None
    age_months: int | None = Field(None, ge=0, description="idade estimada, em vez de birth_date")
    size: Size
    color: str
    breed: str | None = Field(None, max_length=100, description="SRD se vazio")
    temperament: list[Temperament] = []
    vaccinated: bool = False
    vaccinated_on: date | None = None
    dewormed: bool = False
    dewormed_on: date | None = None
    sterilized: bool = False
    sterilized_on: date | None = None
    held_since: date | None = None
    story: str | None = Field(None, max_length=4000)
    district: str = Field(max_length=100)


class ListingPatch(RequestModel):
    """Só os campos que mudam; ``state`` publica, volta a rascunho ou retira o anúncio."""

    state: Literal["draft", "published", "withdrawn"] | None = None
    name: str | None = Field(None, max_length=80)
    species: Species | None = None
    sex: Sex | None = None
    birth_date: date | None = None
    age_months: int | None = Field(None, ge=0)
    size: Size | None = None
    color: str | None = None
    breed: str | None = None
    temperament: list[Temperament] | None = None
    vaccinated: bool | None = None
    vaccinated_on: date | None = None
    dewormed: bool | None = None
    dewormed_on: date | None = None
    sterilized: bool | None = None
    sterilized_on: date | None = None
    held_since: date | None = None
    story: str | None = Field(None, max_length=4000)
    district: str | None = None


class ListingPhoto(ResponseModel):
    id: int
    position: int
    thumbnail_url: Url
    medium_url: Url
    large_url: Url


class ListingOwner(ResponseModel):
    type: Literal["ccz", "ngo"]
    name: str


class ListingSummary(ResponseModel):
    id: int
    name: str
    species: str
    sex: str
    size: str
    photos: list[ListingPhoto]
    url: Url
    district: str | None
    owner: ListingOwner
    published_at: DateTime | None


class ListingDetail(ListingSummary):
    state: Literal["draft", "published", "reserved", "adopted", "withdrawn"]
    color: str
    birth_date: date
    birth_date_estimated: bool
    temperament: list[Temperament]
    vaccinated: bool
    dewormed: bool
    sterilized: bool
    story: str | None


class ListingPage(ResponseModel):
    items: list[ListingSummary]
    next: str | None


class ListingCreated(ResponseModel):
    id: int
    state: Literal["draft"]


class PhotoCreated(ResponseModel):
    photo: ListingPhoto


class ListingSearchQuery(BaseModel):
    """The query of ``GET /listings``, typed as the server reads it (issue 26 #12: a schema-valid
    query is never refused)."""

    species: Literal["dog", "cat"] | None = None
    sex: Literal["male", "female"] | None = None
    size: Literal["small", "medium", "large"] | None = None
    age_min: int | None = Field(None, ge=0, le=MAX_AGE_YEARS, description="anos completos")
    age_max: int | None = Field(
        None,
        ge=0,
        le=MAX_AGE_YEARS,
        description="anos completos; menor que age_min: nenhum resultado",
    )
    children: str | None = Field(None, description="1: convive com crianças")
    dogs: str | None = Field(None, description="1: convive com cães")
    cats: str | None = Field(None, description="1: convive com gatos")
    owner: str | None = Field(
        None, pattern=r"^(ccz|ngo|[0-9]{1,9})$", description="ccz | ngo | id da ONG"
    )
    district: str | None = Field(None, description="bairro")
    sort: Literal["newest", "oldest"] | None = None
    cursor: str | None = Field(
        None,
        description="valor de next da página anterior (opaco)",
        json_schema_extra={"format": "listing-cursor"},
    )
    limit: int | None = Field(None, ge=1, le=MAX_PAGE_SIZE, description="padrão 24")


def _absolute(path: str) -> str:
    return public_base_url() + path  # never the request's Host


def photo_json(photo: ListingPhotoRow) -> dict[str, Any]:
    stored = photo.stored_file
    return {
        "id": photo.id,
        "position": photo.position,
        "thumbnail_url": _absolute(file_url(stored, "thumbnail")),
        "medium_url": _absolute(file_url(stored, "medium")),
        "large_url": _absolute(file_url(stored, "large")),
    }


def listing_json(listing: Listing, full: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": listing.id,
        "name": listing.name,
        "species": listing.species,
        "sex": listing.sex,
        "size": listing.size,
        "photos": [photo_json(p) for p in listing.photos],
        "url": absolute_url("adoption.listing", listing_id=listing.id),
        "district": listing.district,
        "owner": {"type": "ccz" if listing.is_ccz else "ngo", "name": listing.owner_name},
        "published_at": listing.published_at.isoformat() if listing.published_at else None,
    }
    if full:
        data.update(
            {
                "state": listing.state,
                "color": listing.color,
                "birth_date": listing.birth_date.isoformat(),
                "birth_date_estimated": listing.birth_date_estimated,
                "temperament": [t for t in svc.TEMPERAMENT if getattr(listing, t)],
                "vaccinated": listing.vaccinated,
                "dewormed": listing.dewormed,
                "sterilized": listing.sterilized,
                "story": listing.story,
            }
        )
    return data


def _organization() -> Organization:
    org = svc.organization_for_client(g.api_client)
    if org is None:
        raise ApiError(
            [
                error(
                    None, "not_linked", _("Este token não está ligado a uma ONG aprovada pelo CCZ.")
                )
            ],
            403,
        )
    return org


def _own_listing(listing_id: int) -> Listing:
    org = _organization()
    listing = db.session.get(Listing, listing_id)
    if listing is None or listing.organization_id != org.id:
        raise ApiError([error(None, "not_found", _("Anúncio não encontrado."))], 404)
    return listing


def _json_object() -> dict[str, Any]:
    payload = request.get_json(silent=True)
    if not isinstance(payload, dict):
        raise ApiError(
            [
                error(
                    None,
                    "invalid_json",
                    _(
                        "Envie um objeto JSON no corpo do pedido, "
                        "com Content-Type: application/json."
                    ),
                )
            ]
        )
    return payload


@bp.post("/listings")
@api_client("ngo")
def listings_create():
    org = _organization()
    payload = _json_object()
    listing = run_api_service(
        lambda: svc.create_listing(
            org, g.api_client.user, svc.listing_data(payload, svc.local_today())
        )
    )
    response = jsonify(dump(ListingCreated, {"id": listing.id, "state": listing.state}))
    response.status_code = 201
    response.headers["Location"] = url_for("api.listings_get", listing_id=listing.id)
    return response


def _client_key() -> str:
    """Rate-limit key: the API token (set by ``api_client`` before the limit is checked), so an
    NGO's integration is limited as one client whatever addresses it calls from."""
    client = g.get("api_client")
    return f"api-client:{client.id}" if client is not None else f"ip:{get_remote_address()}"


@bp.post("/listings/<int:listing_id>/photos")
@api_client("ngo")
# Every photo is decoded and re-encoded in three sizes (up to a second of CPU for a big one):
# enough for 8 photos of a few listings a minute, not for a flood.
@limiter.limit("20/minute;300/hour", key_func=_client_key)
def listings_add_photo(listing_id: int):
    listing = _own_listing(listing_id)
    upload = request.files.get("photo")
    if upload is None or not upload.filename:
        raise ApiError([error("photo", "required", _('Envie a foto no campo multipart "photo".'))])
    photo = run_api_service(
        lambda: svc.add_photo(listing, upload.stream, upload.filename, g.api_client.user_id),
        errors=lambda err: [error("photo", err.code, err.message)],
    )
    return jsonify(dump(PhotoCreated, {"photo": photo_json(photo)})), 201


def _current_input(listing: Listing) -> dict[str, Any]:
    """The listing as API input, so a PATCH can change a few fields and re-validate the whole."""
    data = listing_json(listing, full=True)
    data.update(
        {
            "vaccinated_on": listing.vaccinated_on,
            "dewormed_on": listing.dewormed_on,
            "sterilized_on": listing.sterilized_on,
            "held_since": listing.held_since,
            "birth_date": listing.birth_date,
        }
    )
    return data


@bp.patch("/listings/<int:listing_id>")
@api_client("ngo")
def listings_update(listing_id: int):
    """Change the state (draft, published, withdrawn) and/or fields of the NGO's own listing."""
    listing = _own_listing(listing_id)
    payload = _json_object()
    state = payload.pop("state", None)
    run_api_service(lambda: _update(listing, payload, state))
    return jsonify(dump(ListingDetail, listing_json(listing, full=True)))


def _update(listing: Listing, payload: dict[str, Any], state: Any) -> None:
    """The PATCH's changes: the fields sent, re-validated with the listing's others, then the
    state."""
    if payload:
        merged = _current_input(listing)
        if "age_months" in payload:
            merged.pop("birth_date")
            merged.pop("birth_date_estimated")
        merged.update(payload)
        svc.update_listing(listing, svc.listing_data(merged, svc.local_today()))
    if state is not None:
        if not isinstance(state, str):
            raise svc.AdoptionError(
                "state",
                "invalid_choice",
                _("Estado desconhecido: use draft, published ou withdrawn."),
            )
        svc.change_state(listing, state, g.api_client.user)


def _empty_age_range(args: Any) -> bool:
    """age_min above age_max, both in range: the API answers no animal, not an error (the web
    form says which to fix); each value alone is still checked by ``parse_filters``."""
    ages = [(args.get(name) or "").strip() for name in ("age_min", "age_max")]
    if not all(a.isascii() and a.isdigit() and len(a) <= 2 for a in ages):
        return False
    low, high = (int(a) for a in ages)
    return high < low <= MAX_AGE_YEARS


@bp.get("/listings")
@public
def listings_search():
    """Published listings, newest first (``sort=oldest`` for the longest waiting), by cursor."""
    # no animal is that old and that young: every other filter is still checked, the page empty
    empty = _empty_age_range(request.args)
    args = {k: v for k, v in request.args.items() if not (empty and k == "age_max")}
    try:
        filters = parse_filters(args)
        limit = request.args.get("limit", PAGE_SIZE)
        if not str(limit).isdigit() or not 1 <= int(limit) <= MAX_PAGE_SIZE:
            raise SearchError(
                "limit", "invalid", _("Use um número de 1 a %(max)d.", max=MAX_PAGE_SIZE)
            )
        page = search_listings(
            filters, svc.local_today(), cursor=request.args.get("cursor") or None, limit=int(limit)
        )
    except SearchError as err:
        raise ApiError([err.as_api()]) from err
    if empty:
        return jsonify(dump(ListingPage, {"items": [], "next": None}))
    return jsonify(
        dump(
            ListingPage,
            {"items": [listing_json(item) for item in page.items], "next": page.next_cursor},
        )
    )


@bp.get("/listings/<int:listing_id>")
@public
def listings_get(listing_id: int):
    listing = db.session.get(Listing, listing_id)
    if listing is None or listing.state not in (
        ListingState.PUBLISHED,
        ListingState.RESERVED,
        ListingState.ADOPTED,
    ):
        raise ApiError([error(None, "not_found", _("Anúncio não encontrado."))], 404)
    return jsonify(dump(ListingDetail, listing_json(listing, full=True)))


# ---------------------------------------------------------------------------------------------
# OpenAPI: the operations above, described by the models
# ---------------------------------------------------------------------------------------------

declare_endpoint(
    "/listings",
    "get",
    auth="public",
    summary="Buscar animais publicados para adoção (público)",
    query=ListingSearchQuery,
    responses={200: (ListingPage, "Uma página"), 422: "Filtro inválido"},
)
declare_endpoint(
    "/listings",
    "post",
    auth="bearer",
    summary="Criar um anúncio (rascunho) da ONG do token",
    request=ListingInput,
    responses={
        201: (ListingCreated, "Criado"),
        401: "Token ausente ou inválido",
        403: "Token não ligado a uma ONG aprovada",
        422: "Dados inválidos",
    },
)
declare_endpoint(
    "/listings/{id}",
    "get",
    auth="public",
    summary="Um anúncio publicado (público)",
    path_params={"id": {"type": "integer"}},
    responses={200: (ListingDetail, "O anúncio"), 404: "Anúncio não encontrado"},
)
declare_endpoint(
    "/listings/{id}",
    "patch",
    auth="bearer",
    summary="Mudar o estado (draft, published, withdrawn) ou campos do anúncio",
    path_params={"id": {"type": "integer"}},
    request=ListingPatch,
    responses={
        200: (ListingDetail, "O anúncio"),
        401: "Token ausente ou inválido",
        403: "Token não ligado a uma ONG aprovada",
        404: "Anúncio não encontrado",
        422: "Dados inválidos",
    },
)
declare_endpoint(
    "/listings/{id}/photos",
    "post",
    auth="bearer",
    summary="Enviar uma foto (JPEG, PNG, WebP ou HEIC; até 8 por anúncio)",
    path_params={"id": {"type": "integer"}},
    request_content={
        "multipart/form-data": {
            "schema": {
                "type": "object",
                "required": ["photo"],
                "properties": {"photo": {"type": "string", "format": "binary"}},
            }
        }
    },
    responses={
        201: (PhotoCreated, "Foto guardada"),
        401: "Token ausente ou inválido",
        403: "Token não ligado a uma ONG aprovada",
        404: "Anúncio não encontrado",
        413: "Arquivo grande demais",
        422: "Foto ausente ou inválida",
    },
)
