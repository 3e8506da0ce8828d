"""A WebAuthn client that no one on this project wrote, adapted to the server's JSON.

The authenticator (and the browser part: clientDataJSON, origin) is `soft_webauthn.SoftWebauthnDevice`
from the PyPI package `soft-webauthn` (MIT), built on Yubico's `fido2` and `cryptography`. It takes
options in the browser API's shape (binary values as bytes) and answers as
`navigator.credentials.create()/get()` would, with bytes.

This module only moves data between shapes:

- the server's `{"publicKey": PublicKeyCredentialCreationOptionsJSON}` (or request options) is first read
  by py_webauthn's `parse_registration_options_json` / `parse_authentication_options_json` (Duo Labs,
  BSD-3-Clause), an independent reading of the WebAuthn Level 3 JSON shape, then handed to the device;
- the device's answer is turned into `RegistrationResponseJSON` / `AuthenticationResponseJSON`, all binary
  values as unpadded base64url, and that JSON is read back by py_webauthn's
  `parse_registration_credential_json` / `parse_authentication_credential_json` as a shape check.

Nothing here signs, hashes or encodes CBOR: that is all the device's own work.
"""

from __future__ import annotations

from typing import Any

from soft_webauthn import SoftWebauthnDevice
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_authentication_credential_json,
    parse_authentication_options_json,
    parse_registration_credential_json,
    parse_registration_options_json,
)


def b64url(data: bytes) -> str:
    """Unpadded base64url, as WebAuthn's JSON shapes carry every binary value."""
    text = bytes_to_base64url(data)
    assert "=" not in text
    return text


def unb64url(text: str) -> bytes:
    return base64url_to_bytes(text)


class SoftwareClient:
    """One software authenticator (it holds one credential) behind a browser at `origin`."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.device = SoftWebauthnDevice()

    # Registration -------------------------------------------------------------------------------------

    def create(self, options_response: dict[str, Any]) -> dict[str, Any]:
        """`navigator.credentials.create()` for the server's options response; returns RegistrationResponseJSON."""
        public_key = options_response["publicKey"]
        parsed = parse_registration_options_json(public_key)
        device_options = {
            "publicKey": {
                "rp": {"id": parsed.rp.id, "name": parsed.rp.name},
                "user": {"id": parsed.user.id, "name": parsed.user.name, "displayName": parsed.user.display_name},
                "challenge": parsed.challenge,
                "pubKeyCredParams": [
                    {"alg": param.alg.value, "type": param.type} for param in parsed.pub_key_cred_params
                ],
                "attestation": parsed.attestation.value,
            }
        }
        credential = self.device.create(device_options, self.origin)
        response = credential["response"]
        registration = {
            "id": b64url(credential["rawId"]),
            "rawId": b64url(credential["rawId"]),
            "type": credential["type"],
            "response": {
                "clientDataJSON": b64url(response["clientDataJSON"]),
                "attestationObject": b64url(response["attestationObject"]),
            },
            "clientExtensionResults": {},
        }
        parse_registration_credential_json(registration)  # the shape a third party expects
        return registration

    # Authentication -----------------------------------------------------------------------------------

    def get(self, options_response: dict[str, Any]) -> dict[str, Any]:
        """`navigator.credentials.get()` for the server's options response; returns AuthenticationResponseJSON."""
        public_key = options_response["publicKey"]
        parsed = parse_authentication_options_json(public_key)
        allowed = [descriptor.id for descriptor in parsed.allow_credentials or []]
        if allowed and self.device.credential_id not in allowed:
            raise LookupError("the server allows none of this authenticator's credentials")
        device_options = {"publicKey": {"rpId": parsed.rp_id, "challenge": parsed.challenge}}
        credential = self.device.get(device_options, self.origin)
        response = credential["response"]
        assertion = {
            "id": b64url(credential["rawId"]),
            "rawId": b64url(credential["rawId"]),
            "type": credential["type"],
            "response": {
                "clientDataJSON": b64url(response["clientDataJSON"]),
                "authenticatorData": b64url(response["authenticatorData"]),
                "signature": b64url(response["signature"]),
                "userHandle": b64url(response["userHandle"]),
            },
            "clientExtensionResults": {},
        }
        parse_authentication_credential_json(assertion)
        return assertion
