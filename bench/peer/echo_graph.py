"""The peer's one-node echo graph: a thread keeps the visible conversation, a run adds one turn.

State is a list of ``{"role", "content"}`` dicts joined with ``operator.add`` (the
cheapest reducer LangGraph offers; ``add_messages`` with LangChain message
objects would cost the peer more). The node answers ``echo: <last input>``,
exactly what our host's echo provider answers.
"""

from __future__ import annotations

import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph


class State(TypedDict):
    messages: Annotated[list[dict[str, str]], operator.add]


def echo(state: State) -> dict[str, list[dict[str, str]]]:
    return {"messages": [{"role": "assistant", "content": "echo: " + state["messages"][-1]["content"]}]}


builder = StateGraph(State)
builder.add_node("echo", echo)
builder.add_edge(START, "echo")
builder.add_edge("echo", END)
graph = builder.compile()
