from obstructions import demo
from obstructions.models import Case, StreetNumber
from permits.ledger.models import SpecialCharge


def test_demo_loads_the_cases_once(db):
    from permits.demo import load_demo

    load_demo()
    demo.load()
    demo.load()
    statuses = sorted(Case.objects.values_list("status", flat=True))
    assert statuses == ["abated", "excepted", "noticed", "open", "open"]
    assert SpecialCharge.objects.filter(source="obstruction_removal").count() == 1
    assert StreetNumber.objects.count() == 3
    assert Case.objects.get(kind="street_number").attention == Case.Attention.NOTICE_DUE
