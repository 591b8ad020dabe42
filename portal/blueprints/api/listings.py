"""Adoption listings API (issue #5): NGOs publish animals with their own token; anyone searches.

* ``POST /listings`` (token ``ngo``) → 201 ``{"id", "state": "draft"}``
* ``POST /listings/<id>/photos`` multipart ``photo`` (token) → 201 ``{"photo": {...urls}}``
* ``PATCH /listings/<id>`` (token) ``{"state": ...}`` and/or fields → 200 the listing
* ``GET /listings?species=&size=&sex=&cursor=`` (public) → ``{"items": [...], "next": cursor|null}``
* ``GET /listings/<id>`` (public) → one published listing

Rules come from ``portal.blueprints.adoption.services`` (the same the web forms call). Another NGO's
listing answers 404, never 403. Every error is ``{"errors": [{"field", "code", "message"}]}``.
"""

from __future__ import annotations

from typing import Any

from flask import g, jsonify, request, url_for
from flask_babel import gettext as _
from flask_limiter.util import get_remote_address

from portal.access import public
from portal.blueprints.adoption import services as svc
from portal.blueprints.adoption.search import (
    MAX_PAGE_SIZE,
    PAGE_SIZE,
    SearchError,
    parse_filters,
    search_listings,
)
from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error
from portal.blueprints.api.openapi import register_paths
from portal.blueprints.files import file_url
from portal.extensions import db, limiter
from portal.models import Listing, ListingPhoto, ListingState, Organization
from portal.services.api_auth import api_client
from portal.urls import absolute_url, public_base_url


def _absolute(path: str) -> str:
    return public_base_url() + path  # never the request's Host (issue 8, security 1)


def photo_json(photo: ListingPhoto) -> dict[str, Any]:
    stored = photo.stored_file
    return {"id": photo.id, "position": photo.position,
            "thumbnail_url": _absolute(file_url(stored, "thumbnail")),
            "medium_url": _absolute(file_url(stored, "medium")),
            "large_url": _absolute(file_url(stored, "large"))}


def listing_json(listing: Listing, full: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": listing.id, "name": listing.name, "species": listing.species, "sex": listing.sex,
        "size": listing.size, "photos": [photo_json(p) for p in listing.photos],
        "url": absolute_url("adoption.listing", listing_id=listing.id),
        "district": listing.district,
        "owner": {"type": "ccz" if listing.is_ccz else "ngo", "name": listing.owner_name},
        "published_at": listing.published_at.isoformat() if listing.published_at else None,
    }
    if full:
        data.update({
            "state": listing.state, "color": listing.color,
            "birth_date": listing.birth_date.isoformat(),
            "birth_date_estimated": listing.birth_date_estimated,
            "temperament": [t for t in svc.TEMPERAMENT if getattr(listing, t)],
            "vaccinated": listing.vaccinated, "dewormed": listing.dewormed,
            "sterilized": listing.sterilized, "story": listing.story,
        })
    return data


def _organization() -> Organization:
    org = svc.organization_for_client(g.api_client)
    if org is None:
        raise ApiError([error(None, "not_linked", _("Este token não está ligado a uma ONG aprovada "
                                                    "pelo CCZ."))], 403)
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
        raise ApiError([error(None, "invalid_json", _("Envie um objeto JSON no corpo do pedido, "
                                                      "com Content-Type: application/json."))])
    return payload


def _invalid(err: svc.InvalidData) -> ApiError:
    return ApiError([error(f, c, m) for f, c, m in err.errors])


