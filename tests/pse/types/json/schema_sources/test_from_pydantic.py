"""Pydantic models as schema sources, compiled and walked; get_structured_output validates."""

from __future__ import annotations

import json
from enum import Enum
from typing import Annotated, Literal

from _support.json_schema import accepts, compiled
from pydantic import BaseModel, Field

from pse.types.json.schema_sources.from_pydantic import pydantic_to_schema


class UserProfile(BaseModel):  # the quickstart model
    user_id: int
    username: str
    is_active: bool
    roles: list[str]


class Color(Enum):
    RED = "red"
    BLUE = "blue"


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = Field(ge=1, le=9)


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


class Address(BaseModel):
    street: str
    city: str
    zipcode: str | None = None


class Person(BaseModel):
    """A person.

    Attributes:
        name: The person's full name.
    """

    name: str
    age: int = Field(ge=0)
    address: Address | None = None
    hobbies: list[str] = []
    nickname: Annotated[str, Field(min_length=2, max_length=8, alias="nick")] = "bob"
    pet: Cat | Dog = Field(default=None, discriminator="kind")  # type: ignore[assignment]
    color: Color = Color.RED
    tags: set[str] = set()
    pair: tuple[int, str] = (0, "")
    scores: dict[str, float] = {}


class Node(BaseModel):
    value: int
    children: list[Node] = []


def test_quickstart_model_produces_documented_json():
    sm = compiled(UserProfile)
    text = '{"user_id": 999, "username": "tester", "is_active": true, "roles": ["qa", "dev"]}'
    assert accepts(sm, text)
    assert UserProfile.model_validate_json(text) == UserProfile(
        user_id=999, username="tester", is_active=True, roles=["qa", "dev"]
    )
    assert not accepts(sm, '{"user_id": "999", "username": "t", "is_active": true, "roles": []}')


def test_realistic_model():
    sm = compiled(Person)
    good = {
        "name": "Ada",
        "age": 36,
        "address": {"street": "1 Main", "city": "X"},
        "nick": "ada",
        "pet": {"kind": "cat", "lives": 9},
        "color": "blue",
        "tags": ["a", "a"],
        "pair": [1, "x"],
        "scores": {"m": 1.5},
    }
    assert accepts(sm, json.dumps(good))
    Person.model_validate_json(json.dumps(good))
    for bad in (
        {**good, "age": -1},
        {**good, "nick": "x"},
        {**good, "pet": {"kind": "cat", "lives": 10}},
        {**good, "pet": {"kind": "cow"}},
        {**good, "color": "green"},
        {**good, "pair": [1, "x", 2]},
    ):
        assert not accepts(sm, json.dumps(bad)), bad
    assert accepts(sm, '{"name": "A", "age": 1}')
    assert accepts(sm, '{"name": "A", "age": 1, "address": null}')


def test_descriptions_from_docstrings():
    schema = pydantic_to_schema(Person)
    assert schema["description"].startswith("A person")
    assert schema["properties"]["name"]["description"] == "The person's full name."


def test_recursive_model():
    sm = compiled(Node)
    assert accepts(sm, '{"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}')
    assert not accepts(sm, '{"value": 1, "children": [{"children": []}]}')


def test_list_of_models_is_any_of():
    sm = compiled([Cat, Dog])
    assert accepts(sm, '{"kind": "dog"}')
    assert accepts(sm, '{"kind": "cat", "lives": 3}')
    assert not accepts(sm, '{"kind": "cat"}')
