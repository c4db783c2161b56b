# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
"""Contains some shared types for properties.

agentic-driver: ``Unset`` is the type of ``None`` and ``UNSET`` is ``None``, so a property an answer left
out reads ``None``: ``if event.run.session is not None`` narrows for a type checker, and the generated
code's own ``isinstance(value, Unset)`` checks still hold. Reading "absent" as ``None`` loses nothing
because no property of the contract is both optional and nullable (generator/generate.py refuses one).
"""

from collections.abc import Mapping, MutableMapping
from http import HTTPStatus
from types import NoneType
from typing import IO, BinaryIO, Generic, TypeAlias, TypeVar

from attrs import define

Unset: TypeAlias = NoneType  # type: ignore[nonetype-type]  # the alias's point: type checkers read it as None
UNSET: Unset = None

# The types that `httpx.Client(files=)` can accept, copied from that library.
FileContent = IO[bytes] | bytes | str
FileTypes = (
    # (filename, file (or bytes), content_type)
    tuple[str | None, FileContent, str | None]
    # (filename, file (or bytes), content_type, headers)
    | tuple[str | None, FileContent, str | None, Mapping[str, str]]
)
RequestFiles = list[tuple[str, FileTypes]]


@define
class File:
    """Contains information for file uploads"""

    payload: BinaryIO
    file_name: str | None = None
    mime_type: str | None = None

    def to_tuple(self) -> FileTypes:
        """Return a tuple representation that httpx will accept for multipart/form-data"""
        return self.file_name, self.payload, self.mime_type


T = TypeVar("T")


@define
class Response(Generic[T]):
    """A response from an endpoint"""

    status_code: HTTPStatus
    content: bytes
    headers: MutableMapping[str, str]
    parsed: T | None


__all__ = ["UNSET", "File", "FileTypes", "RequestFiles", "Response", "Unset"]
