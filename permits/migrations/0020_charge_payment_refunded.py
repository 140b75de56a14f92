"""A refunded or voided special-charge payment no longer pays the charge, which may then be paid once more: the
charge is still paid once (Wis. Stat. § 66.0627(2)), among the payments that stand."""

from django.db import migrations, models


def mark_refunded(apps, schema_editor):
    # Payments refunded before this migration added the flag: idempotent.
    ChargePayment = apps.get_model("permits", "ChargePayment")
    ChargePayment.objects.filter(refunds__isnull=False, refunded=False).update(refunded=True)


class Migration(migrations.Migration):
    dependencies = [
        ("permits", "0019_scale_fingerprint_and_inspection_queue"),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="chargepayment",
            name="charge_paid_once",
        ),
        migrations.AddField(
            model_name="chargepayment",
            name="refunded",
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.RunPython(mark_refunded, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="chargepayment",
            constraint=models.UniqueConstraint(
                condition=models.Q(("refunded", False)), fields=("charge",), name="charge_paid_once"
            ),
        ),
    ]
