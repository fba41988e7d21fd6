// libsecret-1 (Debian: libsecret-1-dev), the client of the freedesktop.org Secret Service (gnome-keyring,
// KeePassXC, KWallet). Only the non-variadic functions import into Swift: use the *v_sync variants.
#include <libsecret/secret.h>
