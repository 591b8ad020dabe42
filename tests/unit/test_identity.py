"""CPF validation and masking, residence keys."""

from portal.services.identity import clean_cpf, mask_cpf, residence_key


def test_cpf_with_right_check_digits_is_accepted_in_any_format() -> None:
    assert clean_cpf("529.982.247-25") == "52998224725"
    assert clean_cpf("52998224725") == "52998224725"


def test_cpf_with_wrong_check_digit_or_repeated_digits_is_refused() -> None:
    assert clean_cpf("529.982.247-26") is None
    assert clean_cpf("111.111.111-11") is None
    assert clean_cpf("") is None


def test_cpf_mask_hides_the_first_and_last_digits() -> None:
    assert mask_cpf("52998224725") == "***.982.247-**"


def test_residence_key_is_the_same_however_the_address_is_typed() -> None:
    a = residence_key("07000-000", "R. das Flores", "12", "Apto 3")
    b = residence_key("07000000", "Rua das  flores", "12", "ap. 3")
    assert a == b
    assert a != residence_key("07000000", "Rua das Flores", "12", "ap 4")
