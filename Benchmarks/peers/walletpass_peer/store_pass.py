"""Stores one pass as django-walletpass's PassBuilder.write_to_model does, with a given .pkpass as its body.

Usage: python -m walletpass_peer.store_pass PKPASS PASS_TYPE_ID SERIAL_NUMBER TOKEN (DJANGO_SETTINGS_MODULE set)
Creates the Pass row or updates it (a reused work dir); its file is <work>/media/passes/<uuid>.pkpass and its
updated_at (the fetch's Last-Modified) is now.
"""

import os
import sys
import uuid
from pathlib import Path

import django

django.setup()

from django_walletpass.files import WalletpassContentFile  # noqa: E402
from django_walletpass.models import Pass  # noqa: E402

pkpass, pass_type_id, serial_number, token = sys.argv[1:5]
pass_ = Pass.objects.filter(pass_type_identifier=pass_type_id, serial_number=serial_number).first()
if pass_ is None:
    pass_ = Pass(pass_type_identifier=pass_type_id, serial_number=serial_number)
pass_.authentication_token = token
filename = os.path.basename(pass_.data.name) if pass_.data.name else f"{uuid.uuid1()}.pkpass"
pass_.data.delete(save=False)
pass_.data.save(filename, WalletpassContentFile(Path(pkpass).read_bytes()))  # saves the row too (post_save: push)
