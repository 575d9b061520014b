"""A base for the command relay's small value objects. The relay starts once per hook event, and
typing (for NamedTuple) or dataclasses would add a sixth to that start; these classes say their
fields in __slots__ and compare and print by them."""

from __future__ import annotations


class Value:
    __slots__: tuple[str, ...] = ()

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"
