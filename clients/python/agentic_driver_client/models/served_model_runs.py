# Generated from openapi.yaml by openapi-python-client (see generator/). DO NOT EDIT.
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ServedModelRuns")


@_attrs_define
class ServedModelRuns:
    """One model that answered turns of a session, and how many.

    Attributes:
        model (str): The model as the provider reported it.
        runs (int): The turns it answered.
    """

    model: str
    runs: int

    def to_dict(self) -> dict[str, Any]:
        model = self.model

        runs = self.runs

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "model": model,
                "runs": runs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        model = d.pop("model")

        runs = d.pop("runs")

        served_model_runs = cls(
            model=model,
            runs=runs,
        )

        return served_model_runs
