"""Device cookies: a browser that logged in to an account once may log in to it again while
strangers' failed logins hold the account locked for everyone else (OWASP's "device cookies").

The cookie ``ludothek_device`` holds ``<user id>.<expiry>.<signature>``; the signature is an
HMAC-SHA256 of the first two parts. Its key is derived from the account's stored password hash,
a secret the server keeps anyway (as a session's CSRF token is derived from the session's
secret): servers sharing a database agree on it without a key of their own, and a new password
(``ludothek users reset-password``, or a rehash with new parameters) makes every device cookie
of the account worthless. The cookie lets no one in: it only spares its device the lockout
that other addresses' failures cause, and only with the right password.
"""

from __future__ import annotations

import hashlib
import hmac
import time

#: the cookie's name; it is sent to the login alone (its path), HttpOnly, SameSite=Strict
DEVICE_COOKIE = "ludothek_device"
DEVICE_PATH = "/api/login"
#: a device cookie lasts this long after the login that gave it (each login gives a new one)
DEVICE_SECONDS = 180 * 24 * 3600
MAX_COOKIE = 200


def device_cookie(user_id: int, password_hash: str, now: float | None = None) -> str:
    """A new device cookie for an account."""
    expires = int((time.time() if now is None else now) + DEVICE_SECONDS)
    claim = f"{user_id}.{expires}"
    return f"{claim}.{_signature(claim, password_hash)}"


def knows_device(cookie: str | None, user_id: int, password_hash: str, now: float | None = None) -> bool:
    """Whether ``cookie`` is a device cookie of this account that has not expired."""
    if not cookie or len(cookie) > MAX_COOKIE or cookie.count(".") != 2:
        return False
    owner, expires, signature = cookie.split(".")
    if owner != str(user_id) or not (expires.isascii() and expires.isdigit()) or int(expires) <= (time.time() if now is None else now):
        return False
    return hmac.compare_digest(signature.encode("ascii", "replace"),
                               _signature(f"{owner}.{expires}", password_hash).encode())


def _signature(claim: str, password_hash: str) -> str:
    key = hashlib.sha256(b"ludothek-device\0" + password_hash.encode("utf-8")).digest()
    return hmac.new(key, claim.encode("ascii"), hashlib.sha256).hexdigest()
