"""The API, version 1: its URLs, authentication, errors, parsers, schema and throttles, and the serializers every
permit type shares (shared.py). Each permit type's own endpoints live in its package's api.py."""
