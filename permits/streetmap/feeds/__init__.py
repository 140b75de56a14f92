"""The open-data feeds, each documented on the public data page: WZDx 4.2 (wzdx.py), BLDS permits and status
changes (blds.py), iCalendar of a street's closures and of a permittee's deadlines (ical.py)."""
