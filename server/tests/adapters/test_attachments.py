"""Images and PDFs in stateless runs: adapter x media type -> the provider's native request shape, or a refusal.

An embedded ``Driver`` runs each adapter against its fake; each fake checks an image or document the way its
provider does (the declared type must be one it takes, and the bytes must be of that type) and records the
media types it accepted. A type an instance does not take, or an attachment over the host's bounds, is
``ATTACHMENT_UNSUPPORTED`` naming the attachment, its type and the instance, and no request reaches the fake.
"""

from __future__ import annotations

import base64
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from fakes import AnthropicFake, FakeUpstream, GeminiFake, OpenAIChatFake, OpenAIResponsesFake

from agentic_driver import Driver
from agentic_driver.config import parse_config
from agentic_driver.errors import (
    AttachmentUnsupported,
    ErrorCode,
    ProviderRejected,
    SessionContextUnsupported,
    ValidationFailed,
)
from agentic_driver.models import Attachment, CreateSessionRequest, RunRequest, SessionHandle

KEY = "sk-attachment-test-key"
KEY_ENV = "AGENTIC_DRIVER_TEST_ATTACHMENT_KEY"
CLI_MODEL = Path(__file__).resolve().parents[1] / "fakes" / "cli_model.py"
PROMPT = "Describe it."

SAMPLES = {
    "image/png": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01",
    "image/jpeg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01",
    "image/webp": b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00",
    "image/gif": b"GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00",
    "application/pdf": b"%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n",
}
MEDIA = tuple(SAMPLES)
KINDS = ("openai-responses", "anthropic", "gemini", "openai-chat", "cli")
ACCEPTS = {
    "openai-responses": set(MEDIA),
    "anthropic": set(MEDIA),
    "gemini": {"image/png", "image/jpeg", "image/webp", "application/pdf"},  # Gemini takes no GIF
    "openai-chat": {"image/png", "image/jpeg", "image/webp", "image/gif"},  # image_url only, no PDF
    "cli": set(),  # a CLI takes text
}
FAKES = {
    "openai-responses": OpenAIResponsesFake,
    "anthropic": AnthropicFake,
    "gemini": GeminiFake,
    "openai-chat": OpenAIChatFake,
}
LIMITS = {"maxAttachmentBytes": 64, "maxRunAttachmentBytes": 100}


def encoded(media_type: str) -> str:
    return base64.b64encode(SAMPLES[media_type]).decode("ascii")


def file_name(media_type: str) -> str:
    return "scan." + media_type.split("/")[1]


@pytest.fixture(scope="module")
def fakes() -> Iterator[dict[str, FakeUpstream]]:
    started = {kind: cls(api_key=KEY).start() for kind, cls in FAKES.items()}
    yield started
    for fake in started.values():
        fake.stop()


@pytest.fixture
async def driver(fakes: dict[str, FakeUpstream], monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Driver]:
    monkeypatch.setenv(KEY_ENV, KEY)
    providers: list[dict[str, Any]] = [
        {
            "id": kind,
            "kind": kind,
            "accountId": "acct",
            "models": ["m-1"],
            "baseUrl": fake.base_url,
            "apiKeyEnv": KEY_ENV,
            "maxRetries": 0,
        }
        for kind, fake in fakes.items()
    ]
    providers.append(
        {
            "id": "cli",
            "kind": "cli",
            "accountId": "acct",
            "models": ["m-1"],
            "command": [sys.executable, str(CLI_MODEL)],
        }
    )
    config = {"providers": providers, "sessions": {"retentionMs": 60_000}, "limits": LIMITS}
    async with Driver.from_config(parse_config(config)) as made:
        yield made


def native_part(kind: str, media_type: str) -> Any:
    """What the adapter must send for the attachment, in its provider's own terms."""
    data = encoded(media_type)
    url = f"data:{media_type};base64,{data}"
    if kind == "openai-responses":
        if media_type == "application/pdf":
            return {"type": "input_file", "filename": file_name(media_type), "file_data": url}
        return {"type": "input_image", "image_url": url, "detail": "auto"}
    if kind == "anthropic":
        source = {"type": "base64", "media_type": media_type, "data": data}
        if media_type == "application/pdf":
            return {"type": "document", "source": source, "title": file_name(media_type)}
        return {"type": "image", "source": source}
    if kind == "gemini":
        return {"inlineData": {"mimeType": media_type, "data": data}}
    return {"type": "image_url", "image_url": {"url": url}}


