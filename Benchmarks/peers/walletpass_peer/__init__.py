"""The Django project of the django-walletpass peer (start-walletpass-peer.sh copies this package into its work dir)."""
