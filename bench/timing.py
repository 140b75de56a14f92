"""The bench's server-side timing (bench/paired.py): how long Django took to answer, from the first middleware to the
response, in the response header X-Bench-Ms. Mounted only by bench/settings.py."""

import time


class ServerTimingMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        started = time.perf_counter()
        response = self.get_response(request)
        if hasattr(response, "streaming_content"):
            response.streaming_content = [b"".join(response.streaming_content)]
        response["X-Bench-Ms"] = f"{(time.perf_counter() - started) * 1000:.3f}"
        return response
