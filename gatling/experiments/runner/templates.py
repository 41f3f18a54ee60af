"""Templates in definition values: `{expr}` with a small, checked expression language.

A string that is exactly one `{expr}` takes the expression's value (a number stays a number, an
object stays an object); otherwise every `{expr}` is formatted into the text. `{{` and `}}` are
literal braces. Expressions: parameter names, numbers, strings, + - * / //, comparisons,
`a if c else b`, and the functions in FUNCTIONS. Every template is parsed and its names checked
when a definition is loaded, so a typo fails before anything is created.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Callable, Mapping
from typing import Any

_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def _ids(prefix: str, count: int) -> str:
    """The tenant ids prefix-t1..tN, comma-separated (what the simulations' `tenants` takes)."""
    return ",".join(f"{prefix}-t{i}" for i in range(1, int(count) + 1))


FUNCTIONS: dict[str, Callable[..., Any]] = {"ids": _ids}

_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
}
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


class TemplateError(ValueError):
    """A template that does not parse, or names something that is not defined."""


def _check(node: ast.AST, names: set[str]) -> None:
    match node:
        case ast.Expression(body=body):
            _check(body, names)
        case ast.Constant(value=v) if v is None or isinstance(v, (int, float, str)):
            pass
        case ast.Name(id=name):
            if name not in names:
                known = ", ".join(sorted(names)) or "none"
                raise TemplateError(f"unknown name '{name}' (parameters: {known})")
        case ast.BinOp(left=left, op=op, right=right) if type(op) in _BINARY:
            _check(left, names)
            _check(right, names)
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            _check(operand, names)
        case ast.Compare(left=left, ops=ops, comparators=rights) if all(
            type(o) in _COMPARE for o in ops
        ):
            for n in (left, *rights):
                _check(n, names)
        case ast.IfExp(test=test, body=body, orelse=orelse):
            for n in (test, body, orelse):
                _check(n, names)
        case ast.Call(func=ast.Name(id=fn), args=args, keywords=[]) if fn in FUNCTIONS:
            for n in args:
                _check(n, names)
        case _:
            raise TemplateError(f"not allowed in a template: '{ast.unparse(node)}'")


def _eval(node: ast.AST, env: Mapping[str, Any]) -> Any:
    match node:
        case ast.Expression(body=body):
            return _eval(body, env)
        case ast.Constant(value=v):
            return v
        case ast.Name(id=name):
            return env[name]
        case ast.BinOp(left=left, op=op, right=right):
            return _BINARY[type(op)](_eval(left, env), _eval(right, env))
        case ast.UnaryOp(operand=operand):
            return -_eval(operand, env)
        case ast.Compare(left=left, ops=ops, comparators=rights):
            values = [_eval(n, env) for n in (left, *rights)]
            return all(
                _COMPARE[type(o)](a, b) for o, a, b in zip(ops, values, values[1:], strict=False)
            )
        case ast.IfExp(test=test, body=body, orelse=orelse):
            return _eval(body, env) if _eval(test, env) else _eval(orelse, env)
        case ast.Call(func=ast.Name(id=fn), args=args):
            return FUNCTIONS[fn](*(_eval(a, env) for a in args))
    raise AssertionError(f"unchecked node {ast.dump(node)}")  # _check rejects everything else


def _parse(expr: str, names: set[str]) -> ast.Expression:
    try:
        tree = ast.parse(expr.strip(), mode="eval")
    except SyntaxError as e:
        raise TemplateError(f"'{{{expr}}}' does not parse: {e.msg}") from None
    _check(tree, names)
    return tree


def check(template: str, names: set[str]) -> None:
    """Raises TemplateError if a `{expr}` in it does not parse or names an unknown name."""
    for m in _FIELD.finditer(template):
        if m.group(1) is not None:
            _parse(m.group(1), names)


def text(value: Any) -> str:
    """A value as text: a whole float without its .0 (15.0 -> 15, as the bash runner wrote)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def render(template: str, env: Mapping[str, Any]) -> Any:
    """The value of a template (see the module's doc) with the names bound in env."""
    names = set(env)
    whole = _FIELD.fullmatch(template)
    if whole and whole.group(1) is not None:
        return _eval(_parse(whole.group(1), names), env)

    def field(m: re.Match[str]) -> str:
        if m.group(1) is None:
            return m.group(0)[0]
        return text(_eval(_parse(m.group(1), names), env))

    return _FIELD.sub(field, template)


def render_all(value: Any, env: Mapping[str, Any]) -> Any:
    """Renders every string inside value (lists and mappings walked; keys are not templates)."""
    if isinstance(value, str):
        return render(value, env)
    if isinstance(value, list):
        return [render_all(v, env) for v in value]
    if isinstance(value, dict):
        return {k: render_all(v, env) for k, v in value.items()}
    return value


def check_all(value: Any, names: set[str]) -> None:
    """check() on every string inside value."""
    if isinstance(value, str):
        check(value, names)
    elif isinstance(value, list):
        for v in value:
            check_all(v, names)
    elif isinstance(value, dict):
        for v in value.values():
            check_all(v, names)
