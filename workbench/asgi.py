"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

from workbench.startup import settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")
settings_or_exit()
application = get_asgi_application()
