"""Callables as schema sources: signature, defaults and docstrings."""

from __future__ import annotations

from typing import Literal

from _support.json_schema import accepts, compiled

from pse.types.json.schema_sources.from_function import callable_to_schema


def get_weather(city: str, unit: str = "celsius"):  # the docs' example
    """Fetches weather for a city."""


def search_database(
    query: str,
    max_results: int = 10,
    filters: dict[str, str] | None = None,
    sort_by: list[str] = ["relevance"],  # noqa: B006 - the documented signature
) -> list[dict]:
    """
    Search the database with the given parameters.

    Args:
        query: The search query string
        max_results: Maximum number of results to return
        filters: Optional dictionary of field/value filters
        sort_by: Fields to sort results by
    """
    return []


def move(direction: Literal["up", "down"], steps: int, *args: int, **kwargs: str) -> None:
    """Move.

    :param direction: where to go
    :param steps: how far
    """


def test_docs_example_expects_arguments_object():
    sm = compiled(get_weather)
    assert accepts(sm, '{"city": "Paris", "unit": "kelvin"}')
    assert accepts(sm, '{"city": "Paris"}')
    assert not accepts(sm, '{"unit": "kelvin"}')
    assert not accepts(sm, '{"city": "Paris", "country": "FR"}')


def test_schema_from_signature_and_docstring():
    schema = callable_to_schema(search_database)
    assert schema["title"] == "search_database"
    assert schema["description"] == "Search the database with the given parameters."
    assert schema["required"] == ["query"]
    assert (
        schema["properties"]["max_results"]["description"] == "Maximum number of results to return"
    )
    sm = compiled(search_database)
    assert accepts(sm, '{"query": "x", "max_results": 3, "filters": {"a": "b"}}')
    assert accepts(sm, '{"query": "x", "filters": null, "sort_by": []}')
    assert not accepts(sm, '{"query": "x", "max_results": "3"}')


def test_rest_docstring_and_varargs_skipped():
    schema = callable_to_schema(move)
    assert set(schema["properties"]) == {"direction", "steps"}
    assert schema["properties"]["direction"]["description"] == "where to go"
    assert accepts(compiled(move), '{"direction": "up", "steps": 2}')
    assert not accepts(compiled(move), '{"direction": "left", "steps": 2}')
