"""The site's settings handed to the domain code: the design limits
(modeler.design_check.limits), the budget of an import
(modeler.importers.budget), the confinement of JavaScript model imports and
the number of child processes (modeler.infra.processes) are read from
modules that import nothing from Django. The app's `ready()` hands them over
when Django is set up, and the commands that run without django.setup()
(`modeler.management.file_start`, `serve_start`) call `hand_over` first."""

from __future__ import annotations


def hand_over() -> None:
    from django.conf import settings

    from modeler.design_check import limits
    from modeler.importers import budget as import_budget
    from modeler.importers.jsmodel import sandbox as js_sandbox
    from modeler.infra import processes
    from modeler.sampledata import allow_items

    limits.configure(
        limits.DesignLimits(
            entities=settings.DESIGN_MAX_ENTITIES,
            attributes=settings.DESIGN_MAX_ATTRIBUTES,
            patterns=settings.DESIGN_MAX_PATTERNS,
            template_chars=settings.DESIGN_MAX_TEMPLATE_CHARS,
            sample_items=settings.SAMPLE_MAX_ITEMS,
            sample_bytes=settings.SAMPLE_MAX_BYTES,
        )
    )
    import_budget.configure(
        import_budget.ImportLimits(
            steps=settings.IMPORT_MAX_STEPS,
            value_bytes=settings.IMPORT_MAX_VALUE_BYTES,
            cpu_seconds=settings.IMPORT_CPU_SECONDS,
        )
    )
    allow_items(settings.SAMPLE_MAX_ITEMS)
    js_sandbox.configure(js_sandbox.Confinement(enabled=settings.JS_MODULE_IMPORT))
    processes.configure(
        processes.Slots(processes.default_directory(), count=settings.SUBPROCESSES_MAX)
    )
