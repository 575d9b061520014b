"""Recursive-descent parser that compiles a filter expression into a plan (see combine.py).

    expr   := and ( ('|' | 'or') and )*
    and    := unary ( ('&' | 'and')? unary )*        adjacent terms mean AND
    unary  := ('!' | 'not') unary | atom
    atom   := '(' expr ')' | name:value | 'finding' | word | "text" | 'text'

Keywords are case-insensitive. Plain words of one `and` are searched together in one pass.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager

from inspector.filter.combine import Filter, Plan, both, constant, either, finish, negate
from inspector.filter.errors import FilterError
from inspector.filter.fields import HAS_FINDING, compile_field, marked_term
from inspector.filter.lexer import Kind, Token, tokenize
from inspector.filter.text import text_term

_STARTS_TERM = frozenset({Kind.LPAREN, Kind.NOT, Kind.TEXT, Kind.FIELD})
MAX_DEPTH = 50  # nested '(' and '!' together; keeps parsing and evaluation far from the stack limit
MAX_LENGTH = 10_000  # characters; compiling stays well under a second (20,000 terms took 6 s)


def compile_filter(text: str, marked: Collection[int] = frozenset()) -> Filter:
    """Compile `text`; an empty expression matches every record. `marked` holds the seqs of
    the rows a person marked (for `marked:yes`). Raises only FilterError."""
    if len(text) > MAX_LENGTH:
        message = f"the filter is {len(text):,} characters long; the most is {MAX_LENGTH:,}"
        raise FilterError(message, MAX_LENGTH)
    parser = _Parser(tokenize(text), marked)
    if parser.peek().kind is Kind.END:
        return finish(constant(True))
    plan = parser.expression()
    token = parser.peek()
    if token.kind is not Kind.END:
        raise FilterError(f"unexpected '{token.text}'", token.pos)
    return finish(plan)


class _Parser:
    def __init__(self, tokens: list[Token], marked: Collection[int]) -> None:
        self._tokens = tokens
        self._marked = marked
        self._index = 0
        self._depth = 0

    def peek(self) -> Token:
        return self._tokens[self._index]

    def _take(self) -> Token:
        token = self._tokens[self._index]
        if token.kind is not Kind.END:
            self._index += 1
        return token

    def expression(self) -> Plan:
        operands = [self._conjunction()]
        while self.peek().kind is Kind.OR:
            self._expect_operand_after(self._take())
            operands.append(self._conjunction())
        return _balanced(either, operands)

    def _conjunction(self) -> Plan:
        operands: list[Plan] = []
        needles: list[str] = []
        self._and_operand(operands, needles)
        while True:
            kind = self.peek().kind
            if kind is Kind.AND:
                self._expect_operand_after(self._take())
            elif kind not in _STARTS_TERM:
                break
            self._and_operand(operands, needles)
        if needles:  # last: the costliest test runs only when the cheap ones pass
            operands.append(text_term(needles))
        return _balanced(both, operands)

    def _and_operand(self, operands: list[Plan], needles: list[str]) -> None:
        """Plain words of one conjunction are gathered into a single text search."""
        token = self.peek()
        if token.kind is Kind.TEXT and not _is_finding(token):
            needles.append(self._take().value)
        else:
            operands.append(self._unary())

    def _unary(self) -> Plan:
        if self.peek().kind is not Kind.NOT:
            return self._atom()
        with self._nested(self._take()) as operator:
            self._expect_operand_after(operator)
            return negate(self._unary())

    @contextmanager
    def _nested(self, token: Token) -> Iterator[Token]:
        if self._depth == MAX_DEPTH:
            raise FilterError(f"more than {MAX_DEPTH} nested '(' and '!'", token.pos)
        self._depth += 1
        try:
            yield token
        finally:
            self._depth -= 1

    def _expect_operand_after(self, operator: Token) -> None:
        token = self.peek()
        if token.kind not in _STARTS_TERM:
            raise FilterError(f"expected a term after '{operator.text}'", token.pos)

    def _atom(self) -> Plan:
        token = self._take()
        if token.kind is Kind.LPAREN:
            with self._nested(token):
                return self._group(token)
        if token.kind is Kind.FIELD:
            if token.name.lower() == "marked":
                return marked_term(token, self._marked)
            return compile_field(token)
        if token.kind is Kind.TEXT:
            return HAS_FINDING if _is_finding(token) else text_term([token.value])
        if token.kind is Kind.END:
            raise FilterError("expected a term", token.pos)
        raise FilterError(f"unexpected '{token.text}'", token.pos)

    def _group(self, opening: Token) -> Plan:
        if self.peek().kind is Kind.RPAREN:
            raise FilterError("empty parentheses", opening.pos)
        inner = self.expression()
        closing = self._take()
        if closing.kind is not Kind.RPAREN:
            raise FilterError("expected ')'", closing.pos)
        return inner


def _balanced(combine: Callable[[Plan, Plan], Plan], items: list[Plan]) -> Plan:
    """Combine as a balanced tree, so a long chain of terms stays shallow when evaluated."""
    if len(items) == 1:
        return items[0]
    middle = len(items) // 2
    return combine(_balanced(combine, items[:middle]), _balanced(combine, items[middle:]))


def _is_finding(token: Token) -> bool:
    return token.kind is Kind.TEXT and not token.quoted and token.value.lower() == "finding"
