"""Who decides a defence or an appeal, named to the addressee and to staff (issue 25): the
profile's ``notices`` authorities (GRU 102: the first instance is the issuing agent's immediate
superior; GRU 103 §1: the second is I the Diretor de Departamento for a warning or a fine, II the
Secretário Municipal de Saúde for any other penalty)."""

from __future__ import annotations

from flask_babel import gettext as _
from markupsafe import Markup

from portal.models import EnforcementDocument
from portal.profiles.schema import Profile
from portal.services.legal import legal_ref


def deciding_authority(
    profile: Profile, doc: EnforcementDocument, instance: int
) -> tuple[str, str]:
    """(who decides, the article) for a petition of ``instance`` against ``doc``."""
    rule = profile.notices
    if instance == 1:
        field = "first_instance_authority"
    elif doc.fine_cents or doc.fine_inputs:
        field = "second_instance_authority"  # GRU 103 §1 I: advertência ou multa
    else:
        field = "second_instance_other_authority"  # GRU 103 §1 II
    who = getattr(rule, field)
    if who is None:
        # the law names nobody: the portal's reading (coordinators judge, never the issuing agent)
        term = "decision_days" if instance == 1 else "second_appeal_days"
        return _("a coordenação do CCZ"), rule.cite(term)
    return who, rule.cite(field)


def authority_line(profile: Profile, doc: EnforcementDocument, instance: int) -> str:
    """ "o Diretor de Departamento hierarquicamente superior (GRU 103 §1 I)"."""
    who, article = deciding_authority(profile, doc, instance)
    return f"{who} ({article})"


def authority_ref(profile: Profile, doc: EnforcementDocument, instance: int) -> Markup:
    """The same line for a page: the article a small link to /regras (issue 25), the authority's
    name being the plain words before it."""
    who, article = deciding_authority(profile, doc, instance)
    return Markup("{who} {ref}").format(who=who, ref=legal_ref(article, ""))
