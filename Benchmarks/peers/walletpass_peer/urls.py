"""django-walletpass's web service under /passkit/ (the prefix Coffer serves it under)."""

from django.urls import include, path

urlpatterns = [path("passkit/", include("django_walletpass.urls"))]
