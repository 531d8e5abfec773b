"""A griffe extension for the API page: Sphinx roles become links, quoted annotations names.

The package's docstrings cross-reference with reST roles (``:class:`VariantError```,
``:meth:`apply```), which Markdown would show literally. Once the whole package is loaded,
each role is resolved from the docstring's scope (the method, its class, its module, then
``canasta``): a target that the API page documents becomes an autorefs link
(``[`VariantError`][canasta.VariantError]``), anything else (a private helper) a code span.

Modules that ``from __future__ import annotations`` may still quote a forward reference
(``-> "ScoreSheet"``), which griffe keeps as a string; such names are parsed into
expressions here, so that signatures show ``ScoreSheet``, linked, not ``'ScoreSheet'``.

An attrs class (``@frozen``, ``@define``) gets the ``__init__`` that attrs makes, from its
fields in order (as griffe does for dataclasses), so the page shows ``Take(rank, way, meld=1)``
and each field's docstring as its parameter's.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from typing import Any, Iterator, Optional

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|exc|data|mod|obj):`(~?)([^`]+)`")
_QUOTED = re.compile(r"""^(['"])([A-Z][\w.]*)\1$""")
_ATTRS_DECORATORS = {f"{m}.{d}" for m in ("attrs", "attr") for d in ("frozen", "define", "mutable", "s", "attrs")}


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
            if obj.is_class:
                _attrs_init(obj)
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


def _decorator_path(decorator: Any) -> str:
    value = decorator.value
    if isinstance(value, griffe.ExprCall):
        value = value.function
    return getattr(value, "canonical_path", str(value))


def _is_attrs(cls: Any) -> bool:
    return any(_decorator_path(d) in _ATTRS_DECORATORS for d in cls.decorators)


def _field_call(value: Any) -> Optional[dict[str, Any]]:
    """The keyword arguments of ``field(...)`` / ``attr.ib(...)``, or None for a plain default."""
    if isinstance(value, griffe.ExprCall) and getattr(value.function, "canonical_path", "") in (
            "attrs.field", "attr.field", "attr.ib", "attr.attrib"):
        return {a.name: a.value for a in value.arguments if isinstance(a, griffe.ExprKeyword)}
    return None


def _attrs_parameters(cls: Any) -> list[griffe.Parameter]:
    params = []
    for member in cls.members.values():
        if member.is_alias or not member.is_attribute or member.annotation is None:
            continue
        if "property" in member.labels or "instance-attribute" not in member.labels and "class-attribute" in member.labels and member.value is None:
            continue
        if isinstance(member.annotation, griffe.Expr) and "ClassVar" in str(member.annotation):
            continue
        call = _field_call(member.value)
        args = call or {}
        if str(args.get("init", "True")) == "False":
            continue
        if "default" in args:
            default: Any = args["default"]
        elif "factory" in args:
            factory = args["factory"]
            default = (factory.body if isinstance(factory, griffe.ExprLambda)
                       else griffe.ExprCall(function=factory, arguments=[]))
        elif call is not None or member.value is None:
            default = None
        else:
            default = member.value
        kind = (griffe.ParameterKind.keyword_only if str(args.get("kw_only", "False")) == "True"
                else griffe.ParameterKind.positional_or_keyword)
        name = str(args["alias"]).strip("'\"") if "alias" in args else member.name.lstrip("_")
        params.append(griffe.Parameter(name, annotation=member.annotation, kind=kind, default=default,
                                       docstring=member.docstring))
    return params


def _attrs_init(cls: Any) -> None:
    """Give an attrs class without an ``__init__`` of its own the one attrs generates."""
    if "__init__" in cls.members or not _is_attrs(cls):
        return
    params: list[griffe.Parameter] = []
    try:
        mro = cls.mro()
    except ValueError:
        mro = []
    for parent in [*reversed(mro), cls]:
        if parent.is_class and _is_attrs(parent):
            for p in _attrs_parameters(parent):
                params = [q for q in params if q.name != p.name] + [p]
    ordered = ([p for p in params if p.kind is not griffe.ParameterKind.keyword_only]
               + [p for p in params if p.kind is griffe.ParameterKind.keyword_only])
    init = griffe.Function("__init__", lineno=0, endlineno=0, parent=cls, returns="None",
                           parameters=griffe.Parameters(
                               griffe.Parameter("self", kind=griffe.ParameterKind.positional_or_keyword),
                               *ordered))
    cls.set_member("__init__", init)
