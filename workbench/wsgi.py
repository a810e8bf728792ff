"""WSGI entry point, for gunicorn: `gunicorn workbench.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")

application = get_wsgi_application()
