"""Function calling: the model asks for an application function; the application runs it and answers.

    .venv/bin/python clients/python/examples/function_calling.py

With the offline echo provider, the directive ``!call NAME JSON`` makes the
model call NAME with those arguments; a real model decides by itself from the
tool's description and JSON Schema.
"""

from __future__ import annotations

import json
from typing import Any

from agentic_driver_client.models import FunctionCallsAction, RunResult, RunStatus
from agentic_driver_sdk import AgenticDriver

WEATHER_TOOL = {
    "name": "get_weather",
    "description": "The current weather in a city.",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
}


def get_weather(city: str) -> dict[str, Any]:
    return {"city": city, "sky": "clear", "celsius": 21}


def main() -> None:
    with AgenticDriver() as client:
        session = client.sessions.create(provider="echo", model="echo-1", mode="native")
        result: RunResult = client.run(
            provider="echo",
            model="echo-1",
            input='!call get_weather {"city": "Paris"}\nWhat is the weather in Paris?',
            session=session,
            tools=[WEATHER_TOOL],
        )
        while result.status == RunStatus.REQUIRES_ACTION:
            action = result.required_action
            assert isinstance(action, FunctionCallsAction)
            answers = {}
            for call in action.calls:
                arguments = call.arguments.to_dict()
                print(f"the model calls {call.name}({json.dumps(arguments)})")
                answers[call.call_id] = json.dumps(get_weather(**arguments))
            result = client.runs.submit_actions(result.id, function_results=answers)
        print(result.output.text)
        client.sessions.delete(session.id)


if __name__ == "__main__":
    main()
