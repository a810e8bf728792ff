"""WSGI entry point, for gunicorn: `gunicorn workbench.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

from workbench.startup import settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "workbench.settings")
# Status 3 is gunicorn's "worker failed to boot": it stops instead of
# starting the worker again and again.
settings_or_exit(status=3)
application = get_wsgi_application()
