"""The *Termo de Compromisso de Adoção* (VV 28 §2), versioned.

An application stores the version the person accepted, the time and the account
(``AdoptionApplication.term_*``). Changing a clause means adding a new version here and pointing
:data:`TERM_VERSION` at it; old versions stay so an accepted term can always be shown as it was.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

TERMS = {
    "2026.1": [
        _l(
            "Assumo a guarda responsável do animal adotado, garantindo abrigo, alimentação, água "
            "limpa, higiene, espaço adequado e atendimento veterinário sempre que necessário."
        ),
        _l(
            "Manterei a vacinação antirrábica e as demais vacinas em dia e a vermifugação "
            "periódica, conforme orientação do médico veterinário."
        ),
        _l(
            "Não abandonarei o animal. Sei que o abandono é crime de maus-tratos (Lei Federal "
            "9.605/1998, art. 32) e sujeita o responsável às penalidades da lei municipal."
        ),
        _l(
            "Manterei o registro do animal (RGA) atualizado, com meu endereço e telefone, e "
            "comunicarei ao CCZ mudança de endereço, transferência ou óbito."
        ),
        _l(
            "Não darei, venderei ou trocarei o animal. Se não puder mais ficar com ele, procurarei "
            "quem o entregou para adoção (ONG ou CCZ)."
        ),
        _l(
            "Aceito que a ONG ou o CCZ acompanhe a adaptação do animal e, em caso de maus-tratos, "
            "tome as medidas previstas em lei, inclusive a perda da posse."
        ),
        _l("Declaro que as informações e os documentos que enviei são verdadeiros."),
    ],
}
TERM_VERSION = "2026.1"


def term_clauses(version: str = TERM_VERSION) -> list[str]:
    """The clauses of a term version, translated at call time. Raises KeyError if unknown."""
    return [str(clause) for clause in TERMS[version]]
