from django.apps import AppConfig


class ModelerConfig(AppConfig):
    name = "modeler"
    verbose_name = "Single-table modeler"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The domain code reads the design limits (modeler.limits) and the
        # number of child processes (modeler.processes) from modules that
        # import nothing from Django: hand them the site's settings.
        from django.conf import settings

        from modeler import limits, processes

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
        processes.configure(
            processes.Slots(
                processes.default_directory(), count=settings.SUBPROCESSES_MAX
            )
        )