@bp.post("/listings")
@api_client("ngo")
def listings_create():
    org = _organization()
    payload = _json_object()
    try:
        data = svc.listing_data(payload, svc.local_today())
        listing = svc.create_listing(org, g.api_client.user, data)
    except svc.InvalidData as err:
        db.session.rollback()
        raise _invalid(err) from err
    except svc.AdoptionError as err:
        db.session.rollback()
        raise ApiError([error(err.field, err.code, err.message)]) from err
    db.session.commit()
    response = jsonify(id=listing.id, state=listing.state)
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
        raise ApiError([error("photo", "required",
                              _("Envie a foto no campo multipart \"photo\"."))])
    try:
        photo = svc.add_photo(listing, upload.stream, upload.filename, g.api_client.user_id)
    except svc.AdoptionError as err:
        db.session.rollback()
        raise ApiError([error("photo", err.code, err.message)]) from err
    db.session.commit()
    return jsonify(photo=photo_json(photo)), 201


def _current_input(listing: Listing) -> dict[str, Any]:
    """The listing as API input, so a PATCH can change a few fields and re-validate the whole."""
    data = listing_json(listing, full=True)
    data.update({"vaccinated_on": listing.vaccinated_on, "dewormed_on": listing.dewormed_on,
                 "sterilized_on": listing.sterilized_on, "held_since": listing.held_since,
                 "birth_date": listing.birth_date})
    return data


@bp.patch("/listings/<int:listing_id>")
@api_client("ngo")
def listings_update(listing_id: int):
    """Change the state (draft, published, withdrawn) and/or fields of the NGO's own listing."""
    listing = _own_listing(listing_id)
    payload = _json_object()
    state = payload.pop("state", None)
    try:
        if payload:
            merged = _current_input(listing)
            if "age_months" in payload:
                merged.pop("birth_date")
                merged.pop("birth_date_estimated")
            merged.update(payload)
            svc.update_listing(listing, svc.listing_data(merged, svc.local_today()))
        if state is not None:
            if not isinstance(state, str):
                raise svc.AdoptionError(_("Estado desconhecido: use draft, published ou "
                                          "withdrawn."), "state", "invalid_choice")
            svc.change_state(listing, state, g.api_client.user)
    except svc.InvalidData as err:
        db.session.rollback()
        raise _invalid(err) from err
    except svc.AdoptionError as err:
        db.session.rollback()
        raise ApiError([error(err.field, err.code, err.message)]) from err
    db.session.commit()
    return jsonify(listing_json(listing, full=True))


@bp.get("/listings")
@public
def listings_search():
    """Published listings, newest first (``sort=oldest`` for the longest waiting), by cursor."""
    try:
        filters = parse_filters(request.args)
        limit = request.args.get("limit", PAGE_SIZE)
        if not str(limit).isdigit() or not 1 <= int(limit) <= MAX_PAGE_SIZE:
            raise SearchError("limit", _("Use um número de 1 a %(max)d.", max=MAX_PAGE_SIZE))
        page = search_listings(filters, svc.local_today(),
                               cursor=request.args.get("cursor") or None, limit=int(limit))
    except SearchError as err:
        raise ApiError([error(err.field, err.code, err.message)]) from err
    return jsonify(items=[listing_json(item) for item in page.items], next=page.next_cursor)


@bp.get("/listings/<int:listing_id>")
@public
def listings_get(listing_id: int):
    listing = db.session.get(Listing, listing_id)
    if listing is None or listing.state not in (ListingState.PUBLISHED, ListingState.RESERVED,
                                                ListingState.ADOPTED):
        raise ApiError([error(None, "not_found", _("Anúncio não encontrado."))], 404)
    return jsonify(listing_json(listing, full=True))


_ERRORS = {"$ref": "#/components/schemas/Error"}
_ERR = {"description": "Erro", "content": {"application/json": {"schema": _ERRORS}}}