def user_content(kind: str, body: dict[str, Any]) -> list[Any]:
    if kind == "openai-responses":
        content: list[Any] = body["input"][-1]["content"]
    elif kind == "gemini":
        content = body["contents"][-1]["parts"]
    else:
        content = body["messages"][-1]["content"]
    return content


def text_part(kind: str) -> Any:
    return {
        "openai-responses": {"type": "input_text", "text": PROMPT},
        "anthropic": {"type": "text", "text": PROMPT},
        "gemini": {"text": PROMPT},
        "openai-chat": {"type": "text", "text": PROMPT},
    }[kind]


def stateless(kind: str, *attachments: Attachment) -> RunRequest:
    return RunRequest(provider=kind, model="m-1", input=PROMPT, attachments=list(attachments))


def attachment(media_type: str, data: str | None = None) -> Attachment:
    return Attachment(
        name=file_name(media_type), mediaType=media_type, data=encoded(media_type) if data is None else data
    )


# -- the matrix --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("media_type", MEDIA)
@pytest.mark.parametrize("kind", KINDS)
async def test_each_adapter_sends_each_media_type_natively_or_refuses_it_before_model_work(
    driver: Driver, fakes: dict[str, FakeUpstream], kind: str, media_type: str
) -> None:
    fake = fakes.get(kind)
    before = len(fake.requests) if fake is not None else 0

    if media_type not in ACCEPTS[kind]:
        with pytest.raises(AttachmentUnsupported) as caught:
            await driver.run(stateless(kind, attachment(media_type)))
        problem = caught.value.problem()
        assert problem["code"] == ErrorCode.ATTACHMENT_UNSUPPORTED == "ATTACHMENT_UNSUPPORTED"
        assert problem["status"] == 422
        assert (problem["provider"], problem["mediaType"], problem["attachment"]) == (kind, media_type, 0)
        assert f"provider {kind!r} does not take this type" in problem["detail"] and media_type in problem["detail"]
        assert "limit" not in problem
        assert fake is None or len(fake.requests) == before  # nothing reached the provider
        return

    result = await driver.run(stateless(kind, attachment(media_type)))

    assert result.output.text == f"You said: {PROMPT}. Before that you said: nothing."
    recorded = fake.requests[-1]  # type: ignore[union-attr]
    assert recorded.outcome == "ok" and recorded.media == [media_type]
    content = user_content(kind, recorded.body)
    expected = [native_part(kind, media_type), text_part(kind)]
    if kind in ("openai-responses", "openai-chat"):
        expected.reverse()  # OpenAI: text first; Anthropic and Gemini: the attachment first
    assert content == expected


@pytest.mark.parametrize("kind", ["openai-responses", "anthropic", "gemini", "openai-chat"])
async def test_each_fake_refuses_bytes_that_are_not_of_the_declared_type_as_the_provider_does(
    driver: Driver, fakes: dict[str, FakeUpstream], kind: str
) -> None:
    """The fakes check the bytes, so the shapes above are checked and not merely recorded."""
    with pytest.raises(ProviderRejected) as caught:
        await driver.run(stateless(kind, attachment("image/png", encoded("image/jpeg"))))

    assert "does not match the provided media type image/png" in caught.value.detail
    assert fakes[kind].requests[-1].outcome == "rejected"


async def test_several_attachments_and_text_ones_go_in_order(driver: Driver, fakes: dict[str, FakeUpstream]) -> None:
    notes = Attachment(name="notes.txt", mediaType="text/plain; charset=utf-8", data=base64.b64encode(b"hi").decode())
    result = await driver.run(stateless("anthropic", attachment("image/png"), notes, attachment("application/pdf")))

    assert result.output.text.startswith("You said: Describe it.")
    content = user_content("anthropic", fakes["anthropic"].requests[-1].body)
    assert [block["type"] for block in content] == ["image", "document", "text"]
    assert content[2]["text"] == f"{PROMPT}\n\n[attachment notes.txt (text/plain; charset=utf-8)]\nhi"


