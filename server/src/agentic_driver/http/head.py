"""HEAD answered as GET without content, whatever ASGI server runs the app.

The routes serve HEAD wherever they serve GET (see ``app._router``), so a HEAD
request runs the GET operation: authentication, lookups and problem answers
included. This middleware passes the response's status and headers through
unchanged, ``Content-Length`` of the GET content among them, and sends none
of the content itself (RFC 9110 section 9.3.2). uvicorn drops a HEAD answer's
content on the wire too; doing it here keeps the app correct under any server
and through ``httpx.ASGITransport``. (The one answer outside this middleware is
Starlette's outermost ServerErrorMiddleware rendering an unhandled defect as
INTERNAL_ERROR; there the server's own HEAD handling applies, as uvicorn's does.)
"""

from __future__ import annotations

from collections.abc import Awaitable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["HeadAsGet"]


class HeadAsGet:
    """Pure ASGI middleware: on HEAD, every ``http.response.body`` message goes out with empty content."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        # Not a coroutine itself: anything but HEAD gets the app's own awaitable, with no frame of ours around it.
        if scope["type"] != "http" or scope["method"] != "HEAD":
            return self.app(scope, receive, send)
        return self._head(scope, receive, send)

    async def _head(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_without_content(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # only the last (empty) body message is sent: the answer ends there
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app(scope, receive, send_without_content)
