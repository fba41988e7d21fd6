"""Settings of the django-walletpass peer: everything lives in the work directory this package was copied into.

start-walletpass-peer.sh writes secret_key, cert.pem and key.pem there (throwaway, generated with openssl) and sets
PEER_PASS_TYPE_ID and PEER_SERVICE_URL. The certificate and key are only read by django-walletpass's PassBuilder
(signing); the web service's pass fetch does not use them.
"""

import os
from pathlib import Path

WORK = Path(__file__).resolve().parent.parent

SECRET_KEY = (WORK / "secret_key").read_text().strip()
DEBUG = False
ALLOWED_HOSTS = ["*"]

# contrib.auth: Django REST framework's AnonymousUser (every django-walletpass view is a DRF ViewSet).
INSTALLED_APPS = ["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "django_walletpass"]
MIDDLEWARE = ["django.middleware.security.SecurityMiddleware", "django.middleware.common.CommonMiddleware"]
ROOT_URLCONF = "walletpass_peer.urls"
WSGI_APPLICATION = "walletpass_peer.wsgi.application"

# One SQLite file; connections kept across requests (one per gunicorn thread), as a tuned deployment would.
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": WORK / "db.sqlite3", "CONN_MAX_AGE": None}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
# Pass.data (the .pkpass) goes to the default FileSystemStorage: <work>/media/passes/<uuid>.pkpass.
MEDIA_ROOT = WORK / "media"

# JSON only: the browsable API would need templates.
REST_FRAMEWORK = {"DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]}

WALLETPASS = {
    "CERT_PATH": str(WORK / "cert.pem"),
    "KEY_PATH": str(WORK / "key.pem"),
    "KEY_PASSWORD": None,
    "PASS_TYPE_ID": os.environ.get("PEER_PASS_TYPE_ID", "pass.example.coffer"),
    "TEAM_ID": "COFFERPEER",
    "SERVICE_URL": os.environ.get("PEER_SERVICE_URL", "http://127.0.0.1/passkit/"),
}
