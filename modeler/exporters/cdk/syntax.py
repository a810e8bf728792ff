"""How TypeScript and Python write the construct that `construct`
describes: the layouts they share in `Syntax`, what differs in each
subclass. User text goes through the literal functions of `literals`, never
spliced in as code.

Pure Python; nothing here imports Django."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod

from modeler.exporters.cdk.construct import (
    PROP_DEFAULTS,
    Arg,
    Assign,
    Call,
    Cast,
    Comment,
    Do,
    Expr,
    IfProvisioned,
    Items,
    Literal,
    Name,
    Not,
    Plus,
    Prop,
    ProvisionedArgs,
    Statement,
    Struct,
    WhileProvisioned,
)
from modeler.exporters.literals import python_string, typescript_string


def comment_lines(prefix: str, text: str, indent: str, width: int = 88) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(indent) + len(prefix) + 1 + len(line) + 1 + len(word) > width:
            lines.append(f"{indent}{prefix} {line}")
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(f"{indent}{prefix} {line}")
    return lines


class _Syntax(ABC):
    """How a language writes the description: what differs is below each
    subclass; the layouts both share are here."""

    step: str  # one level of indentation
    width: int  # past which a choice is broken over lines
    comment: str
    end: str  # after a statement
    true: str
    false: str
    nothing: str

    @abstractmethod
    def string(self, text: str) -> str:
        """A string literal whose value is `text`."""

    @abstractmethod
    def name(self, dotted: str) -> str:
        """A dotted name in the language's spelling."""

    @abstractmethod
    def label(self, name: str) -> str:
        """What goes before an argument's value."""

    def inline(self, value: Expr) -> str:
        match value:
            case Literal(bool() as flag):
                return self.true if flag else self.false
            case Literal(str() as text):
                return self.string(text)
            case Literal(number):
                return str(number)
            case Name(dotted):
                return self.name(dotted)
            case Items(items):
                return "[" + ", ".join(self.inline(item) for item in items) + "]"
        return self.inline_special(value)

    @abstractmethod
    def inline_special(self, value: Expr) -> str:
        """On one line, a value each language writes its own way."""

    def lines(self, value: Expr, indent: str) -> list[str]:
        """`value` from where it starts on a line at `indent`: its later
        lines whole."""
        if isinstance(value, Items) and value.one_per_line:
            inner = indent + self.step
            return [
                "[",
                *(f"{inner}{self.inline(item)}," for item in value.items),
                f"{indent}]",
            ]
        if isinstance(value, Call) and value.one_per_line:
            return self.call_lines(value, indent)
        if isinstance(value, Struct) and not value.one_line:
            return self.struct_lines(value, indent)
        return [self.inline(value)]

    @abstractmethod
    def call_lines(self, call: Call, indent: str) -> list[str]:
        """A call with its props a line each."""

    @abstractmethod
    def struct_lines(self, struct: Struct, indent: str) -> list[str]:
        """A struct over lines, as an argument's value."""

    @abstractmethod
    def choice(self, choice: IfProvisioned, indent: str) -> list[str]:
        """A choice too long for one line."""

    def arg_lines(self, arg: Arg, indent: str) -> list[str]:
        """An argument with its comma."""
        label = self.label(arg.name)
        one_line = f"{indent}{label}{self.inline(arg.value)},"
        if isinstance(arg.value, IfProvisioned) and len(one_line) > self.width:
            lines = self.choice(arg.value, indent)
        else:
            lines = self.lines(arg.value, indent)
        lines[0] = f"{indent}{label}{lines[0]}"
        lines[-1] += ","
        return lines

    def props_lines(
        self, props: tuple[Arg | ProvisionedArgs, ...], indent: str
    ) -> list[str]:
        out = []
        for prop in props:
            if isinstance(prop, ProvisionedArgs):
                out += self.provisioned_lines(prop, indent)
            else:
                out += self.arg_lines(prop, indent)
        return out

    @abstractmethod
    def provisioned_lines(self, group: ProvisionedArgs, indent: str) -> list[str]:
        """Arguments given only while the table is provisioned."""

    def otherwise(self, choice: IfProvisioned) -> str:
        if choice.otherwise is None:
            return self.nothing
        return self.inline(choice.otherwise)

    def callee(self, call: Call) -> str:
        function = self.name(call.function)
        return function if call.on is None else f"{self.inline(call.on)}.{function}"

    @abstractmethod
    def assign_head(self, target: str) -> str:
        """What goes before an assigned value."""

    def assign_lines(self, value: Expr, indent: str) -> list[str]:
        return self.lines(value, indent)

    @abstractmethod
    def while_provisioned(self, body: list[str], indent: str) -> list[str]:
        """`body` run only while the table is provisioned."""

    def app_lines(self, statements: list[Statement]) -> list[str]:
        """The end of the file: the app, run when the file is."""
        body = self.statements(statements, self.step)
        comment = "The app, when this file is run rather than imported."
        return [f"{self.comment} {comment}", *self.when_run(body)]

    @abstractmethod
    def when_run(self, body: list[str]) -> list[str]:
        """`body` run only when the file is run rather than imported."""

    def statements(self, statements: list[Statement], indent: str) -> list[str]:
        out: list[str] = []
        for statement in statements:
            match statement:
                case Comment(text):
                    out += comment_lines(self.comment, text, indent)
                    continue
                case Assign(target, value):
                    lines = self.assign_lines(value, indent)
                    lines[0] = f"{indent}{self.assign_head(target)}{lines[0]}"
                case Do(call):
                    lines = self.lines(call, indent)
                    lines[0] = indent + lines[0]
                case WhileProvisioned(body):
                    inner = self.statements(list(body), indent + self.step)
                    out += self.while_provisioned(inner, indent)
                    continue
            lines[-1] += self.end
            out += lines
        return out


