from django.conf import settings

from permits.roles import is_village_staff


def village(request):
    return {
        "VILLAGE_NAME": settings.VILLAGE_NAME,
        "VILLAGE_OFFICE": settings.VILLAGE_OFFICE,
        "is_village_staff": is_village_staff(request.user),
    }
