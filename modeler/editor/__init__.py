"""The design editor: its forms (one module per element: table, index,
entity, access pattern, and the generator picker), its one write
(`services.design_edit`: an edit command of `modeler.design.edits` saved as a
new revision through `modeler.services.project_edit`) and its live previews
(`preview`). Its views are `modeler.views.editor*`."""
