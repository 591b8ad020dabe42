"""No stack trace and no 500 reach a user.

A small offline fuzzer (no network, no extra packages): every operation of the OpenAPI document
gets malformed JSON, wrong content types, a body over the size limit, odd unicode and wrong JSON
types, with a valid token of the right kind and with a foreign one; every web form is posted with
its fields missing and with junk in them; every page is asked for with odd query strings.
"""

from __future__ import annotations

import json
import re

import pytest
from flask import g
from sqlalchemy import select
from werkzeug.routing import IntegerConverter

from portal.extensions import db, limiter
from portal.models import Organization, OrganizationMember
from portal.services.api_auth import issue_client
from tests import factories
from tests.factories import build_world, named_argument_values

TRACE = re.compile(r"Traceback|File \"/|sqlalchemy\.|werkzeug\.|jinja2\.exceptions")
UNICODE = "Ação 🐶 \u202e\u0000 ' \" <script>alert(1)</script> 𝕏 ﷽"
PARAM_VALUES = [
    "",
    "-1",
    "0",
    "99999999999999999999",
    "abc",
    UNICODE,
    "2026-13",
    "1e9",
    "[]",
    "%00",
    "../../etc/passwd",
]


def _bodies() -> list[tuple[str, bytes | str, str]]:
    """(label, data, content type)."""
    return [
        ("empty", b"", "application/json"),
        ("malformed", b'{"owner": {', "application/json"),
        ("null", b"null", "application/json"),
        ("array", b"[1, 2, 3]", "application/json"),
        ("number", b"42", "application/json"),
        ("string", json.dumps(UNICODE), "application/json"),
        (
            "wrong types",
            json.dumps(
                {
                    "owner": [],
                    "animal": 5,
                    "name": {"a": 1},
                    "species": 7,
                    "age_months": "x",
                    "state": [],
                    "sex": None,
                }
            ),
            "application/json",
        ),
        (
            "unicode",
            json.dumps(
                {
                    k: UNICODE
                    for k in (
                        "name",
                        "species",
                        "sex",
                        "state",
                        "story",
                        "owner",
                        "animal",
                        "color",
                        "district",
                    )
                }
            ),
            "application/json",
        ),
        ("deep", "[" * 5000 + "]" * 5000, "application/json"),
        ("latin-1", '{"name": "a\xe7\xe3o"}'.encode("latin-1"), "application/json"),
        ("form", "name=x&species=dog", "application/x-www-form-urlencoded"),
        ("text", "hello", "text/plain"),
        ("xml", "<a>1</a>", "application/xml"),
        (
            "multipart junk",
            b'--x\r\nContent-Disposition: form-data; name="photo"; '
            b'filename="a.jpg"\r\n\r\nnot an image\r\n--x--\r\n',
            "multipart/form-data; boundary=x",
        ),
        ("multipart no boundary", b"abc", "multipart/form-data"),
    ]


@pytest.fixture
def tokens(app):  # type: ignore[no-untyped-def]
    result = app.test_cli_runner().invoke(args=["seed-demo"])
    assert result.exit_code == 0
    establishment, est_token = issue_client("establishment", "Clínica Fuzz")
    ngo, ngo_token = issue_client("ngo", "ONG Fuzz")
    org = db.session.scalars(select(Organization)).first()
    org.api_client_id = ngo.id
    db.session.commit()
    return {"establishment": est_token, "ngo": ngo_token, "none": "ccz_wrong"}


def _check(response, where: str, problems: list) -> None:  # type: ignore[no-untyped-def]
    body = "" if response.direct_passthrough else response.get_data().decode("utf-8", "replace")
    response.close()
    if response.status_code >= 500 or TRACE.search(body):
        problems.append((where, response.status_code, body[:200]))
    elif response.request.path.startswith("/api/") and response.status_code >= 400:
        payload = json.loads(body) if response.mimetype == "application/json" else None
        if not (
            isinstance(payload, dict)
            and payload.get("errors")
            and {"field", "code", "message"} <= set(payload["errors"][0])
        ):
            problems.append(
                (where, response.status_code, "not the JSON error shape: " + body[:120])
            )


