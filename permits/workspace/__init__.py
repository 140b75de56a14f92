"""Each role's start page: the work sources that say what waits on a role (sources.py), the staff search box
(search.py), and the Clerk-Treasurer's letters to mail (letters_to_mail.py)."""