class TypeScript(_Syntax):
    step = "  "
    width = 80
    comment = "//"
    end = ";"
    true = "true"
    false = "false"
    nothing = "undefined"

    def string(self, text: str) -> str:
        return typescript_string(text)

    def name(self, dotted: str) -> str:
        return ".".join(
            "this" if part == "self" else _camel_case(part)
            for part in dotted.split(".")
        )

    def label(self, name: str) -> str:
        return f"{self.name(name)}: "

    def object(self, fields: tuple[Arg, ...]) -> str:
        inner = ", ".join(f"{self.label(f.name)}{self.inline(f.value)}" for f in fields)
        return f"{{ {inner} }}"

    def callee(self, call: Call) -> str:
        return ("new " if call.new else "") + super().callee(call)

    def inline_special(self, value: Expr) -> str:
        match value:
            case Prop(name):
                prop = f"props.{self.name(name)}"
                default = PROP_DEFAULTS[name]
                # A boolean prop left out is undefined, as false as its default.
                if isinstance(default, Literal) and default.value is False:
                    return prop
                return f"{prop} ?? {self.inline(default)}"
            case Plus(left, right):
                # `??` binds less tightly than `+`.
                text = self.inline(left)
                if isinstance(left, Prop):
                    text = f"({text})"
                return f"{text} + {self.inline(right)}"
            case Not(operand):
                return f"!{self.inline(operand)}"
            case Cast(kind, operand):
                return f"{self.inline(operand)} as {self.name(kind)}"
            case IfProvisioned(then):
                return f"provisioned ? {self.inline(then)} : {self.otherwise(value)}"
            case Struct(fields=fields):
                return self.object(fields)
            case Call(args=args, props=props):
                given = [self.inline(a) for a in args]
                if props:
                    given.append(self.object(_plain(props)))
                return f"{self.callee(value)}({', '.join(given)})"
        raise TypeError(value)

    def choice(self, choice: IfProvisioned, indent: str) -> list[str]:
        rest = self.otherwise(choice)
        return [
            "provisioned",
            f"{indent}{self.step}? {self.inline(choice.then)}",
            f"{indent}{self.step}: {rest}",
        ]

    def provisioned_lines(self, group: ProvisionedArgs, indent: str) -> list[str]:
        given = self.object(group.args)
        return [f"{indent}...(provisioned ? {given} : {{}}),"]

    def call_lines(self, call: Call, indent: str) -> list[str]:
        inner = indent + self.step
        if isinstance(call.on, Call):
            # A method of a call's result starts a line of its own.
            return [
                self.inline(call.on),
                f"{inner}.{self.name(call.function)}({{",
                *self.props_lines(call.props, inner + self.step),
                f"{inner}}})",
            ]
        args = "".join(f"{self.inline(a)}, " for a in call.args)
        return [
            f"{self.callee(call)}({args}{{",
            *self.props_lines(call.props, inner),
            f"{indent}}})",
        ]

    def struct_lines(self, struct: Struct, indent: str) -> list[str]:
        return [
            "{",
            *self.props_lines(struct.fields, indent + self.step),
            f"{indent}}}",
        ]

    def assign_head(self, target: str) -> str:
        declare = "" if "." in target else "const "
        return f"{declare}{self.name(target)} = "

    def while_provisioned(self, body: list[str], indent: str) -> list[str]:
        return [f"{indent}if (provisioned) {{", *body, f"{indent}}}"]

    def when_run(self, body: list[str]) -> list[str]:
        return ["if (require.main === module) {", *body, "}"]