async def test_media_types_match_without_case_or_parameters(driver: Driver, fakes: dict[str, FakeUpstream]) -> None:
    await driver.run(stateless("gemini", Attachment(name="a.png", mediaType="Image/PNG", data=encoded("image/png"))))

    assert fakes["gemini"].requests[-1].media == ["image/png"]


# -- the host's bounds and checks ------------------------------------------------------------------------------


async def test_an_attachment_over_max_attachment_bytes_is_refused_naming_the_bound(
    driver: Driver, fakes: dict[str, FakeUpstream]
) -> None:
    big = base64.b64encode(SAMPLES["image/png"] + b"\x00" * 60).decode()  # 84 bytes
    before = len(fakes["anthropic"].requests)

    with pytest.raises(AttachmentUnsupported) as caught:
        await driver.run(stateless("anthropic", attachment("image/png", big)))

    problem = caught.value.problem()
    assert (problem["limit"], problem["maximum"], problem["attachment"]) == ("maxAttachmentBytes", 64, 0)
    assert problem["detail"] == (
        "Attachment 0 ('scan.png', image/png) is 84 bytes; this host takes at most 64 per attachment."
    )
    assert len(fakes["anthropic"].requests) == before


async def test_attachments_over_max_run_attachment_bytes_together_are_refused_at_the_one_that_crosses_it(
    driver: Driver,
) -> None:
    pdf = attachment("application/pdf")  # 51 bytes: each fits, two do not

    with pytest.raises(AttachmentUnsupported) as caught:
        await driver.run(stateless("openai-responses", pdf, pdf))

    problem = caught.value.problem()
    assert (problem["limit"], problem["maximum"], problem["attachment"]) == ("maxRunAttachmentBytes", 100, 1)
    assert problem["mediaType"] == "application/pdf" and problem["provider"] == "openai-responses"


async def test_attachment_data_that_is_not_base64_is_a_validation_error(driver: Driver) -> None:
    with pytest.raises(ValidationFailed) as caught:
        await driver.run(stateless("gemini", attachment("image/png", "not base64!")))

    assert caught.value.errors == [
        {"location": "body.attachments.0.data", "message": "not base64 (RFC 4648, no line breaks)"}
    ]


async def test_sessions_keep_refusing_attachments_whatever_the_type(driver: Driver) -> None:
    created = await driver.create_session(CreateSessionRequest(provider="anthropic", model="m-1", mode="history"))
    handle = SessionHandle(id=created.session.id, revision=0)

    with pytest.raises(SessionContextUnsupported):
        await driver.run(
            RunRequest(
                provider="anthropic", model="m-1", input=PROMPT, session=handle, attachments=[attachment("image/png")]
            )
        )


async def test_discovery_advertises_each_instances_media_types(driver: Driver) -> None:
    discovery = await driver.discovery()
    advertised = {p.id: p.capabilities.attachmentMediaTypes for p in discovery.providers}
    text = ["text/*", "application/json", "application/xml"]

    for kind in KINDS:
        assert advertised[kind][:3] == text
        assert set(advertised[kind][3:]) == ACCEPTS[kind]


@pytest.mark.parametrize("kind", ["openai-responses", "anthropic"])
async def test_an_unnamed_pdf_still_goes_in_a_shape_the_provider_takes(
    driver: Driver, fakes: dict[str, FakeUpstream], kind: str
) -> None:
    unnamed = Attachment(name="", mediaType="application/pdf", data=encoded("application/pdf"))

    await driver.run(stateless(kind, unnamed))

    recorded = fakes[kind].requests[-1]
    assert recorded.outcome == "ok" and recorded.media == ["application/pdf"]
    parts = [p for p in user_content(kind, recorded.body) if p["type"] in ("input_file", "document")]
    if kind == "openai-responses":
        assert parts[0]["filename"] == "document.pdf"  # OpenAI requires one
    else:
        assert "title" not in parts[0]  # optional on Anthropic, and an empty one says nothing
