"""What an applicant does beyond filing: drafts, withdrawals and answers to the Village (applications.py), notice
preferences, and linking themselves to their parcel (parcel_links.py)."""
