"""A griffe extension for the API page: Sphinx roles become links, quoted annotations names.

The package's docstrings cross-reference with reST roles (``:class:`VariantError```,
``:meth:`apply```), which Markdown would show literally. Once the whole package is loaded,
each role is resolved from the docstring's scope (the method, its class, its module, then
``canasta``): a target that the API page documents becomes an autorefs link
(``[`VariantError`][canasta.VariantError]``), anything else (a private helper) a code span.

Modules that ``from __future__ import annotations`` may still quote a forward reference
(``-> "ScoreSheet"``), which griffe keeps as a string; such names are parsed into
expressions here, so that signatures show ``ScoreSheet``, linked, not ``'ScoreSheet'``.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from typing import Any, Iterator, Optional

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|exc|data|mod|obj):`(~?)([^`]+)`")
_QUOTED = re.compile(r"""^(['"])([A-Z][\w.]*)\1$""")


def _objects(obj: Any) -> Iterator[Any]:
    """``obj`` and every member defined in it, recursively (aliases excluded)."""
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)


def _unquote(expr: Any, parent: Any, member: Optional[str]) -> Any:
    """``expr`` with each quoted name (``'ScoreSheet'``) replaced by a resolvable name."""
    if isinstance(expr, str):
        if _QUOTED.match(expr):
            node = ast.parse(expr, mode="eval").body
            return griffe.safe_get_annotation(node, parent, member=member, parse_strings=True) or expr
        return expr
    if isinstance(expr, list):
        return [_unquote(e, parent, member) for e in expr]
    if isinstance(expr, griffe.Expr) and dataclasses.is_dataclass(expr):
        for field in dataclasses.fields(expr):
            value = getattr(expr, field.name)
            if isinstance(value, (str, list, griffe.Expr)) and field.name not in ("name", "parent", "member"):
                setattr(expr, field.name, _unquote(value, parent, member))
    return expr


class SphinxRoles(griffe.Extension):
    """Links for ``:role:`target```, and unquoted forward references, in the whole package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name != "canasta":
            return
        public = self._public_paths(pkg)
        for obj in _objects(pkg):
            self._fix_annotations(obj)
            if obj.docstring is not None:
                obj.docstring.value = _ROLE.sub(lambda m: self._link(obj, m, public), obj.docstring.value)

    @staticmethod
    def _public_paths(pkg: griffe.Module) -> dict[str, str]:
        """Canonical path -> documented path, for every object the API page renders."""
        paths: dict[str, str] = {}

        def add(owner: Any, names: list[str], prefix: str) -> None:
            for name in names:
                try:
                    target = owner[name]
                    target = target.final_target if target.is_alias else target
                except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                    continue
                paths[target.path] = paths[f"{prefix}.{name}"] = f"{prefix}.{name}"
                if target.is_class:
                    for m in target.all_members:
                        if not m.startswith("_"):
                            paths[f"{target.path}.{m}"] = paths[f"{prefix}.{name}.{m}"] = f"{prefix}.{name}.{m}"

        def exported(module: Any) -> list[str]:
            return [str(n) for n in (module.exports or [])] if module.exports else [
                n for n in module.members if not n.startswith("_")]

        add(pkg, exported(pkg), "canasta")
        for sub in ("envs", "envs.openspiel"):
            try:
                module = pkg[sub]
            except KeyError:
                continue
            paths[module.path] = module.path
            add(module, exported(module), module.path)
        return paths

    @staticmethod
    def _link(obj: Any, match: re.Match[str], public: dict[str, str]) -> str:
        short, target = match.group(1), match.group(2)
        target = target.lstrip(".")
        title = target.rsplit(".", 1)[-1] if short else target
        scopes = []
        if obj.is_function or obj.is_attribute:
            scopes.append(obj.parent)
        scopes += [obj, obj.module, obj.package]
        for scope in scopes:
            for candidate in (target, f"{scope.path}.{target}"):
                if candidate in public:
                    return f"[`{title}`][{public[candidate]}]"
            try:
                resolved = scope.resolve(target.split(".", 1)[0])
            except (griffe.NameResolutionError, ValueError, AttributeError):
                continue
            full = resolved + ("." + target.split(".", 1)[1] if "." in target else "")
            if full in public:
                return f"[`{title}`][{public[full]}]"
        return f"`{title}`"

    @staticmethod
    def _fix_annotations(obj: Any) -> None:
        parent = obj.parent if obj.parent is not None else obj
        if obj.is_function:
            for param in obj.parameters:
                if param.annotation is not None:
                    param.annotation = _unquote(param.annotation, parent, obj.name)
            if obj.returns is not None:
                obj.returns = _unquote(obj.returns, parent, obj.name)
        elif obj.is_attribute and obj.annotation is not None:
            obj.annotation = _unquote(obj.annotation, parent, obj.name)
