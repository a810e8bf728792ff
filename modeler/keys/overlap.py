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
# +02:00, a fraction).
TIME_CHARACTERS = NUMBER_CHARACTERS | frozenset(":TZ+")
# A UUID as the uuid generator writes it, and a ULID (Crockford's base32:
# no I, L, O or U).
UUID_CHARACTERS = frozenset("0123456789abcdef-")
ULID_CHARACTERS = frozenset("0123456789ABCDEFGHJKMNPQRSTVWXYZ")


class CharClass(enum.Enum):
    """The characters a placeholder can render, by what makes its values."""

    NUMBER = "number"
    TIME = "time"
    UUID = "uuid"
    ULID = "ulid"
    ANY = "any"

    @property
    def characters(self) -> frozenset[str] | None:
        """The class's characters; None for any character."""
        return _CHARACTERS.get(self)

    def __contains__(self, char: object) -> bool:
        characters = _CHARACTERS.get(self)
        return characters is None or char in characters


_CHARACTERS = {
    CharClass.NUMBER: NUMBER_CHARACTERS,
    CharClass.TIME: TIME_CHARACTERS,
    CharClass.UUID: UUID_CHARACTERS,
    CharClass.ULID: ULID_CHARACTERS,
}
Token = str | CharClass  # a str token is one literal character


def template_tokens(
    template: Template,
    is_numeric: Callable[[Placeholder], bool],
    shape: Callable[[Placeholder], tuple[CharClass, ...] | None] = lambda p: None,
) -> tuple[Token, ...]:
    """`shape`: the classes a placeholder's values are made of, in order,
    when its generator says (an ISO timestamp is a digit of its year, then
    date and time characters: it cannot be `METADATA`); None for any
    text."""
    tokens: list[Token] = []
    for part in template.parts:
        if isinstance(part, Literal):
            tokens.extend(part.text)
        elif is_numeric(part):
            tokens.append(CharClass.NUMBER)
        elif (classes := shape(part)) is not None:
            tokens.extend(classes)
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
    """One character for each way a character can behave against the two
    patterns: each literal, and among the others one per set of classes
    that hold it (a character in no finite class stands for all such)."""
    literals = {t for t in (*a, *b) if isinstance(t, str)}
    finite = [
        t.characters
        for t in {t for t in (*a, *b) if isinstance(t, CharClass)}
        if t.characters is not None
    ]
    # Stand-ins first, so that the example fills placeholders with 'x' and
    # '0' rather than with a separator.
    alphabet = [_other_character(literals, finite)]
    seen: set[tuple[bool, ...]] = set()
    for char in sorted(set().union(*finite) - literals, key=_stand_in_order):
        signature = tuple(char in characters for characters in finite)
        if signature not in seen:
            seen.add(signature)
            alphabet.append(char)
    return alphabet + sorted(literals)


def _stand_in_order(char: str) -> tuple[bool, str]:
    return (not char.isdigit(), char)


def _other_character(literals: set[str], finite: list[frozenset[str]]) -> str:
    code = ord("x")
    while chr(code) in literals or any(chr(code) in c for c in finite):
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