@pytest.mark.walker(database="postgresql")  # junk input: PostgreSQL refuses what SQLite stores
def test_api_operations_survive_malformed_input(app, client, tokens):
    doc = client.get("/api/v1/openapi.json").get_json()
    problems: list = []
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            for ident in (
                "1",
                "999999",
                "99999999999999999999",
                "C-2026-000001-7",
                "x" * 300,
                "%C3%A7",
            ):
                url = "/api/v1" + re.sub(
                    r"\{[^}]+\}", ident if "{id}" not in path or ident.isdigit() else "1", path
                )
                for kind, token in tokens.items():
                    headers = {"Authorization": f"Bearer {token}"}
                    limiter.reset()
                    if method in ("post", "patch", "put"):
                        for label, data, ctype in _bodies():
                            response = client.open(
                                url,
                                method=method.upper(),
                                data=data,
                                content_type=ctype,
                                headers=headers,
                            )
                            _check(response, f"{method} {url} {kind} {label}", problems)
                    else:
                        for name in [
                            p["name"]
                            for p in operation.get("parameters", [])
                            if p.get("in") == "query"
                        ] or ["x"]:
                            for value in PARAM_VALUES:
                                response = client.open(
                                    url,
                                    method=method.upper(),
                                    query_string={name: value},
                                    headers=headers,
                                )
                                _check(
                                    response, f"{method} {url}?{name}={value!r} {kind}", problems
                                )
    assert not problems, "\n".join(map(str, problems))


def test_api_body_over_the_size_limit_is_a_413_json_error(app, client, tokens):
    app.config["MAX_CONTENT_LENGTH"] = 1024
    response = client.post(
        "/api/v1/registrations",
        data=b"{" + b" " * 4096 + b"}",
        content_type="application/json",
        headers={"Authorization": f"Bearer {tokens['establishment']}"},
    )
    assert response.status_code == 413
    assert response.get_json()["errors"][0]["code"]


@pytest.mark.walker(database="postgresql")  # junk input: PostgreSQL refuses what SQLite stores
def test_web_forms_with_missing_or_junk_fields_never_give_500(app, client, auth):
    world = build_world(app)
    boss = factories.user(roles=("citizen", "ngo", "agent", "vet", "coordinator", "admin"))
    org = db.session.scalars(select(Organization)).first()
    db.session.add(OrganizationMember(organization_id=org.id, user_id=boss.id))
    db.session.commit()
    problems: list = []
    junk = {
        name: UNICODE
        for name in (
            "cpf",
            "email",
            "password",
            "birth_date",
            "name",
            "species",
            "amount",
            "date",
            "cep",
            "number",
            "reason",
            "q",
            "kind",
            "status",
            "value",
            "issued_on",
            "applied_on",
            "page",
            "weight",
            "age_months",
            "state",
            "position",
            "direction",
            "code",
            "member_email",
            "effective_from",
            "unit",
            "holiday",
            "on",
            "value_brl",
            "reference",
            "roles",
        )
    }
    for who in (None, world.victim, boss):
        if who is not None:
            auth.logout()
            auth.login(
                who, password="demo12345" if who.id == world.victim.id else factories.PASSWORD
            )
        for rule in app.url_map.iter_rules():
            if rule.rule.startswith(("/api/", "/static")) or rule.endpoint in (
                "payments.stripe_webhook",
                "auth.logout",
            ):
                continue
            kwargs = {}
            for arg in rule.arguments:
                conv = isinstance(rule._converters.get(arg), IntegerConverter)
                named = named_argument_values(app, rule, arg)
                kwargs[arg] = (
                    1
                    if conv
                    else named[0]
                    if named
                    else {
                        "rga": world.rgas[0],
                        "number": world.rgas[0],
                        "token": "abc",
                        "variant": "medium",
                        "step": "revisao",
                        "lang": "xx",
                    }[arg]
                )
            url = rule.build(kwargs, append_unknown=False)[1]
            for id_ in (1, 2, 3, 5, 8):
                target = re.sub(r"/1(/|$|\.)", rf"/{id_}\1", url)
                for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
                    payloads = (
                        [{}, junk]
                        if method == "POST"
                        else [{"page": "x", "q": UNICODE, "estado": "?", "month": "x"}]
                    )
                    for data in payloads:
                        g.pop("_login_user", None)
                        limiter.reset()
                        if method == "POST":
                            response = client.post(target, data=data)
                        else:
                            response = client.get(target, query_string=data)
                        _check(
                            response,
                            f"{who and who.email} {method} {target} {'junk' if data else 'empty'}",
                            problems,
                        )
                if target == url and not rule.arguments:
                    break
    assert not problems, "\n".join(map(str, problems))
