"""The OpenAPI schema says what the API really answers: every operation documents the error body
`{"errors": [{"field", "code", "citation", "message"}]}` (permits/api/errors.py) for the statuses it can give."""

ERRORS = {
    "type": "object",
    "required": ["errors"],
    "properties": {
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["field", "code", "citation", "message"],
                "properties": {
                    "field": {"type": "string", "nullable": True},
                    "code": {"type": "string"},
                    "citation": {"type": "string"},
                    "message": {"type": "string"},
                },
            },
        }
    },
}
STATUSES = {
    "400": "Bad input: every broken rule at once, each naming its field and citing its section",
    "401": "Not signed in (send Authorization: Token ...)",
    "403": "Not allowed (your role or organization may not do this)",
    "404": "No such record, or not yours to see (or no such page of results)",
    "405": "Method not allowed",
    "429": "Too many requests or locked out: wait and try again",
}


def document_error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: add the error responses to every operation."""
    result.setdefault("components", {}).setdefault("schemas", {})["Errors"] = ERRORS
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            for status, description in STATUSES.items():
                operation["responses"].setdefault(
                    status,
                    {
                        "description": description,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}},
                    },
                )
    return result
