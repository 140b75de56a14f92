"""Inspection requests, for every permit type: the DPW offers inspection times (a day, a window, an inspector, how many
visits fit); the permittee picks, on the permit page, the inspection the work needs and an offered time; the request
shows on the permit page and on the inspector's day. Rules in rules.py, verbs in services.py, pages in views.py."""
