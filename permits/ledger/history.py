"""The trail of a ledger or enforcement record for its page: permits.state.history_of with each state's label."""

from __future__ import annotations

from permits.state import history_of


def trail(record) -> list:
    """`record`'s state changes, oldest first, each with `from_label` and `to_label` from the record's choices (one
    query, however many changes)."""
    model = type(record)
    labels: dict[str, dict] = {}
    rows = list(history_of(record))
    for row in rows:
        if row.field not in labels:
            # A note without a state move (a refund, permits.online_payments) names no field: it shows the status.
            field = row.field if row.field in {f.name for f in model._meta.get_fields()} else "status"
            labels[row.field] = dict(model._meta.get_field(field).choices or [])
        row.from_label = labels[row.field].get(row.from_state, row.from_state or "New")
        row.to_label = labels[row.field].get(row.to_state, row.to_state)
    return rows