register_paths({
    "/listings": {
        "get": {
            "summary": "Buscar animais publicados para adoção (público)",
            "parameters": [{"name": n, "in": "query", "required": False,
                            "schema": {"type": "string"}, **({"description": d} if d else {})}
                           for n, d in (("species", "dog | cat"), ("sex", "male | female"),
                                        ("size", "small | medium | large"),
                                        ("age_min", "anos completos"),
                                        ("age_max", "anos completos"),
                                        ("children", "1: convive com crianças"), ("dogs", None),
                                        ("cats", None), ("owner", "ccz | ngo | id da ONG"),
                                        ("district", "bairro"), ("sort", "newest | oldest"),
                                        ("cursor", "valor de next da página anterior"),
                                        ("limit", "1 a 100 (padrão 24)"))],
            "responses": {"200": {"description": "Uma página", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/ListingPage"}}}}, "422": _ERR},
        },
        "post": {
            "summary": "Criar um anúncio (rascunho) da ONG do token",
            "security": [{"bearer": []}],
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/ListingInput"}}}},
            "responses": {"201": {"description": "Criado", "content": {"application/json": {
                "schema": {"type": "object", "properties": {"id": {"type": "integer"},
                                                            "state": {"const": "draft"}}}}}},
                          "401": _ERR, "403": _ERR, "422": _ERR},
        },
    },
    "/listings/{id}": {
        "get": {"summary": "Um anúncio publicado (público)",
                "parameters": [{"name": "id", "in": "path", "required": True,
                                "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "O anúncio"}, "404": _ERR}},
        "patch": {
            "summary": "Mudar o estado (draft, published, withdrawn) ou campos do anúncio",
            "security": [{"bearer": []}],
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "properties": {"state": {
                    "enum": ["draft", "published", "withdrawn"]}}}}}},
            "responses": {"200": {"description": "O anúncio"}, "401": _ERR, "404": _ERR,
                          "422": _ERR},
        },
    },
    "/listings/{id}/photos": {
        "post": {
            "summary": "Enviar uma foto (JPEG, PNG, WebP ou HEIC; até 8 por anúncio)",
            "security": [{"bearer": []}],
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
                "type": "object", "required": ["photo"],
                "properties": {"photo": {"type": "string", "format": "binary"}}}}}},
            "responses": {"201": {"description": "Foto guardada", "content": {"application/json": {
                "schema": {"type": "object", "properties": {
                    "photo": {"$ref": "#/components/schemas/ListingPhoto"}}}}}},
                          "401": _ERR, "404": _ERR, "413": _ERR, "422": _ERR},
        },
    },
}, schemas={
    "ListingInput": {
        "type": "object", "required": ["name", "species", "sex", "size", "color", "district"],
        "properties": {
            "name": {"type": "string", "maxLength": 80}, "species": {"enum": ["dog", "cat"]},
            "sex": {"enum": ["male", "female"]},
            "birth_date": {"type": "string", "format": "date"},
            "age_months": {"type": "integer", "minimum": 0,
                           "description": "idade estimada, em vez de birth_date"},
            "size": {"enum": ["small", "medium", "large"]}, "color": {"type": "string"},
            "temperament": {"type": "array", "items": {
                "enum": ["good_with_children", "good_with_dogs", "good_with_cats"]}},
            "vaccinated": {"type": "boolean"},
            "vaccinated_on": {"type": "string", "format": "date"},
            "dewormed": {"type": "boolean"}, "dewormed_on": {"type": "string", "format": "date"},
            "sterilized": {"type": "boolean"},
            "sterilized_on": {"type": "string", "format": "date"},
            "story": {"type": "string", "maxLength": 4000}, "district": {"type": "string"},
        },
    },
    "ListingPhoto": {"type": "object", "properties": {
        "id": {"type": "integer"}, "position": {"type": "integer"},
        "thumbnail_url": {"type": "string"}, "medium_url": {"type": "string"},
        "large_url": {"type": "string"}}},
    "ListingPage": {"type": "object", "required": ["items", "next"], "properties": {
        "items": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "integer"}, "name": {"type": "string"}, "species": {"type": "string"},
            "sex": {"type": "string"}, "size": {"type": "string"},
            "photos": {"type": "array", "items": {"$ref": "#/components/schemas/ListingPhoto"}},
            "url": {"type": "string"}}}},
        "next": {"type": ["string", "null"]}}},
})
