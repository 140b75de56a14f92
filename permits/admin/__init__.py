"""The back office. Django's admin autodiscovery imports this package; the registrations are in core.py (permits,
payments, documents, and each permit type's admin through the registry), the shared base classes in base.py, the
rule-checked permit edits in edits.py."""

from permits.admin import (
    core,  # noqa: F401  (registers the back office's models)
    users,  # noqa: F401  (Django's user admin, with the staff enrolment link)
)
