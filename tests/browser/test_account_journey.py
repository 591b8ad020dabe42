"""A citizen's account from end to end in a real browser: sign up (the same "check your e-mail"
answer for everyone, nobody signed in), resend the e-mail, activate the account through the dev
mailbox, log in, out and in again; the same without JavaScript; and a sign-up whose CSRF token went
stale, which must come back with what was typed instead of a dead end.
"""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.factories import BROWSER_PASSWORD as PASSWORD
from tests.factories import (
    fill_signup,
    log_in,
    make_cpf,
    password_field,
    run_axe,
)


def log_out(page: Page) -> None:
    page.get_by_role("banner").get_by_role("button", name="Sair").click()
    expect(page.locator("#mensagens")).to_contain_text("Você saiu da sua conta.")
    expect(page.get_by_role("banner").get_by_role("link", name="Entrar")).to_be_visible()


def test_sign_up_confirm_email_log_out_log_in_log_out(live_server, page: Page) -> None:
    base = live_server.url
    page.goto(base + "/")
    page.get_by_role("link", name="Crie sua conta com seu CPF").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Criar conta")

    fill_signup(page, cpf=make_cpf(9101), email="maria.souza@example.com")
    page.get_by_role("button", name="Criar conta").click()
    # The same answer whatever the CPF: check your e-mail. Nobody is signed in yet.
    expect(page.get_by_role("heading", level=1)).to_have_text("Confira seu e-mail")
    expect(page.get_by_role("main")).to_contain_text("maria.souza@example.com")
    expect(page.get_by_role("banner").get_by_role("link", name="Entrar")).to_be_visible()
    assert run_axe(page) == []
    page.get_by_role("button", name="Reenviar e-mail").click()
    expect(page.locator("#mensagens")).to_contain_text("Enviamos o e-mail de novo.")
    # The password alone does not open an account that was never activated.
    log_in(page, base, "maria.souza@example.com")
    expect(page.get_by_role("main")).to_contain_text("E-mail ou senha incorretos.")

    # The confirmation link arrives in the dev mailbox (no SMTP in tests); follow it.
    page.get_by_role("link", name="Caixa de e-mail (desenvolvimento)").click()
    mail = page.locator("article.portal-mail", has_text="maria.souza@example.com").first
    expect(mail).to_be_visible()
    link = mail.locator("a[href*='/conta/confirmar/']").first
    assert (link.get_attribute("href") or "").startswith(base + "/conta/confirmar/")
    link.click()
    expect(page.locator("#mensagens")).to_contain_text(
        "E-mail confirmado. Entre com seu e-mail e sua senha."
    )
    log_in(page, base, "maria.souza@example.com")
    expect(page.locator("#mensagens")).to_contain_text("Bem-vindo(a), Maria.")
    page.goto(base + "/minha-conta/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Minha conta")
    expect(page.get_by_text("confirmado", exact=True)).to_be_visible()
    # The CPF is shown masked, never in full.
    expect(page.get_by_role("main")).not_to_contain_text(make_cpf(9101))

    log_out(page)
    log_in(page, base, "maria.souza@example.com")
    expect(page.locator("#mensagens")).to_contain_text("Bem-vindo(a), Maria.")
    expect(page.get_by_role("banner").get_by_role("link", name="Maria")).to_be_visible()
    log_out(page)
    page.goto(base + "/minha-conta/")
    expect(page).to_have_url(re.compile(r"/conta/entrar\?next="))


def test_log_in_and_out_without_javascript(live_server, new_context) -> None:
    from portal.extensions import db
    from tests import factories

    with live_server.app.app_context():
        person = factories.user(
            email="sem.js@example.com", password=PASSWORD, full_name="João Sem Script"
        )
        db.session.commit()
        assert person.id
    context = new_context(java_script_enabled=False)
    page = context.new_page()
    log_in(page, live_server.url, "sem.js@example.com")
    expect(page.locator("#mensagens")).to_contain_text("Bem-vindo(a), João.")
    log_out(page)


def test_csrf_failure_shows_the_signup_form_again_with_what_was_typed(
    live_server, page: Page
) -> None:
    base = live_server.url
    page.goto(base + "/conta/cadastro")
    cpf = make_cpf(9102)
    fill_signup(page, cpf=cpf, email="ana.lima@example.com", name="Ana Lima")
    # A stale or missing token: what a person gets after a long pause or a server restart.
    page.evaluate("document.querySelector('input[name=csrf_token]').value = 'expirado'")
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        page.get_by_role("button", name="Criar conta").click()
    assert answer.value.status == 400

    expect(page.locator("#mensagens")).to_contain_text(
        "Por segurança, confira os dados e envie o formulário de novo"
    )
    expect(page.locator("#erros-formulario")).to_contain_text(
        "A sessão expirou; envie o formulário de novo."
    )
    expect(page.get_by_role("textbox", name="Nome completo")).to_have_value("Ana Lima")
    expect(page.get_by_role("textbox", name="CPF", exact=True)).to_have_value(
        f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}"
    )
    expect(page.get_by_label("Data de nascimento")).to_have_value("1985-03-21")
    expect(page.get_by_role("textbox", name="E-mail")).to_have_value("ana.lima@example.com")
    expect(page.get_by_role("textbox", name="Telefone")).to_have_value("(11) 98765-4321")
    expect(
        page.get_by_role("checkbox", name="Li e aceito o aviso de privacidade (LGPD)")
    ).to_be_checked()
    # Passwords are never sent back to the browser.
    expect(password_field(page)).to_have_value("")
    expect(page.get_by_label(re.compile("^Repita a senha"))).to_have_value("")
    # Nothing was saved, and the form works with its fresh token once the passwords are retyped.
    password_field(page).fill(PASSWORD)
    page.get_by_label(re.compile("^Repita a senha")).fill(PASSWORD)
    page.get_by_role("button", name="Criar conta").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Confira seu e-mail")
    expect(page.get_by_role("main")).to_contain_text("ana.lima@example.com")


def test_csrf_failure_on_login_keeps_the_email(live_server, page: Page) -> None:
    page.goto(live_server.url + "/conta/entrar")
    page.get_by_role("textbox", name="E-mail").fill("quem@example.com")
    password_field(page).fill(PASSWORD)
    page.evaluate("document.querySelector('input[name=csrf_token]').remove()")
    page.get_by_role("main").get_by_role("button", name="Entrar").click()
    expect(page.locator("#erros-formulario")).to_contain_text(
        "A sessão expirou; envie o formulário de novo."
    )
    expect(page.get_by_role("textbox", name="E-mail")).to_have_value("quem@example.com")
    expect(password_field(page)).to_have_value("")
    # The wrong-password message is not shown: the credentials were never checked.
    expect(page.get_by_role("main")).not_to_contain_text("E-mail ou senha incorretos.")