class Python(_Syntax):
    step = "    "
    width = 88
    comment = "#"
    end = ""
    true = "True"
    false = "False"
    nothing = "None"

    def string(self, text: str) -> str:
        return python_string(text)

    def name(self, dotted: str) -> str:
        return dotted

    def label(self, name: str) -> str:
        return f"{name}="

    def keywords(self, fields: tuple[Arg, ...]) -> list[str]:
        return [f"{self.label(f.name)}{self.inline(f.value)}" for f in fields]

    def inline_special(self, value: Expr) -> str:
        match value:
            case Prop(name):
                return name
            case Plus(left, right):
                return f"{self.inline(left)} + {self.inline(right)}"
            case Not(operand):
                return f"not {self.inline(operand)}"
            case Cast(kind, operand):
                return f"typing.cast({kind}, {self.inline(operand)})"
            case IfProvisioned(then):
                rest = self.otherwise(value)
                return f"{self.inline(then)} if provisioned else {rest}"
            case Struct(kind, fields):
                return f"{kind}({', '.join(self.keywords(fields))})"
            case Call(args=args, props=props):
                given = [self.inline(a) for a in args] + self.keywords(_plain(props))
                return f"{self.callee(value)}({', '.join(given)})"
        raise TypeError(value)

    def choice(self, choice: IfProvisioned, indent: str) -> list[str]:
        rest = self.otherwise(choice)
        return [
            self.inline(choice.then),
            f"{indent}if provisioned",
            f"{indent}else {rest}",
        ]

    def provisioned_lines(self, group: ProvisionedArgs, indent: str) -> list[str]:
        out = []
        for arg in group.args:
            out += self.arg_lines(Arg(arg.name, IfProvisioned(arg.value)), indent)
        return out

    def call_lines(self, call: Call, indent: str) -> list[str]:
        inner = indent + self.step
        return [
            f"{self.callee(call)}(",
            *(f"{inner}{self.inline(a)}," for a in call.args),
            *self.props_lines(call.props, inner),
            f"{indent})",
        ]

    def struct_lines(self, struct: Struct, indent: str) -> list[str]:
        # As ruff formats a keyword argument too long for its line.
        inner = indent + self.step
        fields = [
            f"{inner}{self.step}{field}" for field in self.keywords(struct.fields)
        ]
        return [
            "(",
            f"{inner}{struct.kind}(",
            *(f"{line}," for line in fields[:-1]),
            fields[-1],
            f"{inner})",
            f"{indent})",
        ]

    def assign_lines(self, value: Expr, indent: str) -> list[str]:
        # A struct assigned is written as the call it is.
        if isinstance(value, Struct) and not value.one_line:
            call = Call(value.kind, props=value.fields, one_per_line=True)
            return self.call_lines(call, indent)
        return super().assign_lines(value, indent)

    def assign_head(self, target: str) -> str:
        return f"{target} = "

    def while_provisioned(self, body: list[str], indent: str) -> list[str]:
        return [f"{indent}if provisioned:", *body]

    def when_run(self, body: list[str]) -> list[str]:
        return ['if __name__ == "__main__":', *body]


def _camel_case(part: str) -> str:
    """A snake_case name in camelCase; a class or constant name as it is."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", part):
        return part
    first, *rest = part.split("_")
    return first + "".join(word.capitalize() for word in rest)


def _plain(props: tuple[Arg | ProvisionedArgs, ...]) -> tuple[Arg, ...]:
    """Arguments written on one line: a conditional group takes lines of its
    own."""
    plain = tuple(prop for prop in props if isinstance(prop, Arg))
    if len(plain) != len(props):
        raise TypeError("Conditional arguments go in a call written a line each.")
    return plain
