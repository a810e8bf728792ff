from django.apps import AppConfig


class ModelerConfig(AppConfig):
    name = "modeler"
    verbose_name = "Single-table modeler"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from modeler.domain_settings import hand_over

        hand_over()
