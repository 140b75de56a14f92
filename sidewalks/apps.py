from django.apps import AppConfig


class SidewalksConfig(AppConfig):
    name = "sidewalks"
    verbose_name = "Sidewalks, snow and special charges"

    def ready(self):
        from permits.letters import notice_given
        from sidewalks.snow.services import snow_notice_given

        # § 303-8B: a snow notice mailed as a letter is given the day it is mailed.
        notice_given.connect(snow_notice_given, dispatch_uid="sidewalks_snow_notice_given")
