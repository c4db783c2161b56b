# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
"""A client library for accessing Agentic Driver"""

from .client import AuthenticatedClient, Client

__all__ = (
    "AuthenticatedClient",
    "Client",
)
