"""Forms of the design editor, one module per element of the design: each
parses what the browser sends into a design value (`to_table`, `to_index`,
`to_entity`, `to_pattern`) and puts the design check's problems back beside
the field they concern.

Repeated rows (attributes, key templates, the key condition, parameters,
predicates, actions) are Django formsets of small row forms (rows.py,
pattern_rows.py), with the numbered names a formset gives (`attr-0-name`,
`attr-1-name`...) and its management form: the page shows the existing
rows plus blank ones, a blank row is ignored, and "More rows" re-renders
the form with more, so everything works without JavaScript.
"""

from modeler.editor.forms.common import VersionedForm
from modeler.editor.forms.entity import (
    EntityCreateForm,
    EntityForm,
    entity_draft,
    generator_text,
    parse_generator,
)
from modeler.editor.forms.index import IndexForm
from modeler.editor.forms.pattern import PatternForm, pattern_draft
from modeler.editor.forms.table import TableForm

__all__ = [
    "EntityCreateForm",
    "EntityForm",
    "IndexForm",
    "PatternForm",
    "TableForm",
    "VersionedForm",
    "entity_draft",
    "generator_text",
    "parse_generator",
    "pattern_draft",
]
