"""One eligibility rule's outcome (:class:`RuleResult`) and where its article comes from: the
local law (the profile) when it has the rule, else plainly "regra do programa de adoção"."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from flask_babel import lazy_gettext as _l

from portal.profiles.schema import Profile
from portal.services.clock import current_profile

Status = Literal["pass", "fail", "needs_document"]


PASS: Status = "pass"


FAIL: Status = "fail"


NEEDS_DOCUMENT: Status = "needs_document"


# What a rule cites where the local law says nothing about it: the adoption programme's own rule,
# said plainly, never another city's article (the hand-over conditions do the same, handover.py).
PROGRAMME_RULE = _l("regra do programa de adoção")


# The profile's own words for the VV 28 §2 requirements (AdoptionRule.adopter_requirements).
_PROFILE_REQUIREMENT = {
    "adult": "adult",
    "identity": "cpf_and_id",
    "proof_of_address": "address_proof",
    "proof_of_income": "income_proof",
    "adoption_term": "commitment_term",
}


def proof_of_address_max_age_days(profile: Profile | None = None) -> int:
    """How recent a proof of address must be (VV 28 §2 "atualizado"): the law's number where it
    gives one, else the programme's (``[programme]`` of the profile, 90 days by default)."""
    days, _article = (profile or current_profile()).proof_of_address_max_age()
    return days


@dataclass(frozen=True)
class RuleResult:
    """The outcome of one eligibility rule.

    ``needs_document`` means the person still has something to do or to wait for: upload a proof,
    complete the account, accept the term, or (``awaiting_review``) wait for the reviewer to accept
    an uploaded proof. ``fail`` means the person cannot adopt (this animal) as things stand.
    """

    rule: str
    status: Status
    message: str
    article: str
    in_local_law: bool
    awaiting_review: bool = False
    action: str | None = None  # what the UI links to: "documents", "account", "licence"
    link: str | None = None  # e.g. the licence request page of the household limit

    @property
    def passed(self) -> bool:
        return self.status == PASS

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


RULE_TITLES = {
    "adult": _l("Maior de idade"),
    "identity": _l("CPF e documento de identidade"),
    "proof_of_address": _l("Comprovante de endereço recente"),
    "proof_of_income": _l("Comprovante de renda"),
    "bar_commitment": _l("Sem termo de não mais ter animais"),
    "bar_maltreatment": _l("Sem perda de posse por maus-tratos"),
    "bar_apprehension": _l("Não causou a apreensão deste animal"),
    "household_limit": _l("Limite de animais na residência"),
    "adoption_term": _l("Termo de Compromisso de Adoção"),
}


def rule_title(rule: str) -> str:
    """The short name of a rule in the visitor's language."""
    return str(RULE_TITLES.get(rule, rule))


def _law_article(profile: Profile, rule: str) -> str | None:
    """The local law's citation for a rule, or None when the local law does not require it."""
    if rule in _PROFILE_REQUIREMENT:
        if _PROFILE_REQUIREMENT[rule] in profile.adoption.adopter_requirements:
            return profile.adoption.cite("adopter_requirements")
        return None
    if rule.startswith("bar_"):
        return profile.adoption.bars.article(rule.removeprefix("bar_"))
    return None


def rule_result(
    profile: Profile, rule: str, status: Status, message: str, **extra: Any
) -> RuleResult:
    local = _law_article(profile, rule)
    return RuleResult(
        rule=rule,
        status=status,
        message=message,
        article=local or str(PROGRAMME_RULE),
        in_local_law=local is not None,
        **extra,
    )
