from django.db import migrations, models

# The queue of open cases (obstructions.views.cases: flagged first, then by deadline) read from an index of
# its order, not sorted from every open case (2,000 at 100,000 permits) on each look.


class Migration(migrations.Migration):
    dependencies = [
        ("obstructions", "0003_case_search_indexes"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="case",
            index=models.Index(
                condition=models.Q(("status__in", ["open", "noticed"])),
                fields=["-attention", "deadline_at", "id"],
                name="case_queue_idx",
            ),
        ),
    ]
