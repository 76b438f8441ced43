"""Frozen dataclasses that are quick to make.

A frozen dataclass's `__init__` stores each field with a call to `object.__setattr__`, since its
own `__setattr__` refuses. The syntax model is made of hundreds of thousands of such records (a
card of a few lines makes about twenty nodes and as many spans), and those calls were a thirteenth
of a parse. `@frozen` makes the same dataclass, then gives it an `__init__` that fills the
instance's dictionary in one call: the same fields, defaults, equality, hash and refusal to change.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def frozen(cls: type[T]) -> type[T]:
    """`@dataclass(frozen=True)`, made quicker to construct (see the module's note)."""
    made: Any = dataclasses.dataclass(frozen=True)(cls)
    if "__slots__" in made.__dict__ or hasattr(made, "__post_init__"):
        raise TypeError(f"{made.__name__}: @frozen does not make classes with slots or __post_init__")
    if dataclasses.fields(made):  # (a record without fields keeps its empty __init__)
        made.__init__ = _init(made)
    return made  # type: ignore[no-any-return]


def _init(cls: Any) -> Any:
    """An `__init__` for `cls` taking its fields as dataclasses' does, by position or name."""
    defaults: dict[str, Any] = {}
    params = []
    stored = []
    for f in dataclasses.fields(cls):
        if not f.init:
            raise TypeError(f"{cls.__name__}.{f.name}: @frozen does not make fields left out of __init__")
        if f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: @frozen does not make fields with a default factory")
        if f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        stored.append(f"{f.name!r}: {f.name}")
    source = (f"def __init__(self, {', '.join(params)}):\n"
              f"    self.__dict__.update({{{', '.join(stored)}}})\n")
    namespace = dict(defaults)
    exec(source, namespace)  # noqa: S102 - the source is made of the class's own field names
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = cls.__init__.__doc__
    return init
