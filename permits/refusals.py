"""The one way a staff page runs a service and shows a refusal: every broken rule (each citing its section), or the
authority or status that forbids it, as messages on the page it returns to."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError

from permits.errors import IllegalTransition, violations_of


def run_or_show_refusals(request, action) -> bool:
    """Run `action()`; on a refusal, show why and return False."""
    try:
        action()
    except (PermissionDenied, IllegalTransition) as error:
        messages.error(request, str(error) or "You may not do that.")
        return False
    except ValidationError as error:  # RulesBroken, or a model's own check
        for v in violations_of(error):
            messages.error(request, v.message)
        return False
    return True
