"""The HTTP adapter over the driver (FastAPI): thin handlers, problem responses."""

from .app import create_app, openapi_document

__all__ = ["create_app", "openapi_document"]
