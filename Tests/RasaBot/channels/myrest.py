"""A custom REST input channel like the Smart Migration bot's `myrest`:
the same as Rasa's `rest`, but it reads the language from a top-level
`language` key of the request (and still accepts metadata.language)."""
from typing import Any, Dict, Optional, Text

from rasa.core.channels.rest import RestInput
from sanic.request import Request


class MyRestInput(RestInput):
    @classmethod
    def name(cls) -> Text:
        return "myrest"

    def get_metadata(self, request: Request) -> Optional[Dict[Text, Any]]:
        body = request.json or {}
        metadata = dict(body.get("metadata") or {})
        if "language" in body:
            metadata["language"] = body["language"]
        return metadata
