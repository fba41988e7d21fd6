// libsecret-1 (Debian: libsecret-1-dev), the client of the freedesktop.org Secret Service (gnome-keyring,
// KeePassXC, KWallet). Only the non-variadic functions import into Swift: use the *v_sync variants.
// The D-Bus path functions (secret-paths.h) are marked unstable by libsecret but have not changed since 0.18;
// Coffer uses them to read items without building a proxy object per item.
#define SECRET_API_SUBJECT_TO_CHANGE 1
#include <libsecret/secret.h>
