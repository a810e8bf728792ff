"""Can two key templates render the same value?

Each template is read as a pattern: its literal characters in order, and for
each placeholder one or more characters of a class (only number characters
for a formatted or numeric value; a digit, then the characters of an
ISO-8601 date or time, for a generated date or timestamp; any character
otherwise). Two patterns
share a string exactly when the product of their automata reaches the pair of
end states. Characters that appear in no literal all behave alike within a
class, so one representative per class is enough to explore the product,
which keeps the search small and makes the answer exact.
"""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Callable, Sequence

from modeler.keys.template import Literal, Placeholder, Template

NUMBER_CHARACTERS = frozenset("-.0123456789")
# What an ISO-8601 date or timestamp is written with (2024-05-01T10:00:00Z,
# +02:00, a fraction), number characters included: each class holds the
# digit that stands for every character of the classes (`_alphabet`).
TIME_CHARACTERS = NUMBER_CHARACTERS | frozenset(":TZ+")


class CharClass(enum.Enum):
    NUMBER = "number"
    TIME = "time"
    ANY = "any"

    def __contains__(self, char: object) -> bool:
        if self is CharClass.ANY:
            return True
        if self is CharClass.TIME:
            return char in TIME_CHARACTERS
        return char in NUMBER_CHARACTERS


Token = str | CharClass  # a str token is one literal character


def template_tokens(
    template: Template,
    is_numeric: Callable[[Placeholder], bool],
    is_time: Callable[[Placeholder], bool] = lambda placeholder: False,
) -> tuple[Token, ...]:
    """`is_time`: whether a placeholder renders an ISO-8601 date or time,
    which starts with a digit of its year: it cannot be `METADATA`."""
    tokens: list[Token] = []
    for part in template.parts:
        if isinstance(part, Literal):
            tokens.extend(part.text)
        elif is_numeric(part):
            tokens.append(CharClass.NUMBER)
        elif is_time(part):
            tokens.extend((CharClass.NUMBER, CharClass.TIME))
        else:
            tokens.append(CharClass.ANY)
    return tuple(tokens)


def common_value(a: Sequence[Token], b: Sequence[Token]) -> str | None:
    """A string both patterns match, or None if there is none.

    Placeholder characters in the example are stand-ins ('x' for any
    character, '0' for a digit).
    """
    alphabet = _alphabet(a, b)
    start = (0, 0)
    came_from: dict[tuple[int, int], tuple[tuple[int, int], str] | None] = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state == (len(a), len(b)):
            return _example(came_from, state)
        for char in alphabet:
            for i in _steps(a, state[0], char):
                for j in _steps(b, state[1], char):
                    if (i, j) not in came_from:
                        came_from[(i, j)] = (state, char)
                        queue.append((i, j))
    return None


def _steps(tokens: Sequence[Token], position: int, char: str) -> list[int]:
    """Positions reachable by reading `char` at `position`.

    Position p means "the first p tokens are read"; after a placeholder the
    automaton may stay to let that placeholder take one more character.
    """
    steps = []
    if position < len(tokens) and _accepts(tokens[position], char):
        steps.append(position + 1)
    previous = tokens[position - 1] if position else None
    if isinstance(previous, CharClass) and char in previous:
        steps.append(position)
    return steps


def _accepts(token: Token, char: str) -> bool:
    return char in token if isinstance(token, CharClass) else token == char


def _alphabet(a: Sequence[Token], b: Sequence[Token]) -> list[str]:
    literals = {t for t in (*a, *b) if isinstance(t, str)}
    # Stand-ins first, so that the example fills placeholders with 'x' and
    # '0' rather than with a separator.
    alphabet = [_other_character(literals)]
    digit = next((c for c in "0123456789-." if c not in literals), None)
    if digit is not None:
        alphabet.append(digit)
    return alphabet + sorted(literals)


def _other_character(literals: set[str]) -> str:
    code = ord("x")
    while chr(code) in literals or chr(code) in NUMBER_CHARACTERS:
        code += 1
    return chr(code)


def _example(
    came_from: dict[tuple[int, int], tuple[tuple[int, int], str] | None],
    state: tuple[int, int],
) -> str:
    chars = []
    step = came_from[state]
    while step is not None:
        state, char = step
        chars.append(char)
        step = came_from[state]
    return "".join(reversed(chars))
