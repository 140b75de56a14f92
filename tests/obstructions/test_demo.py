from obstructions import demo
from obstructions.models import Case, MaterialsAuthorization, StreetNumber
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
    # § 303-6B(2): one authorization of building materials, within the demo street register's widths
    (authorization,) = MaterialsAuthorization.objects.all()
    assert authorization.occupied_sidewalk_feet * 2 <= (authorization.sidewalk_width_feet or 0)
